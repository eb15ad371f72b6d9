"""The command line in the user's language: `--help` of every command and argparse's own
words ("usage:", "the following arguments are required: ...").

The help texts are the English strings the command modules give argparse (`help=`,
`description=`, group titles). Marking each of them would touch every option of every
command, so they are translated where the parser is built instead: `translate_parser` walks
a built parser and replaces each text by its translation in the `help` catalogue
(`arbiter/locale/LANG/LC_MESSAGES/help.mo`). The template of that catalogue is made by
walking every command's parser (`arbiter.cli.help_template`),
and `tests/i18n/test_cli_language.py` fails when a help text has no translation.

Argparse's own words come from `gettext.gettext` in the `argparse` module, read when a
parser is built and when it reports an error; `use_language` points those two names at the
`help` catalogue for this process (the `arbiter` command is one process, one language).

The language of `--help` is decided before argparse runs (it prints the help while parsing):
`--lang X` (or `--lang=X`) anywhere on the command line, else the environment; a rule
profile's language is not known yet at that point.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from rules.i18n import choose_language, language_of, translations

__all__ = [
    "ARGPARSE_PLURALS",
    "ARGPARSE_WORDS",
    "DOMAIN",
    "argv_error",
    "help_texts",
    "language_of_argv",
    "translate_parser",
    "use_language",
]

DOMAIN = "help"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: what argparse says to a user (Python 3.11-3.13), with its own %-placeholders
ARGPARSE_WORDS: tuple[str, ...] = (
    "usage: ",
    "positional arguments",
    "options",
    "show this help message and exit",
    "%(prog)s: error: %(message)s\n",
    "argument %(argument_name)s: %(message)s",
    "the following arguments are required: %s",
    "unrecognized arguments: %s",
    "expected one argument",
    "expected at most one argument",
    "expected at least one argument",
    "invalid choice: %(value)r (choose from %(choices)s)",
    "invalid %(type)s value: %(value)r",
    "ambiguous option: %(option)s could match %(matches)s",
    "not allowed with argument %s",
    "one of the arguments %s is required",
    "ignored explicit argument %r",
    "can't open '%(filename)s': %(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)",
)
#: argparse's words with plural forms: (singular, plural)
ARGPARSE_PLURALS: tuple[tuple[str, str], ...] = (("expected %s argument", "expected %s arguments"),)


def language_of_argv(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of the command line's own words: `--lang` in `argv`, else the
    environment's, else English. An unknown `--lang` gives the environment's here; the
    command then reports it as an error."""
    requested = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            requested = argv[i + 1]
        elif arg.startswith("--lang="):
            requested = arg.split("=", 1)[1]
    if requested is not None and language_of(requested) is None:
        requested = None
    return choose_language(requested, os.environ if environ is None else environ)


#: the language argparse speaks in this process (`use_language`)
_argv_language = "en"


def use_language(language: str) -> None:
    """Make argparse speak `language` in this process (English: its own words)."""
    global _argv_language
    _argv_language = language
    catalogue = translations(language, DOMAIN, str(LOCALE_DIR))
    argparse._ = catalogue.gettext  # type: ignore[attr-defined]
    argparse.ngettext = catalogue.ngettext  # type: ignore[attr-defined]


def argv_error(exc: BaseException) -> str:
    """An error of an option's value (argparse's `type=`), in the language argparse speaks:
    `--lang` is not read yet when the values are (`arbiter.i18n.error_text`)."""
    from arbiter.i18n import error_text

    return error_text(exc, _argv_language)


def translate_parser(parser: argparse.ArgumentParser, language: str) -> None:
    """Replace every help text of `parser` and its sub-commands by its `language` text."""
    if language == "en":
        return
    say = translations(language, DOMAIN, str(LOCALE_DIR)).gettext
    for owner, attribute, text in _texts(parser):
        setattr(owner, attribute, say(text))


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every help text of `parser` and its sub-commands, once each, in order of appearance."""
    return list(dict.fromkeys(text for _, _, text in _texts(parser)))


def _texts(parser: argparse.ArgumentParser) -> Iterator[tuple[object, str, str]]:
    """(object, attribute, English text) of each help text in `parser`, sub-commands too."""
    if parser.description:
        yield parser, "description", parser.description
    for group in parser._action_groups:
        if group.title and group.title not in ("positional arguments", "options"):
            yield group, "title", group.title
        if group.description:
            yield group, "description", group.description
    for action in parser._actions:
        if (
            action.help
            and action.help is not argparse.SUPPRESS
            and not isinstance(action, argparse._HelpAction)
        ):
            yield action, "help", action.help
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    yield choice, "help", choice.help
            for sub in dict.fromkeys(action.choices.values()):
                yield from _texts(sub)
