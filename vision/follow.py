"""Re-register a single picture against its calibration (for `arbiter snapshot`).

The live tracker follows the board on every still scene; a single picture gets the same
treatment here: ECC against the calibration's reference frame, moved corners when the fit is
good and the move small, a clear error when the board moved too far to be sure.
"""

from __future__ import annotations

import math
from typing import Any

from vision.calibration import Calibration
from vision.errors import CalibrationError
from vision.geometry import board_side_px
from vision.registration import Registrar, board_mask, decode, move_points

MARGIN = 0.15  #: the fit looks this far around the board (share of its size)
MIN_FIT = 0.6  #: weakest fit trusted
MAX_MOVE_SQ = 1.0  #: largest corner move followed, in squares


def follow(frame: Any, cal: Calibration) -> tuple[Calibration, float]:
    """(calibration with the corners where the board now is, largest corner move in px).

    Raises:
        CalibrationError: the calibration has no reference frame, the picture's size differs
            from the calibration's, or the board cannot be found near its old place.
    """
    if not cal.reference:
        raise CalibrationError("the calibration has no reference frame: give --corners")
    if (frame.shape[1], frame.shape[0]) != tuple(cal.frame_size):
        raise CalibrationError(
            f"the picture is {frame.shape[1]}x{frame.shape[0]}, the calibration's "
            f"{cal.frame_size[0]}x{cal.frame_size[1]}: give --corners"
        )
    registrar = Registrar(decode(cal.reference))
    mask = board_mask(cal.corners, cal.frame_size[0], registrar.shape, MARGIN)
    found = registrar.align(frame, mask)
    square = board_side_px(cal.corners) / 8
    if found is None or found[1] < MIN_FIT:
        raise CalibrationError("the board is not where the calibration has it: give --corners")
    corners = move_points(found[0], cal.corners)
    move = max(
        math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in zip(corners, cal.corners, strict=True)
    )
    if move > MAX_MOVE_SQ * square:
        raise CalibrationError(
            f"the board moved by about {move / square:.1f} squares since the calibration: "
            "give --corners or recalibrate"
        )
    return cal.with_corners(corners), move
