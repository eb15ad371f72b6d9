"""The command line in each language: `--help` of every command and argparse's own words
(usage, options, its errors) come from the `help` catalogue, which holds every help text of
every command; in sr, bs, mk, cs, pl and sr_Cyrl no English word is left in them beyond the
names a user types (option names, metavariables, choice values, programs and formats)."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest
from babel.messages.pofile import read_po
from catalogue_files import ROOT, messages, msgid

from arbiter.cli import COMMANDS, main
from arbiter.cli.help_template import all_commands_parser
from arbiter.cli.localize import ARGPARSE_PLURALS, ARGPARSE_WORDS, help_texts
from rules.i18n import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]
LOCALE = ROOT / "arbiter" / "locale"
#: words a user types or names of things, which every language keeps as they are
NAMES = {
    # choice values and typed words
    "auto", "full", "plain", "rpi", "fake", "none", "now", "left", "right", "standard",
    "rapid", "blitz", "identity", "occupancy", "snapshot", "colour", "start", "picam", "lift",
    "place", "claim", "resign", "matrix", "sim", "null", "file", "int", "float", "pick",
    "black", "press", "white", "move",
    # boards, programs, formats and protocols
    "dgt", "millennium", "certabo", "sentio", "chessnut", "revelation", "pegasus", "gpio",
    "fide", "pgn", "json", "lines", "toml", "mqtt", "livechess", "espeak", "bluetooth", "arbiter",
    "demo", "play", "resume", "replay", "simulate", "position", "decode", "calibrate", "boards",
    "teach", "hall", "stdin", "stdout", "ctrl", "raspberry", "picamera", "trf", "csv", "png",
    "rfid", "led", "leds", "usb", "reed", "host", "elo", "event", "site", "round", "board",
    "whiteelo", "blackelo", "whitefideid", "blackfideid", "docs", "config", "live", "hidraw",
    "ttyusb", "ttyacm", "dev", "address", "device", "protocol", "games", "localhost", "summary",
    "jsonl",
    # the same word in English and in one of the languages
    "argument", "argumenty", "port", "video", "logo", "broker", "token", "tempo", "bajt",
    "bajty", "pat", "min", "radio", "web", "minute", "folder",
}  # fmt: skip


def _english_words() -> set[str]:
    texts = [*ARGPARSE_WORDS, *[w for pair in ARGPARSE_PLURALS for w in pair]]
    texts += help_texts(all_commands_parser())
    words: set[str] = set()
    for text in texts:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) >= 3)
    return words - NAMES


@pytest.fixture(scope="module")
def english() -> set[str]:
    return _english_words()


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's --help and its errors
            code = int(exc.code or 0)
    return code, out.getvalue() + err.getvalue()


def _words_left(text: str) -> list[str]:
    """The words of `text` that are not names a user types: option names, metavariables
    (upper case), choices ({a,b}), paths, addresses and examples are taken out."""
    text = re.sub(r"`[^`]*`|\{[^}]*\}|'[^']*'", " ", text)
    text = re.sub(r"(?<![\w])--?[\w-]+", " ", text)
    text = re.sub(r"\S*[/:=.@_]\S*", " ", text)  # paths, URLs, key=value, file names
    words = re.findall(r"[^\W\d_]+", text)
    return [w for w in words if not w.isupper()]


def _english_in(text: str, english: set[str]) -> list[str]:
    return sorted({w for w in _words_left(text) if w.lower() in english})


def test_the_template_holds_every_help_text() -> None:
    with (LOCALE / "help.pot").open("rb") as f:
        pot = {msgid(m) for m in messages(read_po(f))}
    wanted = set(help_texts(all_commands_parser())) | set(ARGPARSE_WORDS)
    wanted |= {singular for singular, _ in ARGPARSE_PLURALS}
    assert wanted - pot == set(), (
        "run: python -m arbiter.cli.help_template > arbiter/locale/help.pot"
    )
    assert pot - wanted == set(), "help.pot has texts no command has any more"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_help_text_is_translated(language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "help.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    wanted = set(help_texts(all_commands_parser())) | set(ARGPARSE_WORDS)
    have = {msgid(m): m for m in messages(catalog)}
    assert wanted - set(have) == set(), f"{language}: help.po lacks these"
    for m in have.values():
        forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        assert all(forms) and not m.fuzzy, f"{language}: {msgid(m)!r} is not translated"
        english = m.id if isinstance(m.id, tuple | list) else [m.id]
        placeholders = sorted(re.findall(r"%(?:\(\w+\))?[sr]", english[-1]))
        for form in forms:
            assert sorted(re.findall(r"%(?:\(\w+\))?[sr]", form)) == placeholders, form
            assert form.count("%") == english[-1].count("%"), form
    print(f"{language} help: {len(have)} messages, 100 % translated")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_help_catalogue_is_that_of_the_po(language: str) -> None:
    import gettext

    folder = LOCALE / language / "LC_MESSAGES"
    with (folder / "help.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    with (folder / "help.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    for m in messages(catalog):
        if isinstance(m.id, tuple | list):
            assert mo.ngettext(m.id[0], m.id[1], 1) == m.string[0]
        else:
            assert mo.gettext(m.id) == m.string, m.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_help_of_every_command_has_no_english_left(language: str, english: set[str]) -> None:
    pages = {"arbiter": _run(["--lang", language, "--help"])}
    for command in COMMANDS:
        pages[command] = _run([command, "--help", "--lang", language])
    for command, (code, text) in pages.items():
        assert code == 0, (command, text)
        assert _english_in(text, english) == [], f"{language} `{command} --help`:\n{text}"
    english_usage = _run(["replay", "--help"])[1]
    assert english_usage.startswith("usage: ")
    assert not pages["replay"][1].startswith("usage: ")


#: command lines argparse refuses, each with one of its own errors
REFUSED = [
    ["replay"],  # the following arguments are required
    ["demo", "--bogus"],  # unrecognized arguments
    ["play", "--clock-white", "middle"],  # invalid choice
    ["simulate", "game.pgn", "--game", "two"],  # invalid int value
    ["replay", "x.jsonl", "--lang"],  # expected one argument
    ["nosuch"],  # invalid choice of command
]


@pytest.mark.parametrize("language", TRANSLATED)
def test_argparse_errors_have_no_english_left(language: str, english: set[str]) -> None:
    for argv in REFUSED:
        code, text = _run(["--lang", language, *argv])
        assert code == 2, (argv, text)
        assert _english_in(text, english) == [], f"{language} {argv}:\n{text}"


def test_the_language_of_help_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert _run(["replay", "--help"])[1].startswith("użycie: ")
    assert _run(["replay", "--help", "--lang", "mk"])[1].startswith("употреба: ")
    monkeypatch.setenv("LANG", "C")
    assert _run(["replay", "--help"])[1].startswith("usage: ")
