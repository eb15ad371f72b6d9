"""Material and pawn-structure facts the rules core asks about after each move.

Cheap screens that decide when the full winnability analysis (`rules.winnability`) is worth
running (5.2.2, 6.9), and the Czech text's list of drawn minor-piece endings.
"""

from __future__ import annotations

import chess


def pawns_locked(board: chess.Board) -> bool:
    """Every pawn stands blocked by an enemy pawn and none can capture: a locked structure."""
    pawns = board.pawns
    if not pawns:
        return False
    white, black = pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK]
    if (white << 8) & ~black & chess.BB_ALL or (black >> 8) & ~white:
        return False
    for color, own in ((chess.WHITE, white), (chess.BLACK, black)):
        for sq in chess.scan_forward(own):
            if board.attacks_mask(sq) & board.occupied_co[not color]:
                return False
    return True


def few_minor_pieces(board: chess.Board, color: chess.Color) -> bool:
    """`color` has no pawn, queen or rook, and at most two minor pieces."""
    own = board.occupied_co[color]
    if own & (board.pawns | board.queens | board.rooks):
        return False
    return chess.popcount(own & (board.knights | board.bishops)) <= 2


def minor_pieces_only(board: chess.Board) -> bool:
    """K+N v K+N, K+B v K+N, K+B v K+B (any bishops): the Czech text's insufficient material."""
    if board.pawns or board.rooks or board.queens:
        return False
    white = chess.popcount(board.occupied_co[chess.WHITE]) - 1
    black = chess.popcount(board.occupied_co[chess.BLACK]) - 1
    return white <= 1 and black <= 1
