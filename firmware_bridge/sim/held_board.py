"""What every board model that reports whole boards shares: pieces moved by hand.

The model keeps the pieces on a python-chess `BaseBoard`; after each change it answers with
the bytes its board would send (`_report`, none where the board must be asked).
"""

from __future__ import annotations

import chess

from firmware_bridge.errors import CodecUsageError


class HeldBoard:
    """Lift, place and set up pieces on `self.board`; each change returns `self._report()`."""

    board: chess.BaseBoard

    def _report(self) -> bytes:
        raise NotImplementedError

    def lift(self, square: str) -> bytes:
        """Take the piece off `square`; return the report the board sends (none if polled)."""
        sq = chess.parse_square(square)
        if self.board.piece_at(sq) is None:
            raise CodecUsageError(f"there is no piece on {square} to lift")
        self.board.remove_piece_at(sq)
        return self._report()

    def place(self, square: str, piece: str) -> bytes:
        """Put `piece` (a FEN letter) on `square`, replacing what stood there."""
        try:
            p = chess.Piece.from_symbol(piece)
        except ValueError:
            raise CodecUsageError(f"not a piece letter: {piece!r}") from None
        self.board.set_piece_at(chess.parse_square(square), p)
        return self._report()

    def set_placement(self, placement: str) -> bytes:
        """Set up a whole FEN placement at once; return the report."""
        self.board.set_board_fen(placement)
        return self._report()
