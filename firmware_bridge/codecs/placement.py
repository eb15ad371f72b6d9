"""FEN piece placement from a board's 64 cells, shared by the codecs and board models."""

from __future__ import annotations

from collections.abc import Sequence


def cells_to_placement(cells: Sequence[str], empty: str = ".") -> str:
    """64 cells in reading order (a8 ... h8, a7 ... h1), `empty` for none -> FEN placement."""
    ranks = []
    for r in range(8):
        text, run = "", 0
        for ch in cells[8 * r : 8 * r + 8]:
            if ch == empty:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += ch
        ranks.append(text + (str(run) if run else ""))
    return "/".join(ranks)
