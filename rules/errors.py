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
    └── GameStateError (RuntimeError)    the engine asked for a phase change that cannot
                                         happen (a bug in the rules core, never a player's)
"""

from __future__ import annotations

__all__ = [
    "ArbiterError",
    "EventError",
    "EventOrderError",
    "GameStateError",
    "PositionError",
    "ProfileError",
    "TimeControlError",
]


class ArbiterError(Exception):
    """Base of every error this project raises on purpose."""


class EventError(ArbiterError, ValueError):
    """An event (a line of a stream) is malformed: a missing field, a bad square, a bad type."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)

    def at_line(self, line: int) -> EventError:
        """The same error, naming the stream line it came from."""
        err = type(self)(self.reason, line=line)
        return err


class EventOrderError(EventError):
    """An event's time runs backwards, or a stream does not begin with `start`."""


class TimeControlError(ArbiterError, ValueError):
    """A time-control string does not follow the contract's syntax."""


class PositionError(ArbiterError, ValueError):
    """A FEN or piece placement cannot be read."""


class ProfileError(ArbiterError, ValueError):
    """An unknown rule profile was asked for."""


class GameStateError(ArbiterError, RuntimeError):
    """The rules core asked its game state for a change its phase table forbids (a bug)."""
