"""Automatic corner detection: where it finds a board, it is close; it invents none.

Measured on all 102 labelled pictures by `python bench/corners.py` (max corner error / board
side, against the hand-clicked labels): found on 101 (all 13 `pcwawc` stills, all 14 video
frames but one with a hand capturing on f7, all 75 `uschess` photos), median 1.4 %, 93
within the spec's 2 %, worst 2.9 %. (`python bench/corners_stress.py` repeats this on the
photos turned, shrunk, blurred, re-lit, tilted and cluttered; the last tests below guard
what it showed.) The labels themselves disagree with the squares: the inner corners
detection verifies lie a median 0.7 % of the board side off the lattice the labelled
corners imply, 0.3 % off the lattice of the detected corners. On the 8 pictures
over 2 % this was checked against the real square edges (sub-pixel edge position along each
of the 18 lattice lines of both quadrilaterals, study in `out/corners-study/`): the detected
inner lines lie on the edges within 0.07-0.18 % on average, the labelled ones 0.28-0.87 %
(up to 1.6 %); the labels of `chessBoard007`/`008` sit on marker stickers outside the
playing area, those of the `uschess` ones up to 2 % inside the far edge. So against the
labels the tests allow 3 %; against exactly known corners (a synthetic board) they ask for
0.5 %. A wrong board is worse than none: patterns that are not an 8x8 board, and a board cut
by the picture's edge, must give no board or the right one. A subset keeps the suite quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.detect import find_corners, locate
from vision.errors import CalibrationError
from vision.geometry import board_side_px
from vision.sources import read_image
from vision.synth import turn_whole

SUBSET = [
    *[f"pcwawc/chessBoard{k:03d}.jpg" for k in range(1, 14)],
    "pcwawc/scholarsmate_f003.jpg",
    "pcwawc/scholarsmate_f040.jpg",
    "uschess/IMG_4755.jpg",
    "uschess/IMG_4764.jpg",
    "uschess/IMG_4804.jpg",
    "uschess/IMG_4806.jpg",
    "uschess/IMG_4834.jpg",
    "uschess/IMG_4822.jpg",  # crowded middlegame: found from a partial grid
    "uschess/IMG_4862.jpg",
]


def _error(found: list[tuple[float, float]], truth: list[list[float]]) -> float:
    worst = max(
        float(np.hypot(a[0] - b[0], a[1] - b[1])) for a, b in zip(found, truth, strict=True)
    )
    return worst / board_side_px([tuple(p) for p in truth])


def _off_lattice(points: dict[tuple[int, int], tuple[float, float]], quad: Any) -> float:
    """Median distance of the verified inner corners from the 9x9 lattice of a quadrilateral
    (TL, TR, BR, BL), over the board side."""
    import cv2

    h = cv2.getPerspectiveTransform(np.float32(quad), np.float32([[0, 0], [8, 0], [8, 8], [0, 8]]))
    b = cv2.perspectiveTransform(np.float64(list(points.values())).reshape(-1, 1, 2), h)
    b = b.reshape(-1, 2)
    return float(np.median(np.hypot(*(b - np.round(b)).T))) / 8.0


def test_corners_found_close_to_the_labels_and_none_made_up(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    errors: dict[str, float | None] = {}
    for f in SUBSET:
        try:
            found_board = locate(read_image(str(vision_data / f)))
        except CalibrationError as exc:
            assert "--corners" in str(exc)
            errors[f] = None
            continue
        errors[f] = _error(found_board.corners, images[f]["corners"])
        # Guards the reading of the misses over 2 %: the detected quadrilateral's grid must
        # sit on the squares (the verified inner corners) closer than 0.5 % of the side, and
        # closer than the label's grid where the label is the one that is off. A corner
        # extrapolation, ordering or half-pixel bug would move the detected grid off them.
        det_off = _off_lattice(found_board.points, found_board.corners)
        assert det_off < 0.005, (f, det_off)
        if errors[f] > 0.02:
            assert det_off < _off_lattice(found_board.points, images[f]["corners"]), f
    found = {f: e for f, e in errors.items() if e is not None}
    assert all(e < 0.03 for e in found.values()), found
    assert len(found) >= 20, errors
    assert sum(e <= 0.02 for e in found.values()) >= 14, found
    # crowded boards where no full 7x7 grid is seen: placed from a partial lattice
    assert errors["uschess/IMG_4822.jpg"] is not None and errors["uschess/IMG_4862.jpg"]


def test_calibration_without_corners(images: dict[str, dict[str, Any]], vision_data: Path) -> None:
    label = images["uschess/IMG_4755.jpg"]
    cal = calibrate(read_image(str(vision_data / label["file"])), placement=label["fen"])
    assert cal.white_at == "bottom"
    assert _error(cal.corners, label["corners"]) < 0.02


def _checker(n: int, sq: int = 40, size: tuple[int, int] = (720, 960)) -> Any:
    """A picture of an n x n checker of `sq` px squares, centred on a grey table."""
    img = np.full((*size, 3), 150, np.uint8)
    board = (np.kron(np.indices((n, n)).sum(axis=0) % 2, np.ones((sq, sq))) * 170 + 40).astype(
        np.uint8
    )
    y0, x0 = (size[0] - n * sq) // 2, (size[1] - n * sq) // 2
    img[y0 : y0 + n * sq, x0 : x0 + n * sq] = board[..., None]
    return img


def test_no_board_no_corners() -> None:
    """A flat picture, noise, and checkers that are not 8x8 (a tiled floor, a small pattern)
    give no board, and the message names both ways out."""
    rng = np.random.default_rng(1)
    pictures = {
        "flat": np.full((480, 640, 3), 128, np.uint8),
        "noise": rng.integers(0, 255, (480, 640, 3), dtype=np.uint8),
        **{f"{n}x{n}": _checker(n, 30 if n > 9 else 40) for n in (5, 6, 7, 9, 10, 12)},
    }
    for name, picture in pictures.items():
        with pytest.raises(CalibrationError, match="--corners") as err:
            find_corners(picture)
        assert "--pick" in str(err.value), name


def test_board_cut_by_the_picture_is_not_placed_a_square_over(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """With the picture cut through the first rank, six inner lines show well and the
    seventh hugs the edge: either the board is refused or it is where the labels say, never
    one square over (which the checker contrast alone preferred)."""
    label = images["pcwawc/chessBoard002.jpg"]
    ys = [p[1] for p in label["corners"]]
    cut = int(min(ys) + 0.9 * (max(ys) - min(ys)))
    picture = np.ascontiguousarray(read_image(str(vision_data / label["file"]))[:cut])
    try:
        corners = find_corners(picture)
    except CalibrationError:
        return
    assert _error(corners, label["corners"]) < 0.03, corners


def test_sub_pixel_corners_on_a_known_board() -> None:
    """An 8x8 board seen in perspective, with dark blots over some squares (pieces), is
    found with every corner within 0.5 % of the board side of where it truly is."""
    import cv2

    flat = _checker(8, 60, (600, 600))  # board 60..540 both ways
    rng = np.random.default_rng(3)
    for _ in range(10):
        cx, cy = rng.integers(90, 510, 2)
        cv2.circle(flat, (int(cx), int(cy)), 18, (20, 20, 20), -1)
    src = np.float32([[60, 60], [540, 60], [540, 540], [60, 540]])
    truth = np.float32([[250, 120], [830, 150], [900, 640], [170, 610]])
    m = cv2.getPerspectiveTransform(src - 0.5, truth)  # pixel edges, not centres
    picture = cv2.warpPerspective(
        flat, m, (1024, 768), flags=cv2.INTER_AREA, borderValue=(150,) * 3
    )
    corners = find_corners(picture)
    assert _error(corners, truth.tolist()) < 0.005, corners


# Pictures unlike the labelled ones (see bench/corners_stress.py): the labelled photos changed
# as a camera would change them, the labelled corners mapped the same way.


def _turned(img: Any, corners: Any, deg: float) -> tuple[Any, Any]:
    """The picture turned by `deg` degrees, its canvas enlarged so that nothing is cut and
    filled with the picture's median colour."""
    out, m = turn_whole(img, deg)
    pts = np.float64(corners) @ m[:, :2].T + m[:, 2]
    return out, pts


def _shrunk(img: Any, corners: Any, longest: int) -> tuple[Any, Any]:
    """The picture shrunk so that its longer side is `longest` px (a small webcam mode)."""
    import cv2

    s = longest / max(img.shape[:2])
    out = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    sx, sy = out.shape[1] / img.shape[1], out.shape[0] / img.shape[0]
    pts = (np.float64(corners) + 0.5) * [sx, sy] - 0.5
    return out, pts


def _cyclic_error(found: Any, truth: Any) -> float:
    """`_error` for the best of the four cyclic namings (TL is ambiguous near 45 degrees)."""
    f = np.float64(found)
    return min(_error(np.roll(f, k, axis=0).tolist(), np.float64(truth).tolist()) for k in range(4))


def test_small_webcam_frames_are_found(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """Guards the seed detector's upscaling: at 320x240 the squares (20-30 px) were too small
    for OpenCV's sector detector, which found no grid, so no board (both were missed)."""
    for f in ("pcwawc/scholarsmate_f213.jpg", "uschess/IMG_4774.jpg"):
        img, truth = _shrunk(read_image(str(vision_data / f)), images[f]["corners"], 320)
        assert _error(find_corners(img), truth.tolist()) < 0.03, f


def test_turned_photos_give_the_right_board(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """Guards the robust fit of a seed and its readings. Turned by -60 degrees, IMG_4801's
    first seed has a stray line; fitted by least squares it gave a board off by half a square
    (6 % of the side: a wrong board). Turned by 90 degrees, IMG_4758's seed steps two squares
    per column and half of it verified, so it was read only as given, and no board was found.
    """
    for f, deg in (("uschess/IMG_4801.jpg", -60.0), ("uschess/IMG_4758.jpg", 90.0)):
        img, truth = _turned(read_image(str(vision_data / f)), images[f]["corners"], deg)
        assert _cyclic_error(find_corners(img), truth) < 0.03, f


def test_a_line_refused_on_a_small_seed_is_tried_again(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """Guards the retry in `_Lattice.grow`: at 640x480, IMG_4776's seed spans 3 rows; the
    first column beyond it, judged on those 3 points (2 under pieces), failed and was never
    tried again once the rows had grown to 7, so 5 columns were found and no board placed."""
    f = "uschess/IMG_4776.jpg"
    img, truth = _shrunk(read_image(str(vision_data / f)), images[f]["corners"], 485)
    assert _error(find_corners(img), truth.tolist()) < 0.03


def test_a_seed_a_knight_move_per_row_is_read_right(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """Guards `SHEARED`: a seed whose rows step one square along and two across (the sector
    detector returned such grids on small frames) verifies everywhere, parity included, but
    read as given can never grow past 4 rows. Made from the real corners of a photo."""
    import cv2

    from vision.detect import _board

    f = "pcwawc/chessBoard003.jpg"
    picture = read_image(str(vision_data / f))
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    real = locate(picture)
    # seed key (c, r) at the board's inner corner (c + r, 2 r) + (1, 1)
    seed = {
        (c, r): real.points[(c + r + 1, 2 * r + 1)]
        for c in range(0, 4)
        for r in range(0, 3)
        if (c + r + 1, 2 * r + 1) in real.points
    }
    assert len(seed) >= 9
    board = _board(grey, seed)
    assert board is not None
    assert _error(board.corners, [list(p) for p in real.corners]) < 0.005
