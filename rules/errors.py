"""The project's own error types.

Player offences (illegal moves, fallen flags, touch-move breaches) are *rulings*, never
exceptions. Exceptions are for input that cannot be understood (a malformed event line,
a bad time-control string, garbage from a device) and for callers that misuse an API.
Every message names what is wrong and where, in words an arbiter understands.

The tree (builtin mixins let callers that know only `ValueError` catch them too):

    ArbiterError                         every error raised on purpose
    ├── EventError (ValueError)          a malformed event or ruling (names its line)
    │   └── EventOrderError              time runs backwards; no `start` first; a second one
    ├── TimeControlError (ValueError)    a time-control string or a clock call
    ├── PositionError (ValueError)       a FEN or piece placement cannot be read
    ├── ProfileError (ValueError)        an unknown rule profile
    ├── LanguageError (ValueError)       a language the arbiter does not speak (`--lang`)
    └── GameStateError (RuntimeError)    the engine asked for a phase change that cannot
                                         happen (a bug in the rules core, never a player's)
"""

from __future__ import annotations

from typing import Any, Self

__all__ = [
    "ArbiterError",
    "EventError",
    "EventOrderError",
    "GameStateError",
    "LanguageError",
    "PositionError",
    "ProfileError",
    "TimeControlError",
]


class ArbiterError(Exception):
    """Base of every error this project raises on purpose.

    One raised with `of(template, **fields)` keeps its English template and fields, so that
    the `arbiter` command can say it in the user's language (the message catalogues).
    """

    template: str | None = None
    fields: dict[str, Any]

    @classmethod
    def of(cls, template: str, **fields: Any) -> Self:
        """The error whose message is `template` (a catalogue message id) filled with `fields`."""
        err = cls(template.format(**fields))
        err.template = template
        err.fields = fields
        return err


class EventError(ArbiterError, ValueError):
    """An event (a line of a stream) is malformed: a missing field, a bad square, a bad type."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)

    def at_line(self, line: int) -> EventError:
        """The same error, naming the stream line it came from."""
        err = type(self)(self.reason, line=line)
        if self.template is not None:  # it is still said in the reader's language
            err.template, err.fields = self.template, self.fields
        return err


class EventOrderError(EventError):
    """An event's time runs backwards, or a stream does not begin with `start`."""


class TimeControlError(ArbiterError, ValueError):
    """A time-control string does not follow the contract's syntax."""


class PositionError(ArbiterError, ValueError):
    """A FEN or piece placement cannot be read."""


class ProfileError(ArbiterError, ValueError):
    """An unknown rule profile was asked for."""


class LanguageError(ArbiterError, ValueError):
    """A language the arbiter has no catalogue for was asked for (`--lang`)."""


class GameStateError(ArbiterError, RuntimeError):
    """The rules core asked its game state for a change its phase table forbids (a bug)."""
