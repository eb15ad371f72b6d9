"""Local shadows: where the board is darker than its calibrated empty look, in its own colour.

The light mapping of `vision.classify` is global: a shadow over two squares (the
photographer's, a player's arm held still, a lamp's) darkens the pieces there too, and a white
piece in shade reads as black, an empty square in shade as a black piece (issue 16).

A shadow scales the light that reaches the board, so a shaded board pixel keeps its
square's colour, only darker: its three colour channels are about the same share of the
calibration's empty look of that square colour (`levels`). A black piece is not such a share
of a green or a cream square (its channels' shares differ by more than `CONSISTENT`), or is
too dark to be shade worth reading (`MIN_GAIN`): those pixels say nothing of the light. The
light field is the telling pixels' mean share in cells of 0.1 square (`light_field`), a cell
without enough of them (a white piece on a dark square) taking the light around it. Where
the field is clearly below the calibration's light (`DARKER`) over a patch at least 0.7 of a
square wide (`SMALLEST`) and larger than a square in all (`LEAST_AREA`: a piece's own
cast shadow, a dark piece on its square or dark grain is not a shadow over squares), the
board is brightened back by it, pixel by pixel, so a shadow's edge across a square is
followed: a whole square brightened by its darker half reads as a piece.

Measured (`bench/vision_variations.py`, a 45 % shadow over about two squares after
calibration, the 74 `uschess` photos): see vision/README.md.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import cv2, np
from vision.geometry import SIZE, SQ

DARKER = 0.8  #: light below this share of the calibration's is shade and is corrected
MIN_GAIN = 0.3  #: deeper shade than this is not corrected (nothing left to read)
CONSISTENT = 0.25  #: most a shaded pixel's channel shares may differ from their mean (share)
BLOCK = 4  #: the light field's cell, canonical pixels (0.1 square)
MIN_TELLING = 0.15  #: least share of telling pixels for a cell's light to count
FILL_SPAN = 11  #: a cell with fewer takes the light around it, over this many (1.1 squares)
#: a shade narrower than this many cells (0.7 square) is no shadow over squares: a piece's
#: own shading seen from above (at 5 cells, white pieces on the video's top-down frames were
#: brightened into empty squares when a lamp above or faded colours darkened them a little)
SMALLEST = 7
#: ... and a shadow over squares covers more than one square (a piece seen from above, up to
#: about 0.9 square wide, dark like its square: the walnut board's rooks, is not one)
LEAST_AREA = 1.5 * (SQ // BLOCK) ** 2


_EXPECTED: dict[tuple[float, ...], Any] = {}  #: `_expected` by levels (one calibration's)


def _expected(levels: Any) -> Any:
    """(HALF, HALF, 3) float32: 1 / (calibration colour + 1) of each pixel's square colour,
    at half the canonical board's resolution."""
    n = np()
    key = tuple(float(v) for row in levels for v in row)
    if key not in _EXPECTED:
        if len(_EXPECTED) > 8:
            _EXPECTED.clear()
        parity = (n.arange(8)[:, None] + n.arange(8)[None, :]) % 2
        per_square = 1.0 / (n.asarray(levels, dtype="float32")[parity] + 1.0)  # (8, 8, 3)
        half = SQ // 2
        _EXPECTED[key] = n.repeat(n.repeat(per_square, half, axis=0), half, axis=1)
    return _EXPECTED[key]


def light_field(board: Any, levels: Any) -> Any:
    """(SIZE // BLOCK, SIZE // BLOCK) share of the calibration's light reaching each cell
    (1 where nothing says otherwise), for a board mapped to the calibration's light whose
    empty light and dark squares' colours are `levels` ((2, 3): light squares first).

    Only telling pixels (a shade of their square's colour) count: a cell's light is their
    mean in it; a cell with too few of them (`MIN_TELLING`) takes their mean over
    `FILL_SPAN` cells around it, or keeps 1. Cells are not smoothed further: a shadow's
    edge stays where it is (smoothing it over 0.3 square left dark bands that read as
    pieces: 39 wrong on half the shadowed `uschess` photos against 17). Pixels are judged
    at half the board's resolution (2 x 2 means), which is 4 times cheaper.
    """
    n, c = np(), cv2()
    half = c.resize(board, (SIZE // 2, SIZE // 2), interpolation=c.INTER_AREA)
    shares = (half.astype("float32") + 1.0) * _expected(levels)
    # channel by channel: numpy's reductions over a last axis of 3 cost 10 times as much
    # (the same sums in the same order, so the same values)
    s0, s1, s2 = shares[:, :, 0], shares[:, :, 1], shares[:, :, 2]
    mean = (s0 + s1 + s2) / 3
    high = n.maximum(n.maximum(s0, s1), s2)
    low = n.minimum(n.minimum(s0, s1), s2)
    spread = (high - low) / n.maximum(mean, 1e-3)
    telling = ((spread <= CONSISTENT) & (mean >= MIN_GAIN)).astype("float32")
    cells = (SIZE // BLOCK, SIZE // BLOCK)
    num = c.resize(n.minimum(mean, 1.0) * telling, cells, interpolation=c.INTER_AREA)
    den = c.resize(telling, cells, interpolation=c.INTER_AREA)
    field = n.ones(cells, "float32")
    known = den >= MIN_TELLING
    field[known] = num[known] / den[known]
    # a cell with too few telling pixels (a white piece on a dark square) takes the light
    # of the telling pixels around it
    fill = ~known
    if fill.any():
        f_num = c.boxFilter(num, -1, (FILL_SPAN, FILL_SPAN), borderType=c.BORDER_REPLICATE)
        f_den = c.boxFilter(den, -1, (FILL_SPAN, FILL_SPAN), borderType=c.BORDER_REPLICATE)
        fill &= f_den >= MIN_TELLING
        field[fill] = f_num[fill] / f_den[fill]
    return field


def unshaded(board: Any, levels: Any) -> Any:
    """The board (mapped to the calibration's light) with the parts in clear shade
    brightened back (uint8, same shape); `levels` are the calibration's empty square colours
    (`Calibration.levels`)."""
    n, c = np(), cv2()
    field = light_field(board, levels)
    kernel = n.ones((SMALLEST, SMALLEST), "uint8")
    opened = c.morphologyEx((field < DARKER).astype("uint8"), c.MORPH_OPEN, kernel)
    _, labels, stats, _ = c.connectedComponentsWithStats(opened, connectivity=4)
    wide = n.flatnonzero(stats[1:, c.CC_STAT_AREA] >= LEAST_AREA) + 1
    shaded = n.isin(labels, wide)
    if not shaded.any():
        return board
    gain = n.where(shaded, n.maximum(field, MIN_GAIN), 1.0).astype("float32")
    per_pixel = c.resize(gain, (SIZE, SIZE), interpolation=c.INTER_LINEAR)
    rows = n.flatnonzero((per_pixel < 1.0).any(axis=1))
    cols = n.flatnonzero((per_pixel < 1.0).any(axis=0))
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    part = board[y0:y1, x0:x1].astype("float32") / per_pixel[y0:y1, x0:x1, None]
    out = board.copy()
    out[y0:y1, x0:x1] = n.minimum(part, 255.0)
    return out
