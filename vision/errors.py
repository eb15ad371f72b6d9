"""Error types of the vision package: each message names what went wrong and where."""

from __future__ import annotations

from rules.errors import ArbiterError

INSTALL_HINT = "install the camera extra: pip install 'otb-arbiter[camera]'"


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
        names = {".": "empty", "X": "a white piece", "x": "a black piece"}
        said = "; ".join(
            f"{sq} read as {names[read]}, not {names[told]}" for sq, told, read in squares
        )
        super().__init__(
            f"the calibration misreads its own photo on {len(squares)} square(s): {said}. "
            "Check the position given (--fen) and that no hand or shadow is on the board, then "
            "take the photo again (more even light), or keep it anyway with --accept-misread"
        )


class HandOverBoard(VisionError):
    """Something crossing the board's edge (a hand, an arm, a sleeve) covers more squares than
    a move changes: the picture shows no position, so none is read from it."""

    def __init__(self, squares: tuple[str, ...]) -> None:
        self.squares = squares
        shown = ", ".join(squares[:8]) + (" ..." if len(squares) > 8 else "")
        super().__init__(
            f"a hand or arm is over the board: something crossing its edge hides "
            f"{len(squares)} squares ({shown}). Take the picture again with nothing over the "
            "board (a shadow moving across it looks the same)"
        )
