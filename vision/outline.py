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

- `disc_evidence`: what tells a piece's head seen from straight above from a print on the
  square (a logo, a letter: `vision.marks`), which has outlines too. A head's rim is round:
  in the outline's ring nearly all of the lightness gradient points along the radius
  (`DISC_RADIAL`; painted heads 0.85-0.96 in every quadrant, the US Chess logo's diamond
  of checks 0.66-0.71, empty squares up to 0.72, or 0.85 where nearly flat). And a piece
  casts a shadow: just outside its rim, on one side more than on the opposite one, pixels
  that are a darker share of the square's own colour around it (`SHADOW_SIDE`); a print
  is ink of the board's other colour, centred, and casts none.

A novel square with an outline is a piece; its colour comes from its lightness alone,
between the calibrated white and black pieces' (`piece_colour`); a novel square without an
outline, or whose lightness lies between the two, is `?`. A square the model reads as empty
that has an outline is a piece too, unless a print explains it (a square never seen empty,
whose printed look fits it better than its colour's empty look: a logo has outlines): a
light-wood head on a dark square looks much like the dark square in its window, only its
outline tells. A square seen empty at calibration has its own outline level (a knot in the
wood), so its grain is not taken for an outline. A square read as empty (printed or not)
with a round rim and a one-sided shadow around its centre (`disc_evidence`) is a piece:
on a square never seen empty the printed look explains a pawn's head from above better
than the empty look does (its disc and rings are prints too), so only the shadow and the
rim's roundness tell them apart there.
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
#: least share of the outline ring's lightness gradient along the radius, in its poorest
#: quadrant, of a round rim (painted heads from above 0.85-0.96; the real US Chess logo
#: 0.66-0.71; empty squares of the video and of `uschess` up to 0.72 where outlined)
DISC_RADIAL = 0.8
#: least excess of shade pixels in the half-ring on the shadow's side (0.25-0.5 square from
#: the centre) over the opposite half. Painted heads on squares never seen empty: 0.39 and
#: more; synthetic round prints (`vision.marks` discs and rings, other seed) on the video's
#: grained dark squares: up to 0.30; the real logo: median 0.07, 90th percentile 0.12.
#: Empty squares of the video reach 0.43 (grain, uneven light): the shadow alone does not
#: tell, it is asked with the rim
SHADOW_SIDE = 0.35
#: a round rim with a shadow side from this up to `SHADOW_SIDE` is `?`, unreadable: a head
#: in softer light (faint rims and shadows painted from above: 0.28-0.36 where still read
#: empty) or a round print beside a shadow; no real empty square's round rim has one
SHADOW_DOUBT = 0.2
SHADE_BAND = (0.3, 0.85)  #: a shade pixel: this share of the square's own colour around it
SHADE_CONSISTENT = 0.25  #: ... in all three channels, within this share of their mean
#: least outline score, as a share of `outline_threshold`, of a square asked for a disc:
#: rim and shadow together are evidence enough below the outline threshold (no real empty
#: square of the video or of `uschess` has both, at any outline level; a faint rim and
#: shadow from above reach 0.49-0.77 of it on light squares); some outline is still asked,
#: as the radial share of a nearly flat square is noise
DISC_OUTLINE = 0.3
#: a flat disc seen from straight above (a pawn's head with neither rim nor shadow to see):
#: how far (Lab levels) a square's centre-against-border colour difference (`centre_contrast`)
#: may move from its own when seen empty before the square is `?` (`FLAT_DOUBT`) or a piece
#: (`FLAT_PIECE`). Only for a camera nearly above the board (`geometry.tilted` false) and a
#: square whose own empty difference is known. On the video's clean frames real empty squares
#: move up to 4.0 (every 12th frame), flat painted discs 6.6-62 on light squares (median 25
#: light wood, 31 white plastic) and 43-156 on dark ones. Not for an oblique view: on
#: `uschess` real empty squares move up to 45-52 (the photographer's shadow across a square,
#: the logo seen at another scale), 8-17 at the 99th percentile
FLAT_DOUBT = 10.0
FLAT_PIECE = 20.0

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


_FLAT: Any = None  #: (centre, border) masks of a square for `centre_contrast`


def centre_contrast(board: Any, squares: Any = None) -> Any:
    """(k, 3) BGR colour of the centre (within 0.2 square of it) of each of `squares` (grid
    indices; default all 64) less the shade of its border's colour nearest it (the border:
    beyond 0.38 square from the centre along either axis, every other pixel; its median, so
    that a neighbour's edge does not count): what an empty square shows of a print or a
    grain, and a flat disc seen from above changes, but not a shadow's edge across the
    square (a shade keeps a colour's proportions). Give it boards at one light scaling."""
    global _FLAT
    n = np()
    if _FLAT is None:
        yy, xx = n.mgrid[0:SQ, 0:SQ].astype("float32") - (SQ - 1) / 2
        border = n.maximum(n.abs(xx), n.abs(yy)) > 0.38 * SQ
        border &= (n.arange(SQ)[:, None] + n.arange(SQ)[None, :]) % 2 == 0
        _FLAT = (n.hypot(xx, yy) < 0.2 * SQ, border)
    centre, border = _FLAT
    sq = n.arange(64) if squares is None else n.asarray(squares, dtype="int64")
    cells = (
        n.stack(
            [
                board[r * SQ : (r + 1) * SQ, c * SQ : (c + 1) * SQ]
                for r, c in zip(sq // 8, sq % 8, strict=True)
            ]
        )
        if len(sq)
        else n.zeros((0, SQ, SQ, 3))
    )
    mid = cells[:, centre].astype("float32").mean(axis=1)
    edge = n.median(cells[:, border], axis=1).astype("float32") + 1.0
    k = (mid * edge).sum(axis=1) / (edge * edge).sum(axis=1)
    return mid - k[:, None] * edge


def flat_change(calibrated: dict[str, Any] | None, board: Any, squares: Any) -> Any:
    """(64,) how far the `centre_contrast` of each of `squares` on `board` lies from its own
    when seen empty (`empty_outline`'s "contrast"); NaN where that is unknown or not asked."""
    n = np()
    own = (calibrated or {}).get("contrast") or [None] * 64
    out = n.full(64, n.nan)
    asked = [int(s) for s in squares if own[int(s)] is not None]
    if asked:
        ref = n.asarray([own[s] for s in asked], dtype="float64")
        out[asked] = n.linalg.norm(centre_contrast(board, asked) - ref, axis=1)
    return out


def empty_outline(board: Any, empty: Any, seen: Any = None) -> dict[str, Any]:
    """What "no outline" looks like on a calibration board (rough-normalised): per square
    colour (light, dark) the 90th percentile of the outline score of the `empty` squares
    (64 bools), each empty square's own score (None where it holds a piece), and, with the
    board as `seen` (in the calibration's own light, as frames are mapped to), its own
    `centre_contrast` ("contrast", likewise)."""
    n = np()
    scores = outline_scores(board)
    contrast = centre_contrast(seen) if seen is not None else None
    empty = n.asarray(empty, dtype=bool)
    parity = (n.arange(64) // 8 + n.arange(64) % 8) % 2
    levels = []
    for p in (0, 1):
        sel = scores[empty & (parity == p)]
        levels.append(float(n.percentile(sel, 90)) if len(sel) else 0.0)
    own = [round(float(v), 4) if e else None for v, e in zip(scores, empty, strict=True)]
    out: dict[str, Any] = {"empty": levels, "own": own}
    if contrast is not None:
        out["contrast"] = [
            [round(float(x), 2) for x in v] if e else None
            for v, e in zip(contrast, empty, strict=True)
        ]
    return out


def learned_outline(
    calibrated: dict[str, Any],
    scores: Any,
    empty: list[bool],
    weight: float,
    contrast: Any = None,
) -> dict[str, Any]:
    """`calibrated` (`empty_outline`) having also seen the squares `empty` empty with these
    outline `scores` (64,) and `centre_contrast` (64, 3): their own levels set, or blended
    in by `weight`."""
    own = list(calibrated.get("own") or [None] * 64)
    flat = list(calibrated.get("contrast") or [None] * 64)
    for i in range(64):
        if empty[i]:
            new = float(scores[i])
            own[i] = round(new if own[i] is None else (1 - weight) * own[i] + weight * new, 4)
            if contrast is not None:
                now = [float(x) for x in contrast[i]]
                old = flat[i] or now
                flat[i] = [
                    round((1 - weight) * a + weight * b, 2) for a, b in zip(old, now, strict=True)
                ]
    return {**calibrated, "own": own, "contrast": flat}


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


_DISC: Any = None  #: (ring quadrants (SQ*SQ, 4), radial unit x, y, corner mask, half-rings)


def _disc_masks() -> tuple[Any, Any, Any, Any, Any]:
    """The fixed masks of `disc_evidence`, built once: the outline ring's four quadrants
    (0/1 columns), the radial unit vectors, the square's outer band (its own colour there
    is the reference of a shade), and 8 half-rings around the centre (rows 0..7 point at
    0, 45, ... 315 degrees), each as a (SQ*SQ, 8) mean."""
    global _DISC
    if _DISC is None:
        n = np()
        yy, xx = n.mgrid[0:SQ, 0:SQ].astype("float32") - (SQ - 1) / 2
        rr = n.hypot(xx, yy)
        ring = (rr >= RING[0] * SQ) & (rr <= RING[1] * SQ)
        quads = [(xx >= 0) & (yy >= 0), (xx < 0) & (yy >= 0), (xx < 0) & (yy < 0)]
        quads.append((xx >= 0) & (yy < 0))
        quad = n.stack([(ring & q).ravel() for q in quads], axis=1).astype("float32")
        ux = (xx / n.maximum(rr, 1e-3)).ravel()
        uy = (yy / n.maximum(rr, 1e-3)).ravel()
        outer = (n.maximum(n.abs(xx), n.abs(yy)) >= 0.4 * SQ).ravel()
        around = (rr >= 0.25 * SQ) & (rr <= 0.5 * SQ)
        angle = n.arctan2(yy, xx)
        halves = []
        for k in range(8):
            side = around & (n.cos(angle - k * n.pi / 4) > 0.5)
            halves.append(side.ravel() / float(side.sum()))
        _DISC = (quad, ux, uy, outer, n.stack(halves, axis=1).astype("float32"))
    return _DISC  # type: ignore[no-any-return]


def disc_evidence(board: Any, grads: tuple[Any, Any, Any], squares: Any) -> tuple[Any, Any]:
    """(radial share, shadow side) of each of `squares` (grid indices) of a canonical BGR
    board, `grads` its `features.gradients`: the evidence that a square holds a piece seen
    from straight above rather than a print (module docstring).

    Radial share: in the outline's ring, the sum of the lightness gradient along the radius
    over the sum of its magnitude, in the poorest of the four quadrants (1: a round rim
    about the centre; a diamond, a letter or a grain score less). Shadow side: the share of
    shade pixels (`SHADE_BAND` of the square's own colour, measured on its outer band, in
    all three channels alike) in the half-ring 0.25-0.5 square from the centre on one side,
    less the share on the opposite side, at the best of 8 directions."""
    n = np()
    sq = n.asarray(squares, dtype="int64")
    if not len(sq):
        return n.zeros(0), n.zeros(0)
    quad, ux, uy, outer, halves = _disc_masks()
    rows, cols = sq // 8, sq % 8
    _, gx, gy = grads

    def cells(img: Any) -> Any:
        parts = [
            img[r * SQ : (r + 1) * SQ, c * SQ : (c + 1) * SQ]
            for r, c in zip(rows, cols, strict=True)
        ]
        return n.stack(parts).reshape(len(sq), SQ * SQ, *img.shape[2:]).astype("float32")

    x, y = cells(gx), cells(gy)
    along = n.abs(x * ux + y * uy) @ quad
    total = n.hypot(x, y) @ quad + 1e-3
    radial = (along / total).min(axis=1)
    pix = cells(board) + 1.0  # (k, SQ*SQ, 3)
    own = n.median(pix[:, outer], axis=1)  # (k, 3)
    share = pix / own[:, None, :]
    mean = share.mean(axis=2)
    spread = (share.max(axis=2) - share.min(axis=2)) / n.maximum(mean, 1e-3)
    shade = (spread <= SHADE_CONSISTENT) & (mean >= SHADE_BAND[0]) & (mean <= SHADE_BAND[1])
    sides = shade.astype("float32") @ halves  # (k, 8)
    return radial, (sides - n.roll(sides, 4, axis=1)).max(axis=1)


def seen_from_above(board: Any, grads: tuple[Any, Any, Any], squares: Any) -> Any:
    """(len(squares),) bool: a round rim and a one-sided shadow (`disc_evidence`), a piece
    seen from above and no print."""
    radial, side = disc_evidence(board, grads, squares)
    return (radial >= DISC_RADIAL) & (side >= SHADOW_SIDE)
