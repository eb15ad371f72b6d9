"""`vision.columns`: which square is in front (from the camera's way), and a square read as a
piece behind a piece is `?` only where its look is unlike its class's."""

from __future__ import annotations

import numpy as np

from vision.columns import MIXED, front_squares, mixed_behind


def _toward(dx: float, dy: float) -> np.ndarray:
    v = np.array([dx, dy], dtype=float)
    return np.broadcast_to(v / np.linalg.norm(v), (8, 8, 2)).copy()


def test_the_square_in_front_is_toward_the_camera() -> None:
    down = front_squares(_toward(0.0, 1.0))  # camera at White's side: the next rank down
    assert down[4 * 8 + 4] == 5 * 8 + 4  # e4 -> e3
    assert down[7 * 8 + 0] == -1  # a1 has nothing in front
    across = front_squares(_toward(1.0, 1.0))  # camera beyond h1's corner: diagonal
    assert across[4 * 8 + 4] == 5 * 8 + 5  # e4 -> f3
    side = front_squares(_toward(-1.0, 0.1))  # camera at the a-file
    assert side[3 * 8 + 3] == 3 * 8 + 2  # d5 -> c5


def _post(states: dict[int, int]) -> np.ndarray:
    post = np.tile([0.98, 0.01, 0.01], (64, 1))
    for i, s in states.items():
        post[i] = [0.01, 0.01, 0.01]
        post[i, s] = 0.98
    return post


def test_only_a_piece_behind_a_piece_with_a_mixed_look_is_marked() -> None:
    front = front_squares(_toward(0.0, 1.0))
    e8, e7, d8, c8 = 4, 12, 3, 2
    post = _post({e8: 2, e7: 2, d8: 2, c8: 2})  # c8 has nothing in front (c7 empty)
    dist = {"white": np.full(64, 50.0), "black": np.full(64, 2.0)}
    dist["black"][[e8, c8]] = MIXED + 5  # e8: a king's crown over the board; c8 likewise
    dist["black"][d8] = MIXED - 1
    marked = mixed_behind(post, dist, front)
    assert list(np.flatnonzero(marked)) == [e8]


def test_a_camera_nearly_above_marks_nothing(video_cal: object) -> None:
    assert video_cal.fronts() is None  # type: ignore[attr-defined]
