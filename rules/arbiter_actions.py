"""The arbiter's interventions (events.md `arbiter`): clocks, positions, penalties, decisions.

Pausing and resuming the clocks (6.11), adding or setting time (6.10.2), setting up or
taking back a position (7.1), penalties and warnings (12.9), a move made with two hands (4.1
before the press, 7.5.4 once completed), an accidental touch whose duty lapses (4.2.2), and
the arbiter's declaration of a result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from rules import ending, hands, illegal
from rules.errors import EventError
from rules.events import ArbiterAction
from rules.messages import REASONS
from rules.rulings import Ruling
from rules.sides import COLOR, SIDE, other, win_for
from rules.touch import obligation_for
from rules.turn import Turn

if TYPE_CHECKING:
    from rules.game import Game

_REASONS = frozenset(REASONS)


def arbiter_action(game: Game, ev: ArbiterAction, out: list[Ruling]) -> None:
    """An arbiter's intervention; after the game's end only `declare` is taken (and ignored)."""
    a = ev.action
    t = ev.t
    if a == "declare":
        if not game.over:
            reason = ev.reason if ev.reason in _REASONS else "arbiter_decision"
            ending.game_over(game, t, ev.result or "1/2-1/2", reason, None, out)
        return
    if game.over:
        return
    if a == "pause" and game.timed:
        game.clock.pause(game.clock_time(t))
        game.clock_ruling(out, t)
    elif a == "resume" and game.timed:
        game.clock.resume(game.clock_time(t))
        game.clock_ruling(out, t)
    elif a == "add_time" and game.timed:
        game.clock.add(ev.side or "white", float(ev.seconds or 0), game.clock_time(t))
        game.clock_ruling(out, t)
    elif a == "set_clock" and game.timed:
        game.clock.set(float(ev.white or 0), float(ev.black or 0), game.clock_time(t))
        game.clock_ruling(out, t)
    elif a == "set_position":
        try:
            board = chess.Board(ev.fen)
        except ValueError as exc:
            raise EventError(f"set_position: the FEN {ev.fen!r} cannot be read ({exc})") from None
        game.board = board
        game.board_changed()
        game.records.clear()
        game.repetitions.clear()
        game.count_position()
        game.turn = Turn(SIDE[board.turn])
        if game.timed and game.clock.running not in (None, SIDE[board.turn]):
            game.clock.start(SIDE[board.turn], game.clock_time(t))
        game.reinstate(t, "arbiter", "7.1", out)
    elif a == "takeback":
        game.take_back(ev.plies or 1)
        if game.timed:
            game.clock.start(SIDE[game.board.turn], game.clock_time(t))
        game.reinstate(t, "arbiter", "7.1", out)
    elif a == "penalty":
        arbiter_penalty(game, ev, out)
    elif a == "warning":
        game.rule(
            out,
            t,
            "penalty",
            side=ev.side,
            article="12.9.1",
            key="penalty.warning",
            kind="warning",
        )
    elif a == "two_hands":
        two_hands(game, ev.side or SIDE[game.board.turn], t, out)
    elif a == "accident":
        accident(game, ev.side or SIDE[game.board.turn], ev.square or "a1", t, out)


def arbiter_penalty(game: Game, ev: ArbiterAction, out: list[Ruling]) -> None:
    """12.9: a penalty the arbiter gives (warning, time to the opponent or off, game lost)."""
    side = ev.side or "white"
    kind = ev.kind or "time_added"
    seconds = float(ev.seconds or 0)
    t = ev.t
    if kind == "game_lost":
        game.rule(
            out,
            t,
            "penalty",
            side=side,
            article="12.9.6",
            key="penalty.game_lost",
            kind="game_lost",
        )
        winner = other(side)
        ending.game_over(game, t, win_for(winner), "arbiter_decision", "12.9", out)
        return
    if kind == "warning":
        game.rule(
            out,
            t,
            "penalty",
            side=side,
            article="12.9.1",
            key="penalty.warning",
            kind="warning",
        )
        return
    if kind == "time_deducted":
        if game.timed:
            game.clock.add(side, -seconds, game.clock_time(t))
        game.rule(
            out,
            t,
            "penalty",
            side=side,
            article="12.9.3",
            key="penalty.time_deducted",
            kind="time_deducted",
            seconds=seconds,
        )
    else:
        if game.timed:
            game.clock.add(other(side), seconds, game.clock_time(t))
        game.rule(
            out,
            t,
            "penalty",
            side=side,
            article="12.9.2",
            key="penalty.time_added",
            kind="time_added",
            seconds=seconds,
        )
    game.clock_ruling(out, t)


def two_hands(game: Game, side: str, t: float, out: list[Ruling]) -> None:
    """4.1 before the press (a warning); 7.5.4 once the move was completed."""
    last = game.records[-1] if game.records else None
    if last is not None and last.side == side and last.pressed and game.board.turn != COLOR[side]:
        game.take_back(1)
        game.turn.touches = list(last.touches)
        game.turn.touched_any = True
        game.turn.obligation = obligation_for(game.board, game.turn.touches)
        if game.timed:
            game.clock.start(side, game.clock_time(t))
        game.illegal_count[side] += 1
        count = game.illegal_count[side]
        game.rule(
            out,
            t,
            "illegal",
            side=side,
            article="7.5.4",
            key="illegal.completed",
            completed=True,
            defect="two_hands",
            count=count,
            move=last.move.uci(),
        )
        if illegal.penalties(game, side, count, last.credit, t, out):
            game.reinstate(t, "illegal_move", "7.5.4", out)
        return
    if side == SIDE[game.board.turn]:
        game.turn.two_hands = True
    game.rule(out, t, "penalty", side=side, article="4.1", key="penalty.warning", kind="warning")


def accident(game: Game, side: str, square: str, t: float, out: list[Ruling]) -> None:
    """4.2.2: the arbiter judged a touch accidental; its duty lapses."""
    sq = chess.parse_square(square)
    turn = game.turn
    if turn.side != side or sq not in turn.touches:
        return
    turn.touches.remove(sq)
    new = obligation_for(game.board, turn.touches)
    turn.obligation = new
    if new is None:
        game.rule(
            out, t, "obligation", side=side, article="4.2.2", key="obligation.none", kind="none"
        )
    else:
        hands.emit_obligation(game, new, t, out)
