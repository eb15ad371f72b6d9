"""Checks that catch a calibration, or a picture's corners, that would read the board wrong.

- The calibration photo read back: a model fitted on one photo should read that photo as the
  position it was told; where it does not, those squares will be misread in play too
  (`misread_squares`; `arbiter calibrate` refuses, naming them).
- Light and dark squares swapped (`colours_swapped`): FIDE Art. 2.1 puts a light square at
  each player's right-hand corner, so a8 and h1 are light. Corners given a quarter turn off
  (or a board set up turned) swap every square's colour: without this check each empty square
  reads as a piece, confidently.
- (In `calibrate`: with White's side given, White's pieces darker than Black's is a half
  turn, which the square colours cannot show.)
"""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.classify import classify_board
from vision.cvload import cv2, np
from vision.model import PARITY
from vision.placement import to_grid

#: light squares must be this much lighter than dark ones (share of the larger level) to
#: be told apart; below it the check cannot say (a board of two close colours)
MIN_CONTRAST = 0.06


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


def _square_lightness(board: Any) -> Any:
    """(64,) median lightness of each square's outer band, grid order (a8 first).

    The band (the outer fifth of the square) is where a piece standing on it covers least.
    """
    n, c = np(), cv2()
    grey = c.cvtColor(board, c.COLOR_BGR2GRAY).astype("float32")
    side = grey.shape[0] // 8
    band = n.ones((side, side), bool)
    k = max(1, side // 5)
    band[k:-k, k:-k] = False
    cells = grey[: side * 8, : side * 8].reshape(8, side, 8, side).transpose(0, 2, 1, 3)
    return n.median(cells[:, :, band], axis=2).reshape(64)


def colours_swapped(board: Any) -> bool | None:
    """Whether the squares that should be light (a8, h1 and theirs) are the dark ones, on a
    canonical board image (a8 top-left). None when the two colours are too close to say."""
    n = np()
    light = _square_lightness(board)
    parity = n.asarray(PARITY).reshape(64)
    a, b = float(n.median(light[parity == 0])), float(n.median(light[parity == 1]))
    if abs(a - b) < MIN_CONTRAST * max(a, b, 1.0):
        return None
    return b > a
