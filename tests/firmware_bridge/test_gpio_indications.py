"""FIDE 12.6 as `indications(state, mode)`: what the players' LEDs and buzzer may show."""

from __future__ import annotations

import chess
import pytest

from rules.rulings import (
    ClaimRuling,
    ClockState,
    DrawOffer,
    Flag,
    GameOver,
    Illegal,
    Mismatch,
    MoveStands,
    Obligation,
    ObligationKind,
    Penalty,
    Reinstate,
    Ruling,
    Violation,
)
from rules.supervision import (
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
from rules.types import Side

DEFAULT = PanelMode()
STRICT = PanelMode(strict=True)
FEEDBACK = PanelMode(feedback=True)
GUIDING = [STRICT, FEEDBACK]


def clock(t: float, running: Side | None, paused: bool = False) -> Ruling:
    return ClockState(t=t, white=1.0, black=1.0, running=running, paused=paused)


def obligation(t: float, side: Side, kind: ObligationKind = "move_piece") -> Ruling:
    return Obligation(t=t, side=side, article="4.3.1", kind=kind, square=chess.G1)


def violation(t: float, side: Side) -> Ruling:
    return Violation(t=t, side=side, kind="touch_move", square=chess.G1)


def illegal(t: float, side: Side, completed: bool) -> Ruling:
    return Illegal(t=t, side=side, completed=completed, defect="unreachable", count=1)


def move(t: float, uci: str, side: Side | None = "white", fen: str = "") -> Ruling:
    return MoveStands(
        t=t, side=side, ply=1, move=chess.Move.from_uci(uci), san="?", fen=fen, made_at=t
    )


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
            Flag(t=9.0, side="white", at=9.0),
            GameOver(t=9.0, result="0-1", reason="time"),
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
            Penalty(t=5.0, side="white", kind="time_added", seconds=120),
            Reinstate(t=5.0, fen="...", ply=0, reason="illegal_move"),
            clock(5.0, "white"),
        ]
    )
    assert indications(state, mode).beeps == (ILLEGAL_BEEP,)


@pytest.mark.parametrize("mode", [DEFAULT, STRICT, FEEDBACK])
def test_game_end_beeps_in_every_mode(mode: PanelMode) -> None:
    state = WHITE_TO_MOVE.after(
        [
            move(7.0, "d8h4"),
            GameOver(t=7.0, result="1-0", reason="checkmate"),
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
            GameOver(t=5.0, result="0-1", reason="illegal_moves"),
        ]
    )
    assert indications(state).beeps == (ILLEGAL_BEEP, GAME_END_BEEP)


def test_default_mode_says_nothing_of_moves_duties_and_violations() -> None:
    # 12.6: nothing may tell a player that the opponent moved or that they must act
    steps = [
        [obligation(1.0, "white")],  # white touched g1: must move it (4.3.1)
        [illegal(2.0, "white", completed=False)],  # released where no legal move takes it
        [violation(3.7, "white"), move(3.7, "e2e4")],
        [Mismatch(t=3.7, missing=(), extra=())],
        [ClaimRuling(t=4.0, side="black", kind="touch_move", valid=False)],
        [DrawOffer(t=4.0, side="black")],
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
    state = state.after([move(4.0, "e2e4"), clock(4.0, "black")])
    assert indications(state, mode) == Indications(white=LedShow.OFF, black=LedShow.ON)


def test_a_duty_that_lapses_stops_the_pulse() -> None:
    state = WHITE_TO_MOVE.after([obligation(1.0, "white")])
    state = state.after([obligation(2.0, "white", kind="none")])
    assert indications(state, STRICT).white is LedShow.ON


def test_the_mover_is_read_from_the_fen_when_a_move_has_no_side() -> None:
    state = WHITE_TO_MOVE.after([obligation(1.0, "white"), obligation(1.0, "black")])
    fen_after_white = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    state = state.after([move(2.0, "e2e4", None, fen_after_white)])
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
