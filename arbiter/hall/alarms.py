"""What needs the arbiter now, from one board's rulings (issue 14's alarms).

An alarm is raised by a ruling the station's replay gave (an illegal move completed, a flag,
a claim, a `mismatch`, a position set up wrong at the start) or by what the station sees of
the board's link (a board that went silent, or whose connection dropped: the broker sends
its will). Alarms are values; the station keeps them until the arbiter clears them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.messages import format_ruling
from rules.rulings import ClaimRuling, Flag, Illegal, Mismatch, Ruling

#: the kinds of alarm, in the order an arbiter should look at them
KINDS = ("illegal", "flag", "claim", "wrong_start", "mismatch", "disconnected", "silent")


@dataclass(frozen=True)
class Alarm:
    """One thing for the arbiter: on which board, what, when (board's `t`, or None for a link
    alarm), in one sentence; `ident` names it for clearing."""

    ident: int
    board: str
    kind: str
    text: str
    t: float | None = None


def ruling_alarms(rulings: Sequence[Ruling], moves_made: int) -> list[tuple[str, str, float]]:
    """(kind, sentence, t) for each ruling of one step that needs the arbiter.

    `moves_made` is how many moves stood before this step: a `mismatch` before the first move
    is a position set up wrong (the game cannot begin until the board shows the start).
    """
    found: list[tuple[str, str, float]] = []
    for r in rulings:
        if isinstance(r, Illegal) and r.completed:
            found.append(("illegal", format_ruling(r), r.t))
        elif isinstance(r, Flag):
            found.append(("flag", format_ruling(r), r.t))
        elif isinstance(r, ClaimRuling):
            found.append(("claim", format_ruling(r), r.t))
        elif isinstance(r, Mismatch):
            kind = "wrong_start" if moves_made == 0 else "mismatch"
            text = format_ruling(r)
            if kind == "wrong_start":
                text = "the start position is set up wrong: " + text
            found.append((kind, text, r.t))
    return found
