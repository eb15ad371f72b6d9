"""Games without a clock (time control '-'): presses, 7.5.3 and time penalties.

A single key or button sends every press with one side (the trial's live game sent "white"
for all); without a clock the press belongs to the mover (6.2.1), 7.5.3 (a press of the clock
without a move) cannot happen, and no penalty adds time (7.5.5, 9.5.3) where there is no clock.
"""

from __future__ import annotations

import pytest

from tests.rules.event_script import Script, moves, of, over

UNTIMED = (None, "-")


def _play_pressing_as(s: Script, side: str, *sans: str) -> Script:
    """Play `sans`, each followed by a press that the source gives to `side`."""
    for san in sans:
        s.play(san, pressed=False)
        s.press(side)
    return s


@pytest.mark.parametrize("tc", UNTIMED)
@pytest.mark.parametrize("side", ["white", "black"])
def test_every_press_given_one_side_completes_each_move(tc: str | None, side: str) -> None:
    s = _play_pressing_as(Script(time_control=tc), side, "e4", "e5", "Nf3", "Nc6", "Bb5")
    r = s.rulings()
    assert moves(r) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    assert not of(r, "illegal") and not of(r, "penalty") and over(r) is None
    assert all(record.pressed for record in s.game.records)


@pytest.mark.parametrize("tc", UNTIMED)
def test_press_without_a_move_is_nothing_without_a_clock(tc: str | None) -> None:
    s = Script(time_control=tc).play("e4").press("white").press("black").press("white")
    s.play("e5")
    r = s.rulings()
    assert moves(r) == ["e2e4", "e7e5"]
    assert not of(r, "illegal") and not of(r, "penalty") and over(r) is None


def test_press_without_a_move_is_still_7_5_3_with_a_clock() -> None:
    r = Script(time_control="5400+30").play("e4").press("black").rulings()
    assert of(r, "illegal", side="black", defect="no_move", article="7.5.3")


def test_completed_illegal_move_without_a_clock_adds_no_time_and_second_loses() -> None:
    s = Script(time_control="-")
    s.lift("b1").place("b3", "N").press("white")  # first illegal move (7.5.1)
    s.lift("b3").place("b1", "N", dt=1.0)  # the position put back
    s.lift("g1").place("g4", "N").press("white")  # second illegal move
    r = s.rulings()
    assert len(of(r, "illegal", side="white", completed=True)) == 2
    assert not of(r, "penalty", kind="time_added")
    assert of(r, "penalty", side="white", kind="game_lost", article="7.5.5")
    assert over(r) == ("0-1", "illegal_moves")


def test_incorrect_claim_without_a_clock_gives_no_time_but_offers_a_draw() -> None:
    r = Script(time_control=None).play("e4").claim("black", "threefold").rulings()
    assert of(r, "claim", side="black", valid=False, article="9.5.3")
    assert not of(r, "penalty")
    assert of(r, "draw_offer", side="black")


def test_incorrect_claim_with_a_clock_still_adds_time() -> None:
    r = Script(time_control="5400+30").play("e4").claim("black", "threefold").rulings()
    assert of(r, "penalty", side="black", kind="time_added", article="9.5.3")
