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
from rules.errors import TimeControlError
from rules.timecontrol import Period, TimeControl, _format_number

__all__ = ["MIN_GAME_S", "describe", "read_club_time"]

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
        raise ConfigError(f"--tc: {exc}") from None
    if not force and not control.untimed and total_seconds(control) < MIN_GAME_S:
        raise ConfigError(
            f"--tc {text!r} gives {describe(control)}: under a minute for the whole game. "
            f"Bare numbers are seconds: write G/{body if body.isdecimal() else 3} for "
            f"{_duration(60 * float(body) if body.isdecimal() else 180)}, or add --force-tc "
            "to play it as written."
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


def _period_words(period: Period) -> str:
    text = _duration(period.seconds)
    text += f" for {period.moves} moves" if period.moves is not None else ""
    if period.increment:
        text += f" + {_format_number(period.increment)} s per move, Fischer"
    if period.delay:
        text += f", {_format_number(period.delay)} s delay (US)"
    if period.bronstein:
        text += f", {_format_number(period.bronstein)} s Bronstein delay"
    if period.move_cap is not None:
        text += f", at most {_duration(period.move_cap)} a move"
    return text


def describe(control: TimeControl) -> str:
    """The control in words: ``3 min + 2 s per move, Fischer``; ``no clock``."""
    if control.untimed:
        return "no clock"
    if control.hourglass:
        return f"hourglass of {_duration(control.periods[0].seconds)}"
    words = [_period_words(p) for p in control.periods]
    last = control.periods[-1]
    if len(words) > 1 or last.moves is not None:
        tail = ", repeating" if last.moves is not None else " for the rest of the game"
        return "; then ".join(words) + tail
    return words[0]
