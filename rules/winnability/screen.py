"""The screen run after every move: "may this position be dead (FIDE 5.2.2)?"

Why certificates rather than rules of thumb: a position is *not* dead exactly when some side
has a helpmate, and every shortcut we tried ("no pawns face each other, not in check, two
legal moves...") has counterexamples (a lone rook that must be taken by a stalemated king, a
forced capture into bare kings). So a False answer here always rests on a helpmate that was
actually found and played, either for this position or for one it can be led back to:

* a position on a helpmate line is not dead (the rest of the line is its helpmate), so every
  position of every line found is remembered (`remember_line`), in a bounded set of keys;
* after a quiet move m (no capture, no pawn, no castling) from a remembered position P, the
  opponent plays some quiet move x, the mover takes m back and the opponent takes x back: if
  that series is legal and gives back P exactly (same key: castling rights, e.p.), the new
  position reaches P and so is not dead either ("triangulation", a few pushes);
* otherwise a small guided helpmate search (`SCREEN_BUDGET` expansions a side) looks for one.

Whatever is not certified that way gets True ("run the full analysis"), which is always safe.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import chess

from rules.winnability.search import Budget, OutOfBudget, guided_helpmate, position_key

#: positions the fallback search may expand per side before the screen answers True
SCREEN_BUDGET = 120

#: how many certified positions are remembered (oldest forgotten first)
MEMORY = 1 << 14

_certified: dict[Hashable, None] = {}


def remember(key: Hashable) -> None:
    """Record that the position with this key is not dead."""
    _certified[key] = None
    if len(_certified) > MEMORY:
        del _certified[next(iter(_certified))]


def remember_line(board: chess.Board, line: Iterable[chess.Move]) -> None:
    """Record every position of a helpmate line (played from `board`) as not dead."""
    walk = board.copy(stack=False)
    remember(position_key(walk))
    for move in line:
        walk.push(move)
        remember(position_key(walk))


def is_certified(board: chess.Board) -> bool:
    """Is this position already known not to be dead?"""
    return position_key(board) in _certified


def _quiet(board: chess.Board, move: chess.Move) -> bool:
    return not (
        move.promotion
        or board.is_capture(move)
        or board.is_castling(move)
        or board.piece_type_at(move.from_square) in (None, chess.PAWN)
    )


def _triangulate(board: chess.Board, tries: int = 4) -> bool:
    """Certify `board` from the certified position before its last move (see module doc)."""
    if not board.move_stack:
        return False
    last = board.pop()
    try:
        before = position_key(board)
        usable = before in _certified and _quiet(board, last)
    finally:
        board.push(last)
    if not usable:
        return False
    back = chess.Move(last.to_square, last.from_square)
    for x in board.generate_legal_moves():
        if not _quiet(board, x):
            continue
        tries -= 1
        if tries < 0:
            return False
        x_back = chess.Move(x.to_square, x.from_square)
        same = False
        board.push(x)
        if board.is_legal(back):
            board.push(back)
            if board.is_legal(x_back):
                board.push(x_back)
                same = position_key(board) == before
                board.pop()
            board.pop()
        board.pop()
        if same:
            return True
    return False


def screen(board: chess.Board, budget: int | None = None) -> bool:
    """False only when `board` is certainly not dead; True means "run the full analysis"."""
    if board.is_insufficient_material():
        return True
    key = position_key(board)
    if key in _certified:
        return False
    if _triangulate(board):
        remember(key)
        return False
    if board.is_checkmate():
        return False  # the game is won: not a dead position
    nodes = SCREEN_BUDGET if budget is None else budget
    for color in (not board.turn, board.turn):
        if board.has_insufficient_material(color):
            continue
        try:
            line = guided_helpmate(board, color, Budget(nodes))
        except OutOfBudget:
            continue
        if line is not None:
            remember_line(board, line)
            return False
    return True
