"""Re-registration: has the camera (or the board) moved since the calibration, and by how much?

Phase correlation of the whole frame against the calibration's reference frame gives the
translation in a few milliseconds; it runs only on still scenes. Small shifts move the
corners with it; a large one (or a weak correlation) means the camera moved a lot.
"""

from __future__ import annotations

import base64
from typing import Any

from vision.cvload import cv2, np
from vision.errors import CalibrationError

REF_WIDTH = 320  #: width of the stored reference frame


def reference_image(frame: Any) -> Any:
    """The grey, downscaled copy of a frame that later frames are registered against."""
    c = cv2()
    grey = frame if frame.ndim == 2 else c.cvtColor(frame, c.COLOR_BGR2GRAY)
    scale = REF_WIDTH / grey.shape[1]
    size = (REF_WIDTH, max(1, round(grey.shape[0] * scale)))
    return c.resize(grey, size, interpolation=c.INTER_AREA)


def encode(image: Any) -> str:
    """A grey image as base64 PNG text (for the calibration's JSON)."""
    ok, buf = cv2().imencode(".png", image)
    if not ok:
        raise CalibrationError("cannot encode the reference image as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def decode(text: str) -> Any:
    """The grey image stored by `encode`."""
    try:
        raw = np().frombuffer(base64.b64decode(text), dtype="uint8")
    except ValueError:
        raise CalibrationError("the calibration's reference image is not base64") from None
    img = cv2().imdecode(raw, cv2().IMREAD_GRAYSCALE)
    if img is None:
        raise CalibrationError("the calibration's reference image is not a PNG")
    return img


class Registrar:
    """Measures how far frames are shifted from one reference frame (prepared once)."""

    def __init__(self, reference: Any) -> None:
        c = cv2()
        self.shape = reference.shape
        self.window = c.createHanningWindow((self.shape[1], self.shape[0]), c.CV_32F)
        self.ref = _high_pass(reference)

    def shift(self, frame: Any) -> tuple[float, float, float]:
        """(dx, dy, response): how far `frame` is shifted from the reference, in frame pixels.

        `response` in [0, 1] says how sure the correlation is (a clean shift gives > 0.2).
        """
        n, c = np(), cv2()
        cur = reference_image(frame)
        if cur.shape != self.shape:
            cur = c.resize(cur, (self.shape[1], self.shape[0]))
        (dx, dy), response = c.phaseCorrelate(self.ref, _high_pass(cur), self.window)
        scale = frame.shape[1] / REF_WIDTH
        return float(dx * scale), float(dy * scale), float(n.clip(response, 0.0, 1.0))


def _high_pass(grey: Any) -> Any:
    """Edges only, so that a change of light does not dominate the correlation."""
    c = cv2()
    img = grey.astype("float32")
    return img - c.GaussianBlur(img, (0, 0), 5)


def estimate_shift(reference: Any, frame: Any) -> tuple[float, float, float]:
    """(dx, dy, response) of `frame` against `reference` (see `Registrar.shift`)."""
    return Registrar(reference).shift(frame)
