"""Placements as grids of sensed states (pure Python)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.errors import VisionError
from vision.placement import INITIAL, differences, from_grid, to_grid, to_sensed


def test_initial_position_as_colours() -> None:
    assert to_sensed(INITIAL) == "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX"


@given(st.lists(st.sampled_from(".Xx"), min_size=64, max_size=64))
def test_grid_round_trip(cells: list[str]) -> None:
    grid = [cells[r * 8 : r * 8 + 8] for r in range(8)]
    assert to_grid(from_grid(grid)) == grid


def test_differences_name_squares() -> None:
    after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert differences(INITIAL, after) == ["e4", "e2"]


@pytest.mark.parametrize("bad", ["8/8/8", "9/8/8/8/8/8/8/8", "7/8/8/8/8/8/8/8", "z7/8/8/8/8/8/8/8"])
def test_bad_placements_name_the_problem(bad: str) -> None:
    with pytest.raises(VisionError, match=r"rank|ranks|letter"):
        to_grid(bad)
