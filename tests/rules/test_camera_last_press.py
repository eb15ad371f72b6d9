"""A game-ending move seen by a camera: the mover's press stops the mover's clock (6.2.1),
not the camera's later report (issue 17 item 9; 58 of 72 colour-camera games that ended with a
move were charged up to 0.9 s more than with a board)."""

from __future__ import annotations

import chess

from rules.events import Press, Snapshot, Start
from rules.replay import replay
from rules.rulings import ClockState, GameOver

CAMERA = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


def after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def fools_mate(seen_late_by: float) -> list:
    """1. f3 e5 2. g4 Qh4#, each move seen `seen_late_by` s after its player's press."""
    events: list = [Start(t=0.0, time_control="300", **CAMERA)]
    sans = ["f3", "e5", "g4", "Qh4#"]
    t = 0.0
    for n in range(len(sans)):
        t += 5.0
        side = "white" if n % 2 == 0 else "black"
        seen = after(*sans[: n + 1])
        events.append(Press(t=t, side=side))
        events.append(Snapshot(t=t + seen_late_by, board=seen, seen_at=t - 0.3))
    return events


def test_the_mating_press_stops_the_clock_however_late_the_camera_sees_the_move() -> None:
    finals = []
    for late in (0.1, 0.9):
        rulings = replay(fools_mate(late))
        over = [r for r in rulings if isinstance(r, GameOver)]
        assert over and over[0].result == "0-1" and over[0].reason == "checkmate"
        clocks = [r for r in rulings if isinstance(r, ClockState)]
        finals.append((clocks[-1].white, clocks[-1].black))
    # Black pressed at t = 20 having used 5 s on each of two moves: 290 s left, however late
    assert finals[0] == finals[1]
    assert abs(finals[1][1] - 290.0) < 1e-6
