"""Automatic board localisation: the four outer corners of the playing area.

OpenCV's chessboard detector (`findChessboardCornersSB`) finds the 7x7 inner corners of an
empty board or, often, of the start position; the outer corners follow by a homography
fitted to that grid. Partial grids (7x5, where pieces hide the outer lines) were tried and
dropped: on an empty board their place on the board is ambiguous and they were placed wrong
more often than right. When nothing is found, the error asks for the corners.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import cv2, np
from vision.errors import CalibrationError
from vision.geometry import Corners, check_corners


def _order(points: Any) -> Corners:
    """Four points as image top-left, top-right, bottom-right, bottom-left."""
    n = np()
    pts = n.asarray(points, dtype="float64")
    centre = pts.mean(axis=0)
    ang = n.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[n.argsort(ang)]  # clockwise on screen (y down)
    start = int(n.argmin(pts.sum(axis=1)))
    pts = n.roll(pts, -start, axis=0)
    return [(float(x), float(y)) for x, y in pts]


def _inner_corners(grey: Any) -> Any | None:
    """The 49 inner corners (49 x 2, `grey`'s pixels) by the first detector that finds them.

    Tried in turn: the sector-based detector at 500 and 800 px (robust to pieces and glare),
    then the classic one at 800 px with sub-pixel refinement (finds plain boards the first
    misses: perspective, dark wood).
    """
    c = cv2()
    for side, classic in ((500, False), (800, False), (800, True)):
        scale = min(1.0, side / max(grey.shape))
        small = c.resize(grey, None, fx=scale, fy=scale, interpolation=c.INTER_AREA)
        if classic:
            flags = c.CALIB_CB_ADAPTIVE_THRESH | c.CALIB_CB_NORMALIZE_IMAGE
            ok, found = c.findChessboardCorners(small, (7, 7), flags=flags)
            if ok:
                criteria = (c.TERM_CRITERIA_EPS | c.TERM_CRITERIA_COUNT, 30, 0.01)
                found = c.cornerSubPix(small, found, (5, 5), (-1, -1), criteria)
        else:
            flags = c.CALIB_CB_EXHAUSTIVE | c.CALIB_CB_NORMALIZE_IMAGE
            ok, found = c.findChessboardCornersSB(small, (7, 7), flags=flags)
        if ok:
            return found.reshape(-1, 2).astype("float32") / scale
    return None


def _checker_score(grey: Any, h_inv: Any) -> float:
    """How well the 8x8 area alternates light and dark squares, less how much the ring of
    squares just outside it does: the playing area is where the checkers stop."""
    n, c = np(), cv2()
    px = 12
    to_ring = n.array([[px, 0, px], [0, px, px], [0, 0, 1]], dtype="float64")  # 1-square margin
    m = to_ring @ n.linalg.inv(h_inv)
    warped = c.warpPerspective(grey, m, (10 * px, 10 * px), flags=c.INTER_AREA)
    means = warped.astype("float32").reshape(10, px, 10, px).mean(axis=(1, 3))
    inside = means[1:9, 1:9]
    sign = n.fromfunction(lambda r, q: 1.0 - 2.0 * ((r + q) % 2), (8, 8))
    checker = abs(float((inside * sign).mean()))
    ring = n.concatenate([means[0, :], means[9, :], means[1:9, 0], means[1:9, 9]])
    ring_steps = float(n.abs(n.diff(n.concatenate([means[0, 1:9], means[9, 1:9]]))).mean())
    ring_steps = max(
        ring_steps, float(n.abs(n.diff(n.concatenate([means[1:9, 0], means[1:9, 9]]))).mean())
    )
    del ring
    return checker - 0.5 * ring_steps


def find_corners(frame: Any) -> Corners:
    """The playing area's four corners (TL, TR, BR, BL) in `frame`'s pixels.

    The 7x7 grid found may be one line off where pieces or a printed border look like
    squares; of the grid and its shifts by one square, the one whose 8x8 area is most like a
    chessboard (and whose surroundings least) is taken.

    Raises:
        CalibrationError: no chessboard pattern was found (give the corners by hand).
    """
    n, c = np(), cv2()
    grey = frame if frame.ndim == 2 else c.cvtColor(frame, c.COLOR_BGR2GRAY)
    img_pts = _inner_corners(grey)
    best: tuple[float, Any] | None = None
    if img_pts is not None:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                board_pts = n.array(
                    [(i + dx, j + dy) for j in range(1, 8) for i in range(1, 8)], dtype="float32"
                )
                h_inv, _ = c.findHomography(board_pts, img_pts)
                if h_inv is None:
                    continue
                score = _checker_score(grey, h_inv)
                if best is None or score > best[0]:
                    best = (score, h_inv)
    if best is not None and best[0] > 0:
        outer = n.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype="float64").reshape(-1, 1, 2)
        return check_corners(_order(c.perspectiveTransform(outer, best[1]).reshape(-1, 2)))
    raise CalibrationError(
        "no chessboard found in the picture: give the four corners of the playing area "
        '(--corners "x,y x,y x,y x,y", image top-left, top-right, bottom-right, bottom-left)'
    )
