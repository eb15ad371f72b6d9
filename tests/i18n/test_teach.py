"""`arbiter teach`: drills run end to end from keyboard input, judged by the rules core,
with the summary saved and the pupil's progress shown."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.teach.drills import DRILLS, judge, run_drills, save_summary

RIGHT = ["g1f3", "b5a6", "h1g1", "press", "b1c3", "e1d1"]
WRONG = ["e2e4", "b5c6", "e1g1", "e3e4", "e2e4", "e1d2"]


def _reader(answers: list[str]) -> object:
    it = iter(answers)
    return lambda: next(it, None)


def test_each_drill_is_judged_by_the_rules() -> None:
    for drill, right, wrong in zip(DRILLS, RIGHT, WRONG, strict=True):
        good = judge(drill, right)
        bad = judge(drill, wrong)
        assert good is not None and good.passed, (drill.name, right, good)
        assert bad is not None and not bad.passed, (drill.name, wrong, bad)
    assert judge(DRILLS[0], "hello") is None
    assert judge(DRILLS[0], "a3a4") is None  # no piece there to move


def test_a_session_from_the_keyboard_with_its_summary(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = ["g1f3", "what?", "b5c6", "h1f1", "press", "b1a3", "e1d2"]
    session = run_drills("Ana", "cs", _reader(answers), out)  # type: ignore[arg-type]
    text = out.getvalue()
    assert [r.passed for r in session.results] == [True, False, True, True, True, False]
    assert "Dotkl ses svého jezdce na g1. Zahraj tah." in text
    assert "Napiš tah jako dvě pole" in text  # "what?" is no move: asked again
    assert "Bílý netáhl ani nevzal figuru, které se dotkl na a6 (čl. 4.3.3)." in text
    assert "Černý dostává 120 sekund (čl. 7.5.5)." in text
    # a wrong answer is followed by what the Law requires and what to do now
    assert "Pravidlo: soupeřovu figuru, které se dotkneš, musíš vzít" in text
    assert text.count("Pravidlo:") == 2  # two wrong answers, no lesson after a right one
    summary = tmp_path / "summary.jsonl"
    first = save_summary(session, summary, date="2026-12-03")
    assert first == [
        {
            "pupil": "Ana",
            "date": "2026-12-03",
            "language": "cs",
            "score": 4,
            "total": 6,
            "drills": {d.name: p for d, p in zip(DRILLS, [1, 0, 1, 1, 1, 0], strict=True)},
        }
    ]
    again = run_drills("Ana", "cs", _reader(RIGHT), io.StringIO())  # type: ignore[arg-type]
    other = run_drills("Bojan", "cs", _reader(WRONG[:2]), io.StringIO())  # type: ignore[arg-type]
    save_summary(other, summary, date="2026-12-10")
    history = save_summary(again, summary, date="2026-12-10")
    assert [(h["date"], h["score"]) for h in history] == [("2026-12-03", 4), ("2026-12-10", 6)]
    assert len(summary.read_text(encoding="utf-8").splitlines()) == 3


def test_arbiter_teach_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = tmp_path / "teach" / "summary.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([*RIGHT[:3], "zegar", *RIGHT[4:]])))
    assert main(["teach", "--lang", "pl", "--pupil", "Ola", "--summary", str(summary)]) == 0
    out = capsys.readouterr().out
    assert "Dotknąłeś swojego skoczka na g1. Wykonaj ruch." in out
    assert "Ola: dobrze 6 z 6 ćwiczeń." in out
    assert f"Wynik zapisano w {summary}." in out
    saved = json.loads(summary.read_text(encoding="utf-8"))
    assert saved["pupil"] == "Ola" and saved["score"] == 6 and saved["language"] == "pl"
