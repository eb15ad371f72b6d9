"""Strict mode teaches: under each refusal of a live game's display stands a lesson for a
child (what was done, what the Law requires, what to do now), in the game's language, while
the ruling's own sentence stays as it is; outside strict mode there is none."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.outputs.display import Display
from arbiter.teach.lessons import LESSONS, lesson_of
from rules.events import Event, Lift, Place, Press, Start, Touch
from rules.game import Game
from rules.i18n import LANGUAGES
from rules.messages import format_ruling
from rules.rulings import Illegal, Violation

#: White touches the knight on g1, then plays e2-e4 (Art. 4.3.1)
TOUCH_THEN_OTHER: list[Event] = [
    Touch(t=1.0, square="g1", side="white"),
    Lift(t=2.0, square="e2", piece="P"),
    Place(t=3.0, square="e4", piece="P"),
    Press(t=4.0, side="white"),
]
#: White, in check from the rook on e2, steps into the rook's rank and presses (Art. 7.5)
IN_CHECK = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
ILLEGAL_PRESSED: list[Event] = [
    Lift(t=1.0, square="e1", piece="K"),
    Place(t=2.0, square="f2", piece="K"),
    Press(t=5.0, side="white"),
]


def _shown(events: list[Event], language: str, *, strict: bool, fen: str | None = None) -> str:
    game = Game(Start(t=0.0, fen=fen, time_control="5400+30", strict=strict))
    out = io.StringIO()
    display = Display(out, tty=False, language=language)
    display.attach(game)
    for event in events:
        display.show(game.handle(event), event.t)
    return out.getvalue()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_refusal_in_strict_mode_has_its_lesson(language: str) -> None:
    text = _shown(TOUCH_THEN_OTHER, language, strict=True)
    game = Game(Start(t=0.0, time_control="5400+30", strict=True))
    violation = next(
        r for e in TOUCH_THEN_OTHER for r in game.handle(e) if isinstance(r, Violation)
    )
    lesson = lesson_of(violation, language)
    assert lesson is not None and "g1" in lesson
    assert format_ruling(violation, language) in text  # the ruling's own sentence stays
    assert lesson in text
    assert text.index(format_ruling(violation, language)) < text.index(lesson)
    if language == "en":
        assert "You touched the piece on g1, so you must move it or take it." in text
    if language == "sr":
        assert "Dotakao si figuru na g1, pa moraš da je pomeriš ili uzmeš." in text


def test_no_lesson_outside_strict_mode() -> None:
    strict = _shown(TOUCH_THEN_OTHER, "en", strict=True)
    free = _shown(TOUCH_THEN_OTHER, "en", strict=False)
    assert "You touched" in strict
    assert "You " not in free


@pytest.mark.parametrize("language", ["en", "pl", "mk"])
def test_a_completed_illegal_move_is_explained(language: str) -> None:
    text = _shown(ILLEGAL_PRESSED, language, strict=True, fen=IN_CHECK)
    game = Game(Start(t=0.0, fen=IN_CHECK, time_control="5400+30", strict=True))
    illegal = [r for e in ILLEGAL_PRESSED for r in game.handle(e) if isinstance(r, Illegal)]
    assert illegal, "the rules core rules the move illegal"
    for r in illegal:
        lesson = lesson_of(r, language)
        assert lesson is not None and lesson in text


def test_each_lesson_is_short() -> None:
    """One or two short sentences a ten-year-old can read: at most two, of 25 words."""
    for key, text in LESSONS.items():
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
        assert 1 <= len(sentences) <= 2, key
        assert all(len(s.split()) <= 25 for s in sentences), key


def test_arbiter_replay_of_a_strict_stream_teaches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = tmp_path / "strict.jsonl"
    start = Start(t=0.0, time_control="300+2", strict=True)
    stream.write_text(
        "\n".join(e.to_json() for e in [start, *TOUCH_THEN_OTHER]) + "\n", encoding="utf-8"
    )
    assert main(["replay", str(stream), "--lang", "sr"]) == 0
    text = capsys.readouterr().out
    assert "Dotakao si figuru na g1, pa moraš da je pomeriš ili uzmeš." in text
    assert main(["replay", str(stream), "--json", "--lang", "sr"]) == 0
    assert "Dotakao si" not in capsys.readouterr().out  # the contract's lines stay as they are
