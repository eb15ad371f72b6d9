"""A library's reason inside our sentence, through the `arbiter` command, in each language:
a missing stream, a bad JSON line, a bad TOML config, a web page's address that is busy or
not this machine's, a PGN that cannot be written, a journal whose folder is a file. One
line, no traceback, no English word of the library left, and its numbers kept."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: the libraries' English words (strerror texts, json.decoder's and tomllib's messages) and
#: ours around them; none may be left in a translated line ("text", "folder", "port" are
#: words of Czech, Bosnian or Polish too, "web" of Bosnian)
ENGLISH = {
    "no", "such", "file", "directory", "permission", "denied", "expecting",
    "value", "delimiter", "invalid", "extra", "unterminated", "string", "starting",
    "overwrite", "expected", "newline", "document", "statement", "address", "already",
    "use", "assign", "requested", "service", "known", "is", "not", "line", "column", "end",
    "of", "the", "in", "too", "large", "cannot", "be", "read", "written", "valid", "at",
    "this", "machine", "has", "it", "exists", "was", "after", "quotes", "without",
    "page", "listen", "journal", "lock", "make", "its",
}  # fmt: skip
#: what stays as typed: paths, quoted values, options, host:port, the command, TOML/JSON
KEPT = re.compile(r"\S*/\S*|'[^']*'|--[\w-]+|\S+:\d+|arbiter \w+|\S+\.(?:jsonl|toml|pgn)")


def english_left(text: str) -> set[str]:
    said = KEPT.sub(" ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("reasons")
    (here / "bad.jsonl").write_text('{"type": "start", "t": 0\n{"t": 1}\n', encoding="utf-8")
    (here / "bad.toml").write_text("[play]\nstrict = yes\n", encoding="utf-8")
    (here / "twice.toml").write_text("[play]\nstrict = true\nstrict = false\n", encoding="utf-8")
    (here / "game.jsonl").write_text('{"t": 0, "type": "start"}\n', encoding="utf-8")
    (here / "a-file").write_text("not a folder\n", encoding="utf-8")
    return here


@pytest.fixture(scope="module")
def busy_port() -> Iterator[int]:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield int(held.getsockname()[1])


def said(*argv: str, cwd: Path) -> str:
    done = run_cli(*argv, cwd=cwd)
    assert done.returncode == 2, (argv, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


#: (arguments, what the English line says, its numbers that must stay)
CASES = [
    (["replay", "missing.jsonl"], "missing.jsonl: no such file", []),
    (["replay", "bad.jsonl"], "line 1: not valid JSON (',' was expected, at column 25)",
     ["1", "25"]),
    (["play", "--config", "bad.toml"], "not valid TOML (a value that cannot be read (is it "
     "text without quotes?), at line 2, column 10)", ["2", "10"]),
    (["play", "--config", "twice.toml"], "not valid TOML (a key is given a value twice, at "
     "line 3, column 15)", ["3", "15"]),
    (["pgn", "game.jsonl", "--out", "."], ".: cannot be written (it is a folder)", []),
    (["pgn", "game.jsonl", "--out", "nowhere/x.pgn"],
     "nowhere/x.pgn: cannot be written (no such file or folder)", []),
    (["play", "--journal", "a-file/game.jsonl"], "(it exists already)", []),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "english", "numbers"), CASES)
def test_the_library_s_reason_is_said_in_every_language(
    argv: list[str], english: str, numbers: list[str], folder: Path
) -> None:
    assert english in said(*argv, "--lang", "en", cwd=folder)
    for language in TRANSLATED:
        text = said(*argv, "--lang", language, cwd=folder)
        assert english_left(text) == set(), f"{language} {argv}: {text}"
        for number in numbers:
            assert re.search(rf"\b{number}\b", text), (language, text)


def test_web_page_errors_say_the_system_s_reason(busy_port: int, folder: Path) -> None:
    busy = ["play", "--web", f"127.0.0.1:{busy_port}", "--journal", "web.jsonl"]
    other = ["play", "--web", "192.0.2.1:8089", "--journal", "web.jsonl"]  # TEST-NET-1
    assert "is already in use" in said(*busy, "--lang", "en", cwd=folder)
    english = said(*other, "--lang", "en", cwd=folder)
    assert "(this machine has no such address)" in english, english
    for language in TRANSLATED:
        for argv in (busy, other):
            text = said(*argv, "--lang", language, cwd=folder)
            assert english_left(text) == set(), f"{language} {argv}: {text}"


def test_the_polish_and_serbian_lines(folder: Path) -> None:
    pl = said("replay", "bad.jsonl", "--lang", "pl", cwd=folder)
    assert pl.endswith("wiersz 1: niepoprawny JSON (oczekiwano ',', w kolumnie 25)\n"), pl
    sr = said("play", "--config", "twice.toml", "--lang", "sr", cwd=folder)
    assert "nije ispravan TOML (ključu je vrednost data dvaput, u redu 3, koloni 15)" in sr
    cyrl = said("pgn", "game.jsonl", "--out", ".", "--lang", "sr_Cyrl", cwd=folder)
    assert cyrl.endswith(".: не може да се упише (то је фасцикла)\n"), cyrl
