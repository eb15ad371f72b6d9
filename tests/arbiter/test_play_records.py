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


def test_a_second_game_moves_the_first_games_pgn_aside(tmp_path: Path) -> None:
    first = play(tmp_path, "e2e4\nresign\n", "--pgn", "g.pgn", "--journal", "j.jsonl")
    assert first.returncode == 0, first.stderr
    second = play(tmp_path, "d2d4\nresign\n", "--pgn", "g.pgn", "--journal", "j.jsonl")
    assert second.returncode == 0, second.stderr
    assert "the earlier game's PGN g.pgn is now g.1.pgn" in second.stderr
    assert "1. e4" in (tmp_path / "g.1.pgn").read_text()
    assert "1. d4" in (tmp_path / "g.pgn").read_text()
    assert (tmp_path / "j.1.jsonl").exists()  # the journal, as before


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
