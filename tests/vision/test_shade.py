"""`shade.unshaded` brightens only the shaded squares' box; the result is, pixel for pixel,
the whole board divided by the bilinear gain map (the plain formula it replaced for speed)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.geometry import SQ
from vision.shade import unshaded

cv2 = pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")


def _checkered(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    parity = (np.arange(8)[:, None] + np.arange(8)[None, :]) % 2
    level = np.where(parity == 0, 200, 90).astype(np.float32)
    board = np.kron(level, np.ones((SQ, SQ), np.float32))[:, :, None].repeat(3, axis=2)
    return np.clip(board + rng.normal(0, 6, board.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("shaded", [[(3, 4)], [(0, 0), (0, 1)], [(7, 7), (2, 5), (5, 2)]])
def test_only_the_shaded_squares_box_changes_and_as_the_plain_formula(
    shaded: list[tuple[int, int]],
) -> None:
    from vision.shade import DARKER, MIN_GAIN, square_light

    board = _checkered(len(shaded))
    for r, c in shaded:
        cell = board[r * SQ : (r + 1) * SQ, c * SQ : (c + 1) * SQ]
        cell[:] = (cell * 0.55).astype(np.uint8)
    light = square_light(board)
    gain = np.where((light < DARKER) & (light >= MIN_GAIN), light, 1.0).astype(np.float32)
    assert (gain < 1).sum() == len(shaded)
    per_pixel = cv2.resize(gain, (8 * SQ, 8 * SQ), interpolation=cv2.INTER_LINEAR)
    plain = np.clip(board.astype(np.float32) / per_pixel[:, :, None], 0, 255).astype(np.uint8)
    got = unshaded(board)
    assert np.array_equal(got, plain)
    far = per_pixel == 1.0
    assert np.array_equal(got[far], board[far]) and not np.array_equal(got, board)


def test_a_board_without_shade_is_returned_as_it_is() -> None:
    board = _checkered(7)
    assert unshaded(board) is board
