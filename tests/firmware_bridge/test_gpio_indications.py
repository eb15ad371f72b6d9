"""FIDE 12.6 as `indications(state, mode)`: what the players' LEDs and buzzer may show."""

from __future__ import annotations

import pytest

from firmware_bridge.gpio.indications import (
    FLAG_BEEP,
    GAME_END_BEEP,
    ILLEGAL_BEEP,
    PENDING_ILLEGAL_BEEP,
    VIOLATION_BEEP,
    Indications,
    LedShow,
    PanelMode,
    PanelState,
    indications,
)
from rules.rulings import Ruling

DEFAULT = PanelMode()
STRICT = PanelMode(strict=True)
FEEDBACK = PanelMode(feedback=True)
GUIDING = [STRICT, FEEDBACK]


def clock(t: float, running: str | None, paused: bool = False) -> Ruling:
    return Ruling(
        t, "clock", data={"white": 1.0, "black": 1.0, "running": running, "paused": paused}
    )


def obligation(t: float, side: str, kind: str = "move_piece") -> Ruling:
    return Ruling(t, "obligation", side=side, article="4.3.1", data={"kind": kind, "square": "g1"})


def violation(t: float, side: str) -> Ruling:
    return Ruling(t, "violation", side=side, data={"kind": "touch_move", "square": "g1"})


def illegal(t: float, side: str, completed: bool) -> Ruling:
    return Ruling(t, "illegal", side=side, data={"completed": completed, "count": 1})


WHITE_TO_MOVE = PanelState().after([clock(0.0, "white")])


def test_leds_show_whose_clock_runs() -> None:
    for mode in (DEFAULT, STRICT, FEEDBACK):
        assert indications(WHITE_TO_MOVE, mode) == Indications(white=LedShow.ON, black=LedShow.OFF)
        state = WHITE_TO_MOVE.after([clock(3.0, "black")])
        assert indications(state, mode) == Indications(white=LedShow.OFF, black=LedShow.ON)


def test_paused_clock_lights_no_led() -> None:
    state = WHITE_TO_MOVE.after([clock(3.0, "white", paused=True)])
    assert indications(state) == Indications()


@pytest.mark.parametrize("mode", [DEFAULT, STRICT, FEEDBACK])
def test_flag_fall_blinks_and_beeps_once_in_every_mode(mode: PanelMode) -> None:
    state = WHITE_TO_MOVE.after(
        [
            Ruling(9.0, "flag", side="white", data={"at": 9.0}),
            Ruling(9.0, "game_over", data={"result": "0-1", "reason": "time"}),
            clock(9.0, None),
        ]
    )
    shown = indications(state, mode)
    assert shown.white is LedShow.BLINK and shown.black is LedShow.OFF
    assert shown.beeps == (FLAG_BEEP,)  # the flag's beep also says the game is over
    # the next step has no news: the LED keeps blinking, the buzzer says nothing more
    later = indications(state.after([]), mode)
    assert later.white is LedShow.BLINK and later.beeps == ()


@pytest.mark.parametrize("mode", [DEFAULT, STRICT, FEEDBACK])
def test_completed_illegal_move_beeps_in_every_mode(mode: PanelMode) -> None:
    state = WHITE_TO_MOVE.after(
        [
            illegal(5.0, "white", completed=True),
            Ruling(5.0, "penalty", side="white", data={"kind": "time_added", "seconds": 120}),
            Ruling(5.0, "reinstate", data={"fen": "...", "ply": 0, "reason": "illegal_move"}),
            clock(5.0, "white"),
        ]
    )
    assert indications(state, mode).beeps == (ILLEGAL_BEEP,)


@pytest.mark.parametrize("mode", [DEFAULT, STRICT, FEEDBACK])
def test_game_end_beeps_in_every_mode(mode: PanelMode) -> None:
    state = WHITE_TO_MOVE.after(
        [
            Ruling(7.0, "move", side="white", data={"uci": "d8h4"}),
            Ruling(7.0, "game_over", data={"result": "1-0", "reason": "checkmate"}),
            clock(7.0, None),
        ]
    )
    shown = indications(state, mode)
    assert shown.beeps == (GAME_END_BEEP,)
    assert shown.white is LedShow.OFF and shown.black is LedShow.OFF


def test_second_illegal_move_beeps_illegal_then_game_end() -> None:
    state = WHITE_TO_MOVE.after(
        [
            illegal(5.0, "white", completed=True),
            Ruling(5.0, "game_over", data={"result": "0-1", "reason": "illegal_moves"}),
        ]
    )
    assert indications(state).beeps == (ILLEGAL_BEEP, GAME_END_BEEP)


def test_default_mode_says_nothing_of_moves_duties_and_violations() -> None:
    # 12.6: nothing may tell a player that the opponent moved or that they must act
    steps = [
        [obligation(1.0, "white")],  # white touched g1: must move it (4.3.1)
        [illegal(2.0, "white", completed=False)],  # released where no legal move takes it
        [violation(3.7, "white"), Ruling(3.7, "move", side="white", data={"uci": "e2e4"})],
        [Ruling(3.7, "mismatch", data={"missing": [], "extra": []})],
        [Ruling(4.0, "claim", side="black", data={"kind": "touch_move", "valid": False})],
        [Ruling(4.0, "draw_offer", side="black")],
    ]
    state = WHITE_TO_MOVE
    for step in steps:
        state = state.after(step)
        shown = indications(state, DEFAULT)
        assert shown.beeps == (), step
        assert shown == Indications(white=LedShow.ON, black=LedShow.OFF), step


@pytest.mark.parametrize("mode", GUIDING)
def test_strict_or_feedback_shows_the_duty_and_beeps_a_violation(mode: PanelMode) -> None:
    state = WHITE_TO_MOVE.after([obligation(1.0, "white")])
    shown = indications(state, mode)
    assert shown.white is LedShow.PULSE and shown.beeps == ()
    state = state.after([illegal(2.0, "white", completed=False)])
    assert indications(state, mode).beeps == (PENDING_ILLEGAL_BEEP,)
    assert indications(state, mode).white is LedShow.PULSE  # the duty holds
    state = state.after([violation(3.0, "white")])
    assert indications(state, mode).beeps == (VIOLATION_BEEP,)
    # the player's move ends the duty: the LED is back to showing the clock
    state = state.after([Ruling(4.0, "move", side="white", data={}), clock(4.0, "black")])
    assert indications(state, mode) == Indications(white=LedShow.OFF, black=LedShow.ON)


def test_a_duty_that_lapses_stops_the_pulse() -> None:
    state = WHITE_TO_MOVE.after([obligation(1.0, "white")])
    state = state.after([obligation(2.0, "white", kind="none")])
    assert indications(state, STRICT).white is LedShow.ON


def test_the_mover_is_read_from_the_fen_when_a_move_has_no_side() -> None:
    state = WHITE_TO_MOVE.after([obligation(1.0, "white"), obligation(1.0, "black")])
    fen_after_white = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    state = state.after([Ruling(2.0, "move", data={"uci": "e2e4", "fen": fen_after_white})])
    assert state.duties == frozenset({"black"})


def test_news_is_only_the_latest_step() -> None:
    state = WHITE_TO_MOVE.after([illegal(5.0, "white", completed=True)])
    assert indications(state).beeps == (ILLEGAL_BEEP,)
    assert indications(state.after([clock(6.0, "black")])).beeps == ()


@pytest.mark.parametrize("mode", [DEFAULT, STRICT])
def test_an_illegal_move_released_and_completed_at_one_press_beeps_once(mode: PanelMode) -> None:
    # the rules rule both at the press: not completed (the release), then completed
    state = WHITE_TO_MOVE.after(
        [illegal(1.4, "white", completed=False), illegal(1.4, "white", completed=True)]
    )
    assert indications(state, mode).beeps == (ILLEGAL_BEEP,)


def test_the_same_pattern_sounds_once_a_step() -> None:
    state = WHITE_TO_MOVE.after([violation(1.4, "white"), violation(1.4, "white")])
    assert indications(state, STRICT).beeps == (VIOLATION_BEEP,)
