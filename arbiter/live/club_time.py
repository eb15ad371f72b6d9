"""`--tc` as clubs write it: minutes where a club means minutes, read into the contract's form.

The journal's `time_control` stays the PGN standard's form in seconds (`rules.timecontrol`);
this module only reads what a person types and says back, in words, what it understood.

Notations (docs/time-controls.md):

- ``G/90;inc30`` or ``G/90+30``: 90 minutes a player, 30 s added per move (Fischer);
  ``G/60;d5``: 60 minutes with a 5 s simple (US) delay; ``G/5``: 5 minutes, sudden death.
- ``B+I`` (two whole numbers): base ``B`` and Fischer increment ``I`` seconds. ``B`` is read as
  **minutes** when ``B < 60`` (under a minute of base is no game), or when ``B <= 180`` and the
  increment is more than a tenth of ``B`` seconds (``90+30``: no real control gives 30 s a move
  on a 90 s base, while 90 min + 30 s is the FIDE standard). Otherwise ``B`` is seconds, as
  before: ``300+2``, ``180+2``, ``60+1``, ``5400+30``. The printed reading shows which.
- Anything else is the contract's syntax in seconds, unchanged: ``300``, ``5400d5``,
  ``900m60``, ``*180``, ``40/5400+30:1800+30``, ``-``.

A control giving under 60 s in all (base plus 60 increments or delays, FIDE A.1's T) is
refused as a mistyping (``3`` is three seconds) unless forced.
"""

from __future__ import annotations

import re

from arbiter.errors import ConfigError
from arbiter.i18n import NO_CLOCK, Localized, gettext
from rules.errors import TimeControlError
from rules.i18n import N_
from rules.timecontrol import Period, TimeControl, _format_number

__all__ = ["MIN_GAME_S", "describe", "read_club_time"]

#: the words of `describe` (the reading printed before a game)
HOURGLASS = N_("hourglass of {duration}")
FOR_MOVES = N_("{duration} for {moves} moves")
FISCHER = N_(" + {seconds} s per move, Fischer")
US_DELAY = N_(", {seconds} s delay (US)")
BRONSTEIN = N_(", {seconds} s Bronstein delay")
MOVE_CAP = N_(", at most {duration} a move")
THEN = N_("; then ")
REPEATING = N_(", repeating")
REST_OF_GAME = N_(" for the rest of the game")

#: the least time (FIDE A.1's T = base + 60 × increment) a control may give without --force-tc
MIN_GAME_S = 60.0
#: the longest base, in minutes, that ``B+I`` may be read as minutes
MAX_CLUB_MINUTES = 180

_G_FORM = re.compile(
    r"G/(?P<minutes>\d+(?:\.\d+)?)(?:(?:;\s*inc\s*|;\s*\+|\+)(?P<inc>\d+(?:\.\d+)?)"
    r"|(?:;\s*d\s*|d)(?P<delay>\d+(?:\.\d+)?))?",
    re.IGNORECASE,
)
_PLUS_FORM = re.compile(r"(?P<base>\d+)\+(?P<inc>\d+)")


def _club_minutes(base: int, increment: int) -> bool:
    """Whether ``base+increment`` means minutes (the rule in the module's docstring)."""
    if base < 60:
        return True
    return base <= MAX_CLUB_MINUTES and increment * 10 > base


def read_club_time(text: str, *, force: bool = False) -> TimeControl:
    """The time control `text` means; raises ConfigError saying what is wrong and how to fix it."""
    body = text.strip()
    try:
        g = _G_FORM.fullmatch(body)
        plus = _PLUS_FORM.fullmatch(body)
        if g is not None:
            inc = float(g.group("inc") or 0)
            delay = float(g.group("delay") or 0)
            control = TimeControl((Period(float(g.group("minutes")) * 60, None, inc, delay),))
        elif plus is not None:
            base, inc = int(plus.group("base")), int(plus.group("inc"))
            seconds = base * 60 if _club_minutes(base, inc) else base
            control = TimeControl((Period(float(seconds), None, float(inc)),))
        else:
            control = TimeControl.parse(body)
    except TimeControlError as exc:
        raise ConfigError.of(N_("--tc: {error}"), error=exc) from None
    if not force and not control.untimed and total_seconds(control) < MIN_GAME_S:
        raise ConfigError.of(
            N_(
                "--tc {text!r} gives {reading}: under a minute for the whole game. Bare numbers"
                " are seconds: write G/{minutes} for {duration}, or add --force-tc to play it"
                " as written."
            ),
            text=text,
            reading=Localized(lambda language: describe(control, language)),
            minutes=body if body.isdecimal() else 3,
            duration=_duration(60 * float(body) if body.isdecimal() else 180),
        )
    return control


def total_seconds(control: TimeControl) -> float:
    """FIDE A.1's T: every period's time plus 60 times its increment or delay."""
    return sum(p.seconds + 60 * (p.increment + p.delay + p.bronstein) for p in control.periods)


def _duration(seconds: float) -> str:
    """``3 min``, ``1 h 30 min``, ``45 s``, ``1 min 30 s``."""
    if seconds < 60 or not float(seconds).is_integer():
        if seconds >= 60:
            whole = int(seconds // 60)
            return f"{whole} min {_format_number(seconds - 60 * whole)} s"
        return f"{_format_number(seconds)} s"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    parts = ([f"{hours} h"] if hours else []) + ([f"{minutes} min"] if minutes else [])
    parts += [f"{secs} s"] if secs else []
    return " ".join(parts)


def _period_words(period: Period, language: str) -> str:
    def _(message: str) -> str:
        return gettext(message, language)

    text = _duration(period.seconds)
    if period.moves is not None:
        text = _(FOR_MOVES).format(duration=text, moves=period.moves)
    if period.increment:
        text += _(FISCHER).format(seconds=_format_number(period.increment))
    if period.delay:
        text += _(US_DELAY).format(seconds=_format_number(period.delay))
    if period.bronstein:
        text += _(BRONSTEIN).format(seconds=_format_number(period.bronstein))
    if period.move_cap is not None:
        text += _(MOVE_CAP).format(duration=_duration(period.move_cap))
    return text


def describe(control: TimeControl, language: str = "en") -> str:
    """The control in words: ``3 min + 2 s per move, Fischer``; ``no clock`` (in `language`;
    the units h, min, s are the same in every language we speak)."""

    def _(message: str) -> str:
        return gettext(message, language)

    if control.untimed:
        return _(NO_CLOCK)
    if control.hourglass:
        return _(HOURGLASS).format(duration=_duration(control.periods[0].seconds))
    words = [_period_words(p, language) for p in control.periods]
    last = control.periods[-1]
    if len(words) > 1 or last.moves is not None:
        tail = _(REPEATING) if last.moves is not None else _(REST_OF_GAME)
        return _(THEN).join(words) + tail
    return words[0]
