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
