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
from rules.types import Side


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
    if game.timed:
        record.credit, record.counted = counted_press(game, record.side, press_t)
        # a press on a stopped clock (the arbiter paused it) completes nothing: the player
        # presses again once the clock runs
        record.pressed = record.counted
    else:
        record.pressed = True
    game.clock_ruling(out, t)


def counted_press(game: GameState, side: Side, t: float) -> tuple[float, bool]:
    """Press `side`'s clock for a completed move: (the credit it gave, whether it counted)."""
    clock = game.clock
    # the press counts a move exactly when it stops `side`'s running clock (`GameClock.press`)
    counted = clock.running == side and not clock.paused
    return clock.press(side, t, completed_move=True), counted
