"""Positions the data lacks, rendered from real frames: promotions and unusual set-ups."""

from __future__ import annotations

from typing import Any

import pytest

from rules.events import Snapshot
from vision.classify import classify
from vision.placement import INITIAL, to_sensed
from vision.render import render
from vision.tracker import SnapshotTracker

POSITIONS = [
    "rnbqkbnQ/ppppppp1/8/8/8/8/PPPPPPP1/RNBQKBNR",  # h-pawn promoted on h8 (rook gone)
    "8/8/8/3k4/3K4/8/8/8",  # bare kings in the middle
    "R6r/1P4p1/2N2n2/3Qq3/3qQ3/2n2N2/1p4P1/r6R",  # mixed colours on both square colours
    "qqqqqqqq/8/8/8/8/8/8/QQQQQQQQ",  # inverted crowd on the back ranks
]


@pytest.mark.parametrize("placement", POSITIONS)
def test_rendered_positions_are_classified(
    placement: str, frames: list[Any], video_cal: Any
) -> None:
    img = render(frames[3], video_cal, INITIAL, placement)
    assert classify(img, video_cal)[0] == to_sensed(placement)


def test_a_promotion_comes_out_as_a_white_piece_on_the_last_rank(
    frames: list[Any], video_cal: Any
) -> None:
    """Vision says only 'a white piece on h8'; the rules decide what it is."""
    promoted = render(frames[3], video_cal, INITIAL, POSITIONS[0])
    tracker = SnapshotTracker(video_cal)
    events = []
    for k in range(1, 6):
        events += tracker.feed(frames[k], k / 20)
    for k in range(6, 16):
        events += tracker.feed(promoted, k / 20)
    boards = [e.board for e in events if isinstance(e, Snapshot)]
    assert boards == [to_sensed(INITIAL), "xxxxxxxX/xxxxxxx1/8/8/8/8/XXXXXXX1/XXXXXXXX"]
