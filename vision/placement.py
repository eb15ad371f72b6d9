"""FEN piece placements as 8x8 grids of sensed states, and back.

A grid is 8 rows of 8 one-letter strings, row 0 = rank 8, column 0 = file a (FEN order).
Vision states are '.' (empty), 'X' (white piece) and 'x' (black piece). Pure Python: no OpenCV.
"""

from __future__ import annotations

from vision import messages as said
from vision.errors import VisionError

INITIAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
EMPTY, WHITE, BLACK = ".", "X", "x"
STATES = (EMPTY, WHITE, BLACK)
UNKNOWN = "?"  #: a square not read for sure (events.md: a piece of unknown colour)

Grid = list[list[str]]


def to_grid(placement: str) -> Grid:
    """Read a FEN placement (piece letters, X, x, ?) into a grid of '.', 'X', 'x', '?'.

    Raises:
        VisionError: the placement is not 8 ranks of 8 squares, naming the rank at fault.
    """
    ranks = placement.strip().split(" ")[0].split("/")
    if len(ranks) != 8:
        raise VisionError.of(said.PLACEMENT_RANKS, placement=placement)
    grid: Grid = []
    for i, rank in enumerate(ranks):
        row: list[str] = []
        for ch in rank:
            if ch.isdigit() and ch != "0":
                row.extend(EMPTY * int(ch))
            elif ch in "PNBRQKX":
                row.append(WHITE)
            elif ch in "pnbrqkx":
                row.append(BLACK)
            elif ch == UNKNOWN:
                row.append(UNKNOWN)
            else:
                raise VisionError.of(
                    said.PLACEMENT_LETTER, placement=placement, letter=ch, rank=8 - i
                )
        if len(row) != 8:
            raise VisionError.of(
                said.PLACEMENT_SQUARES, placement=placement, rank=8 - i, count=len(row)
            )
        grid.append(row)
    return grid


def from_grid(grid: Grid) -> str:
    """Write a grid of '.', 'X', 'x' as a FEN placement with X and x."""
    ranks = []
    for row in grid:
        out, run = "", 0
        for s in row:
            if s == EMPTY:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            out += s
        ranks.append(out + (str(run) if run else ""))
    return "/".join(ranks)


def to_sensed(placement: str) -> str:
    """The placement as a colour-only sensor sees it (every piece letter becomes X or x)."""
    return from_grid(to_grid(placement))


def square_name(row: int, col: int) -> str:
    """Algebraic name of grid cell (row, col): (0, 0) is a8, (7, 7) is h1."""
    return "abcdefgh"[col] + str(8 - row)


def differences(a: str, b: str) -> list[str]:
    """Names of the squares whose sensed state differs between placements `a` and `b`."""
    ga, gb = to_grid(a), to_grid(b)
    return [square_name(r, c) for r in range(8) for c in range(8) if ga[r][c] != gb[r][c]]
