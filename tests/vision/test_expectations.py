"""The rules as a second opinion: squares no legal continuation touches (vision.expectations)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.events import Snapshot
from vision.errors import VisionError
from vision.expectations import Expectation
from vision.placement import INITIAL, to_sensed
from vision.render import render
from vision.tracker import SnapshotTracker

FPS = 20.0
START = INITIAL + " w KQkq - 0 1"


def test_squares_that_can_change_from_the_start_and_with_castling_and_en_passant() -> None:
    one = Expectation.after(START, plies=1)
    # every pawn's one- and two-square pushes, the knights' squares
    assert one.can_change == frozenset([f + r for f in "abcdefgh" for r in "234"] + ["b1", "g1"])
    two = Expectation.after(START)
    assert {"e5", "f6", "b8", "h6"} <= two.can_change
    assert not {"a1", "e1", "d1", "d8", "e8", "a8", "h8"} & two.can_change  # no piece moves
    castle = Expectation.after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", plies=1)
    assert {"e1", "g1", "h1", "f1", "c1", "a1", "d1"} <= castle.can_change
    ep = Expectation.after("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", plies=1)
    assert {"e5", "d6", "d5"} <= ep.can_change  # en passant empties d5
    with pytest.raises(VisionError, match="not a position"):
        Expectation.after("nonsense")


def _run(tracker: SnapshotTracker, frames: list[Any], t0: float) -> list[Snapshot]:
    out = []
    for k, f in enumerate(frames):
        out += [e for e in tracker.feed(f, t0 + k / FPS) if isinstance(e, Snapshot)]
    return out


def test_a_square_no_move_touches_is_not_reported_from_a_short_scene_but_from_a_long_one(
    frames: list[Any], video_cal: Any
) -> None:
    """a8's rook gone from a still start position: not a move; after 1.5 s it is reported as
    seen (the rules make it a mismatch). A legal move beside it is reported at once."""
    no_rook = "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    odd = render(frames[3], video_cal, INITIAL, no_rook)
    hand = [frames[12]] * 3  # a real hand passing: motion between the scenes
    tracker = SnapshotTracker(video_cal, known=INITIAL)
    tracker.expect(Expectation.after(START))
    assert _run(tracker, [frames[3]] * 10, 0.0) == []
    assert _run(tracker, hand + [odd] * int(1.2 * FPS), 1.0) == []  # read so ~1 s: held back
    assert _run(tracker, hand + [frames[3]] * int(FPS), 3.0) == []  # it was noise: nothing
    late = _run(tracker, hand + [odd] * int(2.5 * FPS), 5.0)  # read so for 2.2 s
    assert [s.board for s in late] == [to_sensed(no_rook)] and late[0].t >= 5.0 + 1.5

    moved = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    legal = render(frames[3], video_cal, INITIAL, moved)
    fresh = SnapshotTracker(video_cal, known=INITIAL)
    fresh.expect(Expectation.after(START))
    got = _run(fresh, [frames[3]] * 10 + hand + [legal] * int(FPS), 0.0)
    assert [s.board for s in got] == [to_sensed(moved)] and got[0].t < 1.2
