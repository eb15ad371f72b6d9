"""The message catalogue: which languages the arbiter speaks, and their translations.

Translations are GNU gettext catalogues compiled to `.mo` files that ship inside the package
(`rules/locale/LANG/LC_MESSAGES/rules.mo`), read with the standard library's `gettext` only;
Babel is needed only to extract the messages and compile the catalogues (docs/languages.md).
The English text of a message is its id, so English needs no catalogue, and a message some
catalogue lacks falls back to English instead of failing.

Choosing the language is pure: `choose_language` takes what the command line asked for, the
environment as a mapping (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and the language of the game's
rule profile, and never reads `os.environ` itself.

The markers `N_`, `Nn_` and `Np_` only mark a string for extraction (Babel keywords
`N_`, `Nn_:1,2`, `Np_:1c,2`); the lookup happens when the message is made.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import LanguageError

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "Counted",
    "Joined",
    "Listed",
    "Nn_",
    "Np_",
    "Numeral",
    "Word",
    "choose_language",
    "language_from_env",
    "language_of",
    "localized",
    "number",
    "translations",
]

#: the catalogue's domain: the file name of the compiled catalogues (`rules.mo`)
DOMAIN = "rules"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")

#: the languages of the arbiter, by code, with their names in their own language. Serbian is
#: written in the Latin script, as the Serbian rule text our users print (`sr_RS.UTF-8` and
#: `sr_RS@latin` both choose it); `sr_Cyrl` is the same Serbian in Cyrillic (`sr-Cyrl`,
#: `sr@cyrillic`), transliterated from the Latin catalogue; Macedonian is in Cyrillic.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "sr": "srpski",
    "bs": "bosanski",
    "mk": "македонски",
    "cs": "čeština",
    "pl": "polski",
    "sr_Cyrl": "српски",
}

#: the environment variables that name the user's language, in the order gettext reads them
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: locale names that say "no language chosen" (the C locale)
_NO_LANGUAGE = frozenset({"", "c", "posix"})


class Word(str):
    """A word that fills an error message and is itself a catalogue message id (`N_`), so
    that it is said in the reader's language with the message (`arbiter.i18n.error_text`);
    as a `str` it is the English word."""

    __slots__ = ()


class Joined(tuple[object, ...]):
    """Several fields of one error message said one after the other (`"; "` between them):
    each said in the reader's language as a field is (`arbiter.i18n.error_text`); formatted
    as it stands, the English."""

    __slots__ = ()

    SEPARATOR = "; "

    def __format__(self, spec: str) -> str:
        return format(self.SEPARATOR.join(str(item) for item in self), spec)

    def __str__(self) -> str:
        return self.SEPARATOR.join(str(item) for item in self)


class Listed(Joined):
    """Words in a list (`no white king, too many kings`): `", "` between them."""

    __slots__ = ()

    SEPARATOR = ", "


class Counted:
    """A counted phrase that fills an error message (`2 boards`), its forms marked with
    `Nn_`: said in the reader's language in the plural form its number takes
    (`arbiter.i18n.error_text`); formatted as it stands, the English."""

    __slots__ = ("count", "forms")

    def __init__(self, forms: tuple[str, str, str], count: int) -> None:
        self.forms = forms
        self.count = count

    def said(self, ngettext: Callable[[str, str, int], str]) -> str:
        """The phrase in the language of `ngettext` (a catalogue's)."""
        singular, plural, name = self.forms
        return ngettext(singular, plural, self.count).format(**{name: self.count})

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __str__(self) -> str:
        singular, plural, name = self.forms
        return (singular if self.count == 1 else plural).format(**{name: self.count})


#: the decimal separator and the digit group separator of each language that writes a
#: decimal comma (CLDR: sr, bs and mk group with a point, cs and pl with a no-break space);
#: English writes Python's point, and any language not listed does too
SEPARATORS: dict[str, tuple[str, str]] = {
    "sr": (",", "."),
    "sr_Cyrl": (",", "."),
    "bs": (",", "."),
    "mk": (",", "."),
    "cs": (",", "\u00a0"),
    "pl": (",", "\u00a0"),
}


def number(value: float | int | Decimal, language: str, spec: str = "") -> str:
    """`value` formatted by `spec` (`"g"`, `".1f"`, `"8.2f"`, as `format` reads it) as a reader
    of `language` writes it: `2,5` in sr, bs, mk, cs and pl, `2.5` in English.

    The one place where a number a person reads gets the separators of their language: the
    rulings' sentences, the errors, the display, the hall's lines. Machine outputs (JSON,
    the journal, PGN tags, the contract's fields, a value to type again) never call it.
    """
    text = format(value, spec)
    separators = SEPARATORS.get(language)
    if separators is None:
        return text
    decimal, group = separators
    return text.translate({ord("."): decimal, ord(","): group})


class Numeral:
    """A number that fills a template in `language` (`"{seconds:g} s".format_map(...)`):
    formatted by `number`, `!s` and `!r` give it as Python writes it (a value quoted as
    typed). `str.format_map` stays in C: a `string.Formatter` made every sentence in these
    languages about ten times slower."""

    __slots__ = ("language", "value")

    def __init__(self, value: float | int | Decimal, language: str) -> None:
        self.value = value
        self.language = language

    def __format__(self, spec: str) -> str:
        return number(self.value, self.language, spec)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return repr(self.value)


def localized(fields: Mapping[str, Any], language: str) -> dict[str, Any]:
    """`fields` with each number (not a bool) made a `Numeral` of `language`; in a language
    that writes a point (English) the fields as they are."""
    if language not in SEPARATORS:
        return dict(fields)
    return {
        name: Numeral(value, language)
        if isinstance(value, int | float | Decimal) and not isinstance(value, bool)
        else value
        for name, value in fields.items()
    }


def N_(message: str) -> str:
    """Mark `message` for extraction; it is translated where it is used."""
    return message


def Nn_(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Mark a message with plural forms; `count` names the field that chooses the form."""
    return singular, plural, count


def Np_(context: str, message: str) -> tuple[str, str]:
    """Mark a short `message` whose meaning depends on `context` (a piece letter, a side)."""
    return context, message


def language_of(tag: str) -> str | None:
    """The arbiter's language for a locale name or language tag, or None if it has none.

    `sr_RS.UTF-8`, `sr@latin`, `sr-Latn-RS` -> `sr`; `sr-Cyrl`, `sr_RS@cyrillic` ->
    `sr_Cyrl`; `pl_PL.UTF-8` -> `pl`; `C` -> None.
    """
    text = tag.strip().lower()
    base = text.split(".")[0].split("@")[0].replace("-", "_").split("_")[0]
    if base == "sr" and ("cyrl" in text or "@cyrillic" in text):
        return "sr_Cyrl"
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str]) -> str | None:
    """The language the environment asks for, as gettext reads it, or None if it asks none.

    LANGUAGE may list several (`sr:bs:en`): the first we have is taken. Then the first of
    LC_ALL, LC_MESSAGES and LANG that is set decides (POSIX): a language we lack gives
    English, the C locale gives None (no choice made, so the profile's language applies).
    """
    for item in environ.get("LANGUAGE", "").split(":"):
        found = language_of(item)
        if found is not None:
            return found
    for name in ENV_VARS[1:]:
        value = environ.get(name, "")
        if not value:
            continue
        if value.split(".")[0].lower() in _NO_LANGUAGE:
            return None
        return language_of(value) or "en"
    return None


def choose_language(
    requested: str | None,
    environ: Mapping[str, str] | None = None,
    profile_language: str | None = None,
) -> str:
    """The language to speak: `--lang`, else the environment's, else the profile's, else English.

    Raises `LanguageError` when `requested` names a language the arbiter does not speak.
    """
    if requested is not None:
        found = language_of(requested)
        if found is None:
            known = ", ".join(LANGUAGES)
            raise LanguageError.of(
                N_("unknown language {requested!r}; known languages: {known}"),
                requested=requested,
                known=known,
            )
        return found
    from_env = language_from_env(environ or {})
    if from_env is not None:
        return from_env
    if profile_language in LANGUAGES:
        return str(profile_language)
    return "en"


@cache
def translations(
    language: str, domain: str = DOMAIN, localedir: str = str(LOCALE_DIR)
) -> gettext.NullTranslations:
    """The compiled catalogue of `language` in `domain` (read once; English needs none).

    A catalogue that is missing or unreadable gives English rather than an error: a ruling
    must always have a sentence.
    """
    if language == "en":
        return gettext.NullTranslations()
    path = Path(localedir) / language / "LC_MESSAGES" / f"{domain}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except (OSError, ValueError):  # ValueError: gettext's "bad magic number" and the like
        return gettext.NullTranslations()
