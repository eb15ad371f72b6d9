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


def _turned(corners: list[tuple[float, float]], size: tuple[int, int]) -> list[tuple[float, float]]:
    """The corners of a picture turned a quarter clockwise, in TL, TR, BR, BL order again."""
    h = size[1]
    pts = [(h - 1 - y, x) for x, y in corners]
    return [pts[3], pts[0], pts[1], pts[2]]


def test_toward_camera_follows_a_picture_taken_sideways() -> None:
    """The same angled view turned a quarter (White now at the left): the pieces' bases are
    still on the side toward the camera, i.e. rank 1, not 'down the image'."""
    corners = [(200.0, 100.0), (440.0, 100.0), (600.0, 460.0), (40.0, 460.0)]
    turned = _turned(corners, (640, 480))
    vec = geometry.toward_camera(geometry.homography(turned, "left"), (480, 640))
    assert np.all(vec[:, :, 1] > 0.8)
    # without the frame's size the picture is taken as upright (down = toward the camera)
    vec = geometry.toward_camera(geometry.homography(turned, "left"))
    assert not np.all(vec[:, :, 1] > 0.8)


def test_a_camera_above_the_board_keeps_down_the_image() -> None:
    corners = [(120.0, 40.0), (520.0, 40.0), (520.0, 440.0), (120.0, 440.0)]
    for side in geometry.SIDES:
        h = geometry.homography(corners, side)
        assert np.allclose(geometry.toward_camera(h, (640, 480)), geometry.toward_camera(h))
