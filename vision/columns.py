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
from vision.placement import EMPTY, UNKNOWN, to_grid

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


#: pieces tall enough that, seen at the `uschess` angle (45-60 degrees from the vertical),
#: their top covers the window of the square behind them: king and queen (a king stands
#: about 1.7 squares high). On those photos 70 of the 72 empty squares read as pieces behind
#: a piece were behind a king (e8 behind a king on e7, f7 behind f6), and the 14 empty
#: squares behind a queen not read empty were `?` already; none behind a bishop (505 read
#: empty), so a bishop is not taken for tall: with it, a piece arriving behind a bishop
#: would be `?` (Bc4 behind Bc3 on IMG_4818, Nf6 behind a bishop on f5 on IMG_4819).
TALL = frozenset("KQkq")


def kinds(placement: str) -> list[str]:
    """The 64 squares of a FEN placement with piece letters, grid order (a8 first), '.'
    where empty; X/x stay X/x (a piece of unknown kind is not known to be tall).

    Raises:
        VisionError: the placement is not 8 ranks of 8 squares (`placement.to_grid`).
    """
    to_grid(placement)  # checks it, with the messages of a bad placement
    out: list[str] = []
    for ch in placement.strip().split(" ")[0].replace("/", ""):
        out.extend(EMPTY * int(ch) if ch.isdigit() else ch)
    return out


def _colour(letter: str) -> int:
    """1 for a white piece, 2 for a black one, 0 for none (the classifier's state index)."""
    if letter in (EMPTY, UNKNOWN):
        return 0
    return 1 if letter.isupper() else 2


def hidden_behind(post: Any, front: Any, known: list[str]) -> Any:
    """(64,) bool: squares that a tall piece in front hides, by the position the rules hold
    (`known`: `kinds` of it) and this reading's own evidence, where the reading could not
    tell a piece standing there from the tall piece's top.

    A square is hidden when the reading shows more squares newly holding a piece of its
    colour than squares that held one and now read empty (every move leaves its from-square
    empty, castling two; a piece that arrived behind a tall one left a square that now
    reads empty, a top seen as a piece left none), it is read as a piece of that colour,
    the square in front of it (toward the camera) is read as a piece of that colour too,
    the position does not hold a piece of that colour on it (a reading that agrees with the
    position is kept), and in the position either
    - a tall piece (`TALL`) of that colour stands in front (the king on e7, e8 empty), or
    - neither square held a piece of that colour: two pieces of one colour cannot arrive
      one behind the other in one move (castling along the camera's line aside), so one
      is a piece that arrived in front and the other its top (the king from d7 to e7).

    Only occupancy is given up (the square becomes `?`); no piece is ever put where the
    reading does not show one, and a square read as empty is never touched.
    """
    n = np()
    state = post.argmax(axis=1)
    out = n.zeros(64, dtype=bool)
    was = n.asarray([_colour(k) for k in known])
    new = [int(((state == c) & (was != c)).sum()) for c in (0, 1, 2)]
    left = [int(((state == 0) & (was == c)).sum()) for c in (0, 1, 2)]
    extra = [c > 0 and new[c] > left[c] for c in (0, 1, 2)]
    for s in range(64):
        f = int(front[s])
        colour = int(state[s])
        if f < 0 or not extra[colour] or int(state[f]) != colour:
            continue
        here, ahead = known[s], known[f]
        if _colour(here) == colour:
            continue  # the position has a piece of that colour there: nothing is in doubt
        stays = ahead in TALL and _colour(ahead) == colour
        arrived = _colour(ahead) != colour
        out[s] = stays or arrived
    return out
