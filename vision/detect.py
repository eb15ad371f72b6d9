"""Automatic board localisation: the four outer corners of the playing area.

How, and why this way:

1. Seeds. OpenCV's sector-based chessboard detector finds a grid of inner corners: the full
   7x7 grid when the board is plain enough, otherwise (flag `CALIB_CB_LARGER`) the largest
   partial grid it can, which on crowded middlegame boards is often 4x4 to 6x7. The classic
   detector is a last try for plain boards the first misses (perspective, dark wood). It runs
   on the picture scaled to 500 and 800 px, up as well as down: on a 320x240 webcam frame
   the squares are too small for it.
2. Lattice. A seed says nothing about where on the board it lies, and may contain corners
   that are not between four squares (the playing area's border, a piece's edge), a line in
   the wrong place, or step two squares (or a knight's move) per line. So the seed is fitted
   robustly (the homography most of its points agree with), read each of those ways, and
   every lattice point is *verified*: refined to sub-pixel at full
   resolution, then accepted only if the four squares around it are a checker (the two
   diagonals alike, the diagonals different, with the parity of its place in the lattice)
   and it lies on the lattice's robust fit. From the verified points the lattice is filled
   in and grown line by line, each new line predicted by the fit of the points so far,
   until lines stop verifying (the playing area's edge or the image's).
3. Placement. A board has exactly 7 inner lines each way (an eighth that verifies means a
   larger checker: refused). When 7 verified lines are found, the playing area is one
   square beyond them. When fewer are (pieces hide a whole line), the candidate places are
   compared by how much the squares inside alternate and the ring just outside does not;
   only a clear winner is taken, and only if every candidate lies inside the picture.
4. Check and corners. The verified points must span 5 lines each way and fit one
   homography within `MAX_RMS`; each outer corner is then extrapolated from the inner
   corners near it (a board is rarely quite flat, a lens bends lines a little).

Results are reproducible: no RANSAC, and OpenCV's random state is seeded before the sector
detector runs.

A wrong board is worse than none (the user can give or click the corners), so each doubt
ends in `CalibrationError`, whose message names `--corners` and `--pick`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vision import messages as said
from vision.cvload import cv2, np
from vision.errors import CalibrationError
from vision.geometry import Corners, check_corners

#: the message when no board is found: both ways out
NOT_FOUND = said.NO_BOARD_FOUND

#: residual of the final fit (lattice units, i.e. squares): larger means not a flat 8x8 grid
MAX_RMS = 0.06
#: verified points per axis the final fit needs: extrapolating from fewer lines is unsafe
MIN_LINES = 5
#: inner corners within this many lines of an outer corner extrapolate it
LOCAL = 5.5
#: seed of OpenCV's random state before each sector-detector call (reproducible results)
SEED = 12345
#: margin by which the best placement's score must beat the next (partial lattices only)
PLACE_MARGIN = 0.25


def order_corners(points: Any) -> Corners:
    """Four points as image top-left, top-right, bottom-right, bottom-left: clockwise on
    screen, starting at the one with the smallest x + y."""
    n = np()
    pts = n.asarray(points, dtype="float64")
    centre = pts.mean(axis=0)
    ang = n.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[n.argsort(ang)]  # clockwise on screen (y down)
    start = int(n.argmin(pts.sum(axis=1)))
    pts = n.roll(pts, -start, axis=0)
    return [(float(x), float(y)) for x, y in pts]


def _seeds(grey: Any) -> Iterator[dict[tuple[int, int], tuple[float, float]]]:
    """Grids of inner corners, as {(column, row): image point}, best detectors first.

    Full 7x7 grids first (sector detector at 500 and 800 px, classic at 800 px), then the
    largest partial grids the sector detector finds at both sizes (a smaller picture is
    scaled up, at most twice). The sector detector draws
    from OpenCV's random state (per thread), which is seeded first so that the same picture
    always gives the same answer.
    """
    c = cv2()
    sb_flags = c.CALIB_CB_EXHAUSTIVE | c.CALIB_CB_NORMALIZE_IMAGE
    smalls = {}
    for side in (500, 800):
        # up to twice up, too: on a 320x240 frame the squares are too small for the detector
        scale = min(2.0, side / max(grey.shape))
        interp = c.INTER_AREA if scale < 1.0 else c.INTER_LINEAR
        smalls[side] = (scale, c.resize(grey, None, fx=scale, fy=scale, interpolation=interp))
    for side, classic in ((500, False), (800, False), (800, True)):
        scale, small = smalls[side]
        if classic:
            flags = c.CALIB_CB_ADAPTIVE_THRESH | c.CALIB_CB_NORMALIZE_IMAGE
            ok, found = c.findChessboardCorners(small, (7, 7), flags=flags)
        else:
            c.setRNGSeed(SEED)
            ok, found = c.findChessboardCornersSB(small, (7, 7), flags=sb_flags)
        if ok:
            yield _as_grid(found.reshape(7, 7, 2) / scale)
    for side in (500, 800):
        scale, small = smalls[side]
        c.setRNGSeed(SEED)
        ok, found, meta = c.findChessboardCornersSBWithMeta(
            small, (4, 4), sb_flags | c.CALIB_CB_LARGER
        )
        if ok:
            rows, cols = meta.shape[:2]
            yield _as_grid(found.reshape(rows, cols, 2) / scale)


def _as_grid(pts: Any) -> dict[tuple[int, int], tuple[float, float]]:
    """A rows x cols x 2 array of points as {(column, row): (x, y)}."""
    return {
        (col, row): (float(pts[row, col, 0]), float(pts[row, col, 1]))
        for row in range(pts.shape[0])
        for col in range(pts.shape[1])
    }


#: a verified point farther from the lattice's fit than 3 x the median residual, clipped
#: to these bounds (squares), is dropped
MIN_OFF, MAX_OFF = 0.04, 0.1


def _residuals(h: Any, points: dict[tuple[int, int], tuple[float, float]]) -> Any:
    """Each point's distance from its lattice place under `h`, in squares (board frame)."""
    n, c = np(), cv2()
    src = n.array(list(points.keys()), dtype="float64")
    dst = n.array(list(points.values()), dtype="float64").reshape(-1, 1, 2)
    back = c.perspectiveTransform(dst, n.linalg.inv(h)).reshape(-1, 2)
    return n.linalg.norm(back - src, axis=1)


def _limit(res: Any) -> float:
    """The residual beyond which a point is an outlier (see `MIN_OFF`, `MAX_OFF`)."""
    return min(MAX_OFF, max(MIN_OFF, 3.0 * float(np().median(res))))


def _fit(points: dict[tuple[int, int], tuple[float, float]]) -> Any | None:
    """Homography lattice (column, row) -> image of the points, robust to a few bad ones.

    Least squares, then the points more than three times the median residual off (within
    `MIN_OFF` .. `MAX_OFF` squares) are dropped and the fit repeated (a raw seed, whose stray
    points may be far off, is fitted by `_seed_fit`). Deterministic on purpose: OpenCV's
    RANSAC draws from a process-wide random state, so the same picture could be found or
    not depending on what ran before.
    """
    n, c = np(), cv2()
    if len(points) < 6:
        return None
    src = n.array(list(points.keys()), dtype="float64")
    dst = n.array(list(points.values()), dtype="float64")
    keep = n.ones(len(src), dtype=bool)
    h = None
    for _ in range(5):
        if keep.sum() < 6:
            return None
        h, _ = c.findHomography(src[keep], dst[keep], 0)
        if h is None:
            return None
        res = _residuals(h, points)
        new = res < _limit(res[keep])
        if (new == keep).all():
            break
        keep = new
    return h


#: a raw seed's point within this many squares of a candidate fit supports it
SEED_FIT = 0.15


def _seed_fit(seed: dict[tuple[int, int], tuple[float, float]]) -> tuple[Any, Any] | None:
    """Homography lattice -> image of a raw seed, and which of its points fit it.

    The sector detector's partial grids often include a stray line (the playing area's edge,
    a row of piece tops) or put one line in the wrong place; a least-squares fit of all points
    is then pulled off everywhere, and so is every point predicted from it. So each
    quadrilateral of seed points spanning at least half the seed each way proposes a
    homography, the one that most seed points fit (within `SEED_FIT` squares) wins, and it is
    refitted on those points. Deterministic: every candidate is tried, none drawn at random.
    """
    n, c = np(), cv2()
    if len(seed) < 6:
        return None
    keys = n.array(list(seed), dtype="float64")
    cols = sorted({k[0] for k in seed})
    rows = sorted({k[1] for k in seed})
    if len(cols) < 2 or len(rows) < 2:
        return None

    def pairs(m: int) -> list[tuple[int, int]]:
        least = max(1, (m - 1) // 2)
        return [(i, j) for i in range(m) for j in range(i + least, m)]

    best: tuple[int, float, Any] | None = None
    for i1, i2 in pairs(len(cols)):
        for j1, j2 in pairs(len(rows)):
            quad = [(cols[i1], rows[j1]), (cols[i2], rows[j1]), (cols[i2], rows[j2])]
            quad.append((cols[i1], rows[j2]))
            if any(k not in seed for k in quad):
                continue
            src = n.array(quad, dtype="float32")
            dst = n.array([seed[k] for k in quad], dtype="float32")
            h = c.getPerspectiveTransform(src, dst)
            if abs(n.linalg.det(h)) < 1e-12:
                continue
            res = _residuals(h, seed)
            fit = res < SEED_FIT
            score = (int(fit.sum()), -float(n.median(res[fit])) if fit.any() else 0.0)
            if best is None or score > best[:2]:
                best = (*score, fit)
    if best is None or best[0] < 6:
        return None
    fit = best[2]
    h, _ = c.findHomography(keys[fit], n.array(list(seed.values()))[fit], 0)
    if h is None:
        return None
    return h, _residuals(h, seed) < SEED_FIT


def _project(h: Any, lattice: Any) -> Any:
    n, c = np(), cv2()
    arr = n.asarray(lattice, dtype="float64").reshape(-1, 1, 2)
    return c.perspectiveTransform(arr, h).reshape(-1, 2)


def _quadrants(grey: Any, h: Any, lattice: Any) -> Any:
    """Mean grey of the four squares' near corners around each lattice point (N x 4:
    up-left, up-right, down-right, down-left in lattice directions).

    Sampled 0.12-0.28 square from the point along each diagonal quadrant: close enough to be
    clear of most pieces' bases, far enough from the line itself to be off its blur.
    """
    n, c = np(), cv2()
    lat = n.asarray(lattice, dtype="float64")
    offs = n.array([0.12, 0.2, 0.28])
    du, dv = n.meshgrid(offs, offs)
    du, dv = du.ravel(), dv.ravel()
    out = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        pts = lat[:, None, :] + n.stack([sx * du, sy * dv], axis=1)[None, :, :]
        img = _project(h, pts.reshape(-1, 2)).astype("float32")
        vals = c.remap(
            grey,
            img[:, 0].reshape(1, -1),
            img[:, 1].reshape(1, -1),
            c.INTER_LINEAR,
            borderMode=c.BORDER_CONSTANT,
            borderValue=-1,
        ).reshape(len(lat), -1)
        out.append(vals.mean(axis=1))
    q = n.stack(out, axis=1)
    inside = _inside(grey, _project(h, lat))
    q[~inside] = n.nan
    return q


def _inside(grey: Any, img: Any, margin: float = 3.0) -> Any:
    hgt, wid = grey.shape[:2]
    return (
        (img[:, 0] >= margin)
        & (img[:, 1] >= margin)
        & (img[:, 0] < wid - margin)
        & (img[:, 1] < hgt - margin)
    )


def _x_corner(q: Any, parity: Any, sign: float, level: float) -> Any:
    """Which points (quadrant means `q`) are checker corners of the expected parity.

    A corner between four squares has its diagonal squares alike and the two diagonals
    different; at the playing area's edge two of the four are border, so one diagonal is
    not alike. `sign` is the lattice's parity sign, `level` its typical diagonal contrast.
    """
    n = np()
    diag = (q[:, 0] + q[:, 2] - q[:, 1] - q[:, 3]) / 2.0
    alike = n.maximum(n.abs(q[:, 0] - q[:, 2]), n.abs(q[:, 1] - q[:, 3]))
    with n.errstate(invalid="ignore"):
        ok = (diag * parity * sign > 0.4 * level) & (alike < 0.6 * n.abs(diag))
    return n.nan_to_num(ok, nan=0.0).astype(bool)


class _Lattice:
    """Verified inner corners of one board, grown from a seed."""

    def __init__(self, grey: Any, seed: dict[tuple[int, int], tuple[float, float]]) -> None:
        self.grey = grey
        self.pts: dict[tuple[int, int], tuple[float, float]] = {}
        self.sign = 0.0
        self.level = 0.0
        self.win = 3
        fitted = _seed_fit(seed)
        if fitted is None:
            return
        h, inliers = fitted
        keys = list(seed)
        lat = np().array(keys, dtype="float64")
        src_img = _project(h, lat)
        # window and contrast from the seed's points that fit: a stray line would skew both
        good = lat[inliers]
        self.win = self._window(h, good)
        q = _quadrants(grey, h, good)
        parity = 1.0 - 2.0 * ((good[:, 0] + good[:, 1]) % 2)
        diag = (q[:, 0] + q[:, 2] - q[:, 1] - q[:, 3]) / 2.0 * parity
        diag = diag[~np().isnan(diag)]
        if len(diag) < 6:
            return
        self.sign = 1.0 if float(np().median(diag)) > 0 else -1.0
        self.level = float(np().median(np().abs(diag)))
        if self.level < 8.0:  # grey levels: no checker contrast at all
            return
        refined = self._refine(src_img)
        self._accept(h, keys, refined)

    def _window(self, h: Any, lat: Any) -> int:
        """cornerSubPix half-window: a sixth of the smallest square, 2 to 12 px."""
        n = np()
        a = _project(h, lat)
        b = _project(h, lat + n.array([1.0, 0.0]))
        d = _project(h, lat + n.array([0.0, 1.0]))
        side = float(min(n.linalg.norm(b - a, axis=1).min(), n.linalg.norm(d - a, axis=1).min()))
        return int(min(12, max(2, round(side / 6))))

    def _refine(self, img: Any) -> Any:
        c = cv2()
        if len(img) == 0:
            return img
        crit = (c.TERM_CRITERIA_EPS | c.TERM_CRITERIA_COUNT, 30, 0.01)
        pts = img.astype("float32").reshape(-1, 1, 2).copy()
        ok = _inside(self.grey, img, self.win + 2.0)
        if ok.any():
            sub = c.cornerSubPix(self.grey, pts[ok], (self.win, self.win), (-1, -1), crit)
            pts[ok] = sub
        return pts.reshape(-1, 2).astype("float64")

    def _accept(self, h: Any, keys: list[tuple[int, int]], refined: Any) -> int:
        """Add the refined points that stayed near their prediction and verify as corners."""
        n = np()
        lat = n.array(keys, dtype="float64")
        pred = _project(h, lat)
        moved = n.linalg.norm(refined - pred, axis=1)
        near = moved < 1.2 * self.win  # a fifth of a square
        inside = _inside(self.grey, refined, self.win + 2.0)
        # verify at the refined place: the local lattice around it, shifted there
        hq = self._local(h, pred, refined)
        q = _quadrants(self.grey, hq, lat)
        parity = 1.0 - 2.0 * ((lat[:, 0] + lat[:, 1]) % 2)
        good = near & inside & _x_corner(q, parity, self.sign, self.level)
        added = 0
        for k, key in enumerate(keys):
            if good[k]:
                self.pts[key] = (float(refined[k, 0]), float(refined[k, 1]))
                added += 1
        return added

    def _local(self, h: Any, pred: Any, refined: Any) -> Any:
        """The homography with its image shifted by the points' median refinement."""
        n = np()
        if len(pred) == 0:
            return h
        shift = n.median(refined - pred, axis=0)
        t = n.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]], dtype="float64")
        return t @ h

    def infill(self) -> None:
        """Verify the lattice points missing inside the extent of the verified ones (a seed
        found on every other line, or points first hidden by a piece's blur)."""
        n = np()
        if len(self.pts) < 6:
            return
        h = _fit(self.pts)
        if h is None:
            return
        cols = [k[0] for k in self.pts]
        rows = [k[1] for k in self.pts]
        keys = [
            (col, row)
            for col in range(min(cols), max(cols) + 1)
            for row in range(min(rows), max(rows) + 1)
            if (col, row) not in self.pts
        ]
        if keys:
            pred = _project(h, n.array(keys, dtype="float64"))
            self._accept(h, keys, self._refine(pred))

    def grow(self) -> None:
        """Add whole lattice lines on each side while they verify. Up to 8 lines a way: a board
        has 7, so an eighth that verifies shows a larger checker (a tiled floor), refused.

        A side whose line failed is tried again once the other axis has grown: a line judged
        on the seed's 3 points (pieces over 2 of them) may verify on the 7 it has later. Without
        this, which lines are found depended on how large the seed happened to be (a smaller
        picture gives a smaller seed)."""
        n = np()
        if len(self.pts) < 6:
            return
        self.infill()
        done = {"left": False, "right": False, "up": False, "down": False}
        across = {"left": ("up", "down"), "right": ("up", "down")}
        across.update({"up": ("left", "right"), "down": ("left", "right")})
        # what each side's last failed line spanned on the other axis: retry when it grew
        failed: dict[str, int] = {}
        for _ in range(40):
            if all(done.values()):
                break
            for side in done:
                if done[side]:
                    continue
                h = _fit(self.pts)
                if h is None:
                    done[side] = True
                    continue
                cols = sorted({k[0] for k in self.pts})
                rows = sorted({k[1] for k in self.pts})
                if side in ("left", "right") and cols[-1] - cols[0] >= 7:
                    done[side] = True
                    continue
                if side in ("up", "down") and rows[-1] - rows[0] >= 7:
                    done[side] = True
                    continue
                if side == "left":
                    keys = [(cols[0] - 1, r) for r in range(rows[0], rows[-1] + 1)]
                elif side == "right":
                    keys = [(cols[-1] + 1, r) for r in range(rows[0], rows[-1] + 1)]
                elif side == "up":
                    keys = [(col, rows[0] - 1) for col in range(cols[0], cols[-1] + 1)]
                else:
                    keys = [(col, rows[-1] + 1) for col in range(cols[0], cols[-1] + 1)]
                pred = _project(h, n.array(keys, dtype="float64"))
                visible = _inside(self.grey, pred, self.win + 2.0)
                if not visible.any():
                    done[side] = True
                    failed.pop(side, None)
                    continue
                added = self._accept(h, keys, self._refine(pred))
                # a line of the board verifies on at least a third of its visible points
                if added < max(2, int(n.ceil(visible.sum() / 3))):
                    for key in keys:
                        self.pts.pop(key, None)
                    done[side] = True
                    failed[side] = len(keys)
                else:
                    self.clean()
                    axis = 1 if side in ("up", "down") else 0
                    line = {k[axis] for k in self.pts}
                    span = max(line) - min(line) + 1 if line else 0
                    for other in across[side]:
                        if done[other] and span > failed.get(other, span):
                            done[other] = False

    def clean(self) -> None:
        """Drop the points that are outliers of the lattice's robust fit (a corner
        pulled onto a piece's edge still looks like a corner, but not where one belongs)."""
        h = _fit(self.pts)
        if h is None:
            self.pts = {}
            return
        res = _residuals(h, self.pts)
        limit = _limit(res)
        self.pts = {k: v for (k, v), r in zip(self.pts.items(), res, strict=True) if r < limit}

    def prune(self) -> None:
        """Drop lines (rows or columns) where fewer than 2 points or a third verified: a
        seed's stray border line."""
        for axis in (0, 1):
            other = 1 - axis
            span = {k[other] for k in self.pts}
            for line in {k[axis] for k in self.pts}:
                count = sum(1 for k in self.pts if k[axis] == line)
                if count < max(2, len(span) / 3):
                    self.pts = {k: v for k, v in self.pts.items() if k[axis] != line}


def _checker_score(grey: Any, h: Any, c0: int, r0: int) -> float:
    """How well the 8x8 area (lattice lines c0-1 .. c0+7 by r0-1 .. r0+7) alternates light
    and dark, less how much the ring of squares just outside it does: the playing area is
    where the checkers stop. In units of the lattice's own contrast."""
    n, c = np(), cv2()
    px = 12
    # canonical ring image (10 x 10 squares) -> lattice: square k starts at c0 - 2 + k
    to_lat = n.array([[1 / px, 0, c0 - 2], [0, 1 / px, r0 - 2], [0, 0, 1]], dtype="float64")
    m = n.linalg.inv(h @ to_lat)
    warped = c.warpPerspective(grey, m, (10 * px, 10 * px), flags=c.INTER_AREA)
    means = warped.astype("float32").reshape(10, px, 10, px)[:, 3:-3, :, 3:-3].mean(axis=(1, 3))
    inside = means[1:9, 1:9]
    sign = n.fromfunction(lambda r, q: 1.0 - 2.0 * ((r + q) % 2), (8, 8))
    checker = abs(float((inside * sign).mean()))
    steps = [
        float(n.abs(n.diff(n.concatenate([means[0, 1:9], means[9, 1:9]]))).mean()),
        float(n.abs(n.diff(n.concatenate([means[1:9, 0], means[1:9, 9]]))).mean()),
    ]
    return (checker - 0.5 * max(steps)) / max(checker, 1.0)


def _placement(grey: Any, lat: _Lattice, h: Any) -> tuple[int, int] | None:
    """(c0, r0): the lattice column and row of the board's first inner line, or None.

    Seven verified lines on an axis fix it; with fewer, every place that keeps the verified
    lines inside is scored by `_checker_score` and the best must win clearly; all of them
    must lie, with the ring of squares around them, inside the picture.
    """
    cols = sorted({k[0] for k in lat.pts})
    rows = sorted({k[1] for k in lat.pts})
    if cols[-1] - cols[0] > 6 or rows[-1] - rows[0] > 6:
        return None  # more than 7 inner lines: not one chessboard
    c_cands = range(cols[-1] - 6, cols[0] + 1)
    r_cands = range(rows[-1] - 6, rows[0] + 1)
    if len(c_cands) == 1 and len(r_cands) == 1:
        return c_cands[0], r_cands[0]
    # every candidate, with its ring of squares, must be in the picture to be judged: a
    # board cut by the picture's edge looks like a board one square over
    n = np()
    for c0 in c_cands:
        for r0 in r_cands:
            ring = n.array([[c0 - 2, r0 - 2], [c0 + 8, r0 - 2], [c0 + 8, r0 + 8], [c0 - 2, r0 + 8]])
            if not _inside(grey, _project(h, ring), 0.0).all():
                return None
    scores = sorted(
        ((_checker_score(grey, h, c0, r0), (c0, r0)) for c0 in c_cands for r0 in r_cands),
        reverse=True,
    )
    if scores[0][0] <= 0 or scores[0][0] - scores[1][0] < PLACE_MARGIN:
        return None
    return scores[0][1]


@dataclass
class Located:
    """A board found in a picture, with the evidence for it."""

    corners: Corners  #: TL, TR, BR, BL of the playing area, image pixels
    points: dict[
        tuple[int, int], tuple[float, float]
    ]  #: verified inner corners, (column, row) 1..7
    rms: float  #: residual of the homography fitted to `points`, in squares


#: readings of a seed's keys (column, row) -> (a column + b row, c column + d row): as given,
#: every other line on either axis or both, then the sheared ones, whose rows (or columns)
#: step one square along and two across (a knight's move) and whose parity therefore matches
#: the checker's everywhere, so that they verify but can never grow to the full board
READINGS = ((1, 0, 0, 1), (2, 0, 0, 1), (1, 0, 0, 2), (2, 0, 0, 2))
SHEARED = ((1, 1, 0, 2), (1, -1, 0, 2), (2, 0, 1, 1), (2, 0, -1, 1))


def _grown(grey: Any, seed: dict[tuple[int, int], tuple[float, float]]) -> _Lattice:
    """The verified lattice grown from a seed.

    The sector detector's grids do not always step one square per line: some take every
    other line of one axis or both (a coarser checker), some step a knight's move along one
    axis. The points of such a grid still fit one homography; only the checker's parity at
    them, or the lattice's failure to grow past a few lines, tells. So the seed is read in
    each way of `READINGS` (and, when none of them grows to 7 lines both ways, `SHEARED`),
    each reading is verified and grown, and the one with the most verified points (then the
    strongest contrast) is kept. Each costs milliseconds; the detector that made the seed, a
    tenth of a second.
    """
    best: _Lattice | None = None
    for readings in (READINGS, SHEARED):
        for a, b, c, d in readings:
            keys = {(a * k[0] + b * k[1], c * k[0] + d * k[1]): v for k, v in seed.items()}
            lat = _Lattice(grey, keys)
            lat.infill()
            lat.clean()
            lat.prune()
            lat.grow()
            lat.clean()
            lat.prune()
            if best is None or (len(lat.pts), lat.level) > (len(best.pts), best.level):
                best = lat
        if best is not None and _spans(best) == (7, 7):
            break
    assert best is not None
    return best


def _spans(lat: _Lattice) -> tuple[int, int]:
    """How many lattice lines the verified points span, columns and rows."""
    if not lat.pts:
        return 0, 0
    cols = [k[0] for k in lat.pts]
    rows = [k[1] for k in lat.pts]
    return max(cols) - min(cols) + 1, max(rows) - min(rows) + 1


def _board(grey: Any, seed: dict[tuple[int, int], tuple[float, float]]) -> Located | None:
    """The board found from one seed grid, or None when the evidence is not good enough.

    Board units are squares, 0..8 across the playing area; `points` are keyed 1..7."""
    n, c = np(), cv2()
    lat = _grown(grey, seed)
    if len(lat.pts) < 12:
        return None
    h = _fit(lat.pts)
    if h is None:
        return None
    place = _placement(grey, lat, h)
    if place is None:
        return None
    c0, r0 = place
    board = {(k[0] - c0 + 1, k[1] - r0 + 1): v for k, v in lat.pts.items()}
    src = n.array(list(board.keys()), dtype="float64")
    dst = n.array(list(board.values()), dtype="float64")
    if len(set(src[:, 0])) < MIN_LINES or len(set(src[:, 1])) < MIN_LINES:
        return None
    hb, _ = c.findHomography(src, dst, 0)
    if hb is None:
        return None
    # the fit's residual, in squares: measured in the board's frame
    back = c.perspectiveTransform(dst.reshape(-1, 1, 2), n.linalg.inv(hb)).reshape(-1, 2)
    rms = float(n.sqrt(n.mean(n.sum((back - src) ** 2, axis=1))))
    if rms > MAX_RMS:
        return None
    try:
        corners = check_corners(order_corners(_outer_corners(src, dst, hb)))
    except CalibrationError:
        return None
    return Located(corners, board, rms)


def _outer_corners(src: Any, dst: Any, hb: Any) -> Any:
    """The four outer corners (board order), each extrapolated from the inner corners near it.

    A board is rarely quite flat (a roll-up or folding board) and a lens bends lines a
    little, so one homography for the whole lattice misplaces the outer corners by a
    percent or two; the inner corners within 5 lines of an outer corner (up to 25, at least
    12 on 3 lines each way) predict it better. Where there are too few, the whole fit `hb`.
    """
    n, c = np(), cv2()
    out = []
    for cx, cy in ((0, 0), (8, 0), (8, 8), (0, 8)):
        near = (n.abs(src[:, 0] - cx) <= LOCAL) & (n.abs(src[:, 1] - cy) <= LOCAL)
        h = hb
        if near.sum() >= 12 and len(set(src[near, 0])) >= 3 and len(set(src[near, 1])) >= 3:
            local, _ = c.findHomography(src[near], dst[near], 0)
            h = hb if local is None else local
        point = n.array([[[cx, cy]]], dtype="float64")
        out.append(c.perspectiveTransform(point, h)[0, 0])
    return n.array(out)


def locate(frame: Any) -> Located:
    """The board in `frame` with its evidence (see the module's doc for how).

    Raises:
        CalibrationError: no board was found with enough evidence (give the corners with
            `--corners`, or click them with `--pick`).
    """
    c = cv2()
    grey = frame if frame.ndim == 2 else c.cvtColor(frame, c.COLOR_BGR2GRAY)
    for seed in _seeds(grey):
        found = _board(grey, seed)
        if found is not None:
            return found
    raise CalibrationError.of(NOT_FOUND)


def find_corners(frame: Any) -> Corners:
    """The playing area's four corners (TL, TR, BR, BL) in `frame`'s pixels.

    Raises:
        CalibrationError: no board was found with enough evidence (give the corners with
            `--corners`, or click them with `--pick`).
    """
    return locate(frame).corners
