"""The per-frame path: is anything moving over the board, and is an arm across its edge?

Works on a small grey copy of each frame (`SMALL` wide), so it costs about a millisecond.
A global change of light (auto exposure flicker, mains light, gamma, pixels saturating) moves
every level of the board in the same order; matching the two frames' level distributions
takes it out before changed pixels are counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.cvload import cv2, np
from vision.geometry import Corners

SMALL = 160  #: width of the grey copy the motion path works on
EDGE = 0.06  #: the ring outside the playing area, as a share of the board side


def small_grey(frame: Any) -> tuple[Any, float]:
    """The frame as a small grey image (int16) and its scale relative to the input."""
    c = cv2()
    grey = frame if frame.ndim == 2 else c.cvtColor(frame, c.COLOR_BGR2GRAY)
    scale = SMALL / grey.shape[1]
    size = (SMALL, max(1, round(grey.shape[0] * scale)))
    return c.resize(grey, size, interpolation=c.INTER_AREA).astype("int16"), scale


def normalise(small: Any, mask: Any, level: float = 128.0) -> Any:
    """The small grey image scaled so that the board's median is `level` (float32).

    Why: a darker scene shows smaller differences for the same motion; scaling makes the
    motion threshold mean the same in dim and bright light.
    """
    n = np()
    med = float(n.median(small[mask])) if mask.any() else float(n.median(small))
    return small.astype("float32") * (level / max(med, 8.0))


def _expanded(corners: Corners, factor: float) -> Any:
    n = np()
    pts = n.asarray(corners, dtype="float64")
    centre = pts.mean(axis=0)
    return centre + (pts - centre) * factor


@dataclass
class Masks:
    """Boolean masks (small-image size) of the playing area and of the ring around it."""

    board: Any
    ring: Any

    @classmethod
    def build(cls, corners: Corners, scale: float, shape: tuple[int, int]) -> Masks:
        n, c = np(), cv2()
        inner = n.zeros(shape, dtype="uint8")
        outer = n.zeros(shape, dtype="uint8")
        c.fillConvexPoly(inner, n.round(_expanded(corners, 1.0) * scale).astype("int32"), 1)
        c.fillConvexPoly(
            outer, n.round(_expanded(corners, 1.0 + 2 * EDGE) * scale).astype("int32"), 1
        )
        return cls(board=inner > 0, ring=(outer > 0) & (inner == 0))


QUANTILES = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99)


def matched(a: Any, b: Any, mask: Any) -> Any:
    """`b` with its levels mapped so that their distribution on `mask` matches `a`'s.

    Why: a flicker of exposure, a gamma change or light that saturates some pixels changes
    every level of the board in the same order; matching the two distributions takes such a
    global change out (it moves few quantiles) and leaves what moved (a few pixels a lot).
    """
    n = np()
    qa = n.percentile(a[mask], QUANTILES)
    qb = n.percentile(b[mask], QUANTILES)
    qb = n.maximum.accumulate(qb + n.arange(len(QUANTILES)) * 1e-3)
    return n.interp(b, qb, qa).astype("float32")


def changed_fraction(a: Any, b: Any, mask: Any, threshold: float) -> float:
    """Share of `mask` pixels whose change from `a` to `b` exceeds `threshold` grey levels,
    after matching the two images' level distributions (a global change is light, not motion).
    """
    n = np()
    if not mask.any():
        return 0.0
    d = n.abs(matched(a, b, mask)[mask] - a[mask])
    return float(n.count_nonzero(d > threshold)) / d.size


def arm_across_edge(reference: Any, small: Any, masks: Masks, threshold: float) -> int:
    """Pixels of the largest changed region that reaches from outside the playing area into it.

    Compared with the last still scene: a moved piece changes squares inside the board; an
    arm (or a held piece) is one region crossing the board's edge. Returns 0 when none does.
    """
    n, c = np(), cv2()
    area = masks.board | masks.ring
    d = n.abs(matched(reference, small, area) - reference)
    changed = ((d > threshold) & area).astype("uint8")
    changed = c.morphologyEx(changed, c.MORPH_CLOSE, n.ones((3, 3), "uint8"))
    count, labels = c.connectedComponents(changed, connectivity=8)
    if count <= 1:
        return 0
    in_ring = n.bincount(labels[masks.ring], minlength=count)
    in_board = n.bincount(labels[masks.board], minlength=count)
    crossing = (in_ring[1:] > 0) & (in_board[1:] > 0)
    if not crossing.any():
        return 0
    return int(n.minimum(in_ring[1:], in_board[1:])[crossing].max())
