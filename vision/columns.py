"""Pieces as columns: a piece in front leans over the square behind it.

A camera that is not straight above sees each piece as a column rising from its base and
falling, in the top-down board, away from the camera (`geometry.toward_camera` gives the
way per square, from the camera's pose). The piece on the square in front (the neighbour
toward the camera) covers the near part of the square behind it and, when tall, its centre
too, where the classifier's window sits: an empty square behind a king was read as a piece
(issue 16: e8 and f7 behind the king were 11 of the 18 errors on the `uschess` photos).

From one picture the top of a tall piece in front and a piece standing behind it cannot
always be told apart: the square's far part and its sides do not separate them on the
`uschess` photos (measured: the far part of an empty e8 or f7 behind a king looks as much
like board as the far part of a short pawn standing behind a piece). What does differ is
how well the square matches the look of the class it is read as: the top of a column over
an empty square mixes a piece's crown with the board around it, a look the calibration never
showed. So a square read as a piece, behind a square read as a piece, whose features lie
farther than `MIXED` from its class's calibrated look is unreadable (`?`), not a piece.
Measured with `bench/vision_honest.py` (8 calibration photos, each scored on the 74 other
`uschess` photos): empty squares read as pieces behind pieces 102 -> 72, pieces shown as
`?` 49 -> 58 (MIXED 12: 61 and 106; 20: 86 and 49).

A camera nearly above the board (tilted less than `geometry.MIN_TILT`) sees no columns to
speak of: nothing is changed there.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import np

#: distance (sum of squared standard scores, `outline.distances`) to its class's look beyond
#: which a square behind a piece is a mixed look, `?` (calibrated on IMG_4755, pieces behind
#: pieces on `uschess`: median 2.1, 99th percentile 12.0; empty squares behind a king read
#: as pieces: 4.4-27.9; 16 weighs the 8 calibrations' misreads against their `?`)
MIXED = 16.0


def front_squares(toward: Any) -> Any:
    """(64,) grid index of the square in front of each square (the neighbour toward the
    camera, diagonal when the camera looks across the board's diagonal), -1 off the board."""
    n = np()
    out = n.full(64, -1, dtype="int64")
    for r in range(8):
        for c in range(8):
            fr = r + round(float(toward[r, c, 1]))
            fc = c + round(float(toward[r, c, 0]))
            if 0 <= fr < 8 and 0 <= fc < 8 and (fr, fc) != (r, c):
                out[r * 8 + c] = fr * 8 + fc
    return out


def mixed_behind(post: Any, dist: dict[str, Any], front: Any) -> Any:
    """(64,) bool: squares read as a piece, whose square in front is read as a piece, and
    whose features lie beyond `MIXED` from the look of the colour they are read as (`dist`:
    `outline.distances` with the looks `white` and `black`)."""
    n = np()
    state = post.argmax(axis=1)
    piece = state != 0
    has_front = front >= 0
    behind = n.zeros(64, dtype=bool)
    behind[has_front] = piece[has_front] & piece[front[has_front]]
    to_class = n.where(state == 1, dist["white"], dist["black"])
    return behind & (to_class > MIXED)
