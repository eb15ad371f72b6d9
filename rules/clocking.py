"""The clock press that completes a move (Article 6.2.1), and what it gives (6.1.2, 7.5.5).

A press completes the player's move: his clock stops, the opponent's starts, the increment
(if any) is credited, and the move is counted for the time control's periods. A press on a
clock that is not running (the arbiter paused it 6.11, or it is the other side's) stops
nothing and counts no move, so a later take-back must not uncount one.
"""

from __future__ import annotations

from rules.rulings import Ruling
from rules.state import GameState
from rules.turn import MoveRecord


def complete(
    game: GameState,
    record: MoveRecord,
    press_t: float,
    out: list[Ruling],
    *,
    ruling_t: float | None = None,
) -> None:
    """6.2.1: the press completes the move; the clock ruling follows."""
    t = press_t if ruling_t is None else ruling_t
    game.record_press(record, press_t)
    game.clock_ruling(out, t)
