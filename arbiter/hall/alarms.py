"""What needs the arbiter now, from one board's rulings (issue 14's alarms).

An alarm is raised by a ruling the station's replay gave (an illegal move completed, a flag,
a claim, a `mismatch`, a position set up wrong at the start) or by what the station sees of
the board's link (a board that went silent, or whose connection dropped: the broker sends
its will). Alarms are values; the station keeps them until the arbiter clears them.

An alarm's sentence is kept as what makes it (`Wording`: a catalogue template and its
fields, or the ruling), so that the station's terminal and each browser of the hall's page
say it in their own language (issue 15); `Alarm.text` is the English.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from arbiter.i18n import DOMAIN, LOCALE_DIR, error_text, gettext
from rules.errors import ArbiterError
from rules.i18n import LANGUAGES, N_, Np_, localized, translations
from rules.messages import format_ruling
from rules.rulings import ClaimRuling, Flag, Illegal, Mismatch, Ruling

#: the kinds of alarm, in the order an arbiter should look at them
KINDS = ("illegal", "flag", "claim", "wrong_start", "mismatch", "disconnected", "silent")
#: each kind as the arbiter reads it (the station's lines, the hall's page: `strings.py`)
KIND_WORDS: dict[str, tuple[str, str]] = {
    "illegal": Np_("alarm kind", "illegal move"),
    "flag": Np_("alarm kind", "flag"),
    "claim": Np_("alarm kind", "claim"),
    "wrong_start": Np_("alarm kind", "wrong start position"),
    "mismatch": Np_("alarm kind", "mismatch"),
    "disconnected": Np_("alarm kind", "disconnected"),
    "silent": Np_("alarm kind", "silent"),
}

#: the alarms the station raises from what it sees of a board's link and replay
DROPPED = N_("the board's connection dropped")
SILENT = N_("no message from the board for {seconds:.0f} s")
TWO_GAMES = N_(
    "two games publish under this board's name:"
    " two boards have the same name, or an old game was resumed"
)
CANNOT_FOLLOW = N_("the station cannot follow the game: {reason}")
DIFFER = N_("the station's rulings on event {seq} differ from the board's")


def kind_word(kind: str, language: str) -> str:
    """The kind of an alarm in `language` (in English the kind's own name: `wrong_start`)."""
    marked = KIND_WORDS.get(kind)
    if marked is None or language == "en":
        return kind
    return translations(language, DOMAIN, str(LOCALE_DIR)).pgettext(*marked)


@dataclass(frozen=True)
class Wording:
    """What an alarm says, in any language: the `template` (a catalogue message id of the
    `arbiter` domain, `{ruling}` standing for the ruling's sentence) and its fields."""

    template: str
    fields: dict[str, Any] = field(default_factory=dict)
    ruling: Ruling | None = None

    def say(self, language: str) -> str:
        """The sentence in `language`."""
        values = {
            name: error_text(value, language) if isinstance(value, ArbiterError) else value
            for name, value in self.fields.items()
        }
        if self.ruling is not None:
            values["ruling"] = format_ruling(self.ruling, language)
        return gettext(self.template, language).format_map(localized(values, language))


#: a ruling's own sentence as an alarm
RULING = "{ruling}"


@dataclass(frozen=True)
class Alarm:
    """One thing for the arbiter: on which board, what, when (board's `t`, or None for a link
    alarm), in one sentence (`wording`); `ident` names it for clearing."""

    ident: int
    board: str
    kind: str
    wording: Wording
    t: float | None = None

    @property
    def text(self) -> str:
        """The sentence in English."""
        return self.texts["en"]

    def text_in(self, language: str) -> str:
        """The sentence in `language` (one the arbiter speaks; English otherwise)."""
        return self.texts.get(language) or self.texts["en"]

    @cached_property
    def texts(self) -> dict[str, str]:
        """The sentence in every language of the arbiter, made once (the hall's page sends
        them all, and each browser shows its own)."""
        return {language: self.wording.say(language) for language in LANGUAGES}


def ruling_alarms(
    rulings: Sequence[Ruling], handled: Collection[int] | None
) -> list[tuple[str, Wording, float]]:
    """(kind, wording, t) for each ruling of one step that needs the arbiter.

    `handled`: before the first move stood, the squares a hand changed since the board was
    set up (`BoardReplay.handled`), else None. A `mismatch` then on a square no hand changed
    is the position set up wrong (`wrong_start`: the game cannot begin until the board shows
    the start; the kind says so, the ruling's sentence says what to put where); one on the
    squares of a move attempt is a `mismatch` as later (the illegal move is its own alarm).
    """
    found: list[tuple[str, Wording, float]] = []
    for r in rulings:
        if isinstance(r, Illegal) and r.completed:
            found.append(("illegal", Wording(RULING, ruling=r), r.t))
        elif isinstance(r, Flag):
            found.append(("flag", Wording(RULING, ruling=r), r.t))
        elif isinstance(r, ClaimRuling):
            found.append(("claim", Wording(RULING, ruling=r), r.t))
        elif isinstance(r, Mismatch):
            squares = {p.square for p in (*r.missing, *r.extra)}
            set_up = handled is not None and not squares <= set(handled)
            found.append(("wrong_start" if set_up else "mismatch", Wording(RULING, ruling=r), r.t))
    return found
