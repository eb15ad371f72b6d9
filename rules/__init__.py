"""The rules core: physical events in, typed rulings out, under the FIDE Laws (2023).

Pure: python-chess and the standard library, no I/O, no threads, no clock. What it offers:

- events (`rules.events`): the input half of the contract (`Start`, `Lift`, `Place`, ...,
  one class per arbiter action), `parse_event`/`parse_line` and `Event.to_dict`;
- `Game` (`rules.game`): `Game(start)`, then `handle(event)`, `advance(t)`, `finish()`,
  each returning the rulings decided; `replay`/`iter_rulings` for a whole stream;
- rulings (`rules.rulings`): the output half, one frozen class per type, `to_dict`/
  `parse_ruling`; `format_ruling` (`rules.messages`) makes a ruling's sentence;
- `TimeControl`, `GameClock`, the sides (`Side`, `other`, `win_for`), and the errors
  (`ArbiterError` and its tree, `rules.errors`).

The names are imported when first used (PEP 562), so that importing one module of the
package (`rules.errors` in the CLI) does not load the whole core.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.clock import GameClock
    from rules.errors import (
        ArbiterError,
        EventError,
        EventOrderError,
        PositionError,
        ProfileError,
        TimeControlError,
    )
    from rules.events import (
        ARBITER_ACTION_TYPES,
        EVENT_TYPES,
        Accept,
        Accident,
        AddTime,
        Adjust,
        ArbiterAction,
        Claim,
        Declare,
        Decline,
        Event,
        Lift,
        Offer,
        PauseClocks,
        Penalise,
        Place,
        Press,
        Promote,
        Resign,
        Restart,
        Resume,
        Sensor,
        SetClock,
        SetPosition,
        Snapshot,
        Start,
        Takeback,
        Tick,
        Touch,
        TwoHands,
        Warn,
        arbiter_action,
        parse_event,
        parse_line,
    )
    from rules.game import Game
    from rules.messages import format_ruling, ruling_dict, ruling_json
    from rules.replay import iter_rulings, replay
    from rules.rulings import (
        RULING_CLASSES,
        ClaimRuling,
        ClockState,
        DrawOffer,
        Flag,
        GameOver,
        Illegal,
        Mismatch,
        MoveStands,
        Note,
        Obligation,
        Penalty,
        PieceOn,
        Reinstate,
        Ruling,
        Violation,
        parse_ruling,
    )
    from rules.timecontrol import TimeControl
    from rules.types import Result, Side, other, win_for

#: each public name -> the module that defines it
_HOMES: dict[str, str] = {
    "GameClock": "rules.clock",
    "ArbiterError": "rules.errors",
    "EventError": "rules.errors",
    "EventOrderError": "rules.errors",
    "PositionError": "rules.errors",
    "ProfileError": "rules.errors",
    "TimeControlError": "rules.errors",
    "ARBITER_ACTION_TYPES": "rules.events",
    "EVENT_TYPES": "rules.events",
    "Accept": "rules.events",
    "Accident": "rules.events",
    "AddTime": "rules.events",
    "Adjust": "rules.events",
    "ArbiterAction": "rules.events",
    "Claim": "rules.events",
    "Declare": "rules.events",
    "Decline": "rules.events",
    "Event": "rules.events",
    "Lift": "rules.events",
    "Offer": "rules.events",
    "PauseClocks": "rules.events",
    "Penalise": "rules.events",
    "Place": "rules.events",
    "Press": "rules.events",
    "Promote": "rules.events",
    "Resign": "rules.events",
    "Restart": "rules.events",
    "Resume": "rules.events",
    "Sensor": "rules.events",
    "SetClock": "rules.events",
    "SetPosition": "rules.events",
    "Snapshot": "rules.events",
    "Start": "rules.events",
    "Takeback": "rules.events",
    "Tick": "rules.events",
    "Touch": "rules.events",
    "TwoHands": "rules.events",
    "Warn": "rules.events",
    "arbiter_action": "rules.events",
    "parse_event": "rules.events",
    "parse_line": "rules.events",
    "Game": "rules.game",
    "format_ruling": "rules.messages",
    "ruling_dict": "rules.messages",
    "ruling_json": "rules.messages",
    "iter_rulings": "rules.replay",
    "replay": "rules.replay",
    "RULING_CLASSES": "rules.rulings",
    "ClaimRuling": "rules.rulings",
    "ClockState": "rules.rulings",
    "DrawOffer": "rules.rulings",
    "Flag": "rules.rulings",
    "GameOver": "rules.rulings",
    "Illegal": "rules.rulings",
    "Mismatch": "rules.rulings",
    "MoveStands": "rules.rulings",
    "Note": "rules.rulings",
    "Obligation": "rules.rulings",
    "Penalty": "rules.rulings",
    "PieceOn": "rules.rulings",
    "Reinstate": "rules.rulings",
    "Ruling": "rules.rulings",
    "Violation": "rules.rulings",
    "parse_ruling": "rules.rulings",
    "TimeControl": "rules.timecontrol",
    "Result": "rules.types",
    "Side": "rules.types",
    "other": "rules.types",
    "win_for": "rules.types",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "ARBITER_ACTION_TYPES",
    "EVENT_TYPES",
    "RULING_CLASSES",
    "Accept",
    "Accident",
    "AddTime",
    "Adjust",
    "ArbiterAction",
    "ArbiterError",
    "Claim",
    "ClaimRuling",
    "ClockState",
    "Declare",
    "Decline",
    "DrawOffer",
    "Event",
    "EventError",
    "EventOrderError",
    "Flag",
    "Game",
    "GameClock",
    "GameOver",
    "Illegal",
    "Lift",
    "Mismatch",
    "MoveStands",
    "Note",
    "Obligation",
    "Offer",
    "PauseClocks",
    "Penalise",
    "Penalty",
    "PieceOn",
    "Place",
    "PositionError",
    "Press",
    "ProfileError",
    "Promote",
    "Reinstate",
    "Resign",
    "Restart",
    "Result",
    "Resume",
    "Ruling",
    "Sensor",
    "SetClock",
    "SetPosition",
    "Side",
    "Snapshot",
    "Start",
    "Takeback",
    "Tick",
    "TimeControl",
    "TimeControlError",
    "Touch",
    "TwoHands",
    "Violation",
    "Warn",
    "arbiter_action",
    "format_ruling",
    "iter_rulings",
    "other",
    "parse_event",
    "parse_line",
    "parse_ruling",
    "replay",
    "ruling_dict",
    "ruling_json",
    "win_for",
]
