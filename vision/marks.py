"""Printed marks: what an empty square looks like when the board has ink on it.

Boards carry prints inside squares: a federation logo (the US Chess roll-up board has one on
h1), a sponsor's name, coordinates. A calibration picture shows such a square with a piece on
it, so nothing tells the model what the print looks like, and a square that is empty but
printed is far from every class it learned; the nearest is usually a black piece. What a
print is made of, however, is known: the board's own two inks, a dark pattern on a light
square or a light one on a dark square, flat and sharp-edged. This module paints such
patterns on the calibration's empty squares (in the other square colour, as measured on the
picture) so that the model learns an "empty, printed" look beside the plain empty one.

The printed look is used only for squares never seen empty, and with a small prior
(`vision.model.MARK_PRIOR`). Deterministic: the patterns come from a seeded generator.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import cv2, np
from vision.geometry import SQ
from vision.placement import Grid

VARIANTS = 6  #: painted copies of the board per calibration
SEED = 20261202


def _pattern(rng: Any) -> Any:
    """A (SQ, SQ) uint8 mask (255 = ink) of one random print about a square's centre.

    Prints sit in the middle of their square (a logo, a letter), where the classifier looks.
    """
    c, n = cv2(), np()
    mask = n.zeros((SQ, SQ), dtype="uint8")
    mid = SQ // 2
    cx, cy = (int(v) for v in mid + rng.integers(-3, 4, size=2))
    kind = int(rng.integers(3))
    if kind == 0:  # a diamond of small checks, like a federation logo
        r = int(rng.integers(int(0.2 * SQ), int(0.4 * SQ)))
        cell = max(2, r // int(rng.integers(2, 5)))
        yy, xx = n.mgrid[0:SQ, 0:SQ]
        inside = (abs(xx - cx) + abs(yy - cy)) <= r
        checks = ((xx - cx + 64) // cell + (yy - cy + 64) // cell) % 2 == 0
        mask[inside & checks] = 255
        corners = [[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]]
        c.polylines(mask, [n.array(corners, "int32")], True, 255, 1)
    elif kind == 1:  # strokes through the middle, like letters or a name
        for _ in range(int(rng.integers(2, 6))):
            p0 = tuple(int(v) for v in n.array([cx, cy]) + rng.integers(-14, 15, size=2))
            p1 = tuple(int(v) for v in n.array([cx, cy]) + rng.integers(-14, 15, size=2))
            c.line(mask, p0, p1, 255, int(rng.integers(2, 5)))
    else:  # an emblem: a disc or rings
        radius = int(rng.integers(int(0.15 * SQ), int(0.4 * SQ)))
        c.circle(mask, (cx, cy), radius, 255, int(rng.choice([-1, 2, 3])))
        if rng.random() < 0.5:
            c.circle(mask, (cx, cy), radius // 2, 255, -1)
    return mask


def marked_boards(board: Any, grid: Grid, levels: list[list[float]]) -> list[Any]:
    """`VARIANTS` copies of the canonical `board` (BGR), each empty square of `grid` printed.

    The ink of a light square is the dark squares' colour in `levels` (empty light, dark
    square colour, as measured on this picture) and the other way round. The print is as
    sharp as the board's own square edges on the warped picture, and the picture's grain is
    kept under it.
    """
    n = np()
    rng = n.random.default_rng(SEED)
    ink = n.asarray(levels, dtype="float32")[::-1]  # light squares take the dark ink
    out = []
    for _ in range(VARIANTS):
        painted = board.astype("float32")
        for r in range(8):
            for col in range(8):
                if grid[r][col] != ".":
                    continue
                alpha = _pattern(rng).astype("float32") / 255.0
                ys, xs = slice(r * SQ, (r + 1) * SQ), slice(col * SQ, (col + 1) * SQ)
                patch = painted[ys, xs]
                colour = ink[(r + col) % 2]
                texture = patch - patch.mean(axis=(0, 1), keepdims=True)
                painted[ys, xs] = (1 - alpha[..., None]) * patch + alpha[..., None] * (
                    colour + texture
                )
        out.append(n.clip(painted, 0, 255).astype("uint8"))
    return out
