"""Local shadows: a square darker than its colour's other squares, at every side, is in shade.

The light mapping of `vision.classify` is global: a shadow over two squares (the
photographer's, a player's arm held still, a lamp's) darkens the pieces there too, and a white
piece in shade reads as black. Here each square's light is measured on its four border strips
(where a piece standing on it covers least, and never all four: a piece seen from the side
covers the far strip, from above none): the brightest strip against the median strip of all
squares of that colour is the light that reaches the square. Squares clearly in shade
(`DARKER`) are brightened back by that ratio before their features are taken.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import cv2, np
from vision.geometry import SQ

STRIP = 4  #: width of a square's border strip, canonical pixels (0.1 square)
DARKER = 0.8  #: a square whose brightest strip is below this share of its colour's median
MIN_GAIN = 0.3  #: deeper shade than this is not corrected (nothing left to read)


def square_light(board: Any) -> Any:
    """(8, 8) light reaching each square, against the other squares of its colour (1 = as
    they are; 0.5 = half as much)."""
    n, c = np(), cv2()
    grey = c.cvtColor(board, c.COLOR_BGR2GRAY).astype("float32")
    cells = grey.reshape(8, SQ, 8, SQ).transpose(0, 2, 1, 3)
    strips = n.stack(
        [
            n.median(cells[:, :, :STRIP, STRIP:-STRIP].reshape(8, 8, -1), axis=2),
            n.median(cells[:, :, -STRIP:, STRIP:-STRIP].reshape(8, 8, -1), axis=2),
            n.median(cells[:, :, STRIP:-STRIP, :STRIP].reshape(8, 8, -1), axis=2),
            n.median(cells[:, :, STRIP:-STRIP, -STRIP:].reshape(8, 8, -1), axis=2),
        ]
    )
    parity = (n.arange(8)[:, None] + n.arange(8)[None, :]) % 2
    out = n.ones((8, 8), "float32")
    for p in (0, 1):
        level = float(n.median(strips[:, parity == p]))
        out[parity == p] = n.sort(strips[:, parity == p], axis=0)[-2] / max(level, 1.0)
    return out


def unshaded(board: Any) -> Any:
    """The board with squares clearly in shade brightened back (uint8, same shape)."""
    n = np()
    light = square_light(board)
    gain = n.where((light < DARKER) & (light >= MIN_GAIN), light, 1.0).astype("float32")
    if (gain == 1.0).all():
        return board
    per_pixel = cv2().resize(gain, (8 * SQ, 8 * SQ), interpolation=cv2().INTER_LINEAR)
    # Bilinear: a pixel whose nearest square centres all keep gain 1 is exactly 1, so only
    # the box around the shaded squares changes (most frames: a square or two).
    rows = n.flatnonzero((per_pixel != 1.0).any(axis=1))
    cols = n.flatnonzero((per_pixel != 1.0).any(axis=0))
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    part = board[y0:y1, x0:x1].astype("float32")
    part /= per_pixel[y0:y1, x0:x1, None]
    n.minimum(part, 255.0, out=part)
    out = board.copy()
    out[y0:y1, x0:x1] = part  # truncated to uint8, as astype does
    return out
