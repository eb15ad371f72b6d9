"""Board geometry: corners, orientation and the homography to a canonical top-down grid.

The canonical board is `SIZE` x `SIZE` pixels, `SQ` per square, a8 at the top-left and White at
the bottom, whatever the camera's view. Corners are given as in `labels.json`: the image's
top-left, top-right, bottom-right and bottom-left corner of the 8x8 playing area; `white_at`
says which image edge White's side is at, and so which corner is a1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from vision import messages as said
from vision.cvload import cv2, np
from vision.errors import CalibrationError

SQ = 40  #: pixels per square on the canonical board
SIZE = 8 * SQ
SIDES = ("bottom", "right", "top", "left")
#: index in [TL, TR, BR, BL] of the image corner that is a8, by the edge White is at
_A8_INDEX = {"bottom": 0, "right": 3, "top": 2, "left": 1}

Corners = list[tuple[float, float]]
MIN_TILT = math.radians(20)  #: a camera tilted less than this from the vertical is "above"


def parse_corners(text: str) -> Corners:
    """Read '--corners "x,y x,y x,y x,y"' (TL, TR, BR, BL of the playing area).

    Raises:
        CalibrationError: not four x,y pairs of numbers, or not a convex quadrilateral.
    """
    parts = text.replace(";", " ").split()
    try:
        pts = [(float(p.split(",")[0]), float(p.split(",")[1])) for p in parts]
    except (ValueError, IndexError):
        raise CalibrationError.of(said.CORNERS_NOT_PAIRS, text=text) from None
    if len(pts) != 4 or any(len(p.split(",")) != 2 for p in parts):
        raise CalibrationError.of(said.CORNERS_NOT_FOUR, text=text)
    check_corners(pts)
    return pts


def check_corners(pts: Sequence[Sequence[float]]) -> Corners:
    """Check four corners (TL, TR, BR, BL) form a convex quadrilateral in that order."""
    if len(pts) != 4:
        raise CalibrationError.of(said.CORNERS_COUNT, count=len(pts))
    out = [(float(p[0]), float(p[1])) for p in pts]
    signs = []
    for i in range(4):
        (x0, y0), (x1, y1), (x2, y2) = out[i], out[(i + 1) % 4], out[(i + 2) % 4]
        signs.append((x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1))
    if not (all(s > 0 for s in signs) or all(s < 0 for s in signs)):
        raise CalibrationError.of(said.CORNERS_NOT_CONVEX, corners=out)
    return out


def check_in_frame(corners: Corners, width: int, height: int, slack: float = 0.03) -> None:
    """Check the corners lie on a `width` x `height` picture, give or take `slack` of the
    board's side (a board cut a little by the picture's edge is still read).

    Why: corners meant for another picture (or mistyped) would read whatever lies there.

    Raises:
        CalibrationError: a corner is off the picture, naming it.
    """
    margin = slack * board_side_px(corners)
    for name, (x, y) in zip(said.CORNER_NAMES, corners, strict=True):
        if not (-margin <= x <= width - 1 + margin and -margin <= y <= height - 1 + margin):
            raise CalibrationError.of(
                said.CORNER_OFF_PICTURE, name=name, x=x, y=y, width=width, height=height
            )


def canonical_corners(corners: Corners, white_at: str) -> Corners:
    """The image corners reordered as a8, h8, h1, a1 (canonical TL, TR, BR, BL)."""
    if white_at not in _A8_INDEX:
        raise CalibrationError.of(said.WHITE_AT_UNKNOWN, sides=", ".join(SIDES), white_at=white_at)
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


def warp_region(frame: Any, h: Any, x0: int, y0: int, width: int, height: int) -> Any:
    """The canonical board's pixels from (`x0`, `y0`), `width` x `height`, as `warp` makes
    them, also beyond the board's edge (negative or past `SIZE`): what stands or lies
    around the board, seen flat on its plane. Pixels off the picture are black."""
    c, n = cv2(), np()
    shift = n.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    return c.warpPerspective(frame, shift @ h, (width, height), flags=c.INTER_AREA)


def in_picture(h: Any, pts: Any, frame_size: tuple[int, int]) -> bool:
    """Whether every canonical point of `pts` (N x 2) falls on a `frame_size` (width, height)
    picture."""
    img = to_image(h, pts)
    w, hh = frame_size
    return bool(((img >= 0).all(axis=1) & (img[:, 0] <= w - 1) & (img[:, 1] <= hh - 1)).all())


def to_image(h: Any, pts: Any) -> Any:
    """Canonical board points (N x 2) mapped back to image pixels."""
    n = np()
    arr = n.asarray(pts, dtype="float64").reshape(-1, 1, 2)
    return cv2().perspectiveTransform(arr, n.linalg.inv(h)).reshape(-1, 2)


def to_board(h: Any, pts: Any) -> Any:
    """Image points (N x 2) mapped to canonical board pixels."""
    arr = np().asarray(pts, dtype="float64").reshape(-1, 1, 2)
    return cv2().perspectiveTransform(arr, h).reshape(-1, 2)


def camera_place(h: Any, frame_size: tuple[int, int]) -> Any:
    """Where the camera is, in canonical board pixels: (x, y) of its foot on the board plane
    and its height above it, or None.

    The homography of a pinhole camera is K [r1 r2 t]; with square pixels and the principal
    point at the frame's centre, the two constraints on r1, r2 (orthogonal, same length) give
    the focal length, and then the camera's centre. None where the picture does not say (no
    frame size, a degenerate homography).
    """
    n = np()
    w, hh = frame_size
    if not w or not hh:
        return None
    g = n.linalg.inv(n.asarray(h, dtype="float64"))  # canonical board -> image
    a = n.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -hh / 2], [0.0, 0.0, 1.0]]) @ g
    a1, a2 = a[:, 0], a[:, 1]
    guesses = []
    if abs(a1[2] * a2[2]) > 1e-12:
        guesses.append(-(a1[0] * a2[0] + a1[1] * a2[1]) / (a1[2] * a2[2]))
    if abs(a1[2] ** 2 - a2[2] ** 2) > 1e-12:
        lengths = a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2
        guesses.append(-lengths / (a1[2] ** 2 - a2[2] ** 2))
    good = [f2 for f2 in guesses if f2 > 0 and math.isfinite(f2)]
    f = math.sqrt(float(n.median(good))) if good else float(max(w, hh))
    m = n.diag([1.0 / f, 1.0 / f, 1.0]) @ a
    scale = (n.linalg.norm(m[:, 0]) + n.linalg.norm(m[:, 1])) / 2
    if scale == 0 or not math.isfinite(scale):
        return None
    if m[2, 2] < 0:  # the board lies in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] / scale, m[:, 1] / scale, m[:, 2] / scale
    rot = n.stack([r1, r2, n.cross(r1, r2)], axis=1)
    centre = -rot.T @ t
    if not n.isfinite(centre).all():
        return None
    return n.array([centre[0], centre[1], abs(centre[2])])


def tilt(h: Any, frame_size: tuple[int, int]) -> float | None:
    """The camera's angle from the vertical over the board's middle, in radians, or None
    where the picture does not say (`camera_place`)."""
    n = np()
    place = camera_place(h, frame_size)
    if place is None:
        return None
    return math.atan2(float(n.linalg.norm(place[:2] - n.array([SIZE / 2, SIZE / 2]))), place[2])


def tilted(h: Any, frame_size: tuple[int, int]) -> bool:
    """Whether the camera looks at the board from the side (more than `MIN_TILT`), so that
    tall pieces lean over the squares behind them."""
    angle = tilt(h, frame_size)
    return angle is not None and angle > MIN_TILT


def _down(h: Any, frame_size: tuple[int, int]) -> Any:
    """The image axis (x, y) that points toward the camera: (0, 1) for an upright picture.

    It is the axis nearest the way from the board's middle to the camera's foot (the image
    of the foot is where vertical lines meet), so a picture taken sideways or upside down
    is read like the same picture upright. Snapped to an axis because a picture's own
    "down" is what its taker held level; a camera nearly above the board (tilted less than
    `MIN_TILT`), where pieces hardly lean, or a picture of unknown size keeps (0, 1).
    """
    n = np()
    place = camera_place(h, frame_size)
    middle = n.array([SIZE / 2, SIZE / 2])
    if place is None or not tilted(h, frame_size):
        return n.array([0.0, 1.0])
    ends = to_image(h, n.stack([middle, place[:2]]))
    way = ends[1] - ends[0]
    if not n.isfinite(way).all():
        return n.array([0.0, 1.0])
    if abs(way[0]) > abs(way[1]):
        return n.array([math.copysign(1.0, way[0]), 0.0])
    return n.array([0.0, math.copysign(1.0, way[1])])


def toward_camera(h: Any, frame_size: tuple[int, int] = (0, 0), step: float = 6.0) -> Any:
    """Per square, the unit vector (canonical coords) pointing toward the camera at its centre.

    Why: a camera that is not straight above sees tall pieces lean away from it, over the
    squares behind; a piece's base is on the side of its square nearer the camera, which is
    the side down the picture as its taker held it (`_down`, mapped onto each square).
    `frame_size` (width, height) lets a picture taken sideways or upside down be read as
    upright. Returns an (8, 8, 2) array.
    """
    n = np()
    centres = n.array(
        [[(c + 0.5) * SQ, (r + 0.5) * SQ] for r in range(8) for c in range(8)], dtype="float64"
    )
    img = to_image(h, centres)
    vec = to_board(h, img + step * _down(h, frame_size)) - centres
    norm = n.linalg.norm(vec, axis=1, keepdims=True)
    norm[norm == 0] = 1.0
    return (vec / norm).reshape(8, 8, 2)


def board_side_px(corners: Corners) -> float:
    """Mean length of the quadrilateral's four sides, in image pixels."""
    n = np()
    pts = n.asarray(corners, dtype="float64")
    return float(n.mean(n.linalg.norm(pts - n.roll(pts, -1, axis=0), axis=1)))


def column_tops(h: Any, frame_size: tuple[int, int], base: Any, height: float) -> Any:
    """Where the top of a column `height` canonical pixels high standing on each `base`
    point (N x 2, canonical pixels) falls on the top-down board, (N x 2), or None where the
    camera's place is unknown (`camera_place`) or the column reaches the camera's height.

    Why: the top-down board is the picture mapped onto the board's plane, so a point above
    the plane lands where the ray from the camera through it meets the plane: beyond its
    foot, away from the camera, by its distance from the camera's foot times
    height / (camera height - height). A piece standing on a square fills, on the top-down
    board, the stretch from its base to where its top lands.
    """
    n = np()
    place = camera_place(h, frame_size)
    if place is None or place[2] <= height:
        return None
    pts = n.asarray(base, dtype="float64").reshape(-1, 2)
    return pts + (pts - place[:2]) * (height / (place[2] - height))
