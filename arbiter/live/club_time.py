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
- In words, as tournament rules write it: ``90 min/40 moves + 30 min, 30 s per move``,
  ``40 moves in 90 min, then 30 min, 30 s increment``, ``1 h 30 min + 30 s/move``: periods of
  hours, minutes or seconds (``h``, ``min``, ``s`` and their long names), each perhaps for a
  number of moves, joined by ``+``, ``,``, ``;`` or ``then``; an increment of ``N s per move``
  (also ``/move``, ``a move``, ``increment``, ``inc``) is added at every move from the first
  (FIDE's standard control), and ``N s delay`` is a simple (US) delay. The words for moves,
  "per move" and "then" are also read in Serbian, Bosnian, Macedonian, Czech and Polish
  (``90 min/40 poteza + 30 min, 30 s po potezu``, ``90 min/40 tahů + 30 min, 30 s za tah``).
- Anything else is the contract's syntax in seconds, unchanged: ``300``, ``5400d5``,
  ``900m60``, ``*180``, ``40/5400+30:1800+30``, ``-``.

A control giving under 60 s in all (base plus 60 increments or delays, FIDE A.1's T) is
refused as a mistyping (``3`` is three seconds) unless forced; so is one giving a player more
than a day (``99999999999999999999`` is seconds too: a number typed with a slip).
"""

from __future__ import annotations

import re
from decimal import Decimal

from arbiter.errors import ConfigError
from arbiter.i18n import NO_CLOCK, Localized, gettext
from rules.errors import TimeControlError
from rules.i18n import N_, number
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
#: the most time (FIDE A.1's T) a control may give one player without --force-tc: a day
MAX_GAME_S = 24 * 3600.0
#: the longest base, in minutes, that ``B+I`` may be read as minutes
MAX_CLUB_MINUTES = 180

_G_FORM = re.compile(
    r"G/(?P<minutes>\d+(?:\.\d+)?)(?:(?:;\s*inc\s*|;\s*\+|\+)(?P<inc>\d+(?:\.\d+)?)"
    r"|(?:;\s*d\s*|d)(?P<delay>\d+(?:\.\d+)?))?",
    re.IGNORECASE,
)
_PLUS_FORM = re.compile(r"(?P<base>\d+)\+(?P<inc>\d+)")

_NUM = r"\d+(?:[.,]\d+)?"
#: one amount of time in words: ``90 min``, ``1 h 30 min``, ``1.5 hours``, ``30 s``
_UNITS = {
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "'": 60,
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    '"': 1,
    "ч": 3600,
    "час": 3600,
    "мин": 60,
    "с": 1,
    "сек": 1,
}
#: the long names in our users' languages (sr/bs, mk, cs, pl), read as the short ones
_LONG_UNITS = {
    3600: ("sata", "sati", "sat", "hodiny", "hodin", "hodina", "godziny", "godzin", "godzina",
           "часа", "часови"),
    60: ("minuta", "minute", "minuty", "minut", "минути", "минута"),
    1: ("sekundi", "sekunde", "sekundy", "sekund", "секунди", "секунда"),
}  # fmt: skip
_UNITS.update({word: n for n, words in _LONG_UNITS.items() for word in words})
_UNIT = "(?:" + "|".join(re.escape(word) for word in sorted(_UNITS, key=len, reverse=True)) + ")"
_SECONDS = (
    "(?:"
    + "|".join(re.escape(w) for w, n in sorted(_UNITS.items(), key=lambda i: -len(i[0])) if n == 1)
    + ")"
)
_AMOUNT = re.compile(rf"({_NUM})\s*({_UNIT})(?![^\W\d_])", re.IGNORECASE)
_DURATION = rf"(?:{_NUM}\s*{_UNIT}(?![^\W\d_])\s*)+"
#: "moves" in our users' languages too: sr/bs poteza, mk потези, cs tahů, pl ruchów
_MOVE_WORD = (
    r"(?:moves?|mv|potez[aei]?|потез[аи]?|потег[аи]?|tah[ůuy]?|ruch(?:ów|y)?|posunię(?:ć|cia))"
)
_MOVES = r"(?P<{name}>\d+)\s*" + _MOVE_WORD
_WORDED_PERIOD = re.compile(
    rf"(?:{_MOVES.format(name='before')}\s*(?:in|/|:|za|за|во|v|w)\s*)?"
    rf"(?P<duration>{_DURATION})"
    rf"(?:\s*(?:/|for|in|za|за|na|на)\s*{_MOVES.format(name='after')})?",
    re.IGNORECASE,
)
_WORDED_EXTRA = re.compile(
    rf"(?:^|[,;+]|\band\b|\bwith\b)\s*(?:\+\s*)?(?P<amount>{_NUM})\s*{_SECONDS}"
    r"\s*(?:(?P<inc>per move|a move|each move|/\s*move|increment|inc\.?|bonus"
    r"|po potezu|по потез[уи]|по потег|za tah|na tah|za ruch|na ruch|inkrement|przyrost)"
    r"|(?P<delay>delay))(?:\s*(?:from|starting (?:at|from)) move\s*(?:1|one))?\s*$",
    re.IGNORECASE,
)
#: ``5 min + 3 s``: seconds added after a period in minutes or hours are an increment
_PLUS_SECONDS = re.compile(rf"\+\s*(?P<amount>{_NUM})\s*{_SECONDS}\s*$", re.IGNORECASE)
_THEN = r"(?:then|zatim|potom|затим|потоа|pak|potem|następnie)"
_WORDED_JOIN = re.compile(rf"\s*(?:\+|,|;|\b{_THEN}\b|\band\b)\s*(?:{_THEN}\s*)?", re.IGNORECASE)


#: a word in `--tc` (not the contract's one-letter marks d, b, m): the text meant words
_WORDS = re.compile(r"[^\W\d_]{2,}")
UNREAD_WORDS = N_(
    "--tc {text!r}: these words cannot be read as a time control. Write it as, for example,"
    " '90 min/40 moves + 30 min, 30 s per move', '3+2', 'G/90;inc30' or '40/5400+30:1800+30'."
)


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _seconds_of(duration: str) -> float:
    return sum(_number(n) * _UNITS[u.lower()] for n, u in _AMOUNT.findall(duration))


def read_worded(text: str) -> TimeControl | None:
    """A control written in words (the module's docstring), or None when `text` is not one.

    ``90 min/40 moves + 30 min, 30 s per move`` is FIDE's standard control (40/5400+30:1800+30):
    the increment, said once at the end, is added at every move of every period.
    """
    body = text.strip().rstrip(".")
    if _AMOUNT.search(body) is None:
        return None
    increment = delay = 0.0
    extra = _WORDED_EXTRA.search(body)
    if extra is not None:
        amount = _number(extra.group("amount"))
        if extra.group("delay"):
            delay = amount
        else:
            increment = amount
        body = body[: extra.start()].strip()
    else:
        plus = _PLUS_SECONDS.search(body)
        if plus is not None:
            increment = _number(plus.group("amount"))
            body = body[: plus.start()].strip()
    parts = [part for part in _WORDED_JOIN.split(body) if part]
    if not parts:
        return None
    periods = []
    for part in parts:
        match = _WORDED_PERIOD.fullmatch(part.strip())
        if match is None:
            return None
        moves = match.group("before") or match.group("after")
        periods.append(
            Period(
                _seconds_of(match.group("duration")),
                int(moves) if moves else None,
                increment,
                delay,
            )
        )
    return TimeControl(tuple(periods))


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
            # float of the text, not of the int: a number of 400 digits is inf, which the
            # period refuses, not an OverflowError
            seconds = float(plus.group("base")) * (60 if _club_minutes(base, inc) else 1)
            control = TimeControl((Period(seconds, None, float(plus.group("inc"))),))
        else:
            worded = read_worded(body)
            control = worded if worded is not None else TimeControl.parse(body)
    except TimeControlError as exc:
        if _WORDS.search(body):
            raise ConfigError.of(UNREAD_WORDS, text=text) from None
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
    if not force and not control.untimed and total_seconds(control) > MAX_GAME_S:
        raise ConfigError.of(
            N_(
                "--tc {text!r} gives {reading}: more than a day for one player. Check the"
                " number (a bare number is seconds), or add --force-tc to play it as written."
            ),
            text=text,
            reading=Localized(lambda language: describe(control, language)),
        )
    return control


def total_seconds(control: TimeControl) -> float:
    """FIDE A.1's T: every period's time plus 60 times its increment or delay."""
    return sum(p.seconds + 60 * (p.increment + p.delay + p.bronstein) for p in control.periods)


def _seconds(value: float, language: str) -> str:
    """Seconds as the syntax writes them (``300``, ``0.5``), with the decimal separator of
    `language` (``0,5``): the words of the reading, not the `--tc` syntax in brackets."""
    return number(Decimal(_format_number(value)), language)


def _duration(seconds: float, language: str = "en") -> str:
    """``3 min``, ``1 h 30 min``, ``45 s``, ``1 min 30 s`` (``2,5 s`` in `language`)."""
    if seconds < 60 or not float(seconds).is_integer():
        if seconds >= 60:
            whole = int(seconds // 60)
            return f"{whole} min {_seconds(seconds - 60 * whole, language)} s"
        return f"{_seconds(seconds, language)} s"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    parts = ([f"{hours} h"] if hours else []) + ([f"{minutes} min"] if minutes else [])
    parts += [f"{secs} s"] if secs else []
    return " ".join(parts)


def _period_words(period: Period, language: str) -> str:
    def _(message: str) -> str:
        return gettext(message, language)

    text = _duration(period.seconds, language)
    if period.moves is not None:
        text = _(FOR_MOVES).format(duration=text, moves=period.moves)
    if period.increment:
        text += _(FISCHER).format(seconds=_seconds(period.increment, language))
    if period.delay:
        text += _(US_DELAY).format(seconds=_seconds(period.delay, language))
    if period.bronstein:
        text += _(BRONSTEIN).format(seconds=_seconds(period.bronstein, language))
    if period.move_cap is not None:
        text += _(MOVE_CAP).format(duration=_duration(period.move_cap, language))
    return text


def describe(control: TimeControl, language: str = "en") -> str:
    """The control in words: ``3 min + 2 s per move, Fischer``; ``no clock`` (in `language`;
    the units h, min, s are the same in every language we speak)."""

    def _(message: str) -> str:
        return gettext(message, language)

    if control.untimed:
        return _(NO_CLOCK)
    if control.hourglass:
        return _(HOURGLASS).format(duration=_duration(control.periods[0].seconds, language))
    words = [_period_words(p, language) for p in control.periods]
    last = control.periods[-1]
    if len(words) > 1 or last.moves is not None:
        tail = _(REPEATING) if last.moves is not None else _(REST_OF_GAME)
        return _(THEN).join(words) + tail
    return words[0]
