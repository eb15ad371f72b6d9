"""Lazy access to OpenCV, so that modules the CLI loads for other commands never import it.

Why: `arbiter replay` and friends must work on a machine without the camera extra; only the
camera commands need OpenCV, and they should say how to install it when it is missing.
"""

from __future__ import annotations

from types import ModuleType

from vision import messages as said
from vision.errors import MissingOpenCV


def cv2() -> ModuleType:
    """The `cv2` module, imported on first use.

    Raises:
        MissingOpenCV: OpenCV is not installed (the message says how to install it).
    """
    try:
        import cv2 as module
    except ImportError as exc:
        raise MissingOpenCV.of(said.NEEDS_OPENCV, module="OpenCV", reason=exc) from None
    return module


def np() -> ModuleType:
    """The `numpy` module, imported on first use (same reason and error as `cv2`)."""
    try:
        import numpy as module
    except ImportError as exc:
        raise MissingOpenCV.of(said.NEEDS_OPENCV, module="numpy", reason=exc) from None
    return module
