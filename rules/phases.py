"""The phase of a game, and what may happen in each: one value and one table.

A game is in exactly one phase. The phase changes only through `next_phase`, by the table
`TRANSITIONS`; what each phase lets happen is read from the tables below it, not from flags
spread over the engine.

    PLAYING ──source lost──▶ SOURCE_LOST ──source back──▶ RECONCILING ──full report──▶ PLAYING
       │  ╰──────────────────────source back───────────────▲   ▲    │ (a mismatch)
       │                          ╰──full report (the source reports again)──▶ PLAYING
       │                                                              ▼
       │                    PLAYING ◀──restored (or plies at a press)── RESTORING
       ╰──(any phase but OVER) game over──▶ OVER            (nothing leaves OVER)

- PLAYING: the board's reports are ruled as they come.
- SOURCE_LOST: the source said `disconnected` (events.md); its reports may be missing, so a
  press waits for the next full report and is never a press without a move (7.5.3).
- RECONCILING: the source said `reconnected`; the next full report is compared with the
  game as a whole (a move made meanwhile, or a `mismatch`: 7.4) before play goes on.
- RESTORING: that report was a `mismatch`; the pieces are being put back. Board reports
  change the board as sensed only (no touches, moves or illegal moves); the board showing the
  game's position again, or a press while it shows legal plies from it (up to `max_plies`),
  ends it (`rules.restoring`, docs/events.md).
- OVER: the game ended (5, 6.9, 7.5.5, 9.6, a claim, the arbiter): no event is ruled.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from rules.errors import GameStateError

__all__ = [
    "PRESS_WAITS_FOR_REPORT",
    "RULES_EVENTS",
    "TRANSITIONS",
    "Phase",
    "Trigger",
    "next_phase",
]


class Phase(Enum):
    """Where a game stands (see the module's table)."""

    PLAYING = "playing"
    SOURCE_LOST = "source_lost"
    RECONCILING = "reconciling"
    RESTORING = "restoring"
    OVER = "over"


class Trigger(Enum):
    """What moves a game from one phase to another."""

    SOURCE_LOST = "source_lost"  # a `sensor` event `disconnected`
    SOURCE_BACK = "source_back"  # a `sensor` event `reconnected`
    FULL_REPORT = "full_report"  # a `snapshot`: the whole board as sensed
    GAME_OVER = "game_over"  # a `game_over` ruling
    MISMATCH = "mismatch"  # the reconciled report is a `mismatch`: pieces are put back
    RESTORED = "restored"  # the board shows the game again (or plies at a press)


_LIVE = (Phase.PLAYING, Phase.SOURCE_LOST, Phase.RECONCILING, Phase.RESTORING)

#: (phase, trigger) -> the next phase; a pair missing here cannot happen
TRANSITIONS: Final[dict[tuple[Phase, Trigger], Phase]] = {
    (Phase.PLAYING, Trigger.SOURCE_LOST): Phase.SOURCE_LOST,
    (Phase.PLAYING, Trigger.SOURCE_BACK): Phase.RECONCILING,
    (Phase.PLAYING, Trigger.FULL_REPORT): Phase.PLAYING,
    (Phase.SOURCE_LOST, Trigger.SOURCE_LOST): Phase.SOURCE_LOST,
    (Phase.SOURCE_LOST, Trigger.SOURCE_BACK): Phase.RECONCILING,
    (Phase.SOURCE_LOST, Trigger.FULL_REPORT): Phase.PLAYING,
    # lost again before the first full report: that report is still reconciled
    (Phase.RECONCILING, Trigger.SOURCE_LOST): Phase.RECONCILING,
    (Phase.RECONCILING, Trigger.SOURCE_BACK): Phase.RECONCILING,
    (Phase.RECONCILING, Trigger.FULL_REPORT): Phase.PLAYING,
    # the reconciled report was a mismatch: the pieces are put back before play goes on
    (Phase.PLAYING, Trigger.MISMATCH): Phase.RESTORING,
    (Phase.RESTORING, Trigger.MISMATCH): Phase.RESTORING,
    (Phase.RESTORING, Trigger.FULL_REPORT): Phase.RESTORING,
    (Phase.RESTORING, Trigger.RESTORED): Phase.PLAYING,
    (Phase.RESTORING, Trigger.SOURCE_LOST): Phase.SOURCE_LOST,
    (Phase.RESTORING, Trigger.SOURCE_BACK): Phase.RECONCILING,
    # while the source's reports may be missing the board is not compared yet: no change
    **{(phase, Trigger.MISMATCH): phase for phase in (Phase.SOURCE_LOST, Phase.RECONCILING)},
    **{
        (phase, Trigger.RESTORED): phase
        for phase in (Phase.PLAYING, Phase.SOURCE_LOST, Phase.RECONCILING)
    },
    **{(phase, Trigger.GAME_OVER): Phase.OVER for phase in _LIVE},
}

#: whether events are ruled in a phase (the end of the game stops all of them)
RULES_EVENTS: Final[dict[Phase, bool]] = {
    Phase.PLAYING: True,
    Phase.SOURCE_LOST: True,
    Phase.RECONCILING: True,
    Phase.RESTORING: True,
    Phase.OVER: False,
}

#: phases where the board's reports may be missing: a press waits for the next full report
#: and is never ruled a press without a move (events.md, 7.5.3)
PRESS_WAITS_FOR_REPORT: Final[frozenset[Phase]] = frozenset({Phase.SOURCE_LOST, Phase.RECONCILING})


def next_phase(phase: Phase, trigger: Trigger) -> Phase:
    """The phase `trigger` leads to from `phase` (`TRANSITIONS`).

    Raises `GameStateError` for a pair the table does not hold: the engine asked for a
    change that cannot happen (a bug, never a player's doing).
    """
    try:
        return TRANSITIONS[(phase, trigger)]
    except KeyError:
        raise GameStateError(
            f"a game {phase.value!r} cannot take {trigger.value!r}: no such phase change"
        ) from None
