"""Pictures for people: the grid and the squares' classes over a frame, wrong squares marked.

`arbiter calibrate` writes one so the user can check the calibration; the accuracy tests
write one per failing photo, with the wrongly classified squares outlined in red.
"""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.cvload import cv2, np
from vision.placement import BLACK, WHITE, to_grid


def _square_polygon(h: Any, row: int, col: int) -> Any:
    sq = geometry.SQ
    pts = [(col * sq, row * sq), ((col + 1) * sq, row * sq)]
    pts += [((col + 1) * sq, (row + 1) * sq), (col * sq, (row + 1) * sq)]
    return np().round(geometry.to_image(h, pts)).astype("int32")


def draw(
    frame: Any, cal: Calibration, placement: str, wrong: list[tuple[int, int]] | None = None
) -> Any:
    """A copy of `frame` with the 8x8 grid, a1 named, and each square's class drawn.

    White pieces get a white dot, black pieces a black dot ringed in white, empty squares
    nothing; squares in `wrong` (row, col; row 0 = rank 8) are outlined in red.
    """
    c = cv2()
    out = frame.copy()
    h = cal.homography()
    grid = to_grid(placement)
    side = geometry.board_side_px(cal.corners)
    radius = max(3, int(side / 48))
    thick = max(1, int(side / 300))
    for r in range(8):
        for col in range(8):
            poly = _square_polygon(h, r, col)
            c.polylines(out, [poly], True, (0, 200, 0), thick)
            cx, cy = (int(v) for v in poly.mean(axis=0))
            if grid[r][col] == WHITE:
                c.circle(out, (cx, cy), radius, (255, 255, 255), -1)
                c.circle(out, (cx, cy), radius, (0, 0, 0), 1)
            elif grid[r][col] == BLACK:
                c.circle(out, (cx, cy), radius, (0, 0, 0), -1)
                c.circle(out, (cx, cy), radius, (255, 255, 255), 1)
    for r, col in wrong or []:
        c.polylines(out, [_square_polygon(h, r, col)], True, (0, 0, 255), 3 * thick)
    a1 = _square_polygon(h, 7, 0).mean(axis=0)
    c.putText(
        out, "a1", (int(a1[0]) - 8, int(a1[1]) + 5), c.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 2
    )
    return out
