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
