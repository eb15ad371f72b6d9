"""Rarer refusals once raised with English sentences, now said in each language: `arbiter
simulate` of a game no stream can reproduce, two options naming one file, a pairings file's
line faults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.i18n import error_text
from rules.errors import ArbiterError
from rules.i18n import LANGUAGES
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
ENGLISH = {
    "the", "last", "move", "mates", "but", "result", "is", "ply", "null", "pass", "that",
    "cannot", "be", "made", "over", "board", "so", "no", "event", "stream", "can", "reproduce",
    "game", "variant", "not", "standard", "chess", "and", "name", "same", "file", "would",
    "overwrite", "or", "mix", "into", "it", "another", "pairings", "line", "number",
    "starting", "rank", "in", "columns", "player", "opponent", "round", "white", "black",
    "checkmate", "laws", "draw",
}  # fmt: skip
KEPT = re.compile(r"\S*/\S*|'[^']*'|--[\w-]+|arbiter \w+|\S+\.(?:pgn|jsonl|csv|trf)")


def english_left(text: str) -> set[str]:
    said = KEPT.sub(" ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("rarer")
    games = {
        "mate.pgn": '[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n',
        "null.pgn": '[Result "*"]\n\n1. e4 -- 2. d4 *\n',
        "variant.pgn": '[Variant "Crazyhouse"]\n[Result "*"]\n\n1. e4 e5 *\n',
        "bare.pgn": '[Result "1-0"]\n[FEN "kr6/8/8/8/8/8/8/7K w - - 0 1"]\n\n1. Kg1 Kb7 1-0\n',
    }
    for name, text in games.items():
        (here / name).write_text(text, encoding="utf-8")
    (here / "p.csv").write_text("board,white,black\nx,Ana,Bojan\n", encoding="utf-8")
    (here / "p.trf").write_text("012 Open\n001    x Ana\n", encoding="utf-8")
    return here


CASES = [
    (["simulate", "mate.pgn"], "mate.pgn, game 1: the last move mates, but the result is 1-0"),
    (["simulate", "null.pgn"], "null.pgn, game 1: move 1... (ply 2) is a null move"),
    (["simulate", "variant.pgn"], "variant 'Crazyhouse' is not standard chess"),
    (["simulate", "bare.pgn"], "1-0, but White cannot checkmate"),
    (["play", "--journal", "g.jsonl", "--pgn", "g.jsonl"], "--journal g.jsonl and --pgn "
     "g.jsonl name the same file; the pgn would overwrite or mix into it"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "english"), CASES)
def test_a_rarer_refusal_in_every_language(argv: list[str], english: str, folder: Path) -> None:
    done = run_cli(*argv, "--lang", "en", cwd=folder)
    assert done.returncode == 2 and english in done.stderr, done.stderr
    for language in TRANSLATED:
        done = run_cli(*argv, "--lang", language, cwd=folder)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert english_left(done.stderr) == set(), f"{language} {argv}: {done.stderr}"


@pytest.mark.parametrize("name", ["p.csv", "p.trf"])
def test_a_pairings_line_fault_in_every_language(name: str, folder: Path) -> None:
    from arbiter.hall.pairings import read_pairings

    with pytest.raises(ArbiterError) as caught:
        read_pairings(folder / name)
    assert "line 2" in str(caught.value)
    for language in TRANSLATED:
        text = error_text(caught.value, language)
        assert english_left(text) == set() and "2" in text, (language, text)
