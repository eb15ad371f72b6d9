"""Re-register a single picture against its calibration (for `arbiter snapshot`).

The live tracker follows the board on every still scene; a single picture gets the same
treatment here: ECC against the calibration's reference frame, moved corners when the fit is
good and the move small, a clear error when the board moved too far to be sure.

A picture of another size from the same camera (`locate`): resized (same shape) it is
registered at the calibration's size and its corners scaled back; cropped (another shape),
moved too far, or when that fails, the board is found again by its squares (`vision.detect`)
and must look like the calibration's board. Either way the
grid's light and dark squares must fall where FIDE Art. 2.1 has them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from vision import messages as said
from vision.calibration import Calibration
from vision.errors import CalibrationError
from vision.geometry import board_side_px
from vision.registration import Registrar, board_mask, decode, move_points

MARGIN = 0.15  #: the fit looks this far around the board (share of its size)
MIN_FIT = 0.6  #: weakest fit trusted
MAX_MOVE_SQ = 1.0  #: largest corner move followed, in squares


SAME_SHAPE = 0.01  #: aspect ratios this close are one picture resized
SAME_BOARD = 0.7  #: least `occlusion.likeness` of a board found again to the calibration's
SAME_CORNERS_SQ = 0.08  #: given corners this close (in squares) to the followed ones agree


def locate(frame: Any, cal: Calibration) -> tuple[Calibration, str, float | None]:
    """(calibration with this picture's corners and size, how they were found, the corners'
    move in px when the picture has the calibration's size).

    Raises:
        CalibrationError: the board is neither near its old place nor found by its squares.
    """
    from vision import geometry
    from vision.cvload import cv2
    from vision.detect import find_corners
    from vision.occlusion import likeness, ringed
    from vision.registration import REF_WIDTH
    from vision.square_colours import colours_swapped

    size = (int(frame.shape[1]), int(frame.shape[0]))
    w, h = cal.frame_size
    near: CalibrationError | None = None  #: why the board is not near its old place
    if size == (w, h):
        try:
            moved_cal, move = follow(frame, cal)
            return moved_cal, "followed", move
        except CalibrationError as exc:
            near = exc  # moved far: look for the board
    elif w and h and abs(size[0] / size[1] - w / h) <= SAME_SHAPE * (w / h):
        try:
            scaled, _ = follow(cv2().resize(frame, (w, h), interpolation=cv2().INTER_AREA), cal)
            k = size[0] / w
            corners = [(x * k, y * k) for x, y in scaled.corners]
            return cal.with_corners(corners, size), f"resized from {w}x{h}", None
        except CalibrationError:
            pass  # not the same framing: look for the board
    try:
        corners = find_corners(frame)
    except CalibrationError:
        if near is not None:
            raise near from None
        raise CalibrationError.of(
            said.OTHER_SIZE_NO_BOARD, width=size[0], height=size[1], cal_width=w, cal_height=h
        ) from None
    found = cal.with_corners(corners, size)
    if colours_swapped(geometry.warp(frame, found.homography())):
        raise CalibrationError.of(said.FOUND_QUARTER_TURN)
    if cal.reference:
        ref = ringed(decode(cal.reference), cal.corners, cal.white_at, scale=REF_WIDTH / max(w, 1))
        if likeness(ref, ringed(frame, found.corners, found.white_at)) < SAME_BOARD:
            raise CalibrationError.of(said.FOUND_OTHER_BOARD)
    return found, "found again by its squares", None


def same_view(
    frame: Any, cal: Calibration, corners: Sequence[tuple[float, float]]
) -> list[tuple[float, float]] | None:
    """The board's corners in `frame` as registered onto the calibration's frame (in the
    calibration's corner order), when `frame` comes from the calibration's camera where it
    stood (the same size or resized) and the given `corners` agree with them; else None.

    Only then is the calibration's frame a fair hand-free reference for `occlusion`: a photo
    from another place sees the table, the pieces' sides and the light otherwise, which would
    look like an arm everywhere (every handheld uschess photo against IMG_4755 does). The
    registered corners, not the given ones, align the two pictures: a corner given 10 px off
    would make the warped table ring differ along the edge, like an arm.
    """
    from vision.cvload import cv2

    size = (int(frame.shape[1]), int(frame.shape[0]))
    w, h = cal.frame_size
    if not (cal.reference and w and h):
        return None
    k = size[0] / w
    if size != (w, h):
        if abs(size[0] / size[1] - w / h) > SAME_SHAPE * (w / h):
            return None
        frame = cv2().resize(frame, (w, h), interpolation=cv2().INTER_AREA)
    try:
        followed, _ = follow(frame, cal)
    except CalibrationError:
        return None
    found = [(x * k, y * k) for x, y in followed.corners]
    square = board_side_px(found) / 8
    agree = all(  # each given corner near one followed corner, whatever order either has
        min(math.hypot(a[0] - b[0], a[1] - b[1]) for a in found) <= SAME_CORNERS_SQ * square
        for b in corners
    )
    return found if agree else None


def follow(frame: Any, cal: Calibration) -> tuple[Calibration, float]:
    """(calibration with the corners where the board now is, largest corner move in px).

    Raises:
        CalibrationError: the calibration has no reference frame, the picture's size differs
            from the calibration's, or the board cannot be found near its old place.
    """
    if not cal.reference:
        raise CalibrationError.of(said.NO_REFERENCE)
    if (frame.shape[1], frame.shape[0]) != tuple(cal.frame_size):
        raise CalibrationError.of(
            said.OTHER_SIZE,
            width=frame.shape[1],
            height=frame.shape[0],
            cal_width=cal.frame_size[0],
            cal_height=cal.frame_size[1],
        )
    registrar = Registrar(decode(cal.reference))
    mask = board_mask(cal.corners, cal.frame_size[0], registrar.shape, MARGIN)
    found = registrar.align(frame, mask)
    square = board_side_px(cal.corners) / 8
    if found is None or found[1] < MIN_FIT:
        raise CalibrationError.of(said.BOARD_NOT_THERE)
    corners = move_points(found[0], cal.corners)
    move = max(
        math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in zip(corners, cal.corners, strict=True)
    )
    if move > MAX_MOVE_SQ * square:
        raise CalibrationError.of(said.BOARD_MOVED, squares=move / square)
    return cal.with_corners(corners), move
