"""The guide of the helpmate search: how close a position looks to a mate by one side.

Why: a helpmate (FIDE 5.2.2, 6.9, 7.5.5: "any series of legal moves") is usually found by
pushing the loser's king into a corner while the winner's king and pieces come near, the
winner's pawns promote and its material stays on the board (Chess Unwinnability Analyzer,
Ambrona 2022). The guide scores that; lower is closer. Only the *order* of the search depends
on it, never an answer, so it may be as rough as speed requires. Scores of children are
derived from the parent's by the moved piece alone (`child_score`), so ordering a position's
moves costs no `push`.
"""

from __future__ import annotations

import chess

_DIST = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
_ALL_CORNERS = (chess.A1, chess.H1, chess.A8, chess.H8)
_LIGHT_CORNERS = (chess.A8, chess.H1)
_DARK_CORNERS = (chess.A1, chess.H8)

W_CORNER = 2.0  # per step of the loser's king from its corner
W_KING = 1.5  # per step of the winner's king beyond distance 2 from the loser's king
W_PIECE = 0.5  # per step of a winner's piece beyond distance 1 from the loser's king
W_PAWN = 1.0  # per step of a winner's pawn from promotion
W_FOE = 0.25  # per step of a loser's unit from its own king (it may block a flight square)
MATERIAL = 6.0  # bonus per winner's piece or pawn on the board


class Guide:
    """Scores positions for a helpmate by `winner` (see the module docstring)."""

    __slots__ = ("corner", "winner")

    def __init__(self, board: chess.Board, winner: chess.Color) -> None:
        self.winner = winner
        own = board.occupied_co[winner]
        pieces = own & ~board.kings & ~board.pawns
        corners = _ALL_CORNERS
        # A lone colour of bishops can only mate a king on its own colour of corner.
        if pieces and not own & board.pawns and pieces == pieces & board.bishops:
            if not pieces & chess.BB_DARK_SQUARES:
                corners = _LIGHT_CORNERS
            elif not pieces & chess.BB_LIGHT_SQUARES:
                corners = _DARK_CORNERS
        # Knights against bishops of one colour: the bishop must block a flight square of the
        # other colour, and only a corner of the bishop's opposite colour allows that.
        foes = board.occupied_co[not winner] & ~board.kings
        if pieces and pieces == pieces & board.knights and foes and foes == foes & board.bishops:
            if not foes & chess.BB_DARK_SQUARES:
                corners = _DARK_CORNERS
            elif not foes & chess.BB_LIGHT_SQUARES:
                corners = _LIGHT_CORNERS
        self.corner = [min(_DIST[sq][c] for c in corners) for sq in chess.SQUARES]

    def term(self, color: chess.Color, piece: int, sq: int, loser_king: int) -> float:
        """The share of one unit (not a king) in the score."""
        if color == self.winner:
            if piece == chess.PAWN:
                rank = sq >> 3
                return W_PAWN * (7 - rank if color == chess.WHITE else rank) - MATERIAL
            return W_PIECE * max(0, _DIST[sq][loser_king] - 1) - MATERIAL
        return W_FOE * _DIST[sq][loser_king]

    def score(self, board: chess.Board) -> float:
        """The score of `board` (lower: closer to a mate by the winner)."""
        winner = self.winner
        kl = board.king(not winner)
        kw = board.king(winner)
        if kl is None or kw is None:
            return 0.0
        h = W_CORNER * self.corner[kl] + W_KING * max(0, _DIST[kw][kl] - 2)
        for color in chess.COLORS:
            own = board.occupied_co[color] & ~board.kings
            for sq in chess.scan_forward(own):
                piece = board.piece_type_at(sq)
                if piece is not None:
                    h += self.term(color, piece, sq, kl)
        return h

    def child_score(self, board: chess.Board, parent_score: float, move: chess.Move) -> float:
        """The score after `move`, from the score of `board` before it."""
        piece = board.piece_type_at(move.from_square)
        if piece is None or piece == chess.KING:
            board.push(move)
            h = self.score(board)
            board.pop()
            return h
        color = board.turn
        kl = board.king(not self.winner)
        if kl is None:
            return parent_score
        h = parent_score - self.term(color, piece, move.from_square, kl)
        h += self.term(color, move.promotion or piece, move.to_square, kl)
        if board.is_en_passant(move):
            victim_sq = move.to_square + (-8 if color == chess.WHITE else 8)
            h -= self.term(not color, chess.PAWN, victim_sq, kl)
        else:
            victim = board.piece_type_at(move.to_square)
            if victim is not None:
                h -= self.term(not color, victim, move.to_square, kl)
        return h
