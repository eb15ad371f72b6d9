"""The players' hands: whose hand is at work, what it touched, and what that obliges (Art. 4).

A board that cannot see hands gives each lift, place and touch to a player by the readings
of docs/events.md ("Whose hand"). Touches by the player having the move build his touch-move
duty (4.3, 4.4; simultaneous touches within `noise_s` count own pieces first, 4.3.3) unless
he declared an adjustment (4.2.1); touches by the other player are breaches (4.2.1, 6.2.5,
4.7 for his own piece just moved). When a legal move is made it is checked against that duty
(`article4_breach`: 4.3 to 4.6).
"""

from __future__ import annotations

import chess

from rules.rulings import Obligation, Ruling, Violation
from rules.sensed import letter_color
from rules.sides import COLOR, SIDE
from rules.state import GameState
from rules.touch import Duty, castling_rook, obligation_for
from rules.types import Side


def whose_hand(game: GameState, side: Side | None, square: int | None = None) -> Side:
    """Whose hand: the event's `side`, else the player having the move (events.md).

    Exception: a piece of the player who just made his move, still unpressed, lifted from a
    square of that move, is taken to be in that player's hand (the likeliest reading of a
    board that cannot see hands; 4.7 then applies to him).
    """
    if side is not None:
        return side
    mover = SIDE[game.board.turn]
    if square is not None and game.records:
        last = game.records[-1]
        letter = game.sensed[square]
        if (
            not last.pressed
            and last.side != mover
            and square == last.move.to_square
            and letter_color(letter) == COLOR[last.side]
            and not game.turn.touched_any
        ):
            return last.side
    return mover


def holding_hand(game: GameState) -> Side:
    """Whose hand puts a piece down: the other player's, if he still holds one he lifted."""
    mover = SIDE[game.board.turn]
    for sq, (_t, letter, hand) in reversed(game.recent_lift.items()):
        if hand != mover and letter is not None and game.sensed[sq] is None:
            return hand
    return mover


def touched(
    game: GameState,
    sq: int,
    letter: str | None,
    hand: Side,
    t: float,
    out: list[Ruling],
    *,
    update: bool = True,
) -> None:
    """4.3, 4.2.1: a piece touched by `hand`; the mover's touches build his duty."""
    mover = SIDE[game.board.turn]
    if hand != mover:
        not_your_move(game, sq, hand, t, out)
        return
    turn = game.turn
    if turn.adjusting:
        return
    if sq in turn.moved_squares:
        return  # the piece on its way, already touched
    if not game.board.occupied & chess.BB_SQUARES[sq]:
        return  # no piece of the position there
    if game.offer is not None and game.offer != mover:
        game.close_offer()  # 9.1.2.1: the offer lapses when the opponent touches a piece
    if game.touch(sq, t):
        if len(turn.touches) > 1:
            own_first_within_noise(game)
        if update:
            update_obligation(game, t, out)


def own_first_within_noise(game: GameState) -> None:
    """Touches within `noise_s` are simultaneous; own pieces count first (4.3.3)."""
    turn = game.turn
    if len(turn.touches) < 2:
        return
    us = game.board.turn
    noise = game.start.noise_s
    order = list(turn.touches)
    times = turn.touch_times
    for i in range(len(order) - 1, 0, -1):
        a, b = order[i - 1], order[i]
        # touches restored with a move taken back (4.8, 7.5.4) have no time: never close
        close = a in times and b in times and abs(times[a] - times[b]) <= noise
        if close and game.board.color_at(a) != us and game.board.color_at(b) == us:
            order[i - 1], order[i] = b, a
    if order != turn.touches:
        game.order_touches(order)


def not_your_move(game: GameState, sq: int, hand: Side, t: float, out: list[Ruling]) -> None:
    """4.2.1, 6.2.5: only the player having the move may handle the pieces."""
    last = game.records[-1] if game.records else None
    if last is not None and last.side == hand and sq == last.move.to_square:
        if last.violation is None or last.violation.kind != "released":
            out.append(Violation(t=t, side=hand, article="4.7", kind="released", square=sq))
        return
    out.append(Violation(t=t, side=hand, article="4.2.1", kind="not_your_move", square=sq))


def undo_touch(game: GameState, sq: int, hand: Side, t: float, out: list[Ruling]) -> None:
    """A sensor blink (noise_s) was no touch: take it back, the duty may lapse (4.2.2)."""
    if hand == game.turn.side and game.untouch(sq):
        update_obligation(game, t, out, lapse_ok=True)


def article4_breach(game: GameState, move: chess.Move, t: float, side: Side) -> Violation | None:
    """The Article 4 breach this move commits, if any, as its ruling at `t`."""
    turn = game.turn
    board = game.board
    # 4.4.4: the promotion piece is fixed once it touched the promotion square
    if move.promotion is not None:
        first = turn.promo_first.get(move.to_square)
        if first is not None and first.upper() in "NBRQ":
            if chess.Piece.from_symbol(first).piece_type != move.promotion:
                return Violation(
                    t=t, side=side, article="4.4.4", kind="promotion_choice", square=move.to_square
                )
    duty = turn.forced or turn.obligation
    if duty is None:
        return None
    if duty.rook_first is not None and castling_rook(board, move) == duty.rook_first:
        return Violation(
            t=t, side=side, article="4.4.2", kind="castling_rook_first", square=duty.rook_first
        )
    if duty.allowed is not None and move not in duty.allowed:
        if move.promotion is not None and any(
            m.from_square == move.from_square and m.to_square == move.to_square
            for m in duty.allowed
        ):
            return None
        square = duty.square if duty.square is not None else move.from_square
        return Violation(t=t, side=side, article=duty.article, kind="touch_move", square=square)
    return None


def update_obligation(
    game: GameState, t: float, out: list[Ruling], *, lapse_ok: bool = False
) -> None:
    """4.3, 4.4, 4.5: the duty of the mover's touches so far; rule it when it changes."""
    turn = game.turn
    if turn.forced is not None:
        return
    new = obligation_for(game.board, turn.touches, cache=game.legal)
    old = turn.obligation
    if new is None and old is None:
        return
    if new is not None and old is not None and new.key() == old.key():
        return
    game.set_obligation(new)
    if new is None:
        if lapse_ok and old is not None:
            out.append(Obligation(t=t, side=turn.side, article="4.2.2", kind="none"))
        return
    out.append(new.ruling(t, turn.side))  # `emit_obligation`


def emit_obligation(game: GameState, ob: Duty, t: float, out: list[Ruling]) -> None:
    """The `obligation` ruling of a duty (4.3 to 4.5, 9.5.3 declared move)."""
    out.append(ob.ruling(t, game.turn.side))
