"""Is something (an arm, a hand, a sleeve) lying over the board? Which squares does it hide?

Both pictures are warped to the same small board-aligned image that also holds a ring of the
table around the playing area (`RING`), each with its own corners: a picture of another size,
a crop or a bumped camera compare square for square. Their grey levels are matched (light is
not an arm), and a changed region that reaches from the ring into the playing area is an arm
or a hand: a moved piece changes squares inside the board, an arm comes from outside it.

The reference is a picture of the board without hands: the calibration frame (stored with the
calibration) or the last still scene the tracker accepted. Why not colour (skin): a light wood
board is skin-coloured; a change from a known hand-free picture does not depend on the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.cvload import cv2, np
from vision.geometry import Corners, canonical_corners
from vision.motion import matched

CELL = 12  #: pixels per square in the board-aligned image
RING = 1.0  #: width of the table ring around the playing area, in squares
THRESHOLD = 28.0  #: grey levels (after matching) a pixel must change by
MIN_RING_PX = 0.5  #: an arm enters through the ring: at least this many squares of it there
MIN_BOARD_SQ = 1.5  #: ... and covers at least this many squares' area of the playing area
MIN_RING_THROUGH = 1.0  #: ... and reaches the ring's outer edge or covers this much of it
COVERED = 0.25  #: a square this much under the region is hidden


@dataclass(frozen=True)
class Occlusion:
    """What lies over the board: the hidden squares (a8..h1 names) and the region's size."""

    squares: tuple[str, ...]
    board_sq: float  #: area of the playing area it covers, in squares
    ring_sq: float  #: area of the ring outside the board it covers, in squares

    def __bool__(self) -> bool:
        return bool(self.squares)

    def describe(self) -> str:
        shown = ", ".join(self.squares[:8]) + (" ..." if len(self.squares) > 8 else "")
        return f"a hand or arm over the board hides {len(self.squares)} squares ({shown})"


def ringed(picture: Any, corners: Corners, white_at: str, *, scale: float = 1.0) -> Any:
    """The grey playing area, a8 top-left, with a ring of `RING` squares around it, `CELL`
    px a square.

    `corners` are the playing area's image corners (TL, TR, BR, BL of the picture) in the
    frame the picture was made from; `scale` is the picture's size over that frame's.
    """
    n, c = np(), cv2()
    grey = picture if picture.ndim == 2 else c.cvtColor(picture, c.COLOR_BGR2GRAY)
    side = (8 + 2 * RING) * CELL
    lo, hi = RING * CELL, (8 + RING) * CELL
    dst = n.float32([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    src = n.float32(canonical_corners(corners, white_at)) * scale
    h = c.getPerspectiveTransform(src, dst)
    size = round(side)
    return c.warpPerspective(
        grey, h, (size, size), flags=c.INTER_AREA, borderMode=c.BORDER_REPLICATE
    ).astype("float32")


def _masks(size: int) -> tuple[Any, Any]:
    n = np()
    lo, hi = int(RING * CELL), int((8 + RING) * CELL)
    board = n.zeros((size, size), bool)
    board[lo:hi, lo:hi] = True
    return board, ~board


def occlusion(reference: Any, current: Any, threshold: float = THRESHOLD) -> Occlusion:
    """The region over the board in `current` that is not in `reference` (both `ringed`).

    Only a region that crosses the playing area's edge counts; it is an arm if it is big on
    both sides of the edge (`MIN_RING_PX`, `MIN_BOARD_SQ`) and comes from outside: it reaches
    the ring's outer edge, or covers `MIN_RING_THROUGH` of it. Pieces taken off the edge
    ranks change only the ring's inner part, where their tops leaned over the edge (the
    video's empty board against its start position: 7.8 squares inside, 0.5 in the ring, not
    at its outer edge); of the video's 169 hand frames seen without this rule none is lost.
    Squares covered by it for at least `COVERED` of their area are hidden.
    """
    n, c = np(), cv2()
    board, ring = _masks(current.shape[0])
    d = n.abs(matched(reference, current, board | ring) - reference)
    changed = (d > threshold).astype("uint8")
    changed = c.morphologyEx(changed, c.MORPH_OPEN, n.ones((2, 2), "uint8"))
    changed = c.morphologyEx(changed, c.MORPH_CLOSE, n.ones((5, 5), "uint8"))
    count, labels = c.connectedComponents(changed, connectivity=8)
    if count <= 1:
        return Occlusion((), 0.0, 0.0)
    cell_area = CELL * CELL
    in_ring = n.bincount(labels[ring], minlength=count)[1:] / cell_area
    in_board = n.bincount(labels[board], minlength=count)[1:] / cell_area
    outer = n.zeros_like(ring)
    outer[:2, :] = outer[-2:, :] = outer[:, :2] = outer[:, -2:] = True
    at_outer = n.bincount(labels[outer], minlength=count)[1:] > 0
    through = at_outer | (in_ring >= MIN_RING_THROUGH)
    arms = n.flatnonzero((in_ring >= MIN_RING_PX) & (in_board >= MIN_BOARD_SQ) & through) + 1
    if len(arms) == 0:
        return Occlusion((), 0.0, 0.0)
    lo = int(RING * CELL)
    over = n.isin(labels, arms)[lo : lo + 8 * CELL, lo : lo + 8 * CELL]
    share = over.reshape(8, CELL, 8, CELL).mean(axis=(1, 3))
    squares = tuple(
        "abcdefgh"[col] + str(8 - row)
        for row in range(8)
        for col in range(8)
        if share[row, col] >= COVERED
    )
    return Occlusion(squares, float(in_board[arms - 1].sum()), float(in_ring[arms - 1].sum()))


def likeness(reference: Any, current: Any) -> float:
    """Correlation of the playing areas of two `ringed` pictures (1: the same look).

    The same board from the same camera with some pieces moved: 0.81-0.93 on the video;
    another board with its checkers in step: 0.47-0.62 (`follow.locate` needs 0.7).
    """
    n = np()
    lo, hi = int(RING * CELL), int((8 + RING) * CELL)
    a = reference[lo:hi, lo:hi].ravel()
    b = current[lo:hi, lo:hi].ravel()
    if a.std() == 0 or b.std() == 0:
        return 0.0
    return float(n.corrcoef(a, b)[0, 1])
