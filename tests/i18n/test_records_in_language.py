"""The PGN's ruling comments and the display in the game's language, with FIDE's articles;
English exactly as before."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.outputs.display import Display
from arbiter.records.pgn import pgn_from_rulings
from rules.events import Lift, Place, Press, Start
from rules.game import Game
from rules.replay import replay


def _events(rules: str | None = None) -> list[object]:
    """1.e4, then Black lifts g8 and puts it on g6 and presses: an illegal move completed."""
    return [
        Start(t=0, time_control="5400+30", rules=rules),
        Lift(t=1, square="e2", piece="P"),
        Place(t=2, square="e4", piece="P"),
        Press(t=3, side="white"),
        Lift(t=4, square="g8", piece="n"),
        Place(t=5, square="g6", piece="n"),
        Press(t=6, side="black"),
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Black completed an illegal move", "White receives 120 seconds (Art. 7.5.5)."]),
        ("sr", ["Crni je završio neispravan potez", "Beli dobija 120 sekundi (čl. 7.5.5)."]),
        ("bs", ["Crni je završio nelegalan potez", "Bijeli dobija 120 sekundi (čl. 7.5.5)."]),
        ("mk", ["Црниот заврши недозволен потег", "Белиот добива 120 секунди (чл. 7.5.5)."]),
        ("cs", ["Černý dokončil nelegální tah", "Bílý dostává 120 sekund (čl. 7.5.5)."]),
        ("pl", ["Czarne zakończyły nielegalny ruch", "Białe otrzymują 120 sekund (art. 7.5.5)."]),
    ],
)
def test_pgn_comments_in_the_games_language(language: str, words: list[str]) -> None:
    events = _events()
    start = events[0]
    assert isinstance(start, Start)
    text = pgn_from_rulings(start, replay(events), language=language)  # type: ignore[arg-type]
    for w in words:
        assert w in text
    assert "1. e4" in text and '[Termination "unterminated"]' in text  # moves and tags: PGN's


def test_arbiter_pgn_speaks_the_profiles_language(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(
        "".join(json.dumps(e.to_dict()) + "\n" for e in _events(rules="cs")),  # type: ignore[attr-defined]
        encoding="utf-8",
    )
    out = tmp_path / "game.pgn"
    assert main(["pgn", str(path), "--out", str(out)]) == 0
    assert "Bílý dostává 120 sekund (čl. 7.5.5)." in out.read_text(encoding="utf-8")
    assert main(["pgn", str(path), "--out", str(out), "--lang", "en"]) == 0
    assert "White receives 120 seconds (Art. 7.5.5)." in out.read_text(encoding="utf-8")


def _display(language: str) -> str:
    game = Game(Start(t=0, time_control="300+2", white="Ana", black="Bojan"))
    out = io.StringIO()
    display = Display(out, tty=True, title="t", language=language)
    display.attach(game)
    rulings = [r for e in _events()[1:] for r in game.handle(e)]  # type: ignore[arg-type]
    display.show(rulings, 6.0)
    return display.render(6.0)


def test_the_display_in_a_language() -> None:
    screen = _display("sr")
    assert "Događaji:" in screen and "Potezi: 1. e4" in screen
    assert "Beli je na potezu" in screen or "Crni je na potezu" in screen
    assert "Crni je završio neispravan potez" in screen
    english = _display("en")
    assert "Incidents:" in english and "Moves: 1. e4" in english and "to move" in english


def test_plain_lines_in_a_language() -> None:
    game = Game(Start(t=0, time_control="300+2"))
    out = io.StringIO()
    display = Display(out, tty=False, language="pl")
    display.attach(game)
    display.show([r for e in _events()[1:4] for r in game.handle(e)], 3.0)  # type: ignore[arg-type]
    text = out.getvalue()
    assert "ruch       Białe zagrały e4." in text
    assert "zegar      białe 4:59  czarne 5:00  (biegnie czarnym)" in text
