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


def _candidate_moves(board: chess.Board) -> list[chess.Move]:
    """Every legal move of `board`, and some illegal ones: in check, the legal evasions; else
    the pseudo-legal moves less the king's steps onto attacked squares (what is left illegal
    is a pinned unit's move, rare, which the search drops when it plays it)."""
    if board.is_check():
        return list(board.generate_legal_moves())
    king = board.king(board.turn)
    if king is None:
        return list(board.generate_pseudo_legal_moves())
    enemy = not board.turn
    attacked = board.is_attacked_by
    return [
        m
        for m in board.generate_pseudo_legal_moves()
        if m.from_square != king or board.is_castling(m) or not attacked(enemy, m.to_square)
    ]


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

    def total(self, board: chess.Board, kl: int, kw: int) -> float:
        """The score of `board` with the loser's king on `kl`."""
        winner = self.winner
        own = board.occupied_co[winner]
        h = W_CORNER * self.corner[kl] + self.w_king * max(0, _DIST[kw][kl] - 2)
        pawn_term = self.pawn_term
        for sq in chess.scan_forward(board.pawns & own):
            h += pawn_term[sq]
        near = _PIECE_TERM[kl]
        for piece, bb in (
            (chess.KNIGHT, board.knights),
            (chess.BISHOP, board.bishops),
            (chess.ROOK, board.rooks),
            (chess.QUEEN, board.queens),
        ):
            strength = _STRENGTH[piece]
            for sq in chess.scan_forward(bb & own):
                h += near[sq] - strength
        foe = _FOE_TERM[kl]
        for sq in chess.scan_forward(board.occupied_co[not winner] & ~board.kings):
            h += foe[sq]
        return h

    def children(self, board: chess.Board) -> list[tuple[float, chess.Move]]:
        """(score after the move, move) for every *pseudo-legal* move of `board` (the search
        drops those that leave the mover's king in check when it plays them), without a push:
        each score is the parent's corrected for the moved unit and the captured one."""
        winner = self.winner
        kl = board.king(not winner)
        kw = board.king(winner)
        moves = _candidate_moves(board)
        if kl is None or kw is None:
            return [(0.0, m) for m in moves]
        h = self.total(board, kl, kw)
        turn = board.turn
        occupied = board.occupied
        kings = board.kings
        enemy = board.occupied_co[not turn]
        piece_type_at = board.piece_type_at
        out: list[tuple[float, chess.Move]] = []
        append = out.append
        if turn == winner:
            near = _PIECE_TERM[kl]
            foe = _FOE_TERM[kl]
            pawn_term = self.pawn_term
            w_king = self.w_king
            king_now = w_king * max(0, _DIST[kw][kl] - 2)
            # squares from which each kind of piece would give check (attacks are symmetric)
            diag = chess.BB_DIAG_ATTACKS[kl][chess.BB_DIAG_MASKS[kl] & occupied]
            orth = (
                chess.BB_RANK_ATTACKS[kl][chess.BB_RANK_MASKS[kl] & occupied]
                | chess.BB_FILE_ATTACKS[kl][chess.BB_FILE_MASKS[kl] & occupied]
            )
            checking = (
                0,
                chess.BB_PAWN_ATTACKS[not turn][kl],
                chess.BB_KNIGHT_ATTACKS[kl],
                diag,
                orth,
                diag | orth,
                0,
            )
            for move in moves:
                frm, to = move.from_square, move.to_square
                bb_to = 1 << to
                if kings >> frm & 1:  # the winner's king (castling: the rook's step ignored)
                    f = h + w_king * max(0, _DIST[to][kl] - 2) - king_now
                else:
                    piece = piece_type_at(frm) or chess.PAWN
                    placed = move.promotion or piece
                    f = h
                    f -= pawn_term[frm] if piece == chess.PAWN else near[frm] - _STRENGTH[piece]
                    f += pawn_term[to] if placed == chess.PAWN else near[to] - _STRENGTH[placed]
                    if checking[placed] & bb_to:
                        f -= W_CHECK
                    if piece == chess.PAWN and not enemy & bb_to and (to - frm) % 8:
                        f -= foe[to + (-8 if turn == chess.WHITE else 8)]  # en passant
                if enemy & bb_to:
                    f -= foe[to]
                append((f, move))
            return out
        # the loser moves
        near = _PIECE_TERM[kl]
        foe = _FOE_TERM[kl]
        pawn_term = self.pawn_term
        own = board.occupied_co[winner]
        pieces = own & ~board.pawns & ~kings
        base = sum(pawn_term[sq] for sq in chess.scan_forward(own & board.pawns))
        mine = [(sq, _STRENGTH[piece_type_at(sq) or 0]) for sq in chess.scan_forward(pieces)]
        foes = list(chess.scan_forward(board.occupied_co[turn] & ~kings))
        corner = self.corner
        w_king = self.w_king
        for move in moves:
            frm, to = move.from_square, move.to_square
            bb_to = 1 << to
            if kings >> frm & 1:  # the loser's king: every term moves with it
                near_to, foe_to = _PIECE_TERM[to], _FOE_TERM[to]
                f = W_CORNER * corner[to] + w_king * max(0, _DIST[kw][to] - 2) + base
                f += sum(near_to[sq] - strength for sq, strength in mine if sq != to)
                f += sum(foe_to[sq] for sq in foes)
                if enemy & bb_to and pawn_term and board.pawns & bb_to:
                    f -= pawn_term[to]
            else:
                f = h - foe[frm] + foe[to]
                if enemy & bb_to:
                    victim = piece_type_at(to) or chess.PAWN
                    f -= pawn_term[to] if victim == chess.PAWN else near[to] - _STRENGTH[victim]
                elif (to - frm) % 8 and piece_type_at(frm) == chess.PAWN:  # en passant
                    f -= pawn_term[to + (-8 if turn == chess.WHITE else 8)]
            append((f, move))
        return out
