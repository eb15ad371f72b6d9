"""Error types of the vision package: each message names what went wrong and where, and
the `arbiter` command says it in the user's language.

    ArbiterError (rules.errors)
    └── VisionError                   a picture, video, camera or vision setting cannot be used
        ├── CalibrationError          a calibration cannot be made, read or applied
        │   └── CalibrationMisread    it reads its own photo unlike the position told
        ├── MissingOpenCV             OpenCV (or numpy) is not installed (the `camera` extra)
        ├── HandOverBoard             a hand or arm covers the board: no position in it
        └── CameraValueError          (ValueError) a `--camera` value that cannot be used
"""

from __future__ import annotations

from rules.errors import ArbiterError
from rules.i18n import Joined
from vision import messages as said


class VisionError(ArbiterError):
    """A picture, video, camera or vision setting cannot be used."""


class CalibrationError(VisionError):
    """A calibration cannot be made, read or applied (bad corners, bad file, unknown board)."""


class MissingOpenCV(VisionError):
    """OpenCV (or numpy) is not installed; the camera commands need it."""


class CalibrationMisread(CalibrationError):
    """The calibration reads its own photo differently from the position it was told."""

    def __init__(self, squares: list[tuple[str, str, str]]) -> None:
        self.squares = squares
        names = said.SQUARE_STATES
        each = Joined(
            CalibrationError.of(said.MISREAD_SQUARE, square=sq, read=names[read], told=names[told])
            for sq, told, read in squares
        )
        super().__init__(said.MISREAD.format(count=len(squares), squares=each))
        self.template, self.fields = said.MISREAD, {"count": len(squares), "squares": each}


class HandOverBoard(VisionError):
    """Something crossing the board's edge (a hand, an arm, a sleeve) covers more squares than
    a move changes: the picture shows no position, so none is read from it."""

    def __init__(self, squares: tuple[str, ...]) -> None:
        self.squares = squares
        shown = ", ".join(squares[:8]) + (" ..." if len(squares) > 8 else "")
        super().__init__(said.HAND_OVER_BOARD.format(count=len(squares), squares=shown))
        self.template, self.fields = said.HAND_OVER_BOARD, {"count": len(squares), "squares": shown}


class CameraValueError(VisionError, ValueError):
    """A `--camera` value that is neither a device number nor `picam` (argparse's `type=`
    turns it into a usage error naming the value)."""
