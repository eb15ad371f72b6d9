"""Rulings: the output half of the event contract (`docs/events.md`).

A ruling is what the arbiter decided, at time `t`: a move that stands, an obligation, a
violation, an illegal move, a penalty, a flag, the end of the game. Each carries the FIDE
article and one plain sentence from the message catalogue (`rules.messages`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

RULING_TYPES = (
    "move",
    "obligation",
    "violation",
    "illegal",
    "reinstate",
    "penalty",
    "mismatch",
    "claim",
    "clock",
    "flag",
    "draw_offer",
    "game_over",
    # project extension (docs/events.md)
    "note",
)


@dataclass(slots=True)
class Ruling:
    """One ruling: `type` at time `t`, about `side`, under `article`, with its own fields."""

    t: float
    type: str
    side: str | None = None
    article: str | None = None
    message: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_dict().get(key, default)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.t, 6), "type": self.type}
        if self.side is not None:
            out["side"] = self.side
        out.update(self.data)
        if self.article is not None:
            out["article"] = self.article
        if self.message is not None:
            out["message"] = self.message
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)
