"""The errors of the `arbiter` package: what stops a command, in words a user understands.

Every one is an `ArbiterError` (`rules.errors`), which the `arbiter` command turns into one
clear line on standard error and exit status 2; no traceback reaches a user. Offences at
the board are rulings, never exceptions.

    ArbiterError (rules.errors)
    ├── ConfigError         a setting in a config file or on the command line cannot be used
    ├── SourceError         an input source cannot be opened or failed while the game ran
    ├── SessionError        a live session cannot go on (a source failed, a journal cannot
    │                       be resumed)
    ├── JournalError        a journal cannot be opened, written or read
    ├── OutputClashError    two options name one file (a --pgn naming the journal)
    ├── StreamFileError     a stream file cannot be opened or read
    ├── DecodeFileError     a raw capture to decode cannot be opened or read
    ├── DemoError           the bundled demo game cannot be read or played
    ├── PgnError            (also ValueError) a PGN file cannot be read
    └── SimulateError       (also ValueError) a game no event stream can reproduce
"""

from __future__ import annotations

from rules.errors import ArbiterError


class ConfigError(ArbiterError):
    """A setting (in a config file or on the command line) cannot be used."""


class SourceError(ArbiterError):
    """An input source cannot be opened or failed while the game ran."""


class SessionError(ArbiterError):
    """A live session cannot go on (a source failed, a journal cannot be resumed)."""


class JournalError(ArbiterError):
    """A journal cannot be opened, written or read."""


class OutputClashError(ArbiterError):
    """Two options of a live game name one file (`--pgn` or `--capture` naming the journal).

    Checked before anything is opened, so that the journal is never overwritten or mixed.
    """


class StreamFileError(ArbiterError):
    """A stream file cannot be opened or read."""


class DecodeFileError(ArbiterError):
    """The file to decode cannot be opened or read."""


class DemoError(ArbiterError):
    """The bundled demo game cannot be read or played."""


class PgnError(ArbiterError, ValueError):
    """A PGN file cannot be read: missing, not text, no game in it, a bad move, no such game.

    Every message names the file and the game (1-based, as `--game` counts), so that a user
    can find what went wrong among a thousand games.
    """


class SimulateError(ArbiterError, ValueError):
    """A game cannot be turned into a stream the FIDE Laws would rule to the game's result.

    Examples: a clock that rose between two moves (no FIDE clock does that), a loss on time
    in a game without a time control, an unknown sensor kind.
    """


__all__ = [
    "ArbiterError",
    "ConfigError",
    "DecodeFileError",
    "DemoError",
    "JournalError",
    "OutputClashError",
    "PgnError",
    "SessionError",
    "SimulateError",
    "SourceError",
    "StreamFileError",
]
