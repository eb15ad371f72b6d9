"""The guide of the helpmate search: how close a position looks to a mate by one side.

Why: a helpmate (FIDE 5.2.2, 6.9, 7.5.5: "any series of legal moves") is usually found by
pushing the loser's king into a corner while the winner's king and pieces come near, the
winner's pawns promote and its material stays on the board (Chess Unwinnability Analyzer,
Ambrona 2022). The guide scores that; lower is closer. Only the *order* of the search depends
on it, never an answer, so it may be as rough as speed requires. Scores of children are
derived from the parent's by the moved piece alone (`Guide.children`), so ordering a
position's moves costs no `push`.
"""

from __future__ import annotations

import chess

_DIST = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
_ALL_CORNERS: tuple[int, ...] = (chess.A1, chess.H1, chess.A8, chess.H8)
_LIGHT_CORNERS = (chess.A8, chess.H1)
_DARK_CORNERS = (chess.A1, chess.H8)

W_CORNER = 3.0  # per step of the loser's king from its corner
W_KING = 1.0  # per step of the winner's king beyond distance 2 from the loser's king
W_PIECE = 0.5  # per step of a winner's piece beyond distance 1 from the loser's king
W_PAWN = 1.0  # per step of a winner's pawn from promotion
W_FOE = 0.25  # per step of a loser's unit from its own king (it may block a flight square)
MATERIAL = 6.0  # bonus per winner's piece or pawn on the board
STRENGTH_ROOK = 1.5  # further bonus per winner's rook
STRENGTH_QUEEN = 3.0  # further bonus per winner's queen
W_KING_HEAVY = 0.3  # W_KING when the winner has a queen or a rook
W_PAWN_HEAVY = 0.1  # W_PAWN when the winner has a queen or a rook
HEAVY_BLOCKERS = 4  # loser's units from which the two weights above apply
W_CHECK = 2.0  # bonus for a winner's move that gives check directly


def _attacks(piece: int, color: chess.Color, sq: int, occupied: int) -> int:
    """Squares a `piece` of `color` on `sq` attacks, given the `occupied` squares."""
    if piece == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[color][sq]
    if piece == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    bb = 0
    if piece in (chess.BISHOP, chess.QUEEN):
        bb |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    if piece in (chess.ROOK, chess.QUEEN):
        bb |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
        bb |= chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
    return bb


def _tables() -> tuple[list[list[float]], list[list[float]]]:
    piece = [
        [W_PIECE * max(0, _DIST[sq][k] - 1) - MATERIAL for sq in chess.SQUARES]
        for k in chess.SQUARES
    ]
    foe = [[W_FOE * _DIST[sq][k] for sq in chess.SQUARES] for k in chess.SQUARES]
    return piece, foe


_PIECE_TERM, _FOE_TERM = _tables()
#: extra bonus of strong winner's pieces, so that promoting to them looks like progress
_STRENGTH = [0.0, 0.0, 0.0, 0.0, STRENGTH_ROOK, STRENGTH_QUEEN, 0.0]


class Guide:
    """Scores positions for a helpmate by `winner` (see the module docstring)."""

    __slots__ = ("corner", "pawn_term", "w_king", "winner")

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
        # With a queen or a rook, and loser's units to block its own king, the winner mates
        # without the help of its king or of new queens.
        heavy = own & (board.queens | board.rooks)
        blockers = chess.popcount(board.occupied_co[not winner] & ~board.kings)
        heavy = bool(heavy) and blockers >= HEAVY_BLOCKERS
        self.w_king = W_KING_HEAVY if heavy else W_KING
        w_pawn = W_PAWN_HEAVY if heavy else W_PAWN
        self.pawn_term = [
            w_pawn * (7 - (sq >> 3) if winner == chess.WHITE else sq >> 3) - MATERIAL
            for sq in chess.SQUARES
        ]

    def term(self, color: chess.Color, piece: int, sq: int, loser_king: int) -> float:
        """The share of one unit (not a king) in the score."""
        if color == self.winner:
            if piece == chess.PAWN:
                return self.pawn_term[sq]
            return _PIECE_TERM[loser_king][sq] - _STRENGTH[piece]
        return _FOE_TERM[loser_king][sq]

    def _units(self, board: chess.Board) -> dict[int, tuple[chess.Color, int]]:
        """Square -> (colour, piece type) of every unit but the kings."""
        units: dict[int, tuple[chess.Color, int]] = {}
        for piece, bb in (
            (chess.PAWN, board.pawns),
            (chess.KNIGHT, board.knights),
            (chess.BISHOP, board.bishops),
            (chess.ROOK, board.rooks),
            (chess.QUEEN, board.queens),
        ):
            for sq in chess.scan_forward(bb):
                units[sq] = (bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq]), piece)
        return units

    def _total(self, units: dict[int, tuple[chess.Color, int]], kl: int, kw: int) -> float:
        h = W_CORNER * self.corner[kl] + self.w_king * max(0, _DIST[kw][kl] - 2)
        term = self.term
        for sq, (color, piece) in units.items():
            h += term(color, piece, sq, kl)
        return h

    def children(self, board: chess.Board) -> list[tuple[float, chess.Move]]:
        """(score after the move, move) for every legal move of `board`, without a push: each
        score is the parent's corrected for the moved unit and the captured one."""
        winner = self.winner
        kl = board.king(not winner)
        kw = board.king(winner)
        moves = list(board.generate_legal_moves())
        if kl is None or kw is None:
            return [(0.0, m) for m in moves]
        units = self._units(board)
        h = self._total(units, kl, kw)
        term = self.term
        turn = board.turn
        out: list[tuple[float, chess.Move]] = []
        occupied = board.occupied
        for move in moves:
            frm, to = move.from_square, move.to_square
            unit = units.get(frm)
            if unit is None:  # a king moves (castling: the rook's step is ignored)
                if turn == winner:
                    f = h + self.w_king * (max(0, _DIST[to][kl] - 2) - max(0, _DIST[kw][kl] - 2))
                    victim = units.get(to)
                    if victim is not None:
                        f -= term(victim[0], victim[1], to, kl)
                else:
                    victim = units.pop(to, None)
                    f = self._total(units, to, kw)
                    if victim is not None:
                        units[to] = victim
                out.append((f, move))
                continue
            piece = unit[1]
            placed = move.promotion or piece
            f = h - term(turn, piece, frm, kl) + term(turn, placed, to, kl)
            victim = units.get(to)
            if victim is not None:
                f -= term(victim[0], victim[1], to, kl)
            elif piece == chess.PAWN and (to - frm) % 8:  # en passant
                f -= term(not turn, chess.PAWN, to + (-8 if turn == chess.WHITE else 8), kl)
            if turn == winner and _attacks(placed, turn, to, occupied & ~chess.BB_SQUARES[frm]) & (
                1 << kl
            ):
                f -= W_CHECK
            out.append((f, move))
        return out
