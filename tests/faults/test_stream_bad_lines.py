"""Bad lines in a live stream, with kills and resumes (issue 17 item 2, D2).

`arbiter play --events STREAM` plays the fault suite's 31-ply game from a stream holding one
line of every kind the readers refuse (a number too large for a float, NaN, JSON nested too
deeply, a line over 1 MiB, bytes that are not UTF-8, a byte order mark inside, a field of the
wrong type, a time running backwards, a second `start`). Each is said on the screen, noted in
the journal (`sensor` `bad_line`) and skipped, and the game goes on. The program is SIGKILLed
at seeded moments and restarted, alternately by `arbiter resume` and `arbiter play
--journal`: the journal must hold each note once, and the final PGN, and the PGN `arbiter
pgn` makes of the journal, must be the PGN of the stream without its bad lines.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path

import pytest

from arbiter.records.stream import MAX_LINE_BYTES
from rules.events import Restart, Sensor
from tests.faults.harness import (
    ARBITER,
    ROOT,
    arbiter,
    finish,
    journal_events,
    kill,
    pgn_of,
    wait_for,
    without_date,
)

pytestmark = [pytest.mark.faults, pytest.mark.realtime]

SEED = 1702
KILLS = 3


def bad_lines(t: float) -> list[bytes]:
    """One bad line of each kind; `t` is the time of the line before it."""
    return [
        b'{"t": 1' + b"0" * 400 + b', "type": "tick"}',
        b'{"t": NaN, "type": "tick"}',
        b'{"t": %r, "x": ' % t + b"[" * 100_000,
        b'{"t": %r, "x": "' % t + b"x" * (MAX_LINE_BYTES + 10) + b'"}',
        b'{"t": %r, "type": "tick", "x": "\xff\xfe"}' % t,
        b'\xef\xbb\xbf{"t": %r, "type": "tick"}' % t,
        b'{"t": %r, "type": "lift", "square": 44}' % t,
        b'{"t": %r, "type": "tick"}' % max(0.0, t - 0.05),
        b'{"t": %r, "type": "start"}' % t,
    ]


def with_bad_lines(stream: Path, out: Path) -> int:
    """`stream` with the bad lines spread over the game (one every fourth line); how many."""
    lines = stream.read_bytes().splitlines()
    kinds = bad_lines(0.0)
    every = max(1, (len(lines) - 4) // len(kinds))
    result: list[bytes] = []
    n = 0
    for i, line in enumerate(lines):
        result.append(line)
        if i >= 2 and (i - 2) % every == 0 and n < len(kinds):
            result.append(bad_lines(float(json.loads(line)["t"]))[n])
            n += 1
    out.write_bytes(b"\n".join(result) + b"\n")
    return n


def notes(journal: Path) -> list[Sensor]:
    return [e for e in journal_events(journal) if isinstance(e, Sensor) and e.status == "bad_line"]


def restarts(journal: Path) -> int:
    events = journal_events(journal)
    return sum(isinstance(e, Restart) for e in events) if events else -1


def test_bad_lines_are_noted_once_through_kills_and_the_game_goes_on(
    stream: Path, tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    bad = tmp_path / "bad-stream.jsonl"
    count = with_bad_lines(stream, bad)
    assert count == len(bad_lines(0.0))
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    common = ["--pgn", str(pgn), "--no-keyboard", "--display", "plain"]
    process = arbiter(["play", "--events", str(bad), "--journal", str(journal), *common])
    story: list[str] = []
    for n in range(KILLS):
        wait_for("the program to go on", lambda n=n: restarts(journal) >= n, process)
        time.sleep(rng.uniform(1.0, 3.0))
        assert process.poll() is None, f"the game ended before kill {n + 1}: {story}"
        kill(process)
        before = len(notes(journal))
        story.append(f"kill {n + 1} with {before} notes journaled")
        if n % 2 == 0:
            process = arbiter(["resume", str(journal), *common])
        else:
            process = arbiter(["play", "--journal", str(journal), "--events", str(bad), *common])
    status, out, err = finish(process, timeout=90)
    assert status == 0, f"{story}\n{out[-2000:]}{err}"
    assert "game over: 1-0 (checkmate)" in out and "Traceback" not in err, out[-2000:]
    noted = notes(journal)
    details = [n.detail or "" for n in noted]
    assert len(noted) == count and len(set(details)) == count, (story, details)
    assert all(f"{bad}: line " in d for d in details), details
    # the last run said on the screen the bad lines it met, and none the journal held
    said = [line for line in out.splitlines() if "the line is skipped; the game goes on" in line]
    assert len(said) == count - before, (story, said)
    expected = without_date(pgn_of(stream))
    assert without_date(pgn.read_text(encoding="utf-8")) == expected, story
    assert without_date(pgn_of(journal)) == expected, story
    replayed = subprocess.run(
        [*ARBITER, "replay", str(journal)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert replayed.returncode == 0 and not replayed.stderr, replayed.stderr
    # the stream itself, read by `arbiter pgn`, still stops at its first bad line
    done = subprocess.run(
        [*ARBITER, "pgn", str(bad)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "must be a finite number" in done.stderr, done.stderr
