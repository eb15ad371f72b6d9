"""Streams that random games (`bench/rulings_digest.py --fuzz`) once crashed the core with.

Each is a physical situation a real game can reach: the rules must rule on it, not raise.
"""

from __future__ import annotations

from event_script import Script, moves, of

from rules.events import parse_line
from rules.replay import replay


def test_a_press_on_a_stopped_clock_counts_no_move_to_take_back() -> None:
    """6.2.1, 7.5.4: a move completed while the arbiter had paused the clocks stops nothing;
    when the arbiter then rules it a two-handed move, no press is taken back from the clock."""
    script = (
        Script(time_control="300+2").arbiter("pause").play("e4").arbiter("two_hands", side="white")
    )
    rulings = script.rulings()
    assert of(rulings, "illegal", defect="two_hands", completed=True)
    assert of(rulings, "reinstate")
    assert moves(rulings) == ["e2e4"]  # made, then taken back by the reinstatement


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
