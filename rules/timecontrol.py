"""Time controls: the contract's `time_control` strings as values (events.md "Time controls").

A time control is a tuple of periods (FIDE 6.3.1: periods, moves per period and increments are
fixed in advance), or an hourglass. The syntax is the PGN standard's TimeControl field with the
contract's extensions:

- ``-`` no clock; ``300`` sudden death in 300 s; ``300+2`` Fischer increment of 2 s a move;
- ``40/5400`` 40 moves in 5400 s; periods joined by ``:`` (``40/5400+30:1800+30``); when the
  last period has a move count it repeats;
- ``*180`` hourglass (sandclock) of 180 s: the time one player uses goes to the other;
- ``5400d5`` simple (US) delay (6.3.2), ``5400b5`` Bronstein delay, ``900m60`` at most 60 s for
  any one move (the Polish profile's default; not in the FIDE Laws).

`TimeControl.parse` and `str` are a pair: ``TimeControl.parse(str(tc)) == tc``. This module is
pure arithmetic on values; the running clock is `rules.clock.GameClock`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal

from rules.errors import TimeControlError
from rules.i18n import N_, Word

__all__ = ["Period", "TimeControl"]

_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_MODIFIERS = {"+": "increment", "d": "delay", "b": "bronstein", "m": "move_cap"}
_MODIFIER_WORDS = {
    "increment": Word(N_("increment")),
    "delay": Word(N_("simple delay")),
    "bronstein": Word(N_("Bronstein delay")),
    "move_cap": Word(N_("per-move cap")),
}
#: what `_check_seconds` names: the subject of its sentence
_PERIOD_TIME = Word(N_("a period's time"))
_AN_INCREMENT = Word(N_("an increment"))
_A_SIMPLE_DELAY = Word(N_("a simple delay"))
_A_BRONSTEIN_DELAY = Word(N_("a Bronstein delay"))
_A_MOVE_CAP = Word(N_("a per-move cap"))

#: Game-class limits of Appendices A.1 and B.1, in seconds of T = base + 60 × increment.
BLITZ_MAX = 600.0
RAPID_BELOW = 3600.0


def _format_number(value: float) -> str:
    """Seconds as the syntax writes them: ``300`` rather than ``300.0``, ``0.5`` as is."""
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")


def _check_seconds(value: object, what: Word, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TimeControlError.of(
            N_("{what} must be a finite number of seconds, not {value!r}"), what=what, value=value
        )
    if value < 0:
        raise TimeControlError.of(
            N_("{what} must not be negative, not {value!r}"), what=what, value=value
        )


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control (FIDE 6.3.1).

    `seconds` is given when the period begins (for the first period, at the start; for a later
    one, at the press completing the previous period's last move). `moves` is the number of moves
    to complete in it, None for the rest of the game. `increment` (Fischer) is credited at each
    press completing a move of this period; `delay` is a simple (US) delay (6.3.2: the main time
    runs only after it); `bronstein` gives back, after the press, the time used on the move, at
    most this much; `move_cap` limits any one move (overrunning it is a flag fall).
    """

    seconds: float
    moves: int | None = None
    increment: float = 0.0
    delay: float = 0.0
    bronstein: float = 0.0
    move_cap: float | None = None

    def __post_init__(self) -> None:
        _check_seconds(self.seconds, _PERIOD_TIME)
        if self.moves is not None and (
            isinstance(self.moves, bool) or not isinstance(self.moves, int) or self.moves < 1
        ):
            raise TimeControlError.of(
                N_("a period's move count must be a whole number of at least 1, not {moves!r}"),
                moves=self.moves,
            )
        _check_seconds(self.increment, _AN_INCREMENT)
        _check_seconds(self.delay, _A_SIMPLE_DELAY)
        _check_seconds(self.bronstein, _A_BRONSTEIN_DELAY)
        _check_seconds(self.move_cap, _A_MOVE_CAP, allow_none=True)
        if self.move_cap is not None and self.move_cap == 0:
            raise TimeControlError.of(N_("a per-move cap of 0 s leaves no time for any move"))
        if self.delay and self.bronstein:
            raise TimeControlError.of(
                N_("a period cannot have both a simple and a Bronstein delay")
            )

    def __str__(self) -> str:
        text = _format_number(self.seconds)
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.increment:
            text += f"+{_format_number(self.increment)}"
        if self.delay:
            text += f"d{_format_number(self.delay)}"
        if self.bronstein:
            text += f"b{_format_number(self.bronstein)}"
        if self.move_cap is not None:
            text += f"m{_format_number(self.move_cap)}"
        return text

    @classmethod
    def parse(cls, text: str) -> Period:
        """Read one period such as ``40/5400+30`` or ``900m60``; raise TimeControlError."""
        if not text:
            raise TimeControlError.of(N_("an empty period (nothing between ':')"))
        moves: int | None = None
        rest = text
        if "/" in text:
            count, rest = text.split("/", 1)
            if not count.isdecimal() or not count.isascii():
                raise TimeControlError.of(
                    N_("move count {count!r} in period {text!r} is not a whole number"),
                    count=count,
                    text=text,
                )
            moves = int(count)
        match = _NUMBER.match(rest)
        if match is None:
            if not rest:
                raise TimeControlError.of(
                    N_("period {text!r} must give its time in seconds, not 'nothing'"), text=text
                )
            raise TimeControlError.of(
                N_("period {text!r} must give its time in seconds, not {rest!r}"),
                text=text,
                rest=rest,
            )
        values: dict[str, float] = {}
        seconds = float(match.group())
        rest = rest[match.end() :]
        while rest:
            mark = rest[0]
            name = _MODIFIERS.get(mark)
            if name is None:
                raise TimeControlError.of(
                    N_(
                        "unexpected {rest!r} in period {text!r} (after the seconds come"
                        " +increment, d<delay>, b<Bronstein delay> or m<per-move cap>)"
                    ),
                    rest=rest,
                    text=text,
                )
            word = _MODIFIER_WORDS[name]
            if name in values:
                raise TimeControlError.of(
                    N_("period {text!r} gives the {word} twice"), text=text, word=word
                )
            match = _NUMBER.match(rest, 1)
            end = match.end() if match else 1
            while end < len(rest) and rest[end] not in _MODIFIERS:
                end += 1
            if match is None or match.end() != end:
                raise TimeControlError.of(
                    N_("{word} {value!r} in period {text!r} is not a number of seconds"),
                    word=word,
                    value=rest[1:end],
                    text=text,
                )
            values[name] = float(match.group())
            rest = rest[end:]
        return cls(seconds, moves, **values)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time control: its periods, or an hourglass; no periods means no clock.

    Build it with `TimeControl.parse`; `str` gives the canonical contract syntax back.
    """

    periods: tuple[Period, ...] = ()
    hourglass: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.periods, tuple) or not all(
            isinstance(p, Period) for p in self.periods
        ):
            raise TimeControlError(f"periods must be a tuple of Period, not {self.periods!r}")
        for i, period in enumerate(self.periods[:-1]):
            if period.moves is None:
                raise TimeControlError.of(
                    N_("period {number} ({period}) has no move count, so no period can follow it"),
                    number=i + 1,
                    period=str(period),
                )
        if self.periods and self.periods[0].seconds == 0:
            raise TimeControlError.of(N_("the first period gives no time (0 s)"))
        if self.hourglass:
            if len(self.periods) != 1:
                raise TimeControlError.of(N_("an hourglass has exactly one time, e.g. '*180'"))
            only = self.periods[0]
            if only != Period(only.seconds):
                raise TimeControlError.of(
                    N_("an hourglass takes no moves, increment, delay or cap, not {period}"),
                    period=str(only),
                )

    @classmethod
    def parse(cls, text: str | None) -> TimeControl:
        """Read the contract's `time_control`; None, '' and '-' are untimed.

        Raises TimeControlError("time control '<text>': <what is wrong>").
        """
        if text is None:
            return cls()
        if not isinstance(text, str):
            raise TimeControlError(f"time control must be a string, not {text!r}")
        body = text.strip()
        if body in ("", "-"):
            return cls()
        try:
            if body == "?":
                raise TimeControlError.of(N_("'?' (unknown) cannot run a clock"))
            if body.startswith("*"):
                number = body[1:]
                if _NUMBER.fullmatch(number) is None:
                    raise TimeControlError.of(
                        N_("an hourglass is '*' and seconds, e.g. '*180', not {text!r}"),
                        text=body,
                    )
                return cls((Period(float(number)),), hourglass=True)
            return cls(tuple(Period.parse(part) for part in body.split(":")))
        except TimeControlError as err:
            raise TimeControlError.of(
                N_("time control {text!r}: {error}"), text=text, error=err
            ) from None

    def __str__(self) -> str:
        if not self.periods:
            return "-"
        if self.hourglass:
            return f"*{_format_number(self.periods[0].seconds)}"
        return ":".join(str(p) for p in self.periods)

    @property
    def untimed(self) -> bool:
        """True when there is no clock ('-')."""
        return not self.periods

    def game_class(self) -> str:
        """'blitz', 'rapid' or 'standard' (FIDE A.1, B.1; events.md `mode`).

        T = base + 60 × increment per player, a simple or Bronstein delay counting as an
        increment and periods summed, each once (a repeating last period is not counted again):
        T ≤ 10 min is blitz, T < 60 min rapid, else standard. Untimed games are standard.
        """
        if self.untimed:
            return "standard"
        total = sum(p.seconds + 60 * (p.increment + p.delay + p.bronstein) for p in self.periods)
        if total <= BLITZ_MAX:
            return "blitz"
        if total < RAPID_BELOW:
            return "rapid"
        return "standard"

    def period_of_move(self, number: int) -> tuple[Period, Period | None]:
        """The period in which a player's move `number` (1, 2, …) lies, and the period whose time
        is added when that move completes it (None when the move is not a period's last).

        Moves are counted from the start of the stream (events.md); a last period with a move
        count repeats (6.3.1).
        """
        if number < 1:
            raise TimeControlError(f"move numbers start at 1, not {number!r}")
        if not self.periods:
            raise TimeControlError("an untimed control has no periods")
        first = 1
        for i, period in enumerate(self.periods):
            if period.moves is None:
                return period, None
            last = first + period.moves - 1
            if number <= last:
                if number < last:
                    return period, None
                following = self.periods[i + 1] if i + 1 < len(self.periods) else period
                return period, following
            first = last + 1
        period = self.periods[-1]
        assert period.moves is not None
        into = (number - first) % period.moves
        return period, (period if into == period.moves - 1 else None)
