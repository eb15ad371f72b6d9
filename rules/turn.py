"""What the rules remember between events: the current turn's hand work, and the moves made.

`Turn` is what the player having the move has done with his hands since the last move
(touches for Article 4.3, adjustments 4.2, promotion pieces 4.4.4, an illegal arrangement
already reported 7.5.1, a move refused in strict mode). `MoveRecord` is a move that stands,
with what the Laws may still need of it: its touches and breach for a claim (4.8), whether
its clock was pressed (6.2.1) and the increment that press gave (7.5.5).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import chess

from rules.rulings import Violation
from rules.touch import Duty
from rules.types import Side

#: an arrangement of the sensed board: the differing squares and what stands on them
Arrangement = frozenset[tuple[int, str | None]]


class Turn:
    """What the player having the move has done with his hands since the last move.

    A plain slotted class, not a dataclass: one is made at every move.
    """

    __slots__ = (
        "adjusting",
        "forced",
        "moved_squares",
        "obligation",
        "promo_first",
        "refused",
        "refused_scene",
        "reinstated_scene",
        "reported_illegal",
        "side",
        "touch_times",
        "touched_any",
        "touches",
        "two_hands",
    )

    def __init__(self, side: Side) -> None:
        self.side = side
        self.touches: list[int] = []
        self.touch_times: dict[int, float] = {}
        self.adjusting = False
        #: a piece touched to move it: no claim this move (4.8, 9.4)
        self.touched_any = False
        self.moved_squares: set[int] = set()  # squares this turn placed pieces on
        self.promo_first: dict[int, str] = {}  # 4.4.4
        self.obligation: Duty | None = None
        #: a duty that stands whatever is touched (9.5.3, strict)
        self.forced: Duty | None = None
        self.reported_illegal: Arrangement | None = None
        self.refused: Arrangement | None = None  # strict: the board shows it
        #: strict: the squares the refused move changed or that differed, with what they
        #: showed (the board on its way back from it is no new attempt, `moves.putting_back`)
        self.refused_scene: Arrangement | None = None
        #: the board as sensed when this turn's completed illegal move was ruled and its
        #: position reinstated (7.5.1): a press while it still shows just that is a press
        #: without a move (7.5.3), not a second illegal arrangement (`presses.resolve`)
        self.reinstated_scene: Arrangement | None = None
        self.two_hands = False

    def __repr__(self) -> str:
        return f"Turn({self.side!r}, touches={self.touches!r}, obligation={self.obligation!r})"


@dataclass(slots=True)
class MoveRecord:
    """A move that stands, with what the Laws may still need of it."""

    ply: int
    side: Side
    move: chess.Move
    made_at: float
    touches: list[int]
    violation: Violation | None = None
    pressed: bool = False
    credit: float = 0.0
    #: the press counted the move on the clock (6.2.1); not when that clock was stopped
    counted: bool = False

    def __deepcopy__(self, memo: dict[int, object]) -> MoveRecord:
        """A copy (of the game, at a claim: `rules.verdicts`): its own touches; the move and
        the violation are values nothing changes, shared."""
        copy = replace(self, touches=list(self.touches))
        memo[id(self)] = copy
        return copy
