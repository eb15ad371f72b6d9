"""Honest readings: `?` where a square cannot be read, and why (vision.classify.reading)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import reading
from vision.square_colours import colours_swapped


def _post(overrides: dict[int, tuple[float, float, float]]) -> np.ndarray:
    post = np.tile([0.98, 0.01, 0.01], (64, 1))
    for i, p in overrides.items():
        post[i] = p
    return post


def test_sure_squares_are_read_and_doubtful_ones_are_question_marks() -> None:
    post = _post({0: (0.01, 0.97, 0.02), 1: (0.02, 0.5, 0.48), 2: (0.45, 0.3, 0.25)})
    got = reading(post, 0.6)
    assert got.placement == "X??5/8/8/8/8/8/8/8"
    assert got.unsure_colour == ("b8",)  # a piece, surely; its colour, not
    assert got.unreadable == ("c8",)  # not even whether a piece stands there
    assert not got.complete and 0.45 <= got.confidence <= 0.5


def test_a_clear_board_is_complete() -> None:
    got = reading(_post({63: (0.01, 0.01, 0.98)}), 0.6)
    assert got.placement == "8/8/8/8/8/8/8/7x" and got.complete
    assert got.unsure_colour == () and got.unreadable == ()


def _checker(light_at_a8: bool, sq: int = 40) -> np.ndarray:
    board = np.zeros((8 * sq, 8 * sq, 3), np.uint8)
    for r in range(8):
        for c in range(8):
            light = ((r + c) % 2 == 0) == light_at_a8
            board[r * sq : (r + 1) * sq, c * sq : (c + 1) * sq] = 200 if light else 70
    return board


def test_light_and_dark_squares_swapped_are_seen() -> None:
    assert colours_swapped(_checker(True)) is False
    assert colours_swapped(_checker(False)) is True
    grey = np.full((320, 320, 3), 128, np.uint8)
    assert colours_swapped(grey) is None  # no contrast: cannot say


def test_the_tracker_reports_a_piece_of_doubtful_colour_as_question_mark_only_if_it_lasts(
    frames: list, video_cal: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The classifier (replaced here) doubts e4's colour in a still scene: nothing for the
    first second (re-read meanwhile), then one snapshot with `?` on e4, which the contract
    reads as a piece of unknown colour."""
    import vision.tracker as tracker_module
    from rules.events import Snapshot
    from vision.tracker import SnapshotTracker

    post = np.tile([0.98, 0.01, 0.01], (64, 1))
    post[:16] = (0.01, 0.01, 0.98)
    post[48:] = (0.01, 0.98, 0.01)
    post[36] = (0.02, 0.5, 0.48)  # e4
    monkeypatch.setattr(
        tracker_module,
        "classify_board",
        lambda board, cal, known=None, fill_hidden=False, frame=None: ("", 0.5, post),
    )
    tracker = SnapshotTracker(video_cal)  # type: ignore[arg-type]
    got = []
    for k in range(40):
        got += [(k / 20, e) for e in tracker.feed(frames[3], k / 20) if isinstance(e, Snapshot)]
    assert [e.board for _, e in got] == ["xxxxxxxx/xxxxxxxx/8/8/4?3/8/XXXXXXXX/XXXXXXXX"]
    assert got[0][0] >= 1.0
