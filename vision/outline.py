"""Squares unlike anything calibrated, and the outline of a piece seen from straight above.

The square model (`vision.model`) picks the most likely of the looks it learned: empty,
white piece, black piece (and a square's own or printed empty look). A look it never saw,
such as a white plastic pawn's head seen from straight above (a bright disc with a rim and
a shadow, where the calibration's wooden pieces were grey-brown bodies), is then given to
whichever class is least unlike it, with full confidence: a silent misread (issue 16). Two
measures stop that:

- `novelty`: how far a square's features are from the nearest look the model knows, as a
  sum of squared standard scores over the features (a chi-square-like distance). Real
  squares of the data sets, also on photos never used for calibration, stay under about 41
  (the video: 28; `uschess` held out: 41); painted pawn heads from above lie at 55-125.
  A square beyond `NOVEL` is not classified by the model.
- `outline_scores`: a piece seen from above is a closed outline around the square's centre
  (its rim, its shadow): in a ring from 0.12 to 0.42 of a square from the centre, the
  lightness gradient points along the radius on every side. The score is the least of the
  four quadrants' mean radial gradient, so an edge on one side only (a neighbour leaning
  in, a shadow's edge, the square's own border, outside the ring) does not count. Empty
  squares score under about 0.07 (light) and 0.24 (dark, grained wood) on the video,
  pieces and discs from above 0.3-1.2.

A novel square with an outline is a piece; its colour comes from its lightness alone,
between the calibrated white and black pieces' (`piece_colour`); a novel square without an
outline, or whose lightness lies between the two, is `?`. A square the model reads as empty
that has an outline is a piece too, unless a print explains it (a square never seen empty,
whose printed look fits it better than its colour's empty look: a logo has outlines): a
light-wood head on a dark square looks much like the dark square in its window, only its
outline tells. A square seen empty at calibration has its own outline level (a knot in the
wood), so its grain is not taken for an outline.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import np
from vision.geometry import SQ

NOVEL = 48.0  #: distance to the nearest known look beyond which a square is unlike them all
RING = (0.12, 0.42)  #: inner and outer radius of the outline's ring, in squares
OUTLINE_MIN = 0.3  #: least outline score of a piece (lightness gradient / 100 per pixel)
OUTLINE_FACTOR = 2.0  #: ... and at least this many times the calibration's empty squares'
COLOUR_SURE = 0.25  #: lightness within this share of the white-black gap from one side

_WEIGHTS: Any = None  #: (SQ*SQ, 4) quadrant weights of the ring
_RADIAL: Any = None  #: (2, SQ, SQ) unit vectors from the square's centre


def _ring() -> tuple[Any, Any]:
    global _WEIGHTS, _RADIAL
    if _WEIGHTS is None:
        n = np()
        yy, xx = n.mgrid[0:SQ, 0:SQ].astype("float32") - (SQ - 1) / 2
        rr = n.hypot(xx, yy)
        inside = (rr >= RING[0] * SQ) & (rr <= RING[1] * SQ)
        quads = [(xx >= 0) & (yy >= 0), (xx < 0) & (yy >= 0), (xx < 0) & (yy < 0)]
        quads.append((xx >= 0) & (yy < 0))
        _WEIGHTS = n.stack(
            [(inside & q).ravel() / float((inside & q).sum()) for q in quads], axis=1
        ).astype("float32")
        _RADIAL = n.stack([xx / n.maximum(rr, 1e-3), yy / n.maximum(rr, 1e-3)])
    return _WEIGHTS, _RADIAL


def outline_scores(board: Any, grads: tuple[Any, Any, Any] | None = None) -> Any:
    """(64,) outline score of each square of a canonical BGR board (grid order), measured on
    its lightness; `grads` are its `vision.features.gradients` when already computed. Give
    it boards at one light scaling (`features.rough_normalised`) so scores compare."""
    from vision.features import gradients

    n = np()
    weights, radial = _ring()
    _, gx, gy = grads if grads is not None else gradients(board)

    def cells(img: Any) -> Any:
        return img.reshape(8, SQ, 8, SQ).transpose(0, 2, 1, 3).reshape(64, SQ, SQ)

    along = n.abs(cells(gx) * radial[0] + cells(gy) * radial[1]).reshape(64, -1)
    return (along @ weights).min(axis=1) / 100.0


def empty_outline(board: Any, empty: Any) -> dict[str, Any]:
    """What "no outline" looks like on a calibration board (rough-normalised): per square
    colour (light, dark) the 90th percentile of the outline score of the `empty` squares
    (64 bools), and each empty square's own score (None where it holds a piece)."""
    n = np()
    scores = outline_scores(board)
    empty = n.asarray(empty, dtype=bool)
    parity = (n.arange(64) // 8 + n.arange(64) % 8) % 2
    levels = []
    for p in (0, 1):
        sel = scores[empty & (parity == p)]
        levels.append(float(n.percentile(sel, 90)) if len(sel) else 0.0)
    own = [round(float(v), 4) if e else None for v, e in zip(scores, empty, strict=True)]
    return {"empty": levels, "own": own}


def learned_outline(
    calibrated: dict[str, Any], scores: Any, empty: list[bool], weight: float
) -> dict[str, Any]:
    """`calibrated` (`empty_outline`) having also seen the squares `empty` empty with these
    outline `scores` (64,): their own levels set, or blended in by `weight`."""
    own = list(calibrated.get("own") or [None] * 64)
    for i in range(64):
        if empty[i]:
            new = float(scores[i])
            own[i] = round(new if own[i] is None else (1 - weight) * own[i] + weight * new, 4)
    return {**calibrated, "own": own}


def outline_threshold(calibrated: dict[str, Any] | None) -> Any:
    """(64,) least outline score of a piece on each square, from `empty_outline`:
    `OUTLINE_FACTOR` times the empty squares' of its colour, or its own where known, and
    at least `OUTLINE_MIN`."""
    n = np()
    parity = (n.arange(64) // 8 + n.arange(64) % 8) % 2
    if not calibrated:
        return n.full(64, OUTLINE_MIN)
    level = n.asarray(calibrated.get("empty", [0.0, 0.0]), dtype="float64")[parity]
    own = calibrated.get("own") or [None] * 64
    own_level = n.asarray([v if v is not None else 0.0 for v in own], dtype="float64")
    return n.maximum(OUTLINE_MIN, OUTLINE_FACTOR * n.maximum(level, own_level))


def distances(feats: Any, looks: list[tuple[str, Any, Any]]) -> dict[str, Any]:
    """Per look, (64,) distance of each square's features (64 x F) to it: a sum of squared
    standard scores; `looks` are (name, means, variances) with arrays (64, F), NaN rows
    where a look does not apply to a square (infinite distance)."""
    n = np()
    out = {}
    for name, mean, var in looks:
        d = n.sum((feats - mean) ** 2 / var, axis=-1)
        out[name] = n.where(n.isnan(d), n.inf, d)
    return out


def piece_colour(light: Any, white: Any, black: Any) -> Any:
    """(k, 2) probabilities (white, black) of pieces of lightness `light` (k,), from where it
    lies between the calibrated white and black pieces' lightness (`white`, `black`, (k,)).

    Beyond either one, or within `COLOUR_SURE` of the gap from it: that colour (0.9); in the
    middle: even. Only lightness is used: a piece unlike every calibrated one in chroma and
    texture (another set's plastic) is still lighter than the dark pieces if it is white.
    """
    n = np()
    gap = n.maximum(white - black, 1e-6)
    t = (light - black) / gap
    p_white = n.where(t >= 1 - COLOUR_SURE, 0.9, n.where(t <= COLOUR_SURE, 0.1, 0.5))
    return n.stack([p_white, 1 - p_white], axis=1)
