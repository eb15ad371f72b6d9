"""Rulings: the output half of the event contract (`docs/events.md`).

A ruling is what the arbiter decided, at time `t`: a move that stands, an obligation, a
violation, an illegal move, a penalty, a flag, the end of the game. Each carries the FIDE
article and one plain sentence from the message catalogue (`rules.messages`).
"""

from __future__ import annotations

import json
from typing import Any

from rules.messages import message as catalogue_message

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


class Ruling:
    """One ruling: `type` at time `t`, about `side`, under `article`, with its own fields.

    Its sentence may be given (`message`) or left to the catalogue (`Ruling.from_catalogue`):
    then it is filled in the first time it is read, from the fields as they stood when the
    ruling was made. Formatting costs more than deciding most rulings, and a replay that
    only compares fields never reads it; the text is the same whenever it is read.
    """

    __slots__ = ("_message", "_pending", "article", "data", "side", "t", "type")
    __match_args__ = ("t", "type", "side", "article", "message", "data")

    def __init__(
        self,
        t: float,
        type: str,
        side: str | None = None,
        article: str | None = None,
        message: str | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.t = t
        self.type = type
        self.side = side
        self.article = article
        self.data: dict[str, Any] = {} if data is None else data
        self._message = message
        self._pending: tuple[str, str | None, str | None, dict[str, Any]] | None = None

    @classmethod
    def from_catalogue(
        cls,
        t: float,
        type: str,
        key: str,
        side: str | None,
        article: str | None,
        data: dict[str, Any],
    ) -> Ruling:
        """A ruling whose message is the catalogue's sentence `key`, filled from its fields.

        The fields (and side and article) are copied now, so that the sentence does not
        change if they do.
        """
        ruling = cls(t, type, side, article, None, data)
        ruling._pending = (key, side, article, dict(data))
        return ruling

    @property
    def message(self) -> str | None:
        """The plain sentence of the ruling (`rules.messages`)."""
        pending = self._pending
        if pending is not None:
            key, side, article, fields = pending
            self._message = catalogue_message(key, side=side, article=article, **fields)
            self._pending = None
        return self._message

    @message.setter
    def message(self, text: str | None) -> None:
        self._message = text
        self._pending = None

    def _fields(self) -> tuple[Any, ...]:
        return (self.t, self.type, self.side, self.article, self.message, self.data)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        return (
            f"Ruling(t={self.t!r}, type={self.type!r}, side={self.side!r}, "
            f"article={self.article!r}, message={self.message!r}, data={self.data!r})"
        )

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
        message = self.message
        if message is not None:
            out["message"] = message
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "), ensure_ascii=False)
