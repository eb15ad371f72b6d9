"""Touch-move: which moves the pieces a player touched oblige him to make (Articles 4.3-4.5).

The input is the position and the player's intentional touches in order (adjustments and
accidents already taken out). The output is a `Duty`: its kind and squares for the
`obligation` ruling, and the set of moves that satisfy it (`None`: any legal move).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import chess

from rules.rulings import Obligation, ObligationKind
from rules.sensed import LegalMoves, PieceMoves
from rules.types import Side
from rules.values import quick_init


@quick_init  # one is made at each touch
@dataclass(frozen=True, slots=True)
class Duty:
    """A duty under Article 4 and the moves that fulfil it."""

    kind: ObligationKind
    article: str
    square: int | None = None
    with_square: int | None = None
    rook: int | None = None
    move: chess.Move | None = None
    #: the moves that fulfil it (a set, the touched piece's moves as generated, which need
    #: no hashing, or as asked for, `PieceMoves`); None: any legal move
    allowed: Collection[chess.Move] | None = None
    #: the rook touched before the king (4.4.2): castling with it breaks the rule
    rook_first: int | None = None

    def key(self) -> tuple[object, ...]:
        return (self.kind, self.square, self.with_square, self.rook, self.move, self.article)

    def ruling(self, t: float, side: Side) -> Obligation:
        """The `obligation` ruling of this duty for `side` at `t`."""
        return Obligation(
            t=t,
            side=side,
            article=self.article,
            kind=self.kind,
            square=self.square,
            with_square=self.with_square,
            rook=self.rook,
            move=self.move,
        )


def castling_rook(board: chess.Board, move: chess.Move) -> int | None:
    """The rook's square of a castling move (the king's move e1g1 castles with h1)."""
    if not board.is_castling(move):
        return None
    if chess.square_file(move.to_square) > chess.square_file(move.from_square):
        return chess.square(7, chess.square_rank(move.from_square))
    return chess.square(0, chess.square_rank(move.from_square))


def obligation_for(
    board: chess.Board,
    touches: Sequence[int],
    legal: Sequence[chess.Move] | None = None,
    *,
    cache: LegalMoves | None = None,
) -> Duty | None:
    """The duty created by `touches` (squares, in the order touched) in `board`.

    Returns None when nothing was touched. Implements 4.3.1 (own pieces), 4.3.2 (opponent's
    pieces), 4.3.3 (both colours: capture the first touched opponent piece with the first
    touched own piece, else the first touched piece that can be moved or captured), 4.4.1 to
    4.4.3 (king and rook) and 4.5 (nothing touched can move: any legal move).
    """
    if not touches:
        return None
    us = board.turn
    if legal is None and len(touches) == 1 and board.color_at(touches[0]) == us:
        # the usual touch: one own piece (4.3.1), which must move if it can (else 4.5)
        sq = touches[0]
        if cache is not None:
            # whether it can move is all the ruling says; its moves are asked for one by
            # one, when a move is made (`PieceMoves`)
            if cache.has_move_from(sq):
                return Duty("move_piece", "4.3.1", square=sq, allowed=PieceMoves(cache, sq))
            return Duty("none", "4.5", square=sq, allowed=None)
        piece_moves = tuple(board.generate_legal_moves(from_mask=chess.BB_SQUARES[sq]))
        if piece_moves:
            return Duty("move_piece", "4.3.1", square=sq, allowed=piece_moves)
        return Duty("none", "4.5", square=sq, allowed=None)
    if legal is None and cache is not None and len(touches) <= 2:
        duty = _usual_capture(board, touches, cache)
        if duty is not None:
            return duty
    if legal is None:
        # only moves from the touched own pieces (and the king, for 4.4) or onto touched
        # opponent pieces (and the en passant square) can matter
        own_mask = chess.BB_EMPTY
        opp_mask = chess.BB_EMPTY
        for sq in touches:
            if board.color_at(sq) == us:
                own_mask |= chess.BB_SQUARES[sq]
            elif board.color_at(sq) is not None:
                opp_mask |= chess.BB_SQUARES[sq]
        # moves onto opponent pieces matter only when one was touched (`captures_of`)
        if opp_mask and board.ep_square is not None:
            opp_mask |= chess.BB_SQUARES[board.ep_square]
        if cache is not None:
            moves = list(cache.from_mask(own_mask))
        else:
            moves = list(board.generate_legal_moves(from_mask=own_mask))
        if opp_mask:
            moves += [
                m
                for m in (
                    cache.to_mask(opp_mask)
                    if cache is not None
                    else board.generate_legal_moves(to_mask=opp_mask)
                )
                if not own_mask & chess.BB_SQUARES[m.from_square]
            ]
    else:
        moves = list(legal)
    own: list[int] = []
    opp: list[int] = []
    for sq in touches:
        piece = board.piece_at(sq)
        if piece is None:
            continue
        target = own if piece.color == us else opp
        if sq not in target:
            target.append(sq)
    if not own and not opp:
        return None
    ordered = [sq for sq in dict.fromkeys(touches) if sq in own or sq in opp]

    def moves_of(sq: int) -> frozenset[chess.Move]:
        return frozenset(m for m in moves if m.from_square == sq)

    def captures_of(sq: int) -> frozenset[chess.Move]:
        ep = board.ep_square
        out = {m for m in moves if m.to_square == sq and board.piece_at(sq) is not None}
        if ep is not None:
            # the pawn that may be taken en passant stands behind the ep square
            ep_pawn = ep + (-8 if us == chess.WHITE else 8)
            if sq == ep_pawn:
                out |= {m for m in moves if m.to_square == ep and board.is_en_passant(m)}
        return frozenset(out)

    king_sq = board.king(us)
    own_rooks = [sq for sq in own if board.piece_type_at(sq) == chess.ROOK]
    if king_sq is not None and king_sq in own and own_rooks:
        rook = own_rooks[0]
        king_first = ordered.index(king_sq) <= ordered.index(rook)
        castle = next((m for m in moves if castling_rook(board, m) == rook), None)
        king_moves = frozenset(
            m for m in moves_of(king_sq) if castling_rook(board, m) != rook or castle is None
        )
        if king_first:
            if castle is not None:
                return Duty(
                    "castle", "4.4.1", square=king_sq, rook=rook, allowed=frozenset({castle})
                )
            others = frozenset(m for m in king_moves if castling_rook(board, m) != rook)
            if others:
                return Duty("king_move", "4.4.3", square=king_sq, allowed=others)
            return Duty("none", "4.4.3", square=king_sq, allowed=None)
        # 4.4.2: rook first, then the king: no castling with that rook; move the rook if it
        # can, else the king (Manual).
        rook_moves = moves_of(rook)
        if rook_moves:
            return Duty("move_piece", "4.4.2", square=rook, allowed=rook_moves, rook_first=rook)
        others = frozenset(m for m in moves_of(king_sq) if castling_rook(board, m) != rook)
        if others:
            return Duty("move_piece", "4.4.2", square=king_sq, allowed=others, rook_first=rook)
        return Duty("none", "4.5", square=rook, allowed=None, rook_first=rook)

    if own and opp:
        first_own, first_opp = own[0], opp[0]
        both = frozenset(m for m in captures_of(first_opp) if m.from_square == first_own)
        if both:
            return Duty(
                "capture_piece", "4.3.3", square=first_opp, with_square=first_own, allowed=both
            )
        for sq in ordered:
            allowed = moves_of(sq) if sq in own else captures_of(sq)
            if allowed:
                kind: ObligationKind = "move_piece" if sq in own else "capture_piece"
                return Duty(kind, "4.3.3", square=sq, allowed=allowed)
        return Duty("none", "4.5", square=ordered[0], allowed=None)
    if own:
        for sq in own:
            allowed = moves_of(sq)
            if allowed:
                return Duty("move_piece", "4.3.1", square=sq, allowed=allowed)
        return Duty("none", "4.5", square=own[0], allowed=None)
    for sq in opp:
        allowed = captures_of(sq)
        if allowed:
            return Duty("capture_piece", "4.3.2", square=sq, allowed=allowed)
    return Duty("none", "4.5", square=opp[0], allowed=None)


def _usual_capture(board: chess.Board, touches: Sequence[int], legal: LegalMoves) -> Duty | None:
    """The duty of a capture's usual touches, worked out from the capturing moves alone: an
    opponent's piece alone (4.3.2: capture it if it can be), or with one own piece that can
    capture it (4.3.3, in either order). None for every other case (`obligation_for` works
    it out from all the touched pieces' moves, as here)."""
    us = board.turn
    own: int | None = None
    if len(touches) == 1:
        opp = touches[0]
        if board.color_at(opp) != (not us):
            return None
    else:
        first, second = touches
        colors = (board.color_at(first), board.color_at(second))
        if colors == (us, not us):
            own, opp = first, second
        elif colors == (not us, us):
            opp, own = first, second
        else:
            return None
    if own is None:
        captures = legal.to_mask(chess.BB_SQUARES[opp])
    else:
        captures = legal.moves_between(own, opp)
    ep = board.ep_square
    if ep is not None and opp == ep + (-8 if us == chess.WHITE else 8):
        # the pawn that may be taken en passant stands behind the ep square
        onto = legal.to_mask(chess.BB_SQUARES[ep]) if own is None else legal.moves_between(own, ep)
        captures = [*captures, *(m for m in onto if board.is_en_passant(m))]
    if own is None:
        if captures:
            return Duty("capture_piece", "4.3.2", square=opp, allowed=frozenset(captures))
        return Duty("none", "4.5", square=opp, allowed=None)
    if captures:
        return Duty(
            "capture_piece", "4.3.3", square=opp, with_square=own, allowed=frozenset(captures)
        )
    return None


def declared(move: chess.Move) -> Duty:
    """9.5.3: after an incorrect claim the stated intended move must be played."""
    return Duty(
        "declared_move", "9.5.3", square=move.from_square, move=move, allowed=frozenset({move})
    )
