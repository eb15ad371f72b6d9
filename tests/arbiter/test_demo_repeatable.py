"""The demo on every virtual board gives the same PGN every run (issue 12 item 5, row 17).

`arbiter demo --board SIM` is run in this process on an injected `FakeClock`: the stream's
player (`arbiter.demo.board.PlayedOnTheBoard`) sets the clock to each event's stream time once
the session has ruled on everything before it, so the board's reports, read back through the
real codec and transport, are stamped at exactly their times. Each board's demo is played
`RUNS` times; every PGN must equal the demo stream's own PGN (its events ruled on directly, no
board), byte for byte, clocks included.
"""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest

from arbiter.cli import demo
from arbiter.clock import FakeClock
from arbiter.demo import SIM_BOARDS
from arbiter.demo.game import demo_events, demo_game
from arbiter.live.session import rebuild
from arbiter.records.pgn import pgn_from_rulings

RUNS = 20
#: the board's own pace: a Certabo's records come this many times as often as in real time
SPEED = "100"


def _demo(out: Path, *options: str) -> str:
    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    args = parser.parse_args(
        ["--out", str(out), "--plain", "--no-web", "--speed", SPEED, *options]
    )
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        code = demo.run(args, clock=FakeClock())
    assert code == 0, said.getvalue()[-2000:]
    assert "1-0 (checkmate)" in said.getvalue()
    return (out / demo.PGN_NAME).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def plain_pgn() -> str:
    """The demo stream's own PGN: its events ruled on directly, no board, no session."""
    events = demo_events()
    game, rulings = rebuild(events)
    rulings += game.finish()
    date = demo_game().headers.get("Date", "????.??.??")
    return pgn_from_rulings(game.start, rulings, date=date)


@pytest.mark.parametrize("sim", SIM_BOARDS)
def test_the_demo_on_a_virtual_board_gives_the_same_pgn_every_run(
    tmp_path: Path, sim: str, plain_pgn: str
) -> None:
    assert "[%clk" in plain_pgn
    for run in range(RUNS):
        pgn = _demo(tmp_path / str(run), "--board", sim)
        assert pgn == plain_pgn, f"run {run} on {sim} differs"


@pytest.mark.realtime
@pytest.mark.parametrize("sim", ["dgt-sim", "millennium-sim", "pegasus-sim"])
def test_the_demo_in_real_time_gives_the_same_pgn(tmp_path: Path, sim: str, plain_pgn: str) -> None:
    """Trial row 17: `arbiter demo --board SIM` as a user runs it, on real time (its
    `PacedClock`), gives the stream's own PGN, clocks included: before, machine load moved
    the `[%clk]` tenths (23 distinct PGNs in 35 runs, one clock 12.8 s off at x40)."""
    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    args = parser.parse_args(
        ["--out", str(tmp_path), "--plain", "--no-web", "--speed", "40", "--board", sim]
    )
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert demo.run(args) == 0, said.getvalue()[-2000:]
    assert (tmp_path / demo.PGN_NAME).read_text(encoding="utf-8") == plain_pgn
