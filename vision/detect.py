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

MAX_SIDE = 800  #: frames are searched at most this big (speed)


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


def find_corners(frame: Any) -> Corners:
    """The playing area's four corners (TL, TR, BR, BL) in `frame`'s pixels.

    Raises:
        CalibrationError: no chessboard pattern was found (give the corners by hand).
    """
    n, c = np(), cv2()
    grey = frame if frame.ndim == 2 else c.cvtColor(frame, c.COLOR_BGR2GRAY)
    scale = min(1.0, MAX_SIDE / max(grey.shape))
    small = c.resize(grey, None, fx=scale, fy=scale, interpolation=c.INTER_AREA)
    flags = c.CALIB_CB_EXHAUSTIVE | c.CALIB_CB_ACCURACY
    ok, found = c.findChessboardCornersSB(small, (7, 7), flags=flags)
    if ok:
        img_pts = found.reshape(-1, 2).astype("float32") / scale
        board_pts = n.array([(i, j) for j in range(1, 8) for i in range(1, 8)], dtype="float32")
        h_inv, _ = c.findHomography(board_pts, img_pts)
        if h_inv is not None:
            outer = n.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype="float64").reshape(-1, 1, 2)
            return check_corners(_order(c.perspectiveTransform(outer, h_inv).reshape(-1, 2)))
    raise CalibrationError(
        "no chessboard found in the picture: give the four corners of the playing area "
        '(--corners "x,y x,y x,y x,y", image top-left, top-right, bottom-right, bottom-left)'
    )
