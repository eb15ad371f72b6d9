"""Checks that catch a calibration, or a picture's corners, that would read the board wrong.

- The calibration photo read back: a model fitted on one photo should read that photo as the
  position it was told; where it does not, those squares will be misread in play too
  (`misread_squares`; `arbiter calibrate` refuses, naming them).
- Light and dark squares swapped: `vision.square_colours` (calibration itself runs it).
- (In `calibrate`: with White's side given, White's pieces darker than Black's is a half
  turn, which the square colours cannot show.)
"""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.classify import classify_board
from vision.placement import to_grid


def misread_squares(frame: Any, cal: Calibration) -> list[tuple[str, str, str]]:
    """(square, told, read) for each square the calibration reads differently from its own
    position on its own photo (states '.', 'X', 'x')."""
    board = geometry.warp(frame, cal.homography())
    placement, _, _ = classify_board(board, cal, frame=frame)
    told, read = to_grid(cal.placement), to_grid(placement)
    return [
        ("abcdefgh"[c] + str(8 - r), told[r][c], read[r][c])
        for r in range(8)
        for c in range(8)
        if told[r][c] != read[r][c]
    ]
