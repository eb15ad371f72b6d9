"""What the rules say may change next: the tracker's second opinion, as one typed value.

The rules core knows the position after each move that stands; from it, only the squares
some legal move (or a move and its reply: a camera may see two plies at once) touches can
change. A square outside that set read differently from the position is either a misread
or a real irregularity (a piece knocked over, an illegal move): the tracker does not report
it from one still scene, but once it has been read so for `TrackerSettings.odd_patience_s`
it is reported as seen, and the rules core makes it a `mismatch` (events.md), not a move.

Vision still reports only what it sees: nothing is repaired, an odd reading is only delayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.errors import VisionError
from vision.placement import to_sensed


@dataclass(frozen=True)
class Expectation:
    """The position the rules hold (`placement`, colours only) and the squares that a legal
    continuation of up to `plies` plies can touch (`can_change`, names like "e4");
    `pieces`, the same position with piece letters where known (which pieces are tall
    enough to hide the square behind them: `vision.columns.hidden_behind`)."""

    placement: str
    can_change: frozenset[str]
    plies: int = 2
    pieces: str | None = None

    @classmethod
    def after(cls, fen: str, plies: int = 2) -> Expectation:
        """From a full FEN (side to move, castling and en passant matter): the squares each
        legal sequence of 1..`plies` plies touches (from, to, a castling rook's squares, an
        en passant capture's square).

        Raises:
            VisionError: the FEN is not a valid position, or `plies` is not 1 or 2.
        """
        import chess

        if plies not in (1, 2):
            raise VisionError(f"plies must be 1 or 2, not {plies!r}")
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise VisionError(f"not a position: {fen!r} ({exc})") from None
        touched: set[int] = set()
        for move in list(board.legal_moves):
            touched |= _squares(board, move)
            if plies == 2:
                board.push(move)
                for reply in board.legal_moves:
                    touched |= _squares(board, reply)
                board.pop()
        return cls(
            placement=to_sensed(board.board_fen()),
            can_change=frozenset(chess.square_name(s) for s in touched),
            plies=plies,
            pieces=board.board_fen(),
        )


def _squares(board: object, move: object) -> set[int]:
    """The squares a move changes on `board` (a chess.Board)."""
    import chess

    assert isinstance(board, chess.Board) and isinstance(move, chess.Move)
    out = {move.from_square, move.to_square}
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        out |= (
            {chess.square(7, rank), chess.square(5, rank)}
            if kingside
            else {chess.square(0, rank), chess.square(3, rank)}
        )
    elif board.is_en_passant(move):
        out.add(
            chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
        )
    return out
