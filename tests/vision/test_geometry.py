"""Corners, orientation and the homography to the canonical board."""

from __future__ import annotations

import numpy as np
import pytest

from vision import geometry
from vision.errors import CalibrationError

SQUARE = [(100.0, 50.0), (500.0, 50.0), (500.0, 450.0), (100.0, 450.0)]


@pytest.mark.parametrize(
    ("white_at", "a1_image"),
    [("bottom", SQUARE[3]), ("top", SQUARE[1]), ("left", SQUARE[0]), ("right", SQUARE[2])],
)
def test_a1_maps_to_canonical_bottom_left(white_at: str, a1_image: tuple[float, float]) -> None:
    h = geometry.homography(SQUARE, white_at)
    x, y = geometry.to_board(h, [a1_image])[0]
    assert (round(x), round(y)) == (0, geometry.SIZE)


def test_parse_corners() -> None:
    assert geometry.parse_corners("1,2 30,2 30,40 1,40") == [(1, 2), (30, 2), (30, 40), (1, 40)]


@pytest.mark.parametrize("text", ["1,2 3,4", "a,b c,d e,f g,h", "1,2 30,2 1,40 30,40"])
def test_bad_corners_are_refused(text: str) -> None:
    with pytest.raises(CalibrationError, match="corners"):
        geometry.parse_corners(text)


def test_toward_camera_points_down_the_image() -> None:
    # board seen from below at an angle: the far (top) edge is shorter
    corners = [(200.0, 100.0), (440.0, 100.0), (600.0, 460.0), (40.0, 460.0)]
    vec = geometry.toward_camera(geometry.homography(corners, "bottom"))
    assert np.all(vec[:, :, 1] > 0.8)  # towards rank 1, i.e. down the canonical board
