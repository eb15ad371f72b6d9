"""Pieces seen from straight above, and squares unlike anything calibrated (`vision.outline`).

The video's camera looks nearly straight down; its calibration learned light-wood bodies and
dark pieces. Pawn heads painted as discs (`vision.synth.pawn_head`) are looks it never saw.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision import geometry
from vision.classify import classify_board, reading
from vision.outline import outline_scores, piece_colour
from vision.placement import to_grid, to_sensed
from vision.synth import pawn_head

WHITE_PLASTIC = (232, 236, 238)
LIGHT_WOOD = (140, 185, 222)


def _clean_board(frames: list[Any], video: dict[str, Any], video_cal: Any) -> tuple[Any, Any]:
    seg = next(s for s in video["segments"] if s["clean"] and s["from_frame"] >= 100)
    board = geometry.warp(frames[seg["from_frame"] + 2], video_cal.homography())
    return board, to_grid(to_sensed(seg["fen"]))


def _painted(board: Any, grid: Any, parity: int, bgr: tuple[int, int, int]) -> tuple[Any, list]:
    where = [
        (r, c)
        for r in range(8)
        for c in range(8)
        if grid[r][c] == "." and (r + c) % 2 == parity and (r // 2 + c // 2) % 2 == 0
    ]
    for r, c in where:
        board = pawn_head(board, r, c, bgr)
    return board, where


def test_a_closed_outline_scores_high_an_edge_on_one_side_does_not() -> None:
    sq = geometry.SQ
    board = np.full((8 * sq, 8 * sq, 3), 200, np.uint8)
    disc = pawn_head(board, 3, 3, WHITE_PLASTIC)
    half = board.copy()
    half[2 * sq : 2 * sq + sq // 2, 5 * sq : 6 * sq] = 60  # something in the far half only
    assert outline_scores(board).max() < 0.05
    assert outline_scores(disc)[3 * 8 + 3] > 0.3
    assert outline_scores(half)[2 * 8 + 5] < 0.05


def test_white_pawns_from_above_are_not_read_as_empty_or_black(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """White plastic and light wood heads on light and on dark squares: a piece (white or
    `?`), never the silent misreads of before (all white plastic on light squares read
    empty; most on dark squares read black). The unpainted squares stay right."""
    clean, grid = _clean_board(frames, video, video_cal)
    for bgr in (WHITE_PLASTIC, LIGHT_WOOD):
        for parity in (0, 1):
            board, where = _painted(clean, grid, parity, bgr)
            _, _, post = classify_board(board, video_cal)
            read = to_grid(reading(post, 0.6).placement)
            got = [read[r][c] for r, c in where]
            assert "x" not in got, (bgr, parity, got)
            assert got.count("X") + got.count("?") >= 0.75 * len(where), (bgr, parity, got)
            others = [
                (r, c)
                for r in range(8)
                for c in range(8)
                if (r, c) not in where and read[r][c] != grid[r][c]
            ]
            assert not others, (bgr, parity, others)


def test_a_square_unlike_anything_calibrated_says_question_mark(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """An empty square painted a saturated green all over (no outline inside it: nothing
    the calibration saw, and no sign of a piece) is `?`, neither empty nor a piece."""
    clean, grid = _clean_board(frames, video, video_cal)
    r, c = next((r, c) for r in range(2, 6) for c in range(8) if grid[r][c] == ".")
    sq = geometry.SQ
    board = clean.copy()
    board[r * sq : (r + 1) * sq, c * sq : (c + 1) * sq] = (40, 200, 40)
    _, _, post = classify_board(board, video_cal)
    seen = reading(post, 0.6)
    assert to_grid(seen.placement)[r][c] == "?"
    assert "abcdefgh"[c] + str(8 - r) in seen.unreadable  # not even occupancy: no snapshot
    unchanged = to_grid(reading(classify_board(clean, video_cal)[2], 0.6).placement)
    assert unchanged[r][c] == "."


def test_piece_colour_from_lightness_alone() -> None:
    white, black = np.array([1.0, 1.0, 1.0, 1.0]), np.array([0.3, 0.3, 0.3, 0.3])
    p = piece_colour(np.array([2.0, 0.9, 0.65, 0.1]), white, black)
    assert p[0, 0] > 0.6 and p[1, 0] > 0.6  # brighter than the white pieces, or near them
    assert p[2, 0] == 0.5  # half-way: `?`
    assert p[3, 1] > 0.6


def test_the_outline_levels_are_saved_and_an_older_file_still_reads(
    video_cal: Any, tmp_path: Any, frames: list[Any]
) -> None:
    """The calibration keeps its empty squares' outline levels; a file written before them
    (no `outline`) loads, and reads without the outline test rather than failing."""
    import json

    from vision.calibration import Calibration

    assert video_cal.outline is not None
    assert len(video_cal.outline["own"]) == 64 and len(video_cal.outline["empty"]) == 2
    path = tmp_path / "cal.json"
    video_cal.save(path)
    assert Calibration.load(path).outline == video_cal.outline
    data = json.loads(path.read_text())
    del data["outline"]
    path.write_text(json.dumps(data))
    old = Calibration.load(path)
    assert old.outline is None
    board = geometry.warp(frames[120], old.homography())
    assert classify_board(board, old)[0] == classify_board(board, video_cal)[0]


def _square(name: str) -> tuple[int, int]:
    """Grid (row, col) of a square name (a8 = (0, 0))."""
    return 8 - int(name[1]), "abcdefgh".index(name[0])


def test_a_disc_with_rim_and_shadow_is_seen_from_above_a_print_is_not() -> None:
    """`disc_evidence` on a plain board: a pawn's head (round rim, one-sided shadow) has
    both; the same disc flat has no shadow; a diamond of checks (a logo like US Chess's)
    has edges that do not point along the radius; a ring print casts no shadow."""
    from vision.features import gradients
    from vision.outline import DISC_RADIAL, SHADOW_SIDE, disc_evidence, seen_from_above

    sq = geometry.SQ
    plain = np.full((8 * sq, 8 * sq, 3), (150, 190, 205), np.uint8)
    head = pawn_head(plain, 3, 3, WHITE_PLASTIC)
    flat = pawn_head(plain, 3, 3, WHITE_PLASTIC, relief=False)
    diamond = plain.copy()
    yy, xx = np.mgrid[0:sq, 0:sq] - sq // 2
    ink = ((abs(xx) + abs(yy)) <= 0.35 * sq) & (((xx + 64) // 4 + (yy + 64) // 4) % 2 == 0)
    diamond[3 * sq : 4 * sq, 3 * sq : 4 * sq][ink] = (90, 110, 40)
    ring = plain.copy()
    import cv2

    cv2.circle(ring, (3 * sq + sq // 2, 3 * sq + sq // 2), int(0.3 * sq), (90, 110, 40), 3)
    i = 3 * 8 + 3
    got = {}
    for name, board in (("head", head), ("flat", flat), ("diamond", diamond), ("ring", ring)):
        radial, side = disc_evidence(board, gradients(board), [i])
        got[name] = (float(radial[0]), float(side[0]))
        assert seen_from_above(board, gradients(board), [i])[0] == (name == "head"), got
    assert got["head"][0] >= DISC_RADIAL and got["head"][1] >= SHADOW_SIDE, got
    assert got["flat"][1] < SHADOW_SIDE and got["ring"][1] < SHADOW_SIDE, got
    assert got["diamond"][0] < DISC_RADIAL, got


def test_pawns_from_above_on_squares_never_seen_empty_are_pieces(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """The home squares the game emptied (d1, f1 light; e7, b8 dark) held pieces at
    calibration, so an empty square there is judged with the printed look (`vision.marks`),
    whose discs and rings explain a pawn's head from above better than the empty look:
    before, every such head read as an empty square, silently. Its round rim and one-sided
    shadow (`outline.seen_from_above`) now make it a piece: white (or `?`), never empty or
    black; the unpainted squares stay as they were."""
    seg = next(s for s in video["segments"] if s["clean"] and s["from_frame"] >= 300)
    clean = geometry.warp(frames[seg["from_frame"] + 5], video_cal.homography())
    grid = to_grid(to_sensed(seg["fen"]))
    for bgr in (WHITE_PLASTIC, LIGHT_WOOD):
        for names in (("d1", "f1"), ("e7", "b8")):
            where = [_square(s) for s in names]
            assert all(grid[r][c] == "." for r, c in where)
            assert all(video_cal.model.empty_means[r * 8 + c] is None for r, c in where)
            board = clean
            for r, c in where:
                board = pawn_head(board, r, c, bgr)
            read = to_grid(reading(classify_board(board, video_cal)[2], 0.6).placement)
            got = [read[r][c] for r, c in where]
            assert all(g in "X?" for g in got), (bgr, names, got)
            others = [
                (r, c)
                for r in range(8)
                for c in range(8)
                if (r, c) not in where and read[r][c] != grid[r][c]
            ]
            assert not others, (bgr, names, others)


def test_prints_on_squares_never_seen_empty_are_no_discs_from_above(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """Prints (`vision.marks` patterns of another seed: checks, strokes, discs, rings, in
    the other square colour) on the home squares the game emptied: none has a round rim
    with a one-sided shadow, so none is made a piece from above (discs and rings are round,
    but cast no shadow, also on the video's grained dark squares). Left out: f1, across
    which a neighbour's real shadow falls: a round print beside it passes (15 of 100
    patterns); such prints on f1 read as white pieces before too (28 of 30, the outline
    of a square unlike every known look), this adds 1."""
    from vision.features import gradients, rough_normalised
    from vision.marks import _pattern
    from vision.outline import seen_from_above

    seg = next(s for s in video["segments"] if s["clean"] and s["from_frame"] >= 300)
    clean = geometry.warp(frames[seg["from_frame"] + 5], video_cal.homography())
    grid = to_grid(to_sensed(seg["fen"]))
    where = [_square(s) for s in ("d1", "e7", "b8", "g8", "e2")]
    assert all(grid[r][c] == "." for r, c in where)
    ink = np.asarray(video_cal.levels, dtype="float32")[::-1]
    rng = np.random.default_rng(16)
    sq = geometry.SQ
    for _ in range(20):
        board = clean.astype("float32")
        for r, c in where:
            alpha = _pattern(rng).astype("float32")[..., None] / 255.0
            patch = board[r * sq : (r + 1) * sq, c * sq : (c + 1) * sq]
            texture = patch - patch.mean(axis=(0, 1), keepdims=True)
            patch[:] = (1 - alpha) * patch + alpha * (ink[(r + c) % 2] + texture)
        rough = rough_normalised(np.clip(board, 0, 255).astype("uint8"))
        assert not seen_from_above(rough, gradients(rough), [r * 8 + c for r, c in where]).any()


def test_the_us_chess_logo_is_no_disc_from_above(images: dict[str, Any], vision_data: Any) -> None:
    """The real US Chess logo on `uschess` h1 (a diamond of green checks), on every photo
    where h1 is empty, calibrated on IMG_4755 where a rook stands on h1 (so h1 is judged
    with the printed look): it has outlines, but no round rim with a shadow, and reads
    empty on IMG_4768."""
    from vision.calibration import calibrate
    from vision.features import gradients, rough_normalised
    from vision.outline import seen_from_above
    from vision.sources import read_image

    ref = images["uschess/IMG_4755.jpg"]
    cal = calibrate(
        read_image(str(vision_data / ref["file"])),
        [tuple(p) for p in ref["corners"]],
        None,
        ref["fen"],
    )
    h1 = 7 * 8 + 7
    assert cal.model.empty_means[h1] is None
    seen = 0
    for name, item in sorted(images.items()):
        if not name.startswith("uschess/") or to_grid(item["fen"])[7][7] != ".":
            continue
        img = read_image(str(vision_data / name))
        here = cal.with_corners([tuple(p) for p in item["corners"]], (img.shape[1], img.shape[0]))
        board = geometry.warp(img, here.homography())
        rough = rough_normalised(board)
        assert not seen_from_above(rough, gradients(rough), [h1])[0], name
        if name.endswith("IMG_4768.jpg"):
            assert to_grid(classify_board(board, here)[0])[7][7] == "."
        seen += 1
    assert seen >= 40


def test_faint_pawns_from_above_on_light_squares_are_pieces_or_unreadable(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """White plastic heads with a faint rim and shadow (softer light) on light squares:
    before, nearly all read as empty squares, silently (the outline under its threshold).
    Now a round rim with a one-sided shadow is a piece, and with a weaker shadow `?`
    (unreadable): never empty, never black; the unpainted squares stay right."""
    clean, grid = _clean_board(frames, video, video_cal)
    where = [
        (r, c)
        for r in range(8)
        for c in range(8)
        if grid[r][c] == "." and (r + c) % 2 == 0 and (r // 2 + c // 2) % 2 == 0
    ]
    board = clean
    for r, c in where:
        board = pawn_head(board, r, c, WHITE_PLASTIC, rim=0.12, shadow=0.2)
    seen = reading(classify_board(board, video_cal)[2], 0.6)
    read = to_grid(seen.placement)
    got = [read[r][c] for r, c in where]
    assert len(where) >= 6 and all(g in "X?" for g in got), got
    assert "X" in got
    others = [
        (r, c)
        for r in range(8)
        for c in range(8)
        if (r, c) not in where and read[r][c] != grid[r][c]
    ]
    assert not others, others


def test_flat_discs_from_above_on_squares_seen_empty_are_pieces_or_unreadable(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """Light-wood pawn heads from straight above with neither rim nor shadow (flat discs) on
    the video's light squares that were empty at calibration: before, all of them read
    empty (no outline to see); now each is a piece or `?` (its centre against its border
    has changed from its own empty look: `outline.flat_change`). Unpainted squares stay
    right, and a soft shadow across the board (a shade keeps a colour's proportions) makes
    no square a piece or `?`."""
    from vision import synth

    clean, grid = _clean_board(frames, video, video_cal)
    seen_empty = to_grid(video_cal.placement)
    where = [
        (r, c)
        for r in range(8)
        for c in range(8)
        if grid[r][c] == "." == seen_empty[r][c] and (r + c) % 2 == 0
    ]
    assert len(where) >= 8
    board = clean
    for r, c in where:
        board = pawn_head(board, r, c, LIGHT_WOOD, relief=False)
    read = to_grid(reading(classify_board(board, video_cal)[2], 0.6).placement)
    assert all(read[r][c] in ("X", "?") for r, c in where)
    assert sum(read[r][c] == "X" for r, c in where) >= len(where) // 2
    others = [(r, c) for r in range(8) for c in range(8) if (r, c) not in where]
    assert all(read[r][c] == grid[r][c] for r, c in others)
    seg = next(s for s in video["segments"] if s["clean"] and s["from_frame"] >= 100)
    frame = frames[seg["from_frame"] + 2]
    for step in (40, 60, 80, 100):
        shaded = geometry.warp(synth.shadow(frame, step, 0.2), video_cal.homography())
        assert to_grid(reading(classify_board(shaded, video_cal)[2], 0.6).placement) == grid
