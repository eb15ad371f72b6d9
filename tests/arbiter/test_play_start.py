"""The start of a live game (issue 12 item 7, trial row 19), on a virtual DGT board.

With `--clock-start black-press` the clocks stand until Black presses, and Black's press is
refused, saying what is wrong and where, while the pieces do not stand in the start position.
With `--clock-start white-move` they stand until White has made the first move and presses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.clock import FakeClock
from arbiter.errors import ConfigError
from arbiter.live.config import Settings, merge
from arbiter.live.session import Session
from rules.events import Lift, Place, Press, Start
from rules.rulings import ArbiterDid, ClockState, Illegal, MoveStands
from tests.arbiter.live_harness import play_typed

OPTIONS = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "black-press"]


def test_the_clocks_wait_for_blacks_press_on_a_board_set_up_right(tmp_path: Path) -> None:
    lines = ["lift h1", "press", "place h1", "press", "e2e4", "e7e5", "quit"]
    played = play_typed(tmp_path, OPTIONS, lines)
    assert "set up the pieces in the start position" in played.screen
    assert "The board differs from the game: put the white rook on h1." in played.screen
    assert "Black pressed: White's clock runs" in played.screen
    moves = [r for r in played.rulings if isinstance(r, MoveStands)]
    assert [m.san for m in moves] == ["e4", "e5"]
    assert not any(isinstance(r, Illegal) for r in played.rulings)
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert clocks[0].paused and clocks[0].t == 0.0
    started = next(c for c in clocks if not c.paused)
    # White's time counts from Black's press, not from the program's start
    after_e4 = next(c for c in clocks if c.t >= moves[0].t and c.running == "black")
    spent = 300.0 + 3.0 - after_e4.white
    assert 0 < spent <= after_e4.t - started.t + 1e-6
    assert started.t > 1.0  # not at the refused press (0.45) but once the rook was back


def test_by_default_the_clocks_wait_for_blacks_press(tmp_path: Path) -> None:
    """Issue 12 item 7, trial row 19: as on a DGT 3000, a new game's clocks start when Black
    presses; `--clock-start now` runs White's clock from the start."""
    played = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "5+3"], ["press", "quit"])
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert clocks[0].paused and clocks[0].t == 0.0
    assert [r.action for r in played.rulings if isinstance(r, ArbiterDid)] == [
        "hold_start", "start_clocks",
    ]  # fmt: skip
    assert clocks[-1].running == "white" and not clocks[-1].paused
    now = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "now"]
    played = play_typed(tmp_path, now, ["e2e4", "quit"], name="now")
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert not clocks[0].paused


def test_a_bad_clock_start_is_refused() -> None:
    with pytest.raises(ConfigError, match="the clocks start 'now', at Black's press"):
        merge(Settings(), {"clock_start": "whenever"})


def test_the_clocks_start_when_whites_first_move_is_made(tmp_path: Path) -> None:
    options = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "white-move"]
    played = play_typed(tmp_path, options, ["press", "e2e4", "e7e5", "g1f3", "quit"])
    assert "the clocks start when White has made the first move and presses" in played.screen
    moves = [r for r in played.rulings if isinstance(r, MoveStands)]
    assert [m.san for m in moves] == ["e4", "e5", "Nf3"]
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert clocks[0].paused and clocks[0].t == 0.0
    started = next(c for c in clocks if not c.paused)
    assert started.t > moves[0].made_at  # not before the move was made
    after_e4 = next(c for c in clocks if c.t >= moves[0].t and c.running == "black")
    assert after_e4.white == 300.0 + 3.0  # White's first move cost no time; its increment
    after_e5 = next(c for c in clocks if c.t >= moves[1].t and c.running == "white")
    spent = 300.0 + 3.0 - after_e5.black
    assert 0 < spent <= after_e5.t - after_e4.t + 1e-6  # Black's clock ran from White's press
    assert "The clocks were started (Art. 6.5)." in played.pgn
    assert played.pgn.index("The clocks were started") > played.pgn.index("1. e4")
    # the screen says the same as the PGN, through the one formatter (trial row 19: it said
    # "The arbiter stopped the clocks (Art. 6.11.1)" for the start's wait)
    assert "The clocks were started (Art. 6.5)." in played.screen
    assert "stopped the clocks" not in played.screen and "stopped the clocks" not in played.pgn
    actions = [r.action for r in played.rulings if isinstance(r, ArbiterDid)]
    assert actions == ["hold_start", "start_clocks"]


def test_white_move_on_a_board_without_a_clock_starts_blacks_clock_at_whites_move(
    tmp_path: Path,
) -> None:
    """`auto_press` (a completed move is its press): nobody presses; White's first move,
    once it stands, starts Black's clock and costs White nothing (issue 12 item 7)."""
    options = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "white-move",
               "--set", "auto_press=true"]  # fmt: skip
    # the hand's next movement lets the placement before it stand (slide_s); nobody presses
    steps = ["lift e2", "place e4", "lift e7", "place e5", "lift g1", "quit"]
    played = play_typed(tmp_path, options, steps)
    assert "the clocks start when White's first move is made" in played.screen
    moves = [r for r in played.rulings if isinstance(r, MoveStands)]
    assert [m.san for m in moves] == ["e4", "e5"]
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert clocks[0].paused and clocks[0].t == 0.0
    started = next(c for c in clocks if not c.paused and c.running == "black")
    assert started.t >= moves[0].t  # Black's clock runs from White's first move, not before
    assert started.white == 300.0 + 3.0  # White's first move cost no time; its increment
    # an auto-pressed move's clock is ruled at the moment it was made, before the move's ruling
    after_e5 = next(c for c in clocks if c.t >= moves[1].made_at - 1e-6 and c.running == "white")
    spent = 300.0 + 3.0 - after_e5.black
    assert 0 < spent <= moves[1].made_at - started.t + 1e-6  # Black's from White's move
    assert "The clocks were started (Art. 6.5)." in played.pgn
    assert not any(isinstance(r, Illegal) for r in played.rulings)


def test_whites_move_before_blacks_press_starts_blacks_clock_not_whites(tmp_path: Path) -> None:
    """Trial row 19 re-run: a newcomer types `e2e4` first. White's move is made while the
    clocks wait; the press that completes it starts the clocks, and the clock that runs is
    Black's, who has the move (before: White's ran while Black thought, and every later press
    was a half-move out of step: 'press recorded: nothing to rule')."""
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "e7e5", "g1f3", "quit"])
    moves = [r for r in played.rulings if isinstance(r, MoveStands)]
    assert [m.san for m in moves] == ["e4", "e5", "Nf3"]
    clocks = [r for r in played.rulings if isinstance(r, ClockState)]
    assert clocks[0].paused and clocks[0].t == 0.0
    started = next(c for c in clocks if not c.paused)
    assert started.t > moves[0].made_at and started.white == 300.0  # restarted at the press
    started = next(c for c in clocks if not c.paused and c.running == "black")
    assert started.t == clocks[clocks.index(started) - 1].t  # at that same press
    assert started.white == 300.0 + 3.0  # White's first move cost no time; its increment
    after_e5 = next(c for c in clocks if c.t >= moves[1].t and c.running == "white")
    spent = 300.0 + 3.0 - after_e5.black
    assert 0 < spent <= after_e5.t - started.t + 1e-6  # Black's clock ran from the start
    after_nf3 = next(c for c in clocks if c.t >= moves[2].t and c.running == "black")
    assert 0 < 300.0 + 6.0 - after_nf3.white <= after_nf3.t - after_e5.t + 1e-6
    assert "nothing to rule" not in played.screen
    assert not any(isinstance(r, Illegal) for r in played.rulings)


def test_blacks_own_press_after_whites_early_move_runs_blacks_clock() -> None:
    """The same with a clock that says who pressed (a GPIO or DGT clock): Black presses to
    start after White has already moved; Black, who has the move, is the one whose clock
    runs, and Black's next press (after a move) is a normal press."""
    session = Session.new(Start(t=0.0, time_control="300+3"), None, FakeClock(), sources=[])
    session.wait_for_start("black_press")
    for event in (Lift(t=1.0, square="e2", piece="P"), Place(t=1.4, square="e4", piece="P")):
        session.submit(event)
    session.advance(2.5)  # the placed pawn has stood: White's move is made (4.7)
    session.take(Press(t=3.0, side="black"))
    assert [m.san for m in session.rulings if isinstance(m, MoveStands)] == ["e4"]
    assert session.game.clock.reading(3.0)[2] == "black"
    for event in (Lift(t=5.0, square="e7", piece="p"), Place(t=5.4, square="e5", piece="p"),
                  Press(t=6.0, side="black")):  # fmt: skip
        session.take(event)
    white, black, running = session.game.clock.reading(6.0)[:3]
    assert running == "white"
    assert white == 303.0 and black == 300.0  # Black: 3 s thought, 3 s increment
    assert not any(isinstance(r, Illegal) for r in session.rulings)
