"""Records never lost or overwritten (issue 12 item 8, trial rows 14 and 18).

The PGN is rewritten after every move (an atomic replace), a new game moves an earlier game's
PGN aside (`NAME.1.pgn`), and a journal in use is locked: a second program is refused with a
clear message. Through `arbiter play --board dgt-sim` as a user runs it, with typed moves.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.errors import SessionError
from arbiter.live.records import lock_journal, set_aside, write_atomic
from tests.arbiter.live_harness import play_typed

ROOT = Path(__file__).resolve().parents[2]


def play(tmp: Path, lines: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "play", "--board", "dgt-sim", *options],
        input=lines,
        capture_output=True,
        text=True,
        cwd=tmp,
        timeout=60,
    )


def test_the_pgn_is_written_after_every_move_not_only_at_the_end(tmp_path: Path) -> None:
    pgn = tmp_path / "live.pgn"
    played = play_typed(
        tmp_path, ["--board", "dgt-sim", "--tc", "5+3", "--pgn", str(pgn)], ["e2e4", "e7e5"]
    )
    # the harness writes no PGN of its own when --pgn is given: this is the live one
    text = pgn.read_text()
    assert "1. e4" in text and "1... e5" in text and text.rstrip().endswith("*"), played.screen
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_journal_in_use_is_refused_to_a_second_program(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    held = lock_journal(journal)
    try:
        second = play(tmp_path, "e2e4\n", "--journal", "j.jsonl")
        assert second.returncode != 0
        assert "is in use by another arbiter program" in second.stderr
        assert "Traceback" not in second.stderr
        with pytest.raises(SessionError, match="in use"):
            lock_journal(journal)
    finally:
        held.close()
    lock_journal(journal).close()  # released: free again


def test_set_aside_numbers_like_journals_and_write_atomic_replaces(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    assert set_aside(path) is None
    for n in (1, 2):
        write_atomic(path, f"game {n}")
        assert set_aside(path) == tmp_path / f"g.{n}.pgn"
    assert (tmp_path / "g.2.pgn").read_text() == "game 2"
    write_atomic(path, "old")
    write_atomic(path, "new")
    assert path.read_text() == "new"


def test_resume_keeps_the_pgn_and_headers_a_new_game_moves_them_aside(
    tmp_path: Path,
) -> None:
    record = [
        "--journal", "j.jsonl", "--pgn", "g.pgn", "--tc", "90+30", "--white", "Ann",
        "--black", "Bob", "--event", "Club championship", "--site", "Leeds", "--round", "3",
        "--board-number", "2", "--white-elo", "2100", "--black-fide-id", "4100018",
    ]  # fmt: skip
    first = play(tmp_path, "e2e4\nquit\n", *record)
    assert first.returncode == 0, first.stderr
    # the same journal again, with other options and no --pgn: the game goes on
    second = play(tmp_path, "e7e5\nresign\n", "--journal", "j.jsonl", "--tc", "5+3", "--white", "X")
    assert second.returncode == 0, second.stderr
    assert "holds a game still going on (Ann v Bob, 5400+30): it is resumed" in second.stderr
    assert "Not applied to it: --tc 300+3, --white X" in second.stderr
    pgn = (tmp_path / "g.pgn").read_text()
    assert "1... e5" in pgn and pgn.rstrip().endswith("0-1")  # White resigned, in g.pgn
    tags = {
        "Event": "Club championship", "Site": "Leeds", "Round": "3", "Board": "2",
        "White": "Ann", "Black": "Bob", "WhiteElo": "2100", "BlackFideId": "4100018",
        "TimeControl": "5400+30", "Result": "0-1",
    }  # fmt: skip
    for tag, value in tags.items():
        assert f'[{tag} "{value}"]' in pgn
    assert '[Date "????.??.??"]' not in pgn
    again = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pgn", "j.jsonl"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert again.stdout == pgn  # the journal gives the live game's record, headers and all
    # the journal alone, copied elsewhere: its `start.tags` give the headers of the options
    # the game began with (the resume's --white X was not applied to the game)
    alone = tmp_path / "copy"
    alone.mkdir()
    (alone / "j.jsonl").write_bytes((tmp_path / "j.jsonl").read_bytes())
    copied = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pgn", "j.jsonl"],
        capture_output=True, text=True, cwd=alone, timeout=60,
    )  # fmt: skip
    assert copied.returncode == 0, copied.stderr
    assert copied.stdout == pgn
    # a new game on the same files: the finished game's journal and PGN are moved aside
    third = play(tmp_path, "resign\n", "--journal", "j.jsonl", "--pgn", "g.pgn")
    assert third.returncode == 0, third.stderr
    assert "the earlier game's PGN g.pgn is now g.1.pgn" in third.stderr
    assert (tmp_path / "g.1.pgn").read_text() == pgn
    assert "1. e4" not in (tmp_path / "g.pgn").read_text()
    assert (tmp_path / "j.1.jsonl").exists()


def test_the_options_not_applied_to_a_resumed_game_are_said_in_its_language(
    tmp_path: Path,
) -> None:
    first = play(tmp_path, "e2e4\nquit\n", "--journal", "j.jsonl", "--white", "Ana")
    assert first.returncode == 0, first.stderr
    second = play(tmp_path, "quit\n", "--lang", "sr", "--journal", "j.jsonl", "--tc", "5+3")
    assert second.returncode == 0, second.stderr
    assert "dnevnik j.jsonl sadrži partiju koja još traje (Ana – " in second.stderr
    assert "Nije primenjeno na nju: --tc 300+3" in second.stderr
