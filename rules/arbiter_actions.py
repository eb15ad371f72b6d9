"""The arbiter's interventions (events.md `arbiter`): clocks, positions, penalties, decisions.

Pausing and resuming the clocks (6.11), adding or setting time (6.10.2), setting up or
taking back a position (7.1), penalties and warnings (12.9), a move made with two hands (4.1
before the press, 7.5.4 once completed), an accidental touch whose duty lapses (4.2.2), the
arbiter's declaration of a result, and his own verdict on a claim (9.5, `rules.verdicts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import chess

from rules import ending, hands, illegal, verdicts
from rules.errors import EventError
from rules.events import (
    Accident,
    AddTime,
    ArbiterAction,
    ClaimVerdict,
    Declare,
    PauseClocks,
    Penalise,
    Resume,
    SetClock,
    SetPosition,
    Takeback,
    TwoHands,
    Warn,
)
from rules.i18n import N_
from rules.rulings import ArbiterDid, Illegal, Obligation, Penalty, Reason, Ruling
from rules.sides import COLOR, SIDE, other, win_for
from rules.state import GameState
from rules.touch import obligation_for
from rules.types import Side

_REASONS: frozenset[str] = frozenset(get_args(Reason))


def arbiter_action(game: GameState, ev: ArbiterAction, out: list[Ruling]) -> None:
    """An arbiter's intervention; after the game's end only a verdict on the claim that ended
    it is taken (`rules.verdicts`)."""
    if game.over and not isinstance(ev, ClaimVerdict):
        return
    handler = _ACTIONS.get(type(ev))
    if handler is not None:
        handler(game, ev, out)


def declare(game: GameState, ev: Declare, out: list[Ruling]) -> None:
    """The arbiter declares the result (12.2); a reason the contract lacks is their decision,
    and their own words for it (`declare 1-0 did not come to the board`) go with it as the
    `game_over`'s `explanation`, for the players and the record."""
    if ev.reason in _REASONS:
        reason: Any = ev.reason
        said = None
    else:
        reason = "arbiter_decision"
        said = " ".join((ev.reason or "").replace("_", " ").split()) or None
    ending.game_over(game, ev.t, ev.result, reason, None, out, said=said)


def pause(game: GameState, ev: PauseClocks, out: list[Ruling]) -> None:
    """6.11.1: both clocks stop (an `arbiter_action` ruling, then the clocks); at t = 0,
    before anything happened, they are held to be started (6.5: `hold_start`)."""
    if game.timed:
        game.pause_clock(ev.t)
        if game.clocks_held_at_start:  # before anything happened: the clocks wait (6.5)
            out.append(ArbiterDid(t=ev.t, action="hold_start", article="6.5"))
        else:
            out.append(ArbiterDid(t=ev.t, action="pause", article="6.11.1"))
        game.clock_ruling(out, ev.t)


def resume(game: GameState, ev: Resume, out: list[Ruling]) -> None:
    """6.11.1: the clocks go on after the arbiter stopped them; clocks held at the start
    are started (6.5: `start_clocks`)."""
    if game.timed:
        starts = game.clocks_held_at_start
        game.resume_clock(ev.t)
        if starts:
            out.append(ArbiterDid(t=ev.t, action="start_clocks", article="6.5"))
        else:
            out.append(ArbiterDid(t=ev.t, action="resume", article="6.11.1"))
        game.clock_ruling(out, ev.t)


def add_time(game: GameState, ev: AddTime, out: list[Ruling]) -> None:
    """6.11.3: time added to one clock."""
    if game.timed:
        seconds = float(ev.seconds)
        game.give_time(ev.side, seconds, ev.t)
        out.append(
            ArbiterDid(t=ev.t, side=ev.side, action="add_time", seconds=seconds, article="6.11.3")
        )
        game.clock_ruling(out, ev.t)


def set_clock(game: GameState, ev: SetClock, out: list[Ruling]) -> None:
    """6.10.2: the clocks set to the times the arbiter names."""
    if game.timed:
        white, black = float(ev.white), float(ev.black)
        game.set_clocks(white, black, ev.t)
        out.append(
            ArbiterDid(t=ev.t, action="set_clock", white=white, black=black, article="6.10.2")
        )
        game.clock_ruling(out, ev.t)


def set_position(game: GameState, ev: SetPosition, out: list[Ruling]) -> None:
    """7.1: the arbiter sets up a position; the record and the repetitions start again."""
    t = ev.t
    try:
        board = chess.Board(ev.fen)
    except ValueError as exc:
        raise EventError.of(
            N_("set_position: the FEN {fen!r} cannot be read ({reason})"), fen=ev.fen, reason=exc
        ) from None
    game.set_position(board)
    if game.timed and game.clock.running not in (None, SIDE[board.turn]):
        game.start_clock(SIDE[board.turn], t)
    game.reinstate(t, "arbiter", "7.1", out)


def takeback(game: GameState, ev: Takeback, out: list[Ruling]) -> None:
    """7.1: the last plies are taken back; the side to move's clock runs."""
    game.take_back(ev.plies)
    if game.timed:
        game.start_clock(SIDE[game.board.turn], ev.t)
    game.reinstate(ev.t, "arbiter", "7.1", out)


def warn(game: GameState, ev: Warn, out: list[Ruling]) -> None:
    """12.9.1: a warning."""
    out.append(Penalty(t=ev.t, side=ev.side, article="12.9.1", kind="warning"))


def two_hands_action(game: GameState, ev: TwoHands, out: list[Ruling]) -> None:
    two_hands(game, ev.side, ev.t, out)


def accident_action(game: GameState, ev: Accident, out: list[Ruling]) -> None:
    accident(game, ev.side, ev.square, ev.t, out)


def arbiter_penalty(game: GameState, ev: Penalise, out: list[Ruling]) -> None:
    """12.9: a penalty the arbiter gives (warning, time to the opponent or off, game lost)."""
    side = ev.side
    kind = ev.kind or "time_added"
    seconds = float(ev.seconds or 0)
    t = ev.t
    if kind == "game_lost":
        out.append(Penalty(t=t, side=side, article="12.9.6", kind="game_lost"))
        winner = other(side)
        ending.game_over(game, t, win_for(winner), "arbiter_decision", "12.9", out)
        return
    if kind == "warning":
        out.append(Penalty(t=t, side=side, article="12.9.1", kind="warning"))
        return
    if kind == "time_deducted":
        if game.timed:
            game.give_time(side, -seconds, t)
        out.append(Penalty(t=t, side=side, article="12.9.3", kind="time_deducted", seconds=seconds))
    else:
        if game.timed:
            game.give_time(other(side), seconds, t)
        out.append(Penalty(t=t, side=side, article="12.9.2", kind="time_added", seconds=seconds))
    game.clock_ruling(out, t)


def two_hands(game: GameState, side: Side, t: float, out: list[Ruling]) -> None:
    """4.1 before the press (a warning); 7.5.4 once the move was completed."""
    last = game.records[-1] if game.records else None
    if last is not None and last.side == side and last.pressed and game.board.turn != COLOR[side]:
        game.take_back(1)
        game.restore_touches(last.touches, obligation_for(game.board, last.touches))
        if game.timed:
            game.start_clock(side, t)
        count = game.count_illegal(side)
        out.append(
            Illegal(
                t=t,
                side=side,
                article="7.5.4",
                completed=True,
                defect="two_hands",
                count=count,
                move=last.move,
            )
        )
        if illegal.penalties(game, side, count, last.credit, t, out):
            game.reinstate(t, "illegal_move", "7.5.4", out)
        return
    if side == SIDE[game.board.turn]:
        game.used_two_hands()
    out.append(Penalty(t=t, side=side, article="4.1", kind="warning"))


def accident(game: GameState, side: Side, square: str, t: float, out: list[Ruling]) -> None:
    """4.2.2: the arbiter judged a touch accidental; its duty lapses."""
    sq = chess.parse_square(square)
    turn = game.turn
    if turn.side != side or sq not in turn.touches:
        return
    game.forgive_touch(sq)
    new = obligation_for(game.board, turn.touches)
    game.set_obligation(new)
    if new is None:
        out.append(Obligation(t=t, side=side, article="4.2.2", kind="none"))
    else:
        hands.emit_obligation(game, new, t, out)


_ACTIONS: dict[type[ArbiterAction], Callable[[GameState, Any, list[Ruling]], None]] = {
    Declare: declare,
    PauseClocks: pause,
    Resume: resume,
    AddTime: add_time,
    SetClock: set_clock,
    SetPosition: set_position,
    Takeback: takeback,
    Penalise: arbiter_penalty,
    Warn: warn,
    TwoHands: two_hands_action,
    Accident: accident_action,
    ClaimVerdict: verdicts.verdict,
}
