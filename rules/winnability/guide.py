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
#: W_CORNER and W_KING when the loser has its king alone: the winner's king must come as
#: close as the corner is near (K+B+N v K at 3 and 1 left 23 of 80 random positions undecided
#: within the ruling's budget, at 2 and 2 none, and every bare-king ending tried was faster)
W_CORNER_BARE = 2.0
W_KING_BARE = 2.0


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
        blockers = chess.popcount(board.occupied_co[not winner] & ~board.kings)
        w_corner = W_CORNER if blockers else W_CORNER_BARE
        #: the corner term of the loser's king on each square, weighted
        self.corner = [w_corner * min(_DIST[sq][c] for c in corners) for sq in chess.SQUARES]
        # With a queen or a rook, and loser's units to block its own king, the winner mates
        # without the help of its king or of new queens.
        heavy = bool(own & (board.queens | board.rooks)) and blockers >= HEAVY_BLOCKERS
        self.w_king = W_KING_HEAVY if heavy else W_KING if blockers else W_KING_BARE
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
        h = self.corner[kl] + self.w_king * max(0, _DIST[kw][kl] - 2)
        # the squares in python-chess's `scan_forward` order (lowest first), inline: the sum
        # is the same float, added in the same order
        pawn_term = self.pawn_term
        bb = board.pawns & own
        while bb:
            low = bb & -bb
            h += pawn_term[low.bit_length() - 1]
            bb ^= low
        near = _PIECE_TERM[kl]
        for piece, bb in (
            (chess.KNIGHT, board.knights & own),
            (chess.BISHOP, board.bishops & own),
            (chess.ROOK, board.rooks & own),
            (chess.QUEEN, board.queens & own),
        ):
            strength = _STRENGTH[piece]
            while bb:
                low = bb & -bb
                h += near[low.bit_length() - 1] - strength
                bb ^= low
        foe = _FOE_TERM[kl]
        bb = board.occupied_co[not winner] & ~board.kings
        while bb:
            low = bb & -bb
            h += foe[low.bit_length() - 1]
            bb ^= low
        return h

    def children(
        self, board: chess.Board, check: bool, legal: list[chess.Move] | None = None
    ) -> list[tuple[float, int]]:
        """(score after the move, move code) for every *pseudo-legal* move of `board` (the
        search drops those that leave the mover's king in check when it plays them), without
        a push: each score is the parent's corrected for the moved unit and the captured one.
        `check` says whether the side to move is in check (the search knows it already), and
        `legal` may give the legal moves then (python-chess's order), listed by the search.

        A move code is `from | to << 6 | promotion << 12 | IRREVERSIBLE` (`decode` gives the
        move back): the search plays only a few of a position's moves, so most never become
        `chess.Move` objects. Out of check the moves are generated here from the bitboards,
        in python-chess's order (`generate_pseudo_legal_moves`: pieces from h8 down, castling,
        pawn captures, pushes, double pushes, en passant), because ties in score are broken
        by that order and the search must expand the same positions as before."""
        kl = board.king(not self.winner)
        kw = board.king(self.winner)
        if kl is None or kw is None:
            return [(0.0, encode(board, m)) for m in _candidate_moves(board)]
        if check:
            if legal is None:
                legal = list(board.generate_legal_moves())
            return self._scored(board, legal, kl, kw)
        if board.turn == self.winner:
            return self._winner_children(board, kl, kw)
        return self._loser_children(board, kl, kw)

    def _scored(
        self, board: chess.Board, moves: list[chess.Move], kl: int, kw: int
    ) -> list[tuple[float, int]]:
        """(score, code) of each of `moves`, one at a time (in check, where moves are few,
        and the reference the generated scores are tested against)."""
        winner = self.winner
        h = self.total(board, kl, kw)
        turn = board.turn
        occupied = board.occupied
        kings = board.kings
        enemy = board.occupied_co[not turn]
        piece_type_at = board.piece_type_at
        out: list[tuple[float, int]] = []
        append = out.append
        if turn == winner:
            near = _PIECE_TERM[kl]
            foe = _FOE_TERM[kl]
            pawn_term = self.pawn_term
            w_king = self.w_king
            king_now = w_king * max(0, _DIST[kw][kl] - 2)
            checking = _checking(kl, occupied, turn)
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
                append((f, encode(board, move)))
            return out
        # the loser moves
        near = _PIECE_TERM[kl]
        foe = _FOE_TERM[kl]
        pawn_term = self.pawn_term
        terms = self._loser_king_terms(board)
        for move in moves:
            frm, to = move.from_square, move.to_square
            bb_to = 1 << to
            if kings >> frm & 1:  # the loser's king: every term moves with it
                f = self._loser_king_score(board, to, kw, terms)
            else:
                f = h - foe[frm] + foe[to]
                if enemy & bb_to:
                    victim = piece_type_at(to) or chess.PAWN
                    f -= pawn_term[to] if victim == chess.PAWN else near[to] - _STRENGTH[victim]
                elif (to - frm) % 8 and piece_type_at(frm) == chess.PAWN:  # en passant
                    f -= pawn_term[to + (-8 if turn == chess.WHITE else 8)]
            append((f, encode(board, move)))
        return out

    def _loser_king_terms(self, board: chess.Board) -> KingTerms:
        """What the score after any step of the loser's king is made of, once per position:
        the winner's pawns' share, the winner's pieces (square, strength), the loser's units."""
        own = board.occupied_co[self.winner]
        pawn_term = self.pawn_term
        base = sum(pawn_term[sq] for sq in chess.scan_forward(own & board.pawns))
        pieces = own & ~board.pawns & ~board.kings
        queens, rooks = board.queens, board.rooks
        mine = [
            (sq, STRENGTH_QUEEN if queens >> sq & 1 else STRENGTH_ROOK if rooks >> sq & 1 else 0.0)
            for sq in chess.scan_forward(pieces)
        ]
        foes = list(chess.scan_forward(board.occupied_co[not self.winner] & ~board.kings))
        return base, mine, foes

    def _loser_king_score(
        self, board: chess.Board, to: int, kw: int, terms: KingTerms
    ) -> float:
        """The score after the loser's king steps to `to` (every term moves with it)."""
        base, mine, foes = terms
        near_to, foe_to = _PIECE_TERM[to], _FOE_TERM[to]
        f = self.corner[to] + self.w_king * max(0, _DIST[kw][to] - 2) + base
        f += sum(near_to[sq] - strength for sq, strength in mine if sq != to)
        f += sum(foe_to[sq] for sq in foes)
        if board.occupied_co[self.winner] & board.pawns & (1 << to):
            f -= self.pawn_term[to]
        return float(f)

    def _winner_children(self, board: chess.Board, kl: int, kw: int) -> list[tuple[float, int]]:
        """`children` for the winner to move, not in check (see `children`)."""
        h = self.total(board, kl, kw)
        turn = board.turn
        occupied = board.occupied
        us = board.occupied_co[turn]
        enemy = board.occupied_co[not turn]
        pawns, knights, kings = board.pawns, board.knights, board.kings
        diagonal = board.bishops | board.queens
        straight = board.rooks | board.queens
        near = _PIECE_TERM[kl]
        foe = _FOE_TERM[kl]
        pawn_term = self.pawn_term
        w_king = self.w_king
        king_now = w_king * max(0, _DIST[kw][kl] - 2)
        checking = _checking(kl, occupied, turn)
        dist_kl = _DIST[kl]
        out: list[tuple[float, int]] = []
        append = out.append

        non_pawns = us & ~pawns
        while non_pawns:
            frm = non_pawns.bit_length() - 1
            bit = 1 << frm
            non_pawns ^= bit
            if bit & kings:
                targets = chess.BB_KING_ATTACKS[frm] & ~us
                attacked = board.is_attacked_by
                while targets:
                    to = targets.bit_length() - 1
                    bb_to = 1 << to
                    targets ^= bb_to
                    if attacked(not turn, to):
                        continue
                    f = h + w_king * max(0, dist_kl[to] - 2) - king_now
                    if enemy & bb_to:
                        append((f - foe[to], frm | to << 6 | IRREVERSIBLE))
                    else:
                        append((f, frm | to << 6))
                continue
            if bit & knights:
                piece = chess.KNIGHT
                targets = chess.BB_KNIGHT_ATTACKS[frm]
            else:
                targets = 0
                if bit & diagonal:
                    targets = chess.BB_DIAG_ATTACKS[frm][chess.BB_DIAG_MASKS[frm] & occupied]
                if bit & straight:
                    targets |= (
                        chess.BB_RANK_ATTACKS[frm][chess.BB_RANK_MASKS[frm] & occupied]
                        | chess.BB_FILE_ATTACKS[frm][chess.BB_FILE_MASKS[frm] & occupied]
                    )
                piece = (
                    chess.QUEEN if bit & diagonal and bit & straight
                    else chess.BISHOP if bit & diagonal else chess.ROOK
                )
            targets &= ~us
            strength = _STRENGTH[piece]
            base = h - (near[frm] - strength)
            checks = checking[piece]
            while targets:
                to = targets.bit_length() - 1
                bb_to = 1 << to
                targets ^= bb_to
                f = base + (near[to] - strength)
                if checks & bb_to:
                    f -= W_CHECK
                if enemy & bb_to:
                    append((f - foe[to], frm | to << 6 | IRREVERSIBLE))
                else:
                    append((f, frm | to << 6))

        if board.castling_rights & us:
            for move in board.generate_castling_moves():
                to = move.to_square
                f = h + w_king * max(0, dist_kl[to] - 2) - king_now
                append((f, move.from_square | to << 6))

        own_pawns = pawns & us
        if not own_pawns:
            return out
        promotes = chess.BB_RANK_8 if turn == chess.WHITE else chess.BB_RANK_1
        bb = own_pawns
        while bb:
            frm = bb.bit_length() - 1
            bit = 1 << frm
            bb ^= bit
            targets = chess.BB_PAWN_ATTACKS[turn][frm] & enemy
            if not targets:
                continue
            base = h - pawn_term[frm]
            while targets:
                to = targets.bit_length() - 1
                bb_to = 1 << to
                targets ^= bb_to
                if bb_to & promotes:
                    for placed in _PROMOTIONS:
                        f = base + (near[to] - _STRENGTH[placed])
                        if checking[placed] & bb_to:
                            f -= W_CHECK
                        append((f - foe[to], frm | to << 6 | placed << 12 | IRREVERSIBLE))
                else:
                    f = base + pawn_term[to]
                    if checking[chess.PAWN] & bb_to:
                        f -= W_CHECK
                    append((f - foe[to], frm | to << 6 | IRREVERSIBLE))
        self._pushes(board, own_pawns, h, checking, near, out)
        if board.ep_square is not None:
            for move in board.generate_pseudo_legal_ep():
                frm, to = move.from_square, move.to_square
                f = h - pawn_term[frm] + pawn_term[to]
                if checking[chess.PAWN] & (1 << to):
                    f -= W_CHECK
                f -= foe[to + (-8 if turn == chess.WHITE else 8)]
                append((f, frm | to << 6 | IRREVERSIBLE))
        return out

    def _pushes(
        self,
        board: chess.Board,
        own_pawns: int,
        h: float,
        checking: tuple[int, ...] | None,
        near: list[float],
        out: list[tuple[float, int]],
    ) -> None:
        """Append the pawn pushes of the side to move (single, then double), for the winner
        (`checking` given) or for the loser (`checking` None: a loser's pawn moves only its
        distance term, and `near` is then the loser's king's distance table)."""
        turn = board.turn
        empty = ~board.occupied
        if turn == chess.WHITE:
            single = own_pawns << 8 & empty & chess.BB_ALL
            double = single << 8 & empty & (chess.BB_RANK_3 | chess.BB_RANK_4)
            back = -8
        else:
            single = own_pawns >> 8 & empty
            double = single >> 8 & empty & (chess.BB_RANK_6 | chess.BB_RANK_5)
            back = 8
        append = out.append
        pawn_term = self.pawn_term
        promotes = chess.BB_RANK_8 | chess.BB_RANK_1
        while single:
            to = single.bit_length() - 1
            bb_to = 1 << to
            single ^= bb_to
            frm = to + back
            if checking is None:
                f = h - near[frm] + near[to]
                if bb_to & promotes:
                    for placed in _PROMOTIONS:
                        append((f, frm | to << 6 | placed << 12 | IRREVERSIBLE))
                else:
                    append((f, frm | to << 6 | IRREVERSIBLE))
                continue
            base = h - pawn_term[frm]
            if bb_to & promotes:
                for placed in _PROMOTIONS:
                    f = base + (near[to] - _STRENGTH[placed])
                    if checking[placed] & bb_to:
                        f -= W_CHECK
                    append((f, frm | to << 6 | placed << 12 | IRREVERSIBLE))
            else:
                f = base + pawn_term[to]
                if checking[chess.PAWN] & bb_to:
                    f -= W_CHECK
                append((f, frm | to << 6 | IRREVERSIBLE))
        while double:
            to = double.bit_length() - 1
            double ^= 1 << to
            frm = to + 2 * back
            if checking is None:
                f = h - near[frm] + near[to]
            else:
                f = h - pawn_term[frm] + pawn_term[to]
                if checking[chess.PAWN] & (1 << to):
                    f -= W_CHECK
            append((f, frm | to << 6 | IRREVERSIBLE))

    def _loser_children(self, board: chess.Board, kl: int, kw: int) -> list[tuple[float, int]]:
        """`children` for the loser to move, not in check (see `children`)."""
        h = self.total(board, kl, kw)
        turn = board.turn
        occupied = board.occupied
        us = board.occupied_co[turn]
        enemy = board.occupied_co[not turn]
        pawns, knights, kings = board.pawns, board.knights, board.kings
        diagonal = board.bishops | board.queens
        straight = board.rooks | board.queens
        near = _PIECE_TERM[kl]
        foe = _FOE_TERM[kl]
        pawn_term = self.pawn_term
        out: list[tuple[float, int]] = []
        append = out.append

        def taken(to: int) -> float:
            """What the winner's unit on `to` adds to the score (the loser takes it)."""
            bb_to = 1 << to
            if pawns & bb_to:
                return pawn_term[to]
            victim = board.piece_type_at(to) or chess.PAWN
            return near[to] - _STRENGTH[victim]

        non_pawns = us & ~pawns
        while non_pawns:
            frm = non_pawns.bit_length() - 1
            bit = 1 << frm
            non_pawns ^= bit
            if bit & kings:
                targets = chess.BB_KING_ATTACKS[frm] & ~us
                attacked = board.is_attacked_by
                terms = self._loser_king_terms(board)
                while targets:
                    to = targets.bit_length() - 1
                    bb_to = 1 << to
                    targets ^= bb_to
                    if attacked(not turn, to):
                        continue
                    f = self._loser_king_score(board, to, kw, terms)
                    append((f, frm | to << 6 | (IRREVERSIBLE if enemy & bb_to else 0)))
                continue
            if bit & knights:
                targets = chess.BB_KNIGHT_ATTACKS[frm]
            else:
                targets = 0
                if bit & diagonal:
                    targets = chess.BB_DIAG_ATTACKS[frm][chess.BB_DIAG_MASKS[frm] & occupied]
                if bit & straight:
                    targets |= (
                        chess.BB_RANK_ATTACKS[frm][chess.BB_RANK_MASKS[frm] & occupied]
                        | chess.BB_FILE_ATTACKS[frm][chess.BB_FILE_MASKS[frm] & occupied]
                    )
            targets &= ~us
            base = h - foe[frm]
            while targets:
                to = targets.bit_length() - 1
                bb_to = 1 << to
                targets ^= bb_to
                f = base + foe[to]
                if enemy & bb_to:
                    append((f - taken(to), frm | to << 6 | IRREVERSIBLE))
                else:
                    append((f, frm | to << 6))

        if board.castling_rights & us:
            terms = self._loser_king_terms(board)
            for move in board.generate_castling_moves():
                f = self._loser_king_score(board, move.to_square, kw, terms)
                append((f, move.from_square | move.to_square << 6))

        own_pawns = pawns & us
        if not own_pawns:
            return out
        promotes = chess.BB_RANK_8 | chess.BB_RANK_1
        bb = own_pawns
        while bb:
            frm = bb.bit_length() - 1
            bit = 1 << frm
            bb ^= bit
            targets = chess.BB_PAWN_ATTACKS[turn][frm] & enemy
            if not targets:
                continue
            base = h - foe[frm]
            while targets:
                to = targets.bit_length() - 1
                bb_to = 1 << to
                targets ^= bb_to
                f = base + foe[to] - taken(to)
                if bb_to & promotes:
                    for placed in _PROMOTIONS:
                        append((f, frm | to << 6 | placed << 12 | IRREVERSIBLE))
                else:
                    append((f, frm | to << 6 | IRREVERSIBLE))
        self._pushes(board, own_pawns, h, None, foe, out)
        if board.ep_square is not None:
            for move in board.generate_pseudo_legal_ep():
                frm, to = move.from_square, move.to_square
                f = h - foe[frm] + foe[to]
                f -= pawn_term[to + (-8 if turn == chess.WHITE else 8)]
                append((f, frm | to << 6 | IRREVERSIBLE))
        return out


#: what the score after a loser's king step is made of (`Guide._loser_king_terms`)
KingTerms = tuple[float, list[tuple[int, float]], list[int]]

#: the promotions in python-chess's order of generation
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

#: the bit of a move code that marks a capture or a pawn move (a move that cannot be undone)
IRREVERSIBLE = 1 << 15


def _checking(kl: int, occupied: int, turn: chess.Color) -> tuple[int, ...]:
    """Squares from which each kind of the mover's units would give check to a king on `kl`
    (attacks are symmetric), indexed by piece type."""
    diag = chess.BB_DIAG_ATTACKS[kl][chess.BB_DIAG_MASKS[kl] & occupied]
    orth = (
        chess.BB_RANK_ATTACKS[kl][chess.BB_RANK_MASKS[kl] & occupied]
        | chess.BB_FILE_ATTACKS[kl][chess.BB_FILE_MASKS[kl] & occupied]
    )
    return (
        0,
        chess.BB_PAWN_ATTACKS[not turn][kl],
        chess.BB_KNIGHT_ATTACKS[kl],
        diag,
        orth,
        diag | orth,
        0,
    )


def encode(board: chess.Board, move: chess.Move) -> int:
    """The code of `move` in `board` (see `Guide.children`)."""
    irreversible = board.is_capture(move) or board.piece_type_at(move.from_square) == chess.PAWN
    return (
        move.from_square
        | move.to_square << 6
        | (move.promotion or 0) << 12
        | (IRREVERSIBLE if irreversible else 0)
    )


def decode(code: int) -> chess.Move:
    """The move of a code made by `encode` or `Guide.children`."""
    return chess.Move(code & 63, code >> 6 & 63, (code >> 12 & 7) or None)
