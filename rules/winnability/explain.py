"""Why a side cannot mate, in words an arbiter can read out (FIDE 5.2.2, 6.9, 7.5.5, 5.1.2).

The reasons mirror the proofs of `decide`: too little material, a pawn structure that can
never change (with where the enemy king can go and which colour of squares the bishops
keep), or an exhaustive walk of every reachable position.
"""

from __future__ import annotations

import chess

from rules.winnability.static import cannot_check, cannot_mate, fixed_pawns, rams

_NAMES = {
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
}


def _side(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _material(board: chess.Board, color: chess.Color) -> str:
    own = board.occupied_co[color]
    pieces = [
        _NAMES[piece]
        for piece in _NAMES
        for _ in chess.scan_forward(board.pieces_mask(piece, color))
    ]
    if not pieces and not own & board.pawns:
        return f"{_side(color)} has only the king"
    return f"{_side(color)} has too little material to mate (king and {', '.join(pieces)})"


def _bishop_colours(board: chess.Board, color: chess.Color) -> str | None:
    bishops = board.bishops & board.occupied_co[color]
    if not bishops or board.pawns & board.occupied_co[color] & ~fixed_pawns(board)[0]:
        return None
    if not bishops & chess.BB_DARK_SQUARES:
        return f"{_side(color)}'s bishops move on light squares only"
    if not bishops & chess.BB_LIGHT_SQUARES:
        return f"{_side(color)}'s bishops move on dark squares only"
    return None


def static_reason(board: chess.Board, color: chess.Color) -> str | None:
    """The reason of a static proof that `color` cannot mate, or None without one."""
    if board.has_insufficient_material(color):
        return _material(board, color)
    if not rams(board) or not cannot_mate(board, color):
        return None
    fixed, white, black = fixed_pawns(board)
    theirs = black if color == chess.WHITE else white
    enemy = _side(not color)
    parts = [f"{chess.popcount(fixed)} pawns are blocked for good"]
    half = chess.popcount(theirs.king)
    parts.append(f"{enemy}'s king can only ever reach {half} squares behind them")
    if cannot_check(board, color):
        parts.append(f"no unit of {_side(color)} can ever attack one of those squares")
    else:
        parts.append(f"wherever {_side(color)} could give check, the king keeps a flight square")
    bishops = _bishop_colours(board, color)
    if bishops:
        parts.append(bishops)
    return f"{_side(color)} cannot mate: " + "; ".join(parts)


def searched_reason(color: chess.Color) -> str:
    """The reason when every reachable position was walked without a mate by `color`."""
    return (
        f"{_side(color)} cannot mate: every series of legal moves was examined "
        f"and none ends in mate by {_side(color)}"
    )
