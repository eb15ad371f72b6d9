"""Claims and draw offers: Articles 9.1 to 9.5, and the touch-move claim of 4.8.

A draw claim (threefold repetition 9.2, fifty moves 9.3) is correct only from the player
having the move, before touching a piece (9.4), with an intended move or without; an
incorrect one costs time (9.5.3), stands as a draw offer and binds a declared move. A
touch-move claim (4.8) by the opponent, before he touches a piece, reinstates the position
before the breach. Offers (9.1.2) stand until answered; an agreement needs both players to
have moved (5.2.3).

A claim of kind `any` (a claim button, a key: the player cannot say which) is "whatever the
Laws allow that player now" (events.md): the touch-move claim of 4.8 when the opponent's last
move broke Article 4, else a draw claim (9.2, 9.3). One that fits none of them claims nothing
the Laws know: it is ruled not correct under 9.5 with no 9.5.3 penalty and no draw offer, for
9.5.3 punishes an incorrect *draw* claim, and a button pressed by mistake is not one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

from rules import ending, hands
from rules.events import Accept, Claim, Decline, Offer
from rules.profiles import penalty_article, penalty_seconds
from rules.rulings import ClaimKind, ClaimRuling, DrawOffer, Note, Penalty, Reason, Ruling
from rules.sides import SIDE, other
from rules.touch import declared, obligation_for
from rules.types import Side

if TYPE_CHECKING:
    from rules.game import Game
    from rules.turn import MoveRecord

#: the article of a claim of kind `any` that fits nothing: the arbiter rules on claims (9.5)
CLAIM_ARTICLE = "9.5"


def claim(game: Game, ev: Claim, out: list[Ruling]) -> None:
    """A claim to the arbiter: touch-move (4.8) or a draw (9.2, 9.3), ruled at once (9.5)."""
    side = ev.side
    if ev.kind == "touch_move" or (ev.kind == "any" and touch_move_claimable(game, side)):
        claim_touch_move(game, side, ev.t, out)
        return
    mover = SIDE[game.board.turn]
    if side == mover and game.turn.touched_any:
        # 9.4: a piece touched under 4.3 forfeits the claim for this move
        out.append(ClaimRuling(t=ev.t, side=side, article="9.4", kind=ev.kind, valid=False))
        return
    # an intended move that is not legal cannot make the claim correct (9.2.1, 9.3.1)
    intended = chess.Move.from_uci(ev.move) if ev.move is not None else None
    if intended is not None and intended not in game.board.legal_moves:
        intended = None
    valid_kind = None
    if side == mover:
        valid_kind = draw_claim_valid(game, ev.kind, intended)
    if valid_kind is not None:
        reason, article = valid_kind
        out.append(ClaimRuling(t=ev.t, side=side, article=article, kind=ev.kind, valid=True))
        ending.game_over(game, ev.t, "1/2-1/2", reason, article, out)
        return
    if ev.kind == "any":
        # nothing the Laws allow this player now: not a draw claim, so no 9.5.3 penalty
        out.append(ClaimRuling(t=ev.t, side=side, article=CLAIM_ARTICLE, kind="any", valid=False))
        return
    incorrect_draw_claim(game, side, ev.kind, intended if side == mover else None, ev.t, out)


def incorrect_draw_claim(
    game: Game,
    side: Side,
    kind: ClaimKind,
    intended: chess.Move | None,
    t: float,
    out: list[Ruling],
) -> None:
    """9.5.3: an incorrect draw claim: time to the opponent, the claim stands as a draw offer
    (9.1.2.3), and the intended move (legal, of the player having the move) must be played."""
    out.append(ClaimRuling(t=t, side=side, article="9.5.3", kind=kind, valid=False))
    if game.timed:  # 9.5.3's time goes on the opponent's clock: with no clock, none
        seconds = penalty_seconds(game.mode)
        game.give_time(other(side), seconds, t)
        out.append(
            Penalty(
                t=t,
                side=side,
                article=penalty_article(game.mode, "9.5.3"),
                kind="time_added",
                seconds=seconds,
            )
        )
    game.offer_draw(side)
    out.append(DrawOffer(t=t, side=side, article="9.1.2.3"))
    if intended is not None:
        duty = declared(intended)
        game.declare(duty)
        hands.emit_obligation(game, duty, t, out)
    game.clock_ruling(out, t)


def draw_claim_valid(
    game: Game, kind: ClaimKind, intended: chess.Move | None
) -> tuple[Reason, str] | None:
    """9.2 / 9.3: correct claims, with an intended move (9.2.1, 9.3.1) or without."""
    board = game.board
    want_threefold = kind in ("threefold", "any")
    want_fifty = kind in ("fifty", "any")
    if intended is not None:
        # the position after the intended move, on a copy: a query never moves the live board
        after = board.copy(stack=False)
        after.push(intended)
        count = game.repetitions.get(after._transposition_key(), 0) + 1
        halfmoves = after.halfmove_clock
        if want_threefold and count >= 3:
            return "threefold_repetition", "9.2.1"
        if want_fifty and halfmoves >= 100:
            return "fifty_moves", "9.3.1"
    if want_threefold and game.repetitions.get(board._transposition_key(), 0) >= 3:
        return "threefold_repetition", "9.2.2"
    if want_fifty and board.halfmove_clock >= 100:
        return "fifty_moves", "9.3.2"
    return None


def touch_move_claimable(game: Game, side: Side) -> bool:
    """4.8: may `side` claim the opponent's breach of Article 4 now? Only when the last move
    was the opponent's and broke Article 4, and `side`, having the move, has touched no piece.
    """
    last = game.records[-1] if game.records else None
    return (
        last is not None
        and last.side != side
        and last.violation is not None
        and side == SIDE[game.board.turn]
        and not game.turn.touched_any
    )


def claim_touch_move(game: Game, side: Side, t: float, out: list[Ruling]) -> None:
    """4.8: the opponent's Article 4 breach, claimed before touching a piece."""
    last = game.records[-1] if game.records else None
    if not touch_move_claimable(game, side) or last is None:
        out.append(ClaimRuling(t=t, side=side, article="4.8", kind="touch_move", valid=False))
        return
    assert last.violation is not None
    reinstate_before(game, side, last, last.violation.article, t, out)


def reinstate_before(
    game: Game, side: Side, last: MoveRecord, article: str | None, t: float, out: list[Ruling]
) -> None:
    """4.8 upheld: the opponent's last move is taken back, its clock charged back, and the
    duty of the pieces it touched stands."""
    out.append(ClaimRuling(t=t, side=side, article=article, kind="touch_move", valid=True))
    game.take_back(1)
    game.restore_touches(last.touches, obligation_for(game.board, last.touches))
    if game.timed:
        if last.credit:
            game.give_time(last.side, -last.credit, t)
        game.start_clock(last.side, t)
    game.reinstate(t, "claim_upheld", article, out)


def offer(game: Game, ev: Offer, out: list[Ruling]) -> None:
    """9.1.2: a draw offer, which stands until answered or lapsed."""
    game.offer_draw(ev.side)
    out.append(DrawOffer(t=ev.t, side=ev.side, article="9.1.2"))


def accept(game: Game, ev: Accept, out: list[Ruling]) -> None:
    """5.2.3: the opponent's offer accepted, a draw once both players have moved."""
    if game.offer != other(ev.side):
        return
    both_moved = {r.side for r in game.records} == {"white", "black"}
    if not both_moved:
        out.append(Note(t=ev.t, article="5.2.3", topic="draw_before_both_moved"))
        game.close_offer()
        return
    ending.game_over(game, ev.t, "1/2-1/2", "agreement", "5.2.3", out)


def decline(game: Game, ev: Decline, out: list[Ruling]) -> None:
    """9.1.2.1: the opponent's offer declined."""
    if game.offer == other(ev.side):
        game.close_offer()
