"""A camera's still scene with one square no move touched reported otherwise (events.md,
"A square a still scene gets wrong"): the legal move stands and the square is a `mismatch`;
no illegal move, no penalty at the press. The rule is narrow: a genuine illegal move, two
such squares, or a board that reports every change (not a camera) are ruled as before."""

from __future__ import annotations

from typing import Any

from rules.events import Event, Press, Snapshot, Start
from rules.replay import replay

CAMERA: dict[str, Any] = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}
START_X = "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX"


def _rule(events: list[Event]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in replay(events)]


def _of(rulings: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [r for r in rulings if r["type"] == kind]


def test_a_misread_square_no_move_touched_is_a_mismatch_not_an_illegal_move() -> None:
    # 1.e4 with h1 (the rook, untouched) read as a black piece, in every scene until t=10
    h1_misread = "XXXXXXXx"
    events: list[Event] = [
        Start(t=0.0, time_control="300+2", **CAMERA),
        Snapshot(t=2.0, board=f"xxxxxxxx/xxxxxxxx/8/8/4X3/8/XXXX1XXX/{h1_misread}"),
        Press(t=2.5, side="white"),
        Snapshot(t=5.0, board=f"xxxxxxxx/xxxx1xxx/8/4x3/4X3/8/XXXX1XXX/{h1_misread}"),
        Press(t=5.5, side="black"),
        Snapshot(t=8.0, board="xxxxxxxx/xxxx1xxx/8/4x3/4X3/5X2/XXXX1XXX/XXXXXX1x"),
        Press(t=8.5, side="white"),
        Snapshot(t=10.0, board="xxxxxxxx/xxxx1xxx/8/4x3/4X3/5X2/XXXX1XXX/XXXXXX1X"),
    ]
    rulings = _rule(events)
    assert [r["san"] for r in _of(rulings, "move")] == ["e4", "e5", "Nf3"]
    assert not _of(rulings, "illegal") and not _of(rulings, "penalty")
    doubts = _of(rulings, "mismatch")
    assert doubts and all(d["missing"] == [{"square": "h1", "piece": "R"}] for d in doubts)
    clocks = _of(rulings, "clock")
    assert clocks[-1]["white"] > 290 and clocks[-1]["black"] > 290  # increments, no penalty


def test_a_genuine_illegal_move_seen_by_a_camera_is_still_illegal() -> None:
    # Nb1-b3 is no knight move: both changed squares belong to the attempt
    events: list[Event] = [
        Start(t=0.0, **CAMERA),
        Snapshot(t=2.0, board="xxxxxxxx/xxxxxxxx/8/8/8/1X6/XXXXXXXX/X1XXXXXX"),
    ]
    assert _of(_rule(events), "illegal")


def test_two_squares_no_move_touched_are_not_doubted() -> None:
    # e4 and two untouched squares (h1 and a1) read otherwise: not a single doubt
    board = "xxxxxxxx/xxxxxxxx/8/8/4X3/8/XXXX1XXX/xXXXXXXx"
    rulings = _rule([Start(t=0.0, **CAMERA), Snapshot(t=2.0, board=board)])
    assert not _of(rulings, "move") and _of(rulings, "illegal")


def test_a_board_that_reports_every_change_is_ruled_as_before() -> None:
    # the same scene from a fast board (not a still-scene source): no move is made of it
    board = "xxxxxxxx/xxxxxxxx/8/8/4X3/8/XXXX1XXX/XXXXXXXx"
    rulings = _rule([Start(t=0.0), Snapshot(t=2.0, board=board)])
    assert not _of(rulings, "move") and not _of(rulings, "mismatch")
