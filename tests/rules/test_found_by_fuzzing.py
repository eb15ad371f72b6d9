"""Streams that random games (`bench/rulings_digest.py --fuzz`) once crashed the core with.

Each is a physical situation a real game can reach: the rules must rule on it, not raise.
"""

from __future__ import annotations

import pytest
from event_script import Script, moves, of

from rules.events import parse_line
from rules.replay import replay


def test_two_hands_after_a_press_on_a_stopped_clock_is_a_warning() -> None:
    """6.2.1, 4.1, 7.5.4: a press while the arbiter has paused the clocks stops nothing, so
    the move is not completed; two hands on it are then warned (4.1), not a completed illegal
    move, and no press is taken back from the clock (this used to crash)."""
    script = (
        Script(time_control="300+2").arbiter("pause").play("e4").arbiter("two_hands", side="white")
    )
    rulings = script.rulings()
    assert not of(rulings, "illegal")
    assert of(rulings, "penalty", side="white", kind="warning")
    assert moves(rulings) == ["e2e4"]


def test_touches_restored_by_an_upheld_claim_have_no_time_and_are_never_simultaneous() -> None:
    """4.8: an upheld touch-move claim restores the offender's touches; a new touch then
    is compared with them (4.3.3 ordering within noise_s) without a time of its own."""
    script = (
        Script(time_control="300+2")
        .lift("g1", "N")
        .place("g1", "N")
        .play("e4")
        .claim("black", "touch_move")
        .lift("b1", "N")
    )
    rulings = script.rulings()
    assert of(rulings, "claim", valid=True)
    assert of(rulings, "obligation", side="white")


def test_a_press_by_the_player_whose_clock_is_not_running_changes_nothing() -> None:
    """6.2.1: White moved but did not press, Black moved too and pressed his own, stopped,
    clock: no illegal move is completed by that press."""
    lines = [
        '{"t": 0.0, "type": "start", "time_control": "5400+30"}',
        '{"t": 2.15, "type": "snapshot", "board": "xxxxxxxx/xxxxxxxx/8/8/4X3/8/XXXX1XXX/XXXXXXXX"}',
        '{"t": 2.75, "type": "snapshot", "board": "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX"}',
        '{"t": 2.77, "type": "snapshot", "board": "xxxxxxxx/x1xxxxxx/8/1x6/8/8/XXXXXXXX/XXXXXXXX"}',
        '{"t": 4.77, "type": "press", "side": "black"}',
    ]
    rulings = replay([parse_line(line, line=n) for n, line in enumerate(lines, start=1)])
    assert not of(rulings, "illegal", side="black", completed=True)
    assert not of(rulings, "penalty")


def test_a_move_pressed_during_a_pause_is_completed_by_the_press_after_it() -> None:
    """6.2.1, 6.11: while the arbiter has paused the clocks a press stops nothing; once
    they run again, the mover's press completes his move and starts the opponent's clock."""
    script = (
        Script(time_control="300+2").arbiter("pause").play("e4").arbiter("resume").press("white")
    )
    rulings = script.rulings()
    assert moves(rulings) == ["e2e4"]
    assert not of(rulings, "illegal")
    last = of(rulings, "clock")[-1]
    assert last.running == "black" and not last.paused
    # 1 s ran before the pause and 0.5 s after it; the press gave the increment
    assert last.white == pytest.approx(300.0 - 1.0 - 0.5 + 2.0)
