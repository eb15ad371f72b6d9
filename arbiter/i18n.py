"""The language of the `arbiter` command, and the catalogue of its own words.

The rulings' sentences are in the rules core's catalogue (`rules.messages`, `rules.i18n`);
the words of the program around them (the display's headings, the ruling types in a line,
the demo's last lines, the common error messages) are in this package's catalogue, domain
`arbiter` (`arbiter/locale/LANG/LC_MESSAGES/arbiter.mo`).

Which language: `--lang` (every command has it; `request` keeps it for the run), else the
environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else the language of the game's rule
profile (`bs`, `pl`, `cs`), else English. `language_for(rules)` says which, once the game's
profile is known.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from rules.errors import ArbiterError, EventError, ProfileError
from rules.i18n import DOMAIN as RULES_DOMAIN
from rules.i18n import N_, Np_, Word, choose_language, translations
from rules.profiles import get_profile

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "Localized",
    "error_text",
    "gettext",
    "language_for",
    "request",
    "requested",
    "type_label",
]

DOMAIN = "arbiter"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")

_requested: str | None = None


def request(language: str | None) -> None:
    """Keep the `--lang` of this run (None: not given). Raises `LanguageError` if unknown."""
    global _requested
    _requested = None if language is None else choose_language(language)


def requested() -> str | None:
    """The language `--lang` asked for, or None."""
    return _requested


def language_for(rules: str | None = None) -> str:
    """The language to speak for a game under the profile `rules` (see the module docstring)."""
    try:
        profile_language = get_profile(rules).language
    except ProfileError:
        profile_language = None  # the game itself will say the profile is unknown
    return choose_language(_requested, os.environ, profile_language)


def gettext(message: str, language: str) -> str:
    """`message` (an English text marked with `N_`) in `language`."""
    return translations(language, DOMAIN, str(LOCALE_DIR)).gettext(message)


#: the ruling types as a line of the display or of `arbiter replay` labels them
TYPE_LABELS: dict[str, tuple[str, str]] = {
    "move": Np_("ruling type", "move"),
    "obligation": Np_("ruling type", "obligation"),
    "violation": Np_("ruling type", "violation"),
    "illegal": Np_("ruling type", "illegal"),
    "reinstate": Np_("ruling type", "reinstate"),
    "penalty": Np_("ruling type", "penalty"),
    "mismatch": Np_("ruling type", "mismatch"),
    "claim": Np_("ruling type", "claim"),
    "clock": Np_("ruling type", "clock"),
    "flag": Np_("ruling type", "flag"),
    "draw_offer": Np_("ruling type", "draw_offer"),
    "game_over": Np_("ruling type", "game_over"),
    "note": Np_("ruling type", "note"),
}


def type_label(ruling_type: str, language: str) -> str:
    """The label of a ruling type in `language` (English: the contract's own name)."""
    named = TYPE_LABELS.get(ruling_type)
    if named is None:
        return ruling_type
    return translations(language, DOMAIN, str(LOCALE_DIR)).pgettext(*named)


def error_text(exc: BaseException, language: str) -> str:
    """The message of an error of ours in `language`, where it was raised with a template
    (`ArbiterError.of`); any other error's message as it is (English)."""
    if isinstance(exc, EventError) and exc.line is not None:
        fault = _own_text(exc, language) if exc.template is not None else exc.reason
        return gettext(AT_LINE, language).format(line=exc.line, fault=fault)
    if not isinstance(exc, ArbiterError) or exc.template is None:
        return str(exc)
    return _own_text(exc, language)


def _own_text(exc: ArbiterError, language: str) -> str:
    """The template of `exc` (raised with `ArbiterError.of`) in `language`, filled."""
    assert exc.template is not None
    template = translations(language, DOMAIN, str(LOCALE_DIR)).gettext(exc.template)
    if template == exc.template:  # raised in the rules core: its catalogue has it
        template = translations(language, RULES_DOMAIN).gettext(exc.template)
    fields = {name: _field_text(value, language) for name, value in exc.fields.items()}
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return str(exc).removeprefix(f"line {getattr(exc, 'line', None)}: ")


class Said(str):
    """A warning or a message in English (as a `str`) that keeps the error of ours it says,
    so that the command can say it in the user's language (`text_in`)."""

    error: BaseException

    def __new__(cls, error: BaseException) -> Said:
        said = super().__new__(cls, str(error))
        said.error = error
        return said

    def text_in(self, language: str) -> str:
        return error_text(self.error, language)


def said_in(text: str, language: str) -> str:
    """`text` in `language` when it is `Said`, else as it is."""
    return text.text_in(language) if isinstance(text, Said) else text


#: a warning of a command (`arbiter replay: warning: ...`)
WARNING = N_("warning: {message}")


class Localized:
    """A field of an error message said in the reader's language: `say(language)` makes it;
    formatted as it stands (the error's English message), it is the English."""

    def __init__(self, say: Callable[[str], str]) -> None:
        self.say = say

    def __format__(self, spec: str) -> str:
        return format(self.say("en"), spec)

    def __str__(self) -> str:
        return self.say("en")


def _field_text(value: object, language: str) -> object:
    """A field of an error message in `language`: an error of ours inside an error (`--tc:
    {error}`) in its own words, a `Localized` value said in `language`; others as they are."""
    if isinstance(value, Localized):
        return value.say(language)
    if isinstance(value, Word):  # a word of the rules' catalogue ("increment")
        return translations(language).gettext(value)
    if isinstance(value, ArbiterError):
        return error_text(value, language)
    return value


#: the errors `firmware_bridge` raises with templates (`firmware_bridge.transport`), marked
#: here so that this catalogue says them (tests/i18n checks the two lists agree)
DEVICE_ERRORS = (
    N_("cannot open the board's port {url}: there is no such device"),
    N_(
        "cannot open the board's port {url}: permission denied"
        " (the user must be in the 'dialout' group)"
    ),
    N_("cannot open the board's port {url}: another program is using it"),
    N_("cannot open the board's port {url}: {reason}"),
    N_("reading the board on {device} failed: {reason}"),
)

#: the errors `vision` raises with templates (`vision.sources`, `vision.calibration`)
VISION_ERRORS = (
    N_("camera {index}: cannot open it (is it connected and free?)"),
    N_("camera {index}: no frame (disconnected?)"),
    N_("{path}: no such video file"),
    N_("{path}: cannot read this video (unknown format?)"),
    N_("{where}: not an OTB Arbiter vision calibration"),
    N_(
        "{where}: calibration version {version!r}, this one reads {reads}: recalibrate"
        " (arbiter calibrate)"
    ),
    N_("{where}: the calibration lacks {field}"),
    N_("{path}: not valid JSON ({reason}, line {line})"),
)
#: a file the system cannot open, by the error number (the system's own words otherwise)
FILE_ERRORS = {
    errno.ENOENT: N_("{path}: no such file"),
    errno.EACCES: N_("{path}: permission denied"),
    errno.EISDIR: N_("{path}: is a folder"),
}

#: the program's frames around an error (`arbiter COMMAND: ...`)
INTERRUPTED = N_("interrupted")
#: a malformed event, by the line of its stream (`EventError.line`)
AT_LINE = N_("line {line}: {fault}")


# ---------------------------------------------------------------- a live game's own lines

#: the title line of a live game (`arbiter play`, `resume`, `demo`)
TITLE_SIDES = (Np_("title", "White"), Np_("title", "Black"))
VERSUS = N_("{white} v {black}")
NO_CLOCK = N_("no clock")
STRICT = N_("strict")
#: the end of `arbiter play` / `arbiter resume`
GAME_OVER = N_("game over: {result} ({reason})")
STOPPED = N_("stopped; the game goes on with `arbiter resume`")
JOURNAL_AT = N_("journal: {path}")
PGN_AT = N_("PGN: {path}")
HALL_PAGE_AT = N_("the hall's page: {url}   (the arbiter's token: {token})")
LIVECHESS_FEED_AT = N_("LiveChess feed for relays (WebSocket): {url}")
#: how `--tc` was read, printed before the game
TIME_CONTROL_READ = N_("time control: {reading} ({standard})")
#: the keys line of a live game at the keyboard: `arbiter.inputs.base.KEYS_HELP` in English
KEYS_LINE = N_(
    "keys: space press  p pause  c claim  t touch-move claim  o/a/d offer/accept/decline"
    "  w/b +60 s  :command (:resign)  q stop"
)
#: the line of typed commands (`arbiter.live.commands.COMMANDS_HELP`): the commands stay
TYPE_COMMANDS = N_("type: {commands}")


def game_title(
    white: str | None, black: str | None, control: str | None, extras: list[str], language: str
) -> str:
    """`Ana v Bojan   5400+30   fide-2023, strict`, in `language` (names as given)."""
    _ = translations(language, DOMAIN, str(LOCALE_DIR))
    names = _.gettext(VERSUS).format(
        white=white or _.pgettext(*TITLE_SIDES[0]), black=black or _.pgettext(*TITLE_SIDES[1])
    )
    said = [_.gettext(STRICT) if extra == "strict" else extra for extra in extras]
    return f"{names}   {control or _.gettext(NO_CLOCK)}   {', '.join(said)}"


def keys_line(language: str) -> str:
    """The keys of a live game at the keyboard, in `language`."""
    return gettext(KEYS_LINE, language)


def commands_line(commands_help: str, language: str) -> str:
    """The typed commands' line (`type: e2e4 | lift e2 | ...`) with its lead word in
    `language`; the commands are typed in English in every language."""
    return gettext(TYPE_COMMANDS, language).format(commands=commands_help.removeprefix("type: "))


def game_over_line(result: str, reason: str, language: str) -> str:
    """`game over: 1-0 (checkmate)` in `language`: the reason as the contract names it in
    English (`time`, `checkmate`), in the rules' words in the other languages."""
    from rules.messages import REASONS

    reason_text = reason
    if language != "en" and reason in REASONS:
        reason_text = translations(language).gettext(REASONS[reason])
    return gettext(GAME_OVER, language).format(result=result, reason=reason_text)
