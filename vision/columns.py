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

Where the pose says more: on the top-down board a piece fills the stretch from its base to
where its top falls (`Calibration.leans`: the way from the picture's "up", the distance from
the camera's place and height). A piece standing behind would carry what its window shows at
least as far as the top of the shortest piece falls; what ends short of that, joined to the
piece in front, is that piece's top (`short_tops`: the king on f6 over an empty f7), `?`.
On the camera's far back rank that stretch falls off the board: there the strip goes on in
the picture beyond the board's edge, against the look of the board's surround, and the
shortest piece is the set's own pawn, measured at calibration (`pawn_reach`): the king on
e7 over an empty e8.
With the rules' position, a square behind a king or queen that the reading shows newly
holding a piece that no piece could have moved to is hidden (`hidden_behind`,
`could_arrive`). Measured with `bench/vision_honest.py`, empty squares read as pieces behind
pieces, no position: 72 -> 40 (the 40: e8 behind the king on e7, the back rank), with the
previous position: 26 -> 2; squares read right and pieces shown as `?` unchanged. Beyond
the far edge, no position: 40 -> 4, the same squares read right and pieces `?`.

A camera nearly above the board (tilted less than `geometry.MIN_TILT`) sees no columns to
speak of: nothing is changed there.
"""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.cvload import cv2, np
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


#: the shortest piece of a set (a pawn) stands at least this high, in squares: a tournament
#: pawn is about 50 mm high on a 50-65 mm square (0.77-1.0); a little lower for margin
SHORTEST = 0.7
#: how far a piece may stand from its square's centre along the camera's way, in squares:
#: where its top falls moves with it
OFF_CENTRE = 0.12
CORRIDOR = 0.3  #: half width, in squares, of the strip along the camera's way that is examined
#: share of the classifier's window (`features.WINDOW`, 0.1 square into the body) that must be
#: unlike the board for the strip to be trusted: a white piece on a light square is hardly
#: unlike its square pixel by pixel, and where the strip does not see it nothing is said
WINDOW_SEEN = 0.25
#: a pixel is unlike the board when its colour lies farther from every shade of its square
#: colour's empty look than `NOISE` times the median such distance over the centres of the
#: surely empty squares, and at least `LEAST_UNLIKE` levels
NOISE = 3.0
#: lightness (the classifier's `L` feature, levels / `features.REF`) by which the calibrated
#: look of a piece of one colour on a square colour must differ from that square's empty look
#: for a window hardly unlike the board to count against such a piece standing there (a
#: black piece on a light square fills the window; the narrow top of a king in front does
#: not): 0.5 is 50 levels; on `uschess` black on light squares differs by 1.5, white on dark
#: by 1.0, white on light by 0.02
SEEN_CONTRAST = 0.5
#: pixels either side of the board's edge that are judged by their neighbours across it
#: (`_bridge_edge`): the edge's own line, and corners a little off, mix the square's colour
#: with the border's and look like neither
EDGE = 4.0
LEAST_UNLIKE = 15.0
SURE_EMPTY = 0.9  #: probability of empty above which a square's centre measures the noise


def _unlike(pixels: Any, parity: Any, levels: Any) -> Any:
    """Distance of each BGR pixel (N x 3) to the nearest shade (0.55 to 1.15 times) of its
    square colour's empty look (`levels[parity]`): a shadow or a dimmer light keeps a
    colour's proportions, a piece does not."""
    n = np()
    lev = levels[parity]
    x = pixels.astype("float32")
    k = n.clip((x * lev).sum(axis=-1) / (lev * lev).sum(axis=-1), 0.55, 1.15)
    return n.linalg.norm(x - k[..., None] * lev, axis=-1)


#: the band around the board measured for its look (`_Surround`), in squares beyond the
#: board's edge: clear of the edge's line and of the table beyond a board's usual border
BAND = (0.15, 0.4)


class _Surround:
    """What lies just beyond the board's edge (its border, or the table), seen in the
    picture: the top of a piece on the camera's far back rank falls there.

    Its look is measured beyond the edge nearest the camera, which no piece leans over
    (pieces lean away from the camera): the median colour of a band (`BAND`), and the noise
    around it (`NOISE` times the median distance, at least `LEAST_UNLIKE`). A pixel beyond
    the edge is unlike it as `_unlike` says of a square's colour (a shade of it is alike).
    """

    def __init__(self, frame: Any, h: Any, away: Any) -> None:
        n = np()
        self.frame, self.h = frame, h
        self.size = (int(frame.shape[1]), int(frame.shape[0]))
        self.look: Any = None
        self.limit = n.inf
        sq, size = geometry.SQ, geometry.SIZE
        near, far = round(BAND[0] * sq), round(BAND[1] * sq)
        toward = -n.asarray(away).mean(axis=0)
        if abs(toward[1]) >= abs(toward[0]):
            y0 = size + near if toward[1] > 0 else -far
            box = (sq // 2, y0, size - sq, far - near)
        else:
            x0 = size + near if toward[0] > 0 else -far
            box = (x0, sq // 2, far - near, size - sq)
        x0, y0, w, hh = box
        ends = n.array([[x0, y0], [x0 + w, y0], [x0, y0 + hh], [x0 + w, y0 + hh]], dtype="float64")
        if not geometry.in_picture(h, ends, self.size):
            return  # the board's near edge is cut by the picture: nothing to compare with
        band = geometry.warp_region(frame, h, x0, y0, w, hh).reshape(-1, 3).astype("float32")
        self.look = n.median(band, axis=0)[None, :]
        spread = float(n.median(_unlike(band, n.zeros(len(band), dtype="int64"), self.look)))
        self.limit = max(LEAST_UNLIKE, NOISE * spread)

    def unlike(self, xs: Any, ys: Any) -> Any:
        """Per canonical pixel (`xs`, `ys`: int arrays of one shape, beyond the board) whether
        it is unlike the surround; None where one of them falls off the picture or the
        surround's look is unknown."""
        n = np()
        if self.look is None:
            return None
        pts = n.stack([xs.ravel(), ys.ravel()], axis=1).astype("float64")
        if not geometry.in_picture(self.h, pts, self.size):
            return None
        x0, y0 = int(xs.min()), int(ys.min())
        w, hh = int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1
        region = geometry.warp_region(self.frame, self.h, x0, y0, w, hh)
        pixels = region[ys - y0, xs - x0].reshape(-1, 3)
        far = _unlike(pixels, n.zeros(len(pixels), dtype="int64"), self.look) > self.limit
        return far.reshape(xs.shape)


def _bridge_edge(unlike: Any, pts: Any) -> None:
    """In a strip (rows along the camera's way, columns across it) of `unlike` pixels at
    canonical points `pts` that crosses the board's edge, keep a pixel within `EDGE` of the
    edge unlike only where the pixel just before that band (toward the camera) is unlike too,
    and it or the pixel just after the band is: a piece crossing the edge stays one blob, a
    top ending in the band ends where it ends, and the edge's own line, unlike both the
    squares and the border, joins nothing."""
    n = np()
    size = geometry.SIZE
    x, y = pts[..., 0], pts[..., 1]
    inner = n.minimum(n.minimum(x, size - x), n.minimum(y, size - y))
    dx = n.maximum(n.maximum(-x, x - size), 0.0)
    dy = n.maximum(n.maximum(-y, y - size), 0.0)
    near = n.where(inner >= 0, inner, n.hypot(dx, dy)) < EDGE
    rows = n.arange(unlike.shape[0])[:, None]
    first = n.where(near, rows, unlike.shape[0]).min(axis=0)  # per column, where the band is
    last = n.where(near, rows, -1).max(axis=0)
    cols = n.flatnonzero((first > 0) & (last < unlike.shape[0] - 1) & (last >= first))
    if cols.size:
        before = unlike[first[cols] - 1, cols]
        after = unlike[last[cols] + 1, cols]
        band = near[:, cols]
        kept = before[None, :] & (unlike[:, cols] | after[None, :])
        unlike[:, cols] = n.where(band, kept, unlike[:, cols])


class _Strips:
    """The strips along the camera's way through squares of one board picture, and the
    blobs unlike the board in them (`short_tops`, `pawn_reach`).

    `board` is the canonical board in the calibration's light, `cal` the calibration (its
    pose: `leans`; its empty squares' colours: `levels`; its model: which pieces stand out
    of which square colour), `empty` (64 bools) the squares surely empty in it, whose centres
    measure the noise; `frame`, the picture, lets a strip go on beyond the board's edge
    (`_Surround`), else a strip that leaves the board says nothing.
    """

    def __init__(self, board: Any, cal: Any, empty: Any, frame: Any = None) -> None:
        n = np()
        self.board = board
        self.away, self.reach = cal.leans()
        sq = geometry.SQ
        self.levels = n.asarray(cal.levels, dtype="float32")
        lo, hi = sq // 2 - 6, sq // 2 + 6
        cores = board.reshape(8, sq, 8, sq, 3)[:, lo:hi, :, lo:hi, :].transpose(0, 2, 1, 3, 4)
        cores = cores.reshape(64, -1, 3)
        self.parity = (n.arange(64) // 8 + n.arange(64) % 8) % 2
        self.limit = n.full(2, n.inf)
        for p in (0, 1):
            sure = n.asarray(empty, dtype=bool) & (self.parity == p)
            if sure.any():
                d = _unlike(cores[sure].reshape(-1, 3), p, self.levels)
                self.limit[p] = max(LEAST_UNLIKE, NOISE * float(n.median(d)))
        half = round(CORRIDOR * sq)
        self.lateral = n.arange(-half, half + 1, dtype="float64")
        self.surround = _Surround(frame, cal.homography(), self.away) if frame is not None else None
        # (2, 3): whether a piece of each state stands out of each square colour's empty look
        # by its lightness, so that the strip would see it fill the window
        mu, _ = cal.model.arrays()
        self.contrast = n.abs(mu[:, :, 0] - mu[:, :1, 0]) >= SEEN_CONTRAST

    def seen(self, s: int) -> bool:
        """Whether square `s`'s colour has a noise level to judge pixels by."""
        return bool(np().isfinite(self.limit[self.parity[s]]))

    def off_board(self, s: int) -> bool:
        """Whether the top of the shortest piece standing on `s` falls off the board."""
        n = np()
        r, col = divmod(s, 8)
        centre = n.array([(col + 0.5) * geometry.SQ, (r + 0.5) * geometry.SQ])
        far = centre + (self.reach[s] + 0.1 * geometry.SQ) * self.away[s]
        return not (0 <= far[0] < geometry.SIZE and 0 <= far[1] < geometry.SIZE)

    def end(
        self, s: int, colour: int, t_front: float | None = None, reach: float | None = None
    ) -> float | None:
        """How far (canonical pixels beyond the square's centre) the blob seen in square
        `s`'s window reaches along the camera's way, followed up to `reach` (default the
        shortest piece's, `Calibration.leans`) and 0.3 square on; None where nothing is
        said: the strip leaves the board (or, beyond it, the picture; or the surround's look
        is unknown), the window is hardly unlike the board although a piece of `colour` (1
        white, 2 black) would stand out of this square's colour, or (with `t_front`, where
        the piece in front stands) the blob does not join the piece in front."""
        n, c = np(), cv2()
        sq = geometry.SQ
        u = self.away[s]
        lat = n.array([-u[1], u[0]])
        r, col = divmod(s, 8)
        centre = n.array([(col + 0.5) * sq, (r + 0.5) * sq])
        off = self.off_board(s)
        if off and self.surround is None:
            return None  # where the top of a piece here would fall is off the board
        first = -0.3 * sq if t_front is None else t_front - 0.3 * sq
        last = (self.reach[s] if reach is None else reach) + 0.3 * sq
        t = n.arange(int(first), int(last) + 1, dtype="float64")
        pts = centre + t[:, None, None] * u + self.lateral[None, :, None] * lat
        x = n.rint(pts[..., 0]).astype("int64")
        y = n.rint(pts[..., 1]).astype("int64")
        inside = (x >= 0) & (x < geometry.SIZE) & (y >= 0) & (y < geometry.SIZE)
        xs, ys = n.clip(x, 0, geometry.SIZE - 1), n.clip(y, 0, geometry.SIZE - 1)
        par = (xs // sq + ys // sq) % 2
        unlike = (_unlike(self.board[ys, xs], par, self.levels) > self.limit[par]) & inside
        if not inside.all():
            beyond = None if self.surround is None else self.surround.unlike(x[~inside], y[~inside])
            if beyond is not None:
                unlike[~inside] = beyond
                _bridge_edge(unlike, pts)
            elif off:
                return None  # off the picture, or nothing to compare it with
        _, labels = c.connectedComponents(unlike.astype("uint8"), connectivity=8)
        # the classifier's window: 0.1 square beyond the centre, 0.4 square wide
        window = labels[n.ix_((t >= -0.1 * sq) & (t <= 0.3 * sq), n.abs(self.lateral) <= 0.2 * sq)]
        if (window > 0).mean() < WINDOW_SEEN:
            # hardly unlike the board: a white piece on a light square the strip does not
            # see, or, where a piece of this colour would stand out, a narrow top from in
            # front: only the latter is followed
            if not (self.contrast[self.parity[s], colour] and window.any()):
                return None
        seen = n.setdiff1d(n.unique(window), [0])
        if t_front is not None and not n.isin(seen, labels[n.abs(t - t_front) <= 0.25 * sq]).any():
            return None  # what the window shows does not join the piece in front
        return float(t[n.isin(labels, seen).any(axis=1)].max())


def short_tops(post: Any, board: Any, cal: Any, frame: Any = None) -> Any:
    """(64,) bool: squares read as a piece behind a square read as a piece of the same
    colour, whose look is the top of the piece in front, by the camera's pose.

    On the top-down board a piece fills the stretch from its base to where its top falls,
    away from the camera (`Calibration.leans`). Along that way, through the square behind
    and its window, the pixels unlike the board (`_unlike`) are followed from the window
    (`_Strips.end`): the blob seen there must join the piece in front (else the window shows
    something of its own). A piece standing behind would carry the blob at least as far as
    the top of the shortest piece (`SHORTEST`) standing there falls, give or take
    `OFF_CENTRE`; a blob that ends short of that is the top of the piece in front (the king
    on f6 over an empty f7), and the square is unreadable.

    Where that top falls off the board (the camera's far back rank), the strip goes on in
    the picture (`frame`) beyond the board's edge, against the look of what surrounds the
    board (`_Surround`); there the shortest piece is the calibration set's own pawn
    (`Calibration.pawn_reach`, when measured): the king on e7 over an empty e8 reaches
    about as far as the least pawn would, not as far as this set's pawn. Without `frame`
    nothing is said there. Only where the blob fills at least `WINDOW_SEEN` of the window, or
    a piece of the colour read would stand out of the square's colour (`SEEN_CONTRAST`).
    """
    n = np()
    out = n.zeros(64, dtype=bool)
    front = cal.fronts()
    if front is None or cal.levels is None or cal.leans() is None:
        return out
    state = post.argmax(axis=1)
    behind = [
        s for s in range(64) if front[s] >= 0 and state[s] != 0 and state[front[s]] == state[s]
    ]
    if not behind:
        return out
    strips = _Strips(board, cal, post[:, 0] >= SURE_EMPTY, frame)
    away, reach = strips.away, strips.reach
    sq = geometry.SQ
    pawn = max(1.0, cal.pawn_reach or 1.0)
    short: dict[int, tuple[float, float]] = {}  # square: (where its blob ends, expected reach)
    for s in behind:
        if not strips.seen(s):
            continue
        r, col = divmod(s, 8)
        fr, fc = divmod(int(front[s]), 8)
        t_front = float(n.dot(n.array([fc - col, fr - r], dtype="float64") * sq, away[s]))
        expect = reach[s] * (pawn if strips.off_board(s) else 1.0)
        end = strips.end(s, int(state[s]), t_front, expect)
        if end is not None and end < expect - OFF_CENTRE * sq:
            short[s] = (end, expect)
    if not short:
        return out
    # the frame's own ruler: a piece standing free (nothing read in front or behind) reaches
    # where its top falls; where even the shortest of them ends short of where the pose puts
    # the shortest piece's top (a pose a little off: a cropped picture, an odd lens), every
    # expected reach shrinks by that share (only ever less sure: measured only when needed)
    ruler = 1.0
    behind_of = {int(f): s for s, f in enumerate(front) if f >= 0}
    for s in range(64):
        f, b = int(front[s]), behind_of.get(s, -1)
        if state[s] == 0 or (f >= 0 and state[f] != 0) or (b >= 0 and state[b] != 0):
            continue
        if not strips.seen(s) or reach[s] <= 0:
            continue
        end = strips.end(s, int(state[s]))
        if end is not None:
            ruler = min(ruler, (end + OFF_CENTRE * sq) / reach[s])
    for s, (end, expect) in short.items():
        out[s] = end < ruler * expect - OFF_CENTRE * sq
    return out


#: pawns measured at calibration (`pawn_reach`) beyond which their reach is not trusted: a
#: pawn as high as its square (1.0 / `SHORTEST`)
PAWN_MOST = 1.0 / SHORTEST


def pawn_reach(frame: Any, cal: Any, placement: str) -> float | None:
    """How far the tops of the calibration picture's own pawns fall, as a share of where
    the pose puts the top of the shortest piece (`SHORTEST`), or None where no pawn can be
    measured (a camera nearly above the board; no pawn with the square behind it empty,
    where its top falls; none standing out of its square's colour enough for the strip to see
    it). A piece in front does not matter: even a king's top falls short of a pawn's behind
    it (on `uschess`, about 0.5 square beyond the pawn's centre against 0.75).

    The median over the pawns of the known `placement` (piece letters), at most `PAWN_MOST`
    and at least 1. `frame` is the calibration picture.
    """
    n = np()
    front = cal.fronts()
    if front is None or cal.levels is None or cal.leans() is None:
        return None
    board = geometry.warp(frame, cal.homography())
    letters = kinds(placement)
    occupied = n.asarray([k != EMPTY for k in letters])
    strips = _Strips(board, cal, ~occupied)
    behind_of = {int(f): s for s, f in enumerate(front) if f >= 0}
    shares = []
    for s, letter in enumerate(letters):
        if letter not in "Pp":
            continue
        b = behind_of.get(s, -1)
        if (b >= 0 and occupied[b]) or not strips.seen(s):
            continue
        end = strips.end(s, _colour(letter), reach=PAWN_MOST * strips.reach[s])
        if end is not None and strips.reach[s] > 0:
            shares.append(end / strips.reach[s])
    if not shares:
        return None
    return float(n.clip(n.median(shares), 1.0, PAWN_MOST))


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


_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_LINES = {
    "r": ((0, 1), (0, -1), (1, 0), (-1, 0)),
    "b": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
}
_LINES["q"] = _LINES["r"] + _LINES["b"]


def could_arrive(known: list[str], src: int, dst: int, free: Any = ()) -> bool:
    """Whether the piece the position `known` (`kinds`) has on `src` can reach `dst` in
    one move (grid indices, a8 = 0): the piece's own way of moving, captures included,
    castling's king step of two files, a pawn's double step and diagonal step (a capture, en
    passant); a line is blocked by the pieces of `known` except on the squares in `free`
    (squares since emptied). A piece of unknown kind (X/x) can reach anything: nothing is
    assumed of it.
    """
    letter = known[src]
    if letter in (EMPTY, UNKNOWN):
        return False
    kind = letter.lower()
    if kind == "x":
        return True
    if _colour(known[dst]) == _colour(letter) and dst not in free:
        return False  # its own side's piece stands there
    r0, c0 = divmod(src, 8)
    r1, c1 = divmod(dst, 8)
    dr, dc = r1 - r0, c1 - c0
    if kind == "n":
        return (dr, dc) in _KNIGHT
    if kind == "k":
        return max(abs(dr), abs(dc)) == 1 or (dr == 0 and abs(dc) == 2 and r0 in (0, 7))
    if kind == "p":
        ahead = -1 if letter.isupper() else 1  # White's pawns go up the grid (toward rank 8)
        start = 6 if letter.isupper() else 1
        if dc == 0:
            path = [src + ahead * 8] if dr == ahead else []
            if dr == 2 * ahead and r0 == start:
                path = [src + ahead * 8, dst]
            return bool(path) and all(known[i] == EMPTY or i in free for i in path)
        return dr == ahead and abs(dc) == 1
    if kind not in _LINES or (dr, dc) == (0, 0):
        return False
    step = (dr // max(abs(dr), 1), dc // max(abs(dc), 1))
    if step not in _LINES[kind] or (dr != 0 and dc != 0 and abs(dr) != abs(dc)):
        return False
    r, c = r0 + step[0], c0 + step[1]
    while (r, c) != (r1, c1):
        if known[r * 8 + c] != EMPTY and r * 8 + c not in free:
            return False
        r, c = r + step[0], c + step[1]
    return True


def hidden_behind(post: Any, front: Any, known: list[str]) -> Any:
    """(64,) bool: squares that a tall piece in front hides, by the position the rules hold
    (`known`: `kinds` of it) and this reading's own evidence, where the reading could not
    tell a piece standing there from the tall piece's top.

    A square is hidden when it is read as a piece of a colour, the square in front of it
    (toward the camera) is read as a piece of that colour too, the position does not hold a
    piece of that colour on it (a reading that agrees with the position is kept), and in the
    position either
    - a tall piece (`TALL`) of that colour stands in front (the king on e7, e8 empty), or
    - neither square held a piece of that colour: two pieces of one colour cannot arrive
      one behind the other in one move (castling along the camera's line aside), so one
      is a piece that arrived in front and the other its top (the king from d7 to e7);
    and the reading does not show a piece arriving there: either it shows more squares
    newly holding a piece of that colour than squares that held one and now read otherwise
    (every move leaves its from-square, castling two; a top seen as a piece left none), or
    no square that held a piece of that colour and now reads otherwise held one that could
    move there (`could_arrive`: a pawn on f6 that took on e5 did not go to e8; a rook taken
    on a2 did not go to f7). A piece that came from a square now empty, by its own way of
    moving, is kept (Nbd2 behind the queen).

    Only occupancy is given up (the square becomes `?`); no piece is ever put where the
    reading does not show one, and a square read as empty is never touched.
    """
    n = np()
    state = post.argmax(axis=1)
    out = n.zeros(64, dtype=bool)
    was = n.asarray([_colour(k) for k in known])
    new = [int(((state == c) & (was != c)).sum()) for c in (0, 1, 2)]
    left = [int(((state != c) & (was == c)).sum()) for c in (0, 1, 2)]
    extra = [c > 0 and new[c] > left[c] for c in (0, 1, 2)]
    vacated = {c: [int(v) for v in n.flatnonzero((state != c) & (was == c))] for c in (1, 2)}
    free = {int(v) for v in n.flatnonzero((state == 0) & (was != 0))}
    for s in range(64):
        f = int(front[s])
        colour = int(state[s])
        if f < 0 or colour == 0 or int(state[f]) != colour:
            continue
        here, ahead = known[s], known[f]
        if _colour(here) == colour:
            continue  # the position has a piece of that colour there: nothing is in doubt
        stays = ahead in TALL and _colour(ahead) == colour
        arrived = _colour(ahead) != colour
        if not (stays or arrived):
            continue
        came = any(could_arrive(known, v, s, free) for v in vacated[colour])
        out[s] = extra[colour] or not came
    return out
