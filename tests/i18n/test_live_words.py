"""A live game's own lines in each language: the title, the keys line, the typed commands'
line, how `--tc` was read (the club notation's reading), the end report, and the `--tc`
errors; no English word is left in them beyond names, SAN and what a user types."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout

import pytest

from arbiter import i18n
from arbiter.cli import main
from arbiter.inputs.base import KEYS_HELP
from arbiter.live.club_time import describe, read_club_time
from arbiter.live.commands import COMMANDS_HELP
from rules.i18n import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: controls as clubs write them, read and said
CONTROLS = ["3+2", "90+30", "G/60;d5", "40/5400+30:1800+30", "*180", "900m60", "5400b10", "-"]
#: English words of these lines (what a user types, units and names left out)
ENGLISH = {
    "keys", "space", "pause", "claim", "touch", "move", "offer", "accept", "decline",
    "command", "stop", "type", "white", "black", "strict", "clock", "game", "over",
    "checkmate", "stopped", "goes", "with", "journal", "time", "control", "per",
    "delay", "most", "then", "repeating", "rest", "the", "for", "moves",
    "hourglass", "under", "whole", "bare", "numbers", "are", "seconds", "write",
    "add", "play", "written",
}  # fmt: skip


def _english_in(text: str) -> list[str]:
    text = re.sub(r"`[^`]*`|'[^']*'|(?<!\w)--?[\w-]+|:\w+", " ", text)  # typed words, options
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in ENGLISH})


def test_the_english_lines_are_those_of_the_program() -> None:
    assert i18n.keys_line("en") == KEYS_HELP
    assert i18n.commands_line(COMMANDS_HELP, "en") == COMMANDS_HELP
    assert i18n.game_title(None, "Bojan", "300+2", ["fide-2023", "strict"], "en") == (
        "White v Bojan   300+2   fide-2023, strict"
    )
    assert i18n.game_over_line("1-0", "checkmate", "en") == "game over: 1-0 (checkmate)"
    assert describe(read_club_time("3+2")) == "3 min + 2 s per move, Fischer"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_live_games_lines_have_no_english_left(language: str) -> None:
    lines = [
        i18n.keys_line(language),
        i18n.commands_line(COMMANDS_HELP, language).split(":")[0],  # the commands are typed
        i18n.game_title(None, None, None, ["fide-2023", "strict"], language),
        i18n.game_over_line("1-0", "checkmate", language),
        i18n.gettext(i18n.STOPPED, language),
        i18n.gettext(i18n.JOURNAL_AT, language),
    ]
    lines += [describe(read_club_time(control, force=True), language) for control in CONTROLS]
    for line in lines:
        assert _english_in(line) == [], f"{language}: {line}"
    if language == "sr":
        assert describe(read_club_time("3+2"), "sr") == "3 min + 2 s po potezu, Fišer"
        title = i18n.game_title("Ana", None, "300+2", ["fide-2023", "strict"], "sr")
        assert title == "Ana – Crni   300+2   fide-2023, nastavni režim"


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_control_under_a_minute_is_refused_in_the_language(language: str) -> None:
    code, text = _run(["play", "--tc", "30", "--lang", language])
    assert code == 2
    assert "30" in text and "--force-tc" in text
    assert _english_in(text.replace("arbiter play", "")) == [], text


#: time controls `arbiter play --tc` refuses, each for another reason of the rules core
BAD_CONTROLS = ["3+x", "300++2", "300m0", "300d5b5", "40x/300", "300:600", "*1+2", "?", "abc"]
#: the English words of those refusals
ENGLISH_TC = {
    "time", "control", "period", "increment", "delay", "simple", "cap", "seconds", "number",
    "whole", "move", "count", "unexpected", "after", "come", "twice", "gives", "leaves",
    "cannot", "both", "hourglass", "unknown", "clock", "run", "first", "empty", "nothing",
    "follow", "not", "must", "give", "its", "the",
}  # fmt: skip


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bad_time_control_is_refused_in_the_language(language: str) -> None:
    for control in BAD_CONTROLS:
        code, text = _run(["play", "--tc", control, "--lang", language])
        assert code == 2, (control, text)
        said = re.sub(r"'[^']*'|<[^>]*>|arbiter play|--tc", " ", text)
        own = {"period"} if language in ("sr", "bs") else set()  # sr/bs "period" is theirs
        words = {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH_TC - own}
        assert words == set(), f"{language} --tc {control}: {text}"
