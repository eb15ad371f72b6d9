"""Per-square features of a canonical board image: what the classifier looks at.

Each square is judged by a window around its piece's base: the window sits a little toward
the camera (down the image), because tall pieces lean over the squares behind them when the
camera is not straight above. Features are normalised by the board's overall brightness, so
that a global light change moves every square alike and the model still applies.
"""

from __future__ import annotations

import math
from typing import Any

from vision.cvload import cv2, np
from vision.geometry import SIZE, SQ

WINDOW = 16  #: side of a square's sample window, canonical pixels (0.6 square)
SHIFT = -0.1
LEVEL = 180.0  #: the level the upper quartile of each colour channel is scaled to
NAMES = ("L", "a", "b", "Lstd", "Lp10", "Lp90", "grad", "Lcore")


def window_origins(toward: Any, shift: float = SHIFT) -> Any:
    """Top-left corners (64 x 2, int: x, y) of the sample windows, from `toward_camera`."""
    n = np()
    out = n.zeros((64, 2), dtype="int32")
    half = WINDOW / 2
    for r in range(8):
        for c in range(8):
            cx = (c + 0.5) * SQ + shift * SQ * toward[r, c, 0]
            cy = (r + 0.5) * SQ + shift * SQ * toward[r, c, 1]
            x = round(min(max(cx - half, 0), SIZE - WINDOW))
            y = round(min(max(cy - half, 0), SIZE - WINDOW))
            out[r * 8 + c] = (x, y)
    return out


def light_levels(board: Any) -> list[list[float]]:
    """The targets `normalise_light` maps this board's quartiles to: [[q25, q75]] per channel.

    Taken from the calibration board (scaled so that its upper quartile is `LEVEL`), so later
    frames are brought back to the light the model was learned in.
    """
    n = np()
    q = n.percentile(board[::4, ::4].reshape(-1, 3), [25, 75], axis=0).astype("float64") + 1.0
    return [[float(q[0, ch] * LEVEL / q[1, ch]), LEVEL] for ch in range(3)]


def normalise_light(board: Any, levels: list[list[float]] | None = None) -> Any:
    """The board image with each colour channel's quartiles mapped to `levels`.

    Per channel a gain and a gamma (out = A * in ** g) take this board's lower and upper
    quartiles to the calibration's. Why: a change of brightness, colour or contrast of the
    light (or of the camera's exposure and gamma) then leaves the features nearly unchanged,
    so the calibration's model still applies. Without `levels`, only the gain is set.
    """
    n, c = np(), cv2()
    q = n.percentile(board[::4, ::4].reshape(-1, 3), [25, 75], axis=0).astype("float64") + 1.0
    x = n.arange(256, dtype="float64") + 1.0
    lut = n.zeros((256, 1, 3), dtype="uint8")
    for ch in range(3):
        lo, hi = q[0, ch], q[1, ch]
        if levels is None or hi <= lo * 1.02:
            g, target = 1.0, LEVEL
        else:
            t_lo, target = levels[ch]
            g = float(n.clip(math.log(target / t_lo) / math.log(hi / lo), 0.4, 2.5))
        lut[:, 0, ch] = n.clip(target * (x / hi) ** g, 0, 255).astype("uint8")
    return c.LUT(board, lut)


def _crops(img: Any, origins: Any) -> Any:
    """Stack the 64 windows of `img` (H x W [x C]) into a (64, WINDOW, WINDOW [, C]) array."""
    n = np()
    return n.stack([img[y : y + WINDOW, x : x + WINDOW] for x, y in origins])


def square_features(board: Any, origins: Any, levels: list[list[float]] | None = None) -> Any:
    """Feature matrix (64 x len(NAMES), float32) of a canonical BGR board image.

    L is Lab lightness, a/b its chroma; all lightness features are divided by the board's
    median lightness (light normalisation); `grad` is the mean Sobel magnitude (texture and
    outlines: a white piece on a light square differs mostly there); `Lcore` is the mean of
    the window's central half, where a piece's body is.
    """
    n, c = np(), cv2()
    lab = c.cvtColor(normalise_light(board, levels), c.COLOR_BGR2LAB)
    light = lab[:, :, 0].astype("float32")
    ref = float(n.median(light)) + 1.0
    gx = c.Sobel(light, c.CV_32F, 1, 0, ksize=3)
    gy = c.Sobel(light, c.CV_32F, 0, 1, ksize=3)
    grad = c.magnitude(gx, gy)
    crops_l = _crops(light, origins).reshape(64, -1)
    crops_ab = _crops(lab[:, :, 1:], origins).reshape(64, -1, 2).astype("float32")
    crops_g = _crops(grad, origins).reshape(64, -1)
    q = WINDOW // 4
    core = _crops(light, origins)[:, q : WINDOW - q, q : WINDOW - q].reshape(64, -1)
    k10, k90 = int(0.1 * (crops_l.shape[1] - 1)), int(0.9 * (crops_l.shape[1] - 1))
    part = n.partition(crops_l, (k10, k90), axis=1)
    p10, p90 = part[:, k10], part[:, k90]
    feats = n.stack(
        [
            crops_l.mean(axis=1) / ref,
            (crops_ab[:, :, 0].mean(axis=1) - 128.0) / 64.0,
            (crops_ab[:, :, 1].mean(axis=1) - 128.0) / 64.0,
            crops_l.std(axis=1) / ref,
            p10 / ref,
            p90 / ref,
            crops_g.mean(axis=1) / ref,
            core.mean(axis=1) / ref,
        ],
        axis=1,
    )
    return feats.astype("float32")
