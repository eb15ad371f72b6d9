"""Board geometry: corners, orientation and the homography to a canonical top-down grid.

The canonical board is `SIZE` x `SIZE` pixels, `SQ` per square, a8 at the top-left and White at
the bottom, whatever the camera's view. Corners are given as in `labels.json`: the image's
top-left, top-right, bottom-right and bottom-left corner of the 8x8 playing area; `white_at`
says which image edge White's side is at, and so which corner is a1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vision.cvload import cv2, np
from vision.errors import CalibrationError

SQ = 40  #: pixels per square on the canonical board
SIZE = 8 * SQ
SIDES = ("bottom", "right", "top", "left")
#: index in [TL, TR, BR, BL] of the image corner that is a8, by the edge White is at
_A8_INDEX = {"bottom": 0, "right": 3, "top": 2, "left": 1}

Corners = list[tuple[float, float]]


def parse_corners(text: str) -> Corners:
    """Read '--corners "x,y x,y x,y x,y"' (TL, TR, BR, BL of the playing area).

    Raises:
        CalibrationError: not four x,y pairs of numbers, or not a convex quadrilateral.
    """
    parts = text.replace(";", " ").split()
    try:
        pts = [(float(p.split(",")[0]), float(p.split(",")[1])) for p in parts]
    except (ValueError, IndexError):
        raise CalibrationError(
            f'corners {text!r} must be four "x,y" pairs separated by spaces'
        ) from None
    if len(pts) != 4 or any(len(p.split(",")) != 2 for p in parts):
        raise CalibrationError(f'corners {text!r} must be exactly four "x,y" pairs')
    check_corners(pts)
    return pts


def check_corners(pts: Sequence[Sequence[float]]) -> Corners:
    """Check four corners (TL, TR, BR, BL) form a convex quadrilateral in that order."""
    if len(pts) != 4:
        raise CalibrationError(f"need 4 corners (TL, TR, BR, BL), got {len(pts)}")
    out = [(float(p[0]), float(p[1])) for p in pts]
    signs = []
    for i in range(4):
        (x0, y0), (x1, y1), (x2, y2) = out[i], out[(i + 1) % 4], out[(i + 2) % 4]
        signs.append((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1))
    if not (all(s > 0 for s in signs) or all(s < 0 for s in signs)):
        raise CalibrationError(
            f"corners {out} are not a convex quadrilateral in the order "
            "top-left, top-right, bottom-right, bottom-left"
        )
    return out


def canonical_corners(corners: Corners, white_at: str) -> Corners:
    """The image corners reordered as a8, h8, h1, a1 (canonical TL, TR, BR, BL)."""
    if white_at not in _A8_INDEX:
        raise CalibrationError(f"white_at must be one of {', '.join(SIDES)}, not {white_at!r}")
    k = _A8_INDEX[white_at]
    return list(corners[k:]) + list(corners[:k])


def homography(corners: Corners, white_at: str) -> Any:
    """3x3 matrix taking image pixels to canonical board pixels (a8 top-left, SQ per square)."""
    src = np().array(canonical_corners(corners, white_at), dtype="float32")
    dst = np().array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], dtype="float32")
    return cv2().getPerspectiveTransform(src, dst)


def warp(frame: Any, h: Any) -> Any:
    """The canonical top-down board (SIZE x SIZE) from an image and its homography."""
    return cv2().warpPerspective(frame, h, (SIZE, SIZE), flags=cv2().INTER_AREA)


def to_image(h: Any, pts: Any) -> Any:
    """Canonical board points (N x 2) mapped back to image pixels."""
    n = np()
    arr = n.asarray(pts, dtype="float64").reshape(-1, 1, 2)
    return cv2().perspectiveTransform(arr, n.linalg.inv(h)).reshape(-1, 2)


def to_board(h: Any, pts: Any) -> Any:
    """Image points (N x 2) mapped to canonical board pixels."""
    arr = np().asarray(pts, dtype="float64").reshape(-1, 1, 2)
    return cv2().perspectiveTransform(arr, h).reshape(-1, 2)


def toward_camera(h: Any, step: float = 6.0) -> Any:
    """Per square, the unit vector (canonical coords) pointing down the image at its centre.

    Why: a camera that is not straight above sees tall pieces lean away from it, over the
    squares behind; a piece's base is on the side of its square nearer the bottom of the image.
    Returns an (8, 8, 2) array.
    """
    n = np()
    centres = n.array(
        [[(c + 0.5) * SQ, (r + 0.5) * SQ] for r in range(8) for c in range(8)], dtype="float64"
    )
    img = to_image(h, centres)
    down = to_board(h, img + n.array([0.0, step]))
    vec = down - centres
    norm = n.linalg.norm(vec, axis=1, keepdims=True)
    norm[norm == 0] = 1.0
    return (vec / norm).reshape(8, 8, 2)


def board_side_px(corners: Corners) -> float:
    """Mean length of the quadrilateral's four sides, in image pixels."""
    n = np()
    pts = n.asarray(corners, dtype="float64")
    return float(n.mean(n.linalg.norm(pts - n.roll(pts, -1, axis=0), axis=1)))
