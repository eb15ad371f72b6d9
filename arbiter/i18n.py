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

import os
from pathlib import Path

from rules.errors import ArbiterError, ProfileError
from rules.i18n import DOMAIN as RULES_DOMAIN
from rules.i18n import N_, Np_, choose_language, translations
from rules.profiles import get_profile

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
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
    if not isinstance(exc, ArbiterError) or exc.template is None:
        return str(exc)
    template = translations(language, DOMAIN, str(LOCALE_DIR)).gettext(exc.template)
    if template == exc.template:  # raised in the rules core: its catalogue has it
        template = translations(language, RULES_DOMAIN).gettext(exc.template)
    try:
        return template.format(**exc.fields)
    except (KeyError, IndexError, ValueError):
        return str(exc)


#: the program's frames around an error (`arbiter COMMAND: ...`)
INTERRUPTED = N_("interrupted")
