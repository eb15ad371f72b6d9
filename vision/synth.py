"""Synthetic changes of real frames, for what the data lacks: light, shadows, camera bumps.

Each function returns a new image and leaves its input alone. Used by the tests and the
benchmark; deterministic (a shadow's path is a function of its step number).
"""

from __future__ import annotations

import math
from typing import Any

from vision.cvload import cv2, np


def brightness(frame: Any, factor: float) -> Any:
    """Every pixel times `factor` (saturating at 255): a global change of light or exposure."""
    return cv2().convertScaleAbs(frame, alpha=factor, beta=0)


def gamma(frame: Any, g: float) -> Any:
    """Gamma curve: out = 255 * (in / 255) ** g (g > 1 darkens the mid-tones)."""
    n = np()
    lut = n.clip(255.0 * (n.arange(256) / 255.0) ** g + 0.5, 0, 255).astype("uint8")
    return cv2().LUT(frame, lut)


def shift(frame: Any, dx: float, dy: float) -> Any:
    """The frame moved by (dx, dy) pixels, edges replicated: a small camera bump."""
    m = np().float32([[1, 0, dx], [0, 1, dy]])
    h, w = frame.shape[:2]
    return cv2().warpAffine(frame, m, (w, h), borderMode=cv2().BORDER_REPLICATE)


def rotate(frame: Any, degrees: float, dx: float = 0.0, dy: float = 0.0) -> Any:
    """The frame rotated about its centre by `degrees` and moved by (dx, dy)."""
    h, w = frame.shape[:2]
    m = cv2().getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    m[:, 2] += (dx, dy)
    return cv2().warpAffine(frame, m, (w, h), borderMode=cv2().BORDER_REPLICATE)


def turn_whole(frame: Any, degrees: float) -> tuple[Any, Any]:
    """The frame turned about its centre by `degrees` on a canvas grown so that nothing is
    cut (a camera mounted with any roll), filled with the frame's median colour; and the 2x3
    map from the old pixels to the new."""
    n, c = np(), cv2()
    h, w = frame.shape[:2]
    m = c.getRotationMatrix2D((w / 2.0, h / 2.0), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    new_w, new_h = int(n.ceil(h * sin + w * cos)), int(n.ceil(h * cos + w * sin))
    m[0, 2] += new_w / 2.0 - w / 2.0
    m[1, 2] += new_h / 2.0 - h / 2.0
    fill = tuple(int(v) for v in n.median(frame.reshape(-1, 3), axis=0))
    return c.warpAffine(frame, m, (new_w, new_h), borderValue=fill), m


def shadow(frame: Any, step: int, strength: float = 0.4, speed: float = 6.0) -> Any:
    """A soft dark polygon (a player's arm's shadow) that drifts across the frame with `step`.

    `strength` is how much light it takes away at its core (0.4: 40 %); `speed` is pixels per
    step. Its edge is blurred, as a real shadow's is.
    """
    n, c = np(), cv2()
    h, w = frame.shape[:2]
    x0 = -w * 0.3 + step * speed
    y0 = h * 0.2 + 20 * math.sin(step / 5.0)
    poly = n.array(
        [
            [x0, y0],
            [x0 + w * 0.35, y0 + h * 0.1],
            [x0 + w * 0.3, y0 + h * 0.55],
            [x0 - w * 0.05, y0 + h * 0.45],
        ],
        dtype="int32",
    )
    mask = n.zeros((h, w), dtype="float32")
    c.fillConvexPoly(mask, poly, 1.0)
    mask = c.GaussianBlur(mask, (0, 0), 15)
    gain = 1.0 - strength * mask
    return c.convertScaleAbs(frame.astype("float32") * gain[:, :, None])


PAWN_HEAD = 0.28  #: radius of a pawn's head seen from straight above, in squares


def pawn_head(
    board: Any,
    row: int,
    col: int,
    bgr: tuple[int, int, int],
    relief: bool = True,
    radius: float = PAWN_HEAD,
    rim: float = 0.35,
    shadow: float = 0.45,
) -> Any:
    """A canonical board (top-down, 8 x `SQ` px squares) with a pawn seen from straight above
    on square (row, col): a disc of colour `bgr`; with `relief`, a darker rim (the head's
    rounded edge, `rim` of its light taken) and a soft shadow to the lower right, as a lamp
    above one side casts (`shadow` of the light taken)."""
    from vision.geometry import SQ

    n = np()
    cx, cy = col * SQ + SQ / 2, row * SQ + SQ / 2
    r = radius * SQ
    h, w = board.shape[:2]
    yy, xx = n.mgrid[0:h, 0:w].astype("float32")
    img = board.astype("float32")
    if relief:
        d_shadow = n.hypot(xx - cx - 0.12 * SQ, yy - cy - 0.12 * SQ)
        img *= 1 - (n.clip((r * 1.15 - d_shadow) / 3.0, 0, 1) * shadow)[..., None]
    d = n.hypot(xx - cx, yy - cy)
    inside = n.clip((r - d) / 1.5, 0, 1)[..., None]
    colour = n.array(bgr, "float32")
    if relief:
        edge = n.clip(1 - n.abs(d - r * 0.85) / (0.18 * r), 0, 1)[..., None]
        colour = colour * (1 - rim * edge)
    img = img * (1 - inside) + colour * inside
    return n.clip(img, 0, 255).astype("uint8")
