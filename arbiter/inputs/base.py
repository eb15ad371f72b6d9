"""What every input of a live session shares: the `Source` interface and the intents.

Every input of a live game (a clock button, a key, a line of a scripted stream, an e-board,
a camera) reaches the session through one small interface: a `Source` is started with an
`emit` callback and the session's clock, and emits contract events (`rules.events`) or a
few *intents* that only the session can turn into events, because they depend on the
game's state (the keyboard's "the player whose clock runs presses", the pause button's
toggle). A source that fails emits `SourceFailed`, so the session stops with a clear
message and never a traceback from a thread; a line of a stream that cannot be read is a
`BadLine`: said, journaled as a note, and skipped, and the game goes on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arbiter.clock import Clock
from rules.errors import ArbiterError
from rules.events import Sensor


@dataclass(frozen=True, slots=True)
class KeyCommand:
    """A key the arbiter or a player pressed at stream time `t` (see `KEYS`)."""

    t: float
    key: str


@dataclass(frozen=True, slots=True)
class Typed:
    """A command line typed at stream time `t` (`arbiter.live.commands` reads it)."""

    t: float
    text: str


@dataclass(frozen=True, slots=True)
class Notice:
    """A line for the arbiter's screen from a source (a typed command that did nothing);
    `error`, when the line is an error of ours, lets the screen say it in its language."""

    text: str
    error: BaseException | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """A source stopped on an error; the session ends with `message`. `error`, when it
    stopped on an error of ours, is the same message kept typed, so that the command says it
    in the user's language."""

    message: str
    error: ArbiterError | None = field(default=None, compare=False)

    @classmethod
    def on(cls, source: str, error: ArbiterError) -> SourceFailed:
        """`SOURCE: error` (the source's name, then its error)."""
        return cls(
            f"{source}: {error}", ArbiterError.of("{source}: {error}", source=source, error=error)
        )


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line of a live source that could not be read (issue 17 item 2): the session
    journals `event` (a `sensor` `bad_line` note, docs/events.md), says `error` (file, line
    and fault) on the screen in the user's language, and the game goes on."""

    event: Sensor
    error: ArbiterError = field(compare=False)


@dataclass(frozen=True, slots=True)
class SourceDone:
    """A source will send nothing more (a stream file came to its end)."""

    name: str


#: keys of the keyboard source -> what they do (the keyboard stands in for the buttons)
KEYS: dict[str, str] = {
    " ": "the player whose clock runs presses it",
    "p": "pause or resume the clocks (arbiter, 6.11)",
    "c": "a claim by the player having the move: whatever the Laws allow now (4.8, 9.2, 9.3)",
    "t": "the touch-move claim (4.8) of the player having the move",
    "j": "j'adoube: the player having the move adjusts a piece next (4.2.1)",
    "o": "a draw offer by the player having the move (9.1.2)",
    "a": "the standing draw offer accepted (9.1.2, 5.2.3)",
    "d": "the standing draw offer declined (9.1.2.1)",
    "w": "add 60 s to White's clock (arbiter, 6.10-6.11)",
    "b": "add 60 s to Black's clock (arbiter)",
    ":": "type a command, ended by Enter: resign, takeback, declare 1-0, setclock 5:00 4:30,"
    " claim threefold e2e4 (a game's end is never one stray key)",
    "q": "stop; the journal stays, `arbiter resume` continues the game",
}
#: the typed command (`arbiter.live.commands`) each key stands for ("p" toggles the clocks)
KEY_COMMANDS: dict[str, str] = {
    " ": "press",
    "c": "claim",
    "t": "claim touch",
    "j": "adjust",
    "o": "offer",
    "a": "accept",
    "d": "decline",
    "w": "add white 60",
    "b": "add black 60",
    "q": "quit",
}

#: the keys in a line a screen can show
KEYS_HELP = (
    "keys: space press  p pause  c claim  t touch-move claim  j j'adoube"
    "  o/a/d offer/accept/decline  w/b +60 s  :command (:resign)  q stop"
)

Emit = Callable[[Any], None]

#: how a demo's journal names the demo's own stream (`start.sources`)
DEMO_SOURCE = "demo"
#: how it names the presses and claims beside its virtual board
BESIDE_SOURCE = "beside-the-board"
#: the inputs only a running demo has: a journal naming them cannot reopen them
DEMO_SOURCES = (DEMO_SOURCE, BESIDE_SOURCE)


# ---------------------------------------------------------------------------- sources


class Source(ABC):
    """An input of a live session; see the module docstring."""

    #: how the journal's `start.sources` names it (so `arbiter resume` can reopen it)
    name: str = ""
    #: it can come to an end (a file), after which it emits `SourceDone(name)`
    finite: bool = False

    @abstractmethod
    def start(self, emit: Emit, clock: Clock) -> None:
        """Begin emitting (from a thread or callbacks); returns at once."""

    def close(self) -> None:  # noqa: B027 - most sources need nothing
        """Stop emitting and release what the source holds."""
