"""Per-square features of a canonical board image: what the classifier looks at.

Each square is judged by a small window around its piece's body. Light is taken out in two
steps (see `vision.classify`): a rough pass scales each colour channel by the board's upper
quartile; the exact pass maps the levels of the squares found empty to the calibration's
empty squares (a gain and a gamma per channel), which does not depend on how many pieces
stand on the board, and survives changes of brightness, colour and contrast of the light.
"""

from __future__ import annotations

import math
from typing import Any

from vision.cvload import cv2, np
from vision.geometry import SIZE, SQ

WINDOW = 16  #: side of a square's sample window, canonical pixels (0.4 square)
SHIFT = -0.1  #: window offset toward the camera, in squares (negative: away, into the body)
LEVEL = 180.0  #: the rough pass scales each channel's upper quartile to this level
REF = 100.0  #: the exact pass divides lightness features by this fixed level
#: the window's plain spread and its central mean were dropped (calibration version 3): they
#: repeat what Lflat and L say, and a classifier that takes its features as independent
#: counted that evidence twice (8 uschess calibrations, each scored on the others: 329 wrong
#: with them, 252 without)
NAMES = ("L", "a", "b", "Lp10", "Lp90", "grad", "Lflat")
CORE = 12  #: side of the central part of a square whose mean measures the square's level


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


def rough_normalised(board: Any) -> Any:
    """Each colour channel scaled so that its upper quartile is `LEVEL` (the rough pass)."""
    n = np()
    q = n.percentile(board[::4, ::4].reshape(-1, 3), 75, axis=0).astype("float32") + 1.0
    # a table per channel (as a float product rounded and saturated, without the float image)
    x = n.arange(256, dtype="float32")[:, None] * (LEVEL / q)[None, :]
    lut = n.clip(n.rint(x), 0, 255).astype("uint8").reshape(256, 1, 3)
    return cv2().LUT(board, lut)


def empty_levels(board: Any, empty: Any) -> Any:
    """(2, 3): mean colour of the centres of the `empty` squares (64 bools), light squares
    first, then dark; NaN where a square colour has no empty square."""
    n = np()
    lo, hi = (SQ - CORE) // 2, (SQ + CORE) // 2
    centres = board.reshape(8, SQ, 8, SQ, 3)[:, lo:hi, :, lo:hi, :].mean(axis=(1, 3))
    centres = centres.reshape(64, 3).astype("float64")
    parity = (n.arange(64) // 8 + n.arange(64) % 8) % 2
    out = n.full((2, 3), n.nan)
    for p in (0, 1):
        sel = n.asarray(empty, dtype=bool) & (parity == p)
        if sel.any():
            out[p] = centres[sel].mean(axis=0)
    return out


def levels_normalised(board: Any, measured: Any, targets: Any) -> Any:
    """The board with each channel mapped (out = A * in ** g) so that the `measured` empty
    light and dark square levels land on the calibration's `targets` (both (2, 3))."""
    n, c = np(), cv2()
    x = n.arange(256, dtype="float64") + 1.0
    lut = n.zeros((256, 1, 3), dtype="uint8")
    for ch in range(3):
        m_hi, m_lo = sorted((measured[0, ch] + 1.0, measured[1, ch] + 1.0), reverse=True)
        t_hi, t_lo = sorted((targets[0][ch] + 1.0, targets[1][ch] + 1.0), reverse=True)
        g = 1.0
        if m_hi > m_lo * 1.05 and t_hi > t_lo * 1.05:
            g = float(n.clip(math.log(t_hi / t_lo) / math.log(m_hi / m_lo), 0.5, 2.0))
        lut[:, 0, ch] = n.clip(t_hi * (x / m_hi) ** g - 1.0, 0, 255).astype("uint8")
    return c.LUT(board, lut)


_PLANE: Any = None  #: (WINDOW**2, 2) centred x and y of a window's pixels
_PINV: Any = None  #: its pseudo-inverse


def _slopes(crops: Any) -> Any:
    """(64, 2) least-squares x and y slopes of the flattened windows (64 x WINDOW**2)."""
    global _PLANE, _PINV
    n = np()
    if _PLANE is None:
        yy, xx = n.mgrid[0:WINDOW, 0:WINDOW].astype("float32") - (WINDOW - 1) / 2
        _PLANE = n.stack([xx.ravel(), yy.ravel()], axis=1)
        _PINV = n.linalg.pinv(_PLANE)
    return (crops - crops.mean(axis=1, keepdims=True)) @ _PINV.T


def _crops(img: Any, origins: Any, side: int = WINDOW) -> Any:
    """Stack the 64 `side`-pixel windows of `img` (H x W [x C]) at `origins` (x, y) into a
    (64, side, side [, C]) C-contiguous array.

    Gathered from a sliding-window view of `img` (the same pixels as 64 slices stacked,
    about 3 times cheaper: this runs several times per frame)."""
    n = np()
    o = n.asarray(origins)
    windows = n.lib.stride_tricks.sliding_window_view(img, (side, side), axis=(0, 1))
    picked = windows[o[:, 1], o[:, 0]]  # (64, [C,] side, side)
    if img.ndim == 3:
        picked = n.moveaxis(picked, 1, -1)
    return n.ascontiguousarray(picked)


def gradients(board: Any) -> tuple[Any, Any, Any]:
    """(Lab image, x and y Sobel gradients of its lightness) of a canonical BGR board."""
    c = cv2()
    lab = c.cvtColor(board, c.COLOR_BGR2LAB)
    light = lab[:, :, 0]
    return lab, c.Sobel(light, c.CV_32F, 1, 0, ksize=3), c.Sobel(light, c.CV_32F, 0, 1, ksize=3)


def _window_gradients(board: Any, origins: Any) -> tuple[Any, Any, Any]:
    """(Lab, x and y Sobel gradients of its lightness), each (64, WINDOW, WINDOW[, 3]), of the
    windows only: every window is cut with a one-pixel ring (the board's border reflected as
    `cv2.Sobel` reflects it), the 64 are converted and filtered as one stacked picture, and
    the rings dropped. The same values as `gradients` of the whole board cropped, for a
    fifth of the pixels (the Lab conversion was the exact pass's largest cost)."""
    c = cv2()
    padded = c.copyMakeBorder(board, 1, 1, 1, 1, c.BORDER_REFLECT_101)
    side = WINDOW + 2
    patches = _crops(padded, origins, side).reshape(64 * side, side, 3)
    lab = c.cvtColor(patches, c.COLOR_BGR2LAB)
    light = lab[:, :, 0]
    gx = c.Sobel(light, c.CV_32F, 1, 0, ksize=3).reshape(64, side, side)
    gy = c.Sobel(light, c.CV_32F, 0, 1, ksize=3).reshape(64, side, side)
    inner = (slice(None), slice(1, -1), slice(1, -1))
    return lab.reshape(64, side, side, 3)[inner], gx[inner], gy[inner]


def square_features(
    board: Any, origins: Any, ref: float | None = None, grads: tuple[Any, Any, Any] | None = None
) -> Any:
    """Feature matrix (64 x len(NAMES), float32) of a light-normalised canonical BGR board.

    L is Lab lightness, a/b its chroma; lightness features are divided by `ref` (default:
    the board's median lightness); `grad` is the mean Sobel magnitude (texture and outlines:
    a white piece on a light square differs mostly there); `Lflat` is the lightness spread
    left after removing the window's best-fitting plane (a shadow edge or a light gradient is
    nearly a plane across a window, a piece is not). `grads` are the board's `gradients`
    when already computed; without them and with a `ref`, only the windows are converted
    (`_window_gradients`).
    """
    n, c = np(), cv2()
    if grads is None and ref is not None:
        lab_w, gx_w, gy_w = _window_gradients(board, origins)
    else:
        lab, gx, gy = grads if grads is not None else gradients(board)
        if ref is None:
            ref = float(n.median(lab[:, :, 0])) + 1.0
        lab_w, gx_w, gy_w = _crops(lab, origins), _crops(gx, origins), _crops(gy, origins)
    crops_lab = n.ascontiguousarray(lab_w).reshape(64, -1, 3)
    crops_l = crops_lab[:, :, 0].astype("float32")
    crops_ab = crops_lab[:, :, 1:].astype("float32")
    crops_g = c.magnitude(
        n.ascontiguousarray(gx_w).reshape(64 * WINDOW, WINDOW),
        n.ascontiguousarray(gy_w).reshape(64 * WINDOW, WINDOW),
    ).reshape(64, -1)
    # spread left after removing each window's best-fitting plane: a light gradient or a soft
    # shadow edge across the window is (locally) a plane, a piece's body is not
    flat = crops_l - _slopes(crops_l) @ _PLANE.T
    k10, k90 = int(0.1 * (crops_l.shape[1] - 1)), int(0.9 * (crops_l.shape[1] - 1))
    part = n.partition(crops_lab[:, :, 0], (k10, k90), axis=1)
    p10, p90 = part[:, k10].astype("float32"), part[:, k90].astype("float32")
    feats = n.stack(
        [
            crops_l.mean(axis=1) / ref,
            (crops_ab[:, :, 0].mean(axis=1) - 128.0) / 64.0,
            (crops_ab[:, :, 1].mean(axis=1) - 128.0) / 64.0,
            p10 / ref,
            p90 / ref,
            crops_g.mean(axis=1) / ref,
            flat.std(axis=1) / ref,
        ],
        axis=1,
    )
    return feats.astype("float32")
