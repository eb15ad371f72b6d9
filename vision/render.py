"""A simple renderer of positions the photos do not have (promotions, odd set-ups).

It builds a frame for any placement out of a real frame of a known position: each square of
the new position gets the top-down patch of a real square in the same state (empty, white
piece, black piece) and of the same colour, the nearest such one, and the new board is
warped back into the frame. Pieces keep their real look and light; what is lost is a tall
piece's lean over the next square, so use it with top-down views.
"""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.cvload import cv2, np
from vision.errors import VisionError
from vision.placement import STATES, to_grid


def render(frame: Any, cal: Calibration, source: str, placement: str) -> Any:
    """`frame` (showing `source`) changed to show `placement` (letters or X/x).

    Raises:
        VisionError: a state/colour pair of `placement` is absent from `source`.
    """
    n, c = np(), cv2()
    h = cal.homography()
    sq = geometry.SQ
    board = geometry.warp(frame, h)
    have = to_grid(source)
    want = to_grid(placement)
    new = board.copy()
    for r in range(8):
        for col in range(8):
            state, parity = want[r][col], (r + col) % 2
            options = [
                (abs(r - r2) + abs(col - c2), r2, c2)
                for r2 in range(8)
                for c2 in range(8)
                if have[r2][c2] == state and (r2 + c2) % 2 == parity
            ]
            if not options:
                name = ("empty square", "white piece", "black piece")[STATES.index(state)]
                colour = "dark" if parity else "light"
                raise VisionError(f"the source position has no {name} on a {colour} square")
            _, r2, c2 = min(options)
            new[r * sq : (r + 1) * sq, col * sq : (col + 1) * sq] = board[
                r2 * sq : (r2 + 1) * sq, c2 * sq : (c2 + 1) * sq
            ]
    size = (frame.shape[1], frame.shape[0])
    inv = n.linalg.inv(h)
    back = c.warpPerspective(new, inv, size, flags=c.INTER_LINEAR)
    mask = c.warpPerspective(n.full(new.shape[:2], 255, "uint8"), inv, size)
    mask = c.erode(mask, n.ones((3, 3), "uint8"))
    out = frame.copy()
    out[mask > 0] = back[mask > 0]
    return out
