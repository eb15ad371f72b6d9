"""`arbiter position`: FENs in, one answer a line out, bad lines reported (with --json, as
an answer of their own, so that the answers pair with the lines)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FENS = [
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 60",  # scenario 44: White can mate, Black cannot
    "8/8/8/3k4/8/3b4/8/4KB2 w - - 0 80",  # same-coloured bishops: dead (5.2.2)
    "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1",  # pawn wall: dead
]


def run_position(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "position", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_json_answers_every_good_line_and_reports_the_bad_one() -> None:
    stdin = f"{FENS[0]}\n\nnot a fen\n{FENS[1]}\n8/8/8/8/8/8/8/8 w - - 0 1\n{FENS[2]}\n"
    proc = run_position(stdin, "--json")
    assert proc.returncode == 1
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 6  # one answer a line, errors included (trial row 24)
    assert [rows[i] for i in (0, 3, 5)] == [
        {"fen": FENS[0], "winnable": {"white": True, "black": False}, "dead": False},
        {"fen": FENS[1], "winnable": {"white": False, "black": False}, "dead": True},
        {"fen": FENS[2], "winnable": {"white": False, "black": False}, "dead": True},
    ]
    assert rows[1] == {"fen": "", "error": "an empty line"}
    assert rows[2]["fen"] == "not a fen" and "bad FEN" in rows[2]["error"]
    assert rows[4]["fen"] == "8/8/8/8/8/8/8/8 w - - 0 1" and "no white king" in rows[4]["error"]
    errors = proc.stderr.splitlines()
    assert len(errors) == 2
    assert "line 3" in errors[0] and "not a fen" in errors[0]
    assert "line 5" in errors[1] and "no white king" in errors[1]


def test_all_good_lines_exit_zero() -> None:
    proc = run_position("\n".join(FENS) + "\n", "--json")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == 3


def test_budget_one_leaves_open_questions_undecided() -> None:
    proc = run_position(chess_start() + "\n", "--json", "--budget", "1")
    assert proc.returncode == 0
    row = json.loads(proc.stdout)
    assert row["winnable"] == {"white": None, "black": None}
    assert row["dead"] is None


def test_plain_text_output() -> None:
    proc = run_position(FENS[1] + "\n")
    assert proc.returncode == 0
    assert proc.stdout.strip() == (
        f"{FENS[1]}: White cannot mate, Black cannot mate; dead position (5.2.2)"
    )


def test_bad_budget_is_refused() -> None:
    proc = run_position("", "--budget", "0")
    assert proc.returncode == 2
    assert "at least 1" in proc.stderr


def chess_start() -> str:
    return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
