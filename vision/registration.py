"""Re-registration: has the camera (or the board) moved since the calibration, and by how much?

Phase correlation of the frame against the calibration's reference frame (edges only, so a
change of light does not count) gives the shift from afar in a few milliseconds; ECC, started
there, adds the small rotation of a bump. It runs only on still scenes; the callers
(`tracker`, `follow`) decide what a move means: follow it, or say the camera moved a lot.
"""

from __future__ import annotations

import base64
from typing import Any

from vision import messages as said
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
        raw = np().frombuffer(base64.b64decode(text, validate=True), dtype="uint8")
    except (ValueError, TypeError):  # binascii.Error is a ValueError; a value not text
        raise CalibrationError.of(said.REFERENCE_NOT_BASE64) from None
    c = cv2()
    try:  # OpenCV refuses an empty buffer with its own error, not None
        img = c.imdecode(raw, c.IMREAD_GRAYSCALE) if raw.size else None
    except c.error:
        img = None
    if img is None:
        raise CalibrationError.of(said.REFERENCE_NOT_PNG)
    return img


class Registrar:
    """Measures how far frames are shifted from one reference frame (prepared once)."""

    def __init__(self, reference: Any) -> None:
        c = cv2()
        self.shape = reference.shape
        self.window = c.createHanningWindow((self.shape[1], self.shape[0]), c.CV_32F)
        self.ref = _high_pass(reference)

    def _prepared(self, frame: Any) -> Any:
        """The frame as the reference was prepared: grey, downscaled, edges only."""
        c = cv2()
        cur = reference_image(frame)
        if cur.shape != self.shape:
            cur = c.resize(cur, (self.shape[1], self.shape[0]))
        return _high_pass(cur)

    def _shift(self, frame: Any, prepared: Any) -> tuple[float, float, float]:
        n, c = np(), cv2()
        (dx, dy), response = c.phaseCorrelate(self.ref, prepared, self.window)
        scale = frame.shape[1] / REF_WIDTH
        return float(dx * scale), float(dy * scale), float(n.clip(response, 0.0, 1.0))

    def shift(self, frame: Any) -> tuple[float, float, float]:
        """(dx, dy, response): how far `frame` is shifted from the reference, in frame pixels.

        `response` in [0, 1] says how sure the correlation is (a clean shift gives > 0.2).
        """
        return self._shift(frame, self._prepared(frame))

    def align(self, frame: Any, mask: Any = None) -> tuple[Any, float] | None:
        """(2x3 matrix, correlation): the rotation and shift taking reference pixels to this
        frame's pixels (full resolution), found by ECC from the phase-correlation shift.

        Why both: phase correlation sees only a shift, quickly and from far; ECC then adds
        the small rotation a bump gives, which would put the outer squares off the grid.
        `mask` (reference size, uint8) limits the fit to the board and its surroundings.
        The frame is prepared (grey, downscaled, edges) once for both.
        Returns None when ECC does not converge.
        """
        n, c = np(), cv2()
        prepared = self._prepared(frame)
        dx, dy, _ = self._shift(frame, prepared)
        scale = frame.shape[1] / REF_WIDTH
        warp = n.array([[1, 0, dx / scale], [0, 1, dy / scale]], dtype="float32")
        criteria = (c.TERM_CRITERIA_EPS | c.TERM_CRITERIA_COUNT, 30, 1e-3)
        try:
            cc, warp = c.findTransformECC(
                self.ref, prepared, warp, c.MOTION_EUCLIDEAN, criteria, mask, 1
            )
        except c.error:
            return None
        warp = warp.astype("float64")
        warp[:, 2] *= scale
        return warp, float(cc)


def board_mask(corners: Any, frame_width: int, shape: tuple[int, int], margin: float) -> Any:
    """Mask (reference size, uint8) of the board grown by `margin` (share of its size) on each
    side: where `Registrar.align` looks, so that people around the table do not count."""
    n, c = np(), cv2()
    scale = REF_WIDTH / max(frame_width, 1)
    pts = n.asarray(corners, dtype="float64")
    centre = pts.mean(axis=0)
    grown = (centre + (pts - centre) * (1 + 2 * margin)) * scale
    mask = n.zeros(shape, dtype="uint8")
    c.fillConvexPoly(mask, n.round(grown).astype("int32"), 255)
    return mask


def move_points(warp: Any, points: Any) -> list[tuple[float, float]]:
    """Points (N x 2, reference frame pixels) moved by a 2x3 matrix from `Registrar.align`."""
    n = np()
    pts = n.asarray(points, dtype="float64")
    out = pts @ warp[:, :2].T + warp[:, 2]
    return [(float(x), float(y)) for x, y in out]


def _high_pass(grey: Any) -> Any:
    """Edges only, so that a change of light does not dominate the correlation."""
    c = cv2()
    img = grey.astype("float32")
    return img - c.GaussianBlur(img, (0, 0), 5)
