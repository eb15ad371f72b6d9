"""Representative errors of PGN files and journals in each language: one line, no
traceback, and no English word left beyond file names and option names."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from arbiter.cli import main
from rules.i18n import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]
ENGLISH = {
    "counts", "from", "names", "game", "games", "such", "file", "directory", "not",
    "byte", "moves", "found", "has", "out", "range", "journal", "cannot", "opened", "read",
    "written", "holds", "event", "resume", "does", "begin", "with", "start", "the",
}  # fmt: skip


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    one = tmp_path / "one.pgn"
    one.write_text('[Event "x"]\n\n1. e4 e5 2. Nf3 *\n', encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    no_start = tmp_path / "no-start.jsonl"
    no_start.write_text('{"type": "press", "t": 1, "side": "white"}\n', encoding="utf-8")
    binary = tmp_path / "binary.pgn"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    return {"one": one, "empty": empty, "no_start": no_start, "binary": binary, "dir": tmp_path}


@pytest.mark.parametrize("language", TRANSLATED)
def test_file_errors_have_no_english_left(language: str, files: dict[str, Path]) -> None:
    cases = [
        ["simulate", str(files["dir"] / "missing.pgn")],
        ["simulate", str(files["dir"])],
        ["simulate", str(files["binary"])],
        ["simulate", str(files["one"]), "--game", "0"],
        ["simulate", str(files["one"]), "--game", "3"],
        ["resume", str(files["empty"])],
        ["resume", str(files["no_start"])],
    ]
    for argv in cases:
        code, text = _run([*argv, "--lang", language])
        assert code == 2 and "Traceback" not in text, (argv, text)
        assert text.count("\n") == 1, text  # one line
        said = re.sub(r"\S*/\S*|'[^']*'|--\w+|arbiter \w+", " ", text)
        left = {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}
        assert left == set(), f"{language} {argv}: {text}"
