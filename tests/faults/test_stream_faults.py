"""Kill-and-resume of a scripted game, torn journal lines, a journal named twice (issue 17
items 4 and 10: D5, D6).

`arbiter play --events STREAM` plays a real 31-ply game (a board's lifts and places, moves
counting as presses, a 5-minute clock) in real time. It is SIGKILLed at seeded random moments
and restarted, alternately with `arbiter resume JOURNAL` and `arbiter play --journal`; some
kills leave the journal's last line torn, as a crash during the write does. Before one
restart the journal is also named as the PGN. A scripted stream keeps its own times, so the
record must be the uninterrupted one to the last clock reading: the final PGN, and the PGN
`arbiter pgn` makes of the journal afterwards, must equal the PGN of the stream itself.
"""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import pytest

from rules.events import Restart
from tests.faults.harness import (
    ARBITER,
    ROOT,
    arbiter,
    finish,
    journal_events,
    kill,
    pgn_of,
    tear_last_line,
    wait_for,
    without_date,
)

pytestmark = [pytest.mark.faults, pytest.mark.realtime]

SEED = 1017
KILLS = 6


def restarts(journal: Path) -> int:
    """The restarts journaled so far; -1 before the journal's `start`."""
    events = journal_events(journal)
    return sum(isinstance(e, Restart) for e in events) if events else -1


def test_kills_and_torn_lines_give_the_uninterrupted_pgn(stream: Path, tmp_path: Path) -> None:
    rng = random.Random(SEED)
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    common = ["--pgn", str(pgn), "--no-keyboard", "--display", "plain"]
    process = arbiter(["play", "--events", str(stream), "--journal", str(journal), *common])
    story: list[str] = []
    tears = 0
    for n in range(KILLS):
        # the program is up: its start, or the restart it journals, is in the journal
        wait_for("the program to go on", lambda n=n: restarts(journal) >= n, process)
        time.sleep(rng.uniform(0.6, 2.2))
        assert process.poll() is None, f"the game ended before kill {n + 1}: {story}"
        kill(process)
        line = f"kill {n + 1} after {len(journal_events(journal))} events"
        if n % 3 == 1:
            line += f", last line torn ({tear_last_line(journal, rng)} bytes cut)"
            tears += 1
        story.append(line)
        if n == 2:
            # D5: the journal named as the PGN is refused before anything is opened
            before = journal.read_bytes()
            clash = arbiter(["resume", str(journal), "--pgn", str(journal), "--no-keyboard"])
            status, _, err = finish(clash, timeout=20)
            assert status == 2 and "name the same file" in err, (status, err)
            assert journal.read_bytes() == before
        if n % 2 == 0:
            process = arbiter(["resume", str(journal), *common])
        else:
            process = arbiter(
                ["play", "--journal", str(journal), "--events", str(stream), *common]
            )
    status, out, err = finish(process, timeout=60)
    assert status == 0, f"{story}\n{out[-2000:]}{err}"
    assert "game over: 1-0 (checkmate)" in out, out[-2000:]
    assert "Traceback" not in err
    expected = without_date(pgn_of(stream))
    assert without_date(pgn.read_text(encoding="utf-8")) == expected, story
    # D6: the journal, torn lines and all, still gives the whole record
    assert without_date(pgn_of(journal)) == expected, story
    replayed = subprocess.run(
        [*ARBITER, "replay", str(journal)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert replayed.returncode == 0 and not replayed.stderr, replayed.stderr
    assert len(list(tmp_path.glob("game.jsonl.torn-*"))) == tears, story
