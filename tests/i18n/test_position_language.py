"""`arbiter position` in the reader's language: the answers and the proofs of `--explain`
are built from typed reasons (`rules.winnability.explain.CannotMate`) and said by the
catalogues; the English is the contract's, unchanged (a ruling's `explanation`)."""

from __future__ import annotations

import json
import re

import chess
import pytest

from rules.i18n import LANGUAGES
from rules.winnability import why_cannot_mate
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
POSITIONS = {
    "bare kings": "k7/8/8/8/8/8/8/K7 w - - 0 1",
    "king and bishop": "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
    "closed wall": "7k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1",
    "wall with bishops": "5b1k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K4B2 w - - 0 1",
    "forced capture": "8/8/8/8/8/8/6Q1/4K2k b - - 0 1",
    "checkmated": "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
}
ENGLISH = {
    "white", "black", "has", "only", "the", "king", "too", "little", "material", "mate",
    "and", "bishop", "bishops", "cannot", "can", "pawns", "are", "blocked", "for", "good",
    "reach", "squares", "behind", "them", "unit", "attack", "those", "wherever", "could",
    "give", "check", "keeps", "flight", "square", "light", "dark", "move", "every", "series",
    "legal", "moves", "was", "examined", "none", "ends", "checkmated", "helpmate", "exists",
    "dead", "position", "not", "undecided", "arbiter", "decides", "impossible", "many",
}  # fmt: skip


def english_left(text: str) -> set[str]:
    said = re.sub(r"\S+/\S+ [wb] \S+ \S+ \d+ \d+|'[^']*'|arbiter position", " ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}


@pytest.mark.parametrize("language", TRANSLATED)
def test_explanations_have_no_english_left(language: str) -> None:
    for name, fen in POSITIONS.items():
        done = run_cli("position", "--explain", fen, "--lang", language)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == 3, (name, lines)
        assert english_left(done.stdout) == set(), f"{language} {name}: {done.stdout}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_answers_and_a_bad_line_have_no_english_left(language: str) -> None:
    fens = "\n".join([*POSITIONS.values(), "k7/8/8/8/8/8/8/K6k w - - 0 1"]) + "\n"
    done = run_cli("position", "--lang", language, stdin=fens)
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == len(POSITIONS)
    assert english_left(done.stdout) == set(), f"{language}: {done.stdout}"
    assert done.stderr.count("\n") == 1 and "7" in done.stderr  # the line, in the language
    assert english_left(done.stderr.split(": too many kings")[0]) == set(), done.stderr


def test_the_english_explanation_is_the_rulings_own() -> None:
    for fen in POSITIONS.values():
        done = run_cli("position", "--explain", fen, "--json", "--lang", "en")
        said = json.loads(done.stdout)["explanation"]
        board = chess.Board(fen)
        for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
            reason = why_cannot_mate(board, color)
            if reason is not None:
                assert said[name] == reason, (fen, name)


def test_a_wall_in_serbian_and_polish() -> None:
    fen = POSITIONS["wall with bishops"]
    sr = run_cli("position", "--explain", fen, "--lang", "sr").stdout
    pl = run_cli("position", "--explain", fen, "--lang", "pl").stdout
    assert "Beli ne može dati mat: blokiranih pešaka zauvek: 16" in sr
    assert "lovci idu samo po belim poljima" in sr
    assert "Białe nie mogą dać mata: pionów zablokowanych na zawsze: 16" in pl
