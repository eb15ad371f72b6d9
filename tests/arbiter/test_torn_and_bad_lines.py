"""D6, D7, D3, D10, D13: torn journals repaired; every reader names file, line and fault."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_inprocess import run_cli

from arbiter.errors import JournalError
from arbiter.records.journal import JournalWriter, read_journal, repair_torn_tail
from arbiter.records.stream import MAX_LINE_BYTES, read_events
from rules.errors import EventError
from rules.events import Lift, Place, Start

GAME = [
    Start(t=0, time_control="60"),
    Lift(t=1, square="e2"),
    Place(t=2, square="e4"),
    Lift(t=3, square="e7"),
    Place(t=4, square="e5"),
]
TEXT = "".join(e.to_json() + "\n" for e in GAME)


def arbiter(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    if args[0] in ("pgn", "replay", "decode"):  # readers: in this process (cli_inprocess.py)
        return run_cli(*args, cwd=cwd)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *args],
        capture_output=True, text=True, timeout=60, env=env, cwd=cwd,
    )  # fmt: skip


def torn_journal(tmp_path: Path) -> Path:
    path = tmp_path / "g.jsonl"
    path.write_text(TEXT + '{"t": 5, "type": "li', encoding="utf-8")
    return path


def test_repair_moves_the_torn_tail_aside(tmp_path: Path) -> None:
    path = torn_journal(tmp_path)
    moved = repair_torn_tail(path)
    assert moved == tmp_path / "g.jsonl.torn-1"
    assert moved.read_text() == '{"t": 5, "type": "li'
    assert path.read_text() == TEXT
    assert repair_torn_tail(path) is None  # whole now: nothing to do
    path.write_text(TEXT + "\x00\x00\x00")  # a power cut's zero-filled tail
    assert repair_torn_tail(path) == tmp_path / "g.jsonl.torn-2"
    assert path.read_text() == TEXT


def test_a_whole_last_line_without_newline_is_not_torn(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(TEXT.rstrip("\n"))
    assert repair_torn_tail(path) is None and path.read_text() == TEXT.rstrip("\n")


def test_pgn_and_replay_of_a_torn_last_line_warn_and_give_the_record(tmp_path: Path) -> None:
    path = torn_journal(tmp_path)
    pgn = arbiter("pgn", str(path))
    assert pgn.returncode == 0, pgn.stderr
    assert "warning" in pgn.stderr and "line 6" in pgn.stderr
    assert "1. e4 e5" in pgn.stdout and "stops here" not in pgn.stdout
    replay = arbiter("replay", "--json", str(path))
    assert replay.returncode == 0 and replay.stdout.count('"type": "move"') == 2
    assert "line 6" in replay.stderr


def test_a_torn_line_in_the_middle_is_still_an_error(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = TEXT.splitlines()
    path.write_text("\n".join([*lines[:3], '{"t": 2.5, "ty', *lines[3:]]) + "\n")
    result = arbiter("replay", str(path))
    assert result.returncode == 2 and "line 4: not valid JSON" in result.stderr


def test_resume_repairs_then_pgn_reads_it_to_the_end(tmp_path: Path) -> None:
    path = torn_journal(tmp_path)
    # no input to play it on: resume stops after the repair, saying which inputs it needs
    result = arbiter("resume", str(path), "--events", "/nonexistent.jsonl", "--no-keyboard")
    assert "kept in" in result.stderr and "torn-1" in result.stderr
    assert (tmp_path / "g.jsonl.torn-1").exists()
    assert path.read_text() == TEXT
    assert arbiter("pgn", str(path)).returncode == 0


def test_a_journal_of_only_a_torn_start_begins_a_new_game(tmp_path: Path) -> None:
    journal = tmp_path / "current.jsonl"
    journal.write_text('{"t": 0.0, "type": "start", "time_con')
    events = tmp_path / "game.jsonl"
    events.write_text(Start(t=0, time_control="1").to_json() + "\n")  # White's flag ends it
    result = arbiter(
        "play", "--journal", str(journal), "--events", str(events),
        "--no-keyboard", "--display", "plain",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "torn-1" in result.stderr
    assert (tmp_path / "current.jsonl.torn-1").read_text().startswith('{"t": 0.0, "type": "st')
    got, _ = read_journal(journal)
    assert isinstance(got[0], Start) and got[0].time_control == "1"


@pytest.mark.parametrize("command", ["resume", "play"])
def test_a_file_that_is_no_journal_is_named_and_left_as_it_is(tmp_path: Path, command: str) -> None:
    """Probe D13: a text given as the journal by mistake is not cut as if a crash had torn
    its last line, and the refusal says that it is no journal (before: its last line moved
    to a `.torn-1`, then "it holds no event")."""
    path = tmp_path / "notes.jsonl"
    text = "hello\nworld\nthis is not a journal\n"
    path.write_text(text)
    journal = [str(path)] if command == "resume" else ["--journal", str(path)]
    result = arbiter(command, *journal, "--events", "/nonexistent.jsonl", "--no-keyboard")
    assert result.returncode == 2, result.stderr
    assert "does not begin with a 'start' event" in result.stderr
    assert path.read_text() == text and not list(tmp_path.glob("*.torn-*"))
    with pytest.raises(JournalError, match="does not begin with a 'start' event"):
        read_journal(path)


BIG = "1" + "0" * 400
DEEP = "[" * 100_000


@pytest.mark.parametrize(
    ("bad", "fault"),
    [
        (f'{{"t": {BIG}, "type": "tick"}}', "'t' must be a finite number"),
        (f'{{"t": {"9" * 5000}, "type": "tick"}}', "line 3"),
        ('{"t": NaN, "type": "tick"}', "'t' must be a finite number"),
        ('{"t": Infinity, "type": "tick"}', "'t' must be a finite number"),
        (DEEP, "nested too deeply"),
        ('{"t": 3, "type": "lift", "square": "\xe9\x00"}', "line 3"),
    ],
)
def test_bad_values_name_line_and_fault_and_keep_what_came_before(bad: str, fault: str) -> None:
    text = "".join(e.to_json() + "\n" for e in GAME[:3]).encode() + bad.encode() + b"\n"
    got: list[object] = []
    with pytest.raises(EventError) as info:
        got.extend(read_events(io.BytesIO(text), "f.jsonl"))
    assert "f.jsonl: line 4" in str(info.value) or fault == "line 3"
    assert fault in str(info.value) or "line 4" in str(info.value)
    assert got == GAME[:3]


def test_non_utf8_names_the_line_and_keeps_every_line_before(tmp_path: Path) -> None:
    body = ("".join(e.to_json() + "\n" for e in GAME) * 1).encode()
    lines = [Start(t=0).to_json()] + [Lift(t=1, square="e2").to_json()] * 300
    data = ("\n".join(lines) + "\n").encode() + b'{"t": 2, "type": "l\xe9ft"}\n' + body[:0]
    got: list[object] = []
    with pytest.raises(EventError, match=r"f: line 302: not UTF-8 text .* byte 20 of the line"):
        got.extend(read_events(io.BytesIO(data), "f"))
    assert len(got) == 301


def test_a_bom_is_skipped_and_a_huge_line_refused() -> None:
    got = list(read_events(io.BytesIO(b"\xef\xbb\xbf" + TEXT.encode()), "f"))
    assert got == GAME
    huge = TEXT.encode() + b'{"t": 9, "type": "tick", "x": "' + b"a" * MAX_LINE_BYTES + b'"}\n'
    with pytest.raises(EventError, match="line 6: longer than"):
        list(read_events(io.BytesIO(huge), "f"))


@pytest.mark.parametrize("bad", [f'{{"t": {BIG}, "type": "tick"}}', DEEP])
def test_commands_answer_with_our_error_not_a_traceback(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(TEXT + bad + "\n" + GAME[-1].to_json().replace('"t": 4', '"t": 6') + "\n")
    for command in ("replay", "pgn"):
        result = arbiter(command, str(path))
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert f"{path}: line 6" in result.stderr
    with pytest.raises(JournalError, match="line 6"):
        read_journal(path)
    result = arbiter("resume", str(path), "--no-keyboard")
    assert result.returncode == 2 and "line 6" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_new_journal_respects_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        with JournalWriter(tmp_path / "sub" / "j.jsonl") as journal:
            journal.append(GAME[0])
    finally:
        os.umask(old)
    assert (tmp_path / "sub" / "j.jsonl").stat().st_mode & 0o777 == 0o600


def test_set_and_decode_answer_huge_and_deep_values_with_our_error(tmp_path: Path) -> None:
    from arbiter.errors import ConfigError
    from arbiter.live.config import parse_set

    with pytest.raises(ConfigError, match="too large"):
        parse_set(f"noise_s={BIG}")
    for name, line in [("deep", f'{{"t": 0, "rx": {DEEP}}}'), ("big", f'{{"t": {BIG}}}')]:
        path = tmp_path / f"{name}.jsonl"
        path.write_text(line + "\n")
        result = arbiter("decode", "--protocol", "dgt", str(path))
        assert result.returncode == 2 and "line 1" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("lines", "where", "fault"),
    [
        (['{"t": 1, "type": "lift", "square": "e2"}'], "line 1", "must begin with a 'start'"),
        (
            ['{"t": 0, "type": "start", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}'],
            "line 1",
            "not a legal chess position",
        ),
        ([TEXT, '{"t": 5, "type": "start"}'], "line 6", "a second 'start'"),
        (
            [TEXT, '{"t": 5, "type": "arbiter", "action": "set_position", "fen": "garbage"}'],
            "line 6",
            "cannot be read",
        ),
    ],
)
def test_faults_the_rules_find_name_the_file_and_line(
    tmp_path: Path, lines: list[str], where: str, fault: str
) -> None:
    """Issue 17 D13: errors found by the rules rather than the reader (no `start`, a start
    FEN that is no position, a second `start`, an unreadable `set_position`) name the file
    and the line as the reader's own do; `pgn` keeps the record of the lines before it."""
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines))
    for command in ("replay", "pgn"):
        result = arbiter(command, str(path))
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert f"{path}: {where}: " in result.stderr and fault in result.stderr, result.stderr
    if lines[0] == TEXT:  # the record before the fault: 1. e4 e5, then where it stops
        pgn = arbiter("pgn", str(path)).stdout
        assert "1. e4" in pgn and "e5" in pgn and "the record stops here" in pgn
        replay = arbiter("replay", "--json", str(path)).stdout
        # e4 stood; e5 would be released by a later event's time (slide_s), not by the fault
        assert replay.count('"type": "move"') >= 1


def test_an_empty_stream_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_text("\n\n")
    for command in ("replay", "pgn"):
        result = arbiter(command, str(path))
        assert result.returncode == 2 and f"{path}: the stream is empty" in result.stderr


def test_a_journal_whose_start_has_a_bad_field_is_named_by_line_and_fault(tmp_path: Path) -> None:
    """The check that a file begins as a journal leaves a `start` line with a bad field to the
    reader, which names the line and the fault (not "does not begin with a 'start' event")."""
    path = tmp_path / "g.jsonl"
    path.write_text('{"t": 0, "type": "start", "max_plies": 0}\n{"t": 1, "type": "tick"}\n')
    result = arbiter("resume", str(path), "--no-keyboard")
    assert result.returncode == 2
    assert "line 1: 'max_plies' must be between 1 and 8, not 0" in result.stderr
    with pytest.raises(JournalError, match="line 1"):
        read_journal(path)
