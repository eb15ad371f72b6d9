"""`arbiter teach --board`: drills on a virtual e-board through the real serial and codec
path; each situation set up on the board (the pupil told what to put where, the set-up
checked), the pupil's hand movements read back from the board and judged by the rules core."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from arbiter.cli import main
from arbiter.teach.drills import DRILLS
from arbiter.teach.on_board import run_board_drills

#: each drill's hands in the right way: the situation's movements, the move, the press
RIGHT = [
    ["lift g1", "place g1", "g1f3", "press"],
    ["setup", "lift a6", "place a6", "b5a6", "press"],
    ["setup", "lift h1", "place h1", "lift e1", "place e1", "h1g1", "press"],
    ["setup", "e2e3", "press"],
    ["setup", "lift b1", "place b1", "b1c3", "press"],
    ["setup", "e1d1", "press"],
]


def _reader(lines: list[str]) -> object:
    it = iter(lines)
    return lambda: next(it, None)


def test_six_drills_on_a_virtual_dgt_board_in_serbian() -> None:
    """Right and wrong hands, in Serbian, with the set-up asked for piece by piece first."""
    lines = [
        "lift g1", "place g1", "e2e4", "press",  # played another piece: wrong (4.3.1)
        # drill 2 set up by hand, from where drill 1's refusal left the pieces
        "postavi", "lift a6", "place a6", "b5a6", "press",
        "postavi", "lift h1", "place h1", "lift e1", "place e1", "e1g1", "press",  # castles
        "postavi", "e2e3", "sat",  # `sat`: Serbian for the press
        "postavi", "lift b1", "place b1", "b1c3", "press",
        "postavi", "e1d2", "press",  # into the rook's check: illegal
    ]  # fmt: skip
    out = io.StringIO()
    session = run_board_drills("dgt-sim", "Ana", "sr", _reader(lines), out, speed=3.0)  # type: ignore[arg-type]
    text = out.getvalue()
    results = [(r.drill, r.passed) for r in session.results]
    assert results == list(zip([d.name for d in DRILLS], [0, 1, 0, 1, 1, 0], strict=True)), text
    assert "Pozicija stoji na tabli." in text
    assert "podigni figuru sa g1 i vrati je na g1" in text  # a touch, on a board
    assert "podigni figuru sa e2 i spusti je na e3, pa je pusti" in text
    # the set-up of drill 2 names what to put where
    assert "Postavi poziciju na tablu:" in text
    assert "na b5 vratite: beli lovac" in text
    # the rules core's rulings and the lesson after a wrong answer
    assert "Beli nije pomerio niti uzeo figuru dotaknutu na g1" in text
    assert "Pravilo: figura koju dotakneš mora da se pomeri" in text
    assert "Crni dobija 120 sekundi (čl. 7.5.5)." in text


def test_a_situation_not_made_as_asked_starts_the_drill_again() -> None:
    lines = ["lift f1", "place f1", "lift g1", "place g1", "g1f3", "press"]
    out = io.StringIO()
    session = run_board_drills(  # type: ignore[arg-type]
        "dgt-sim", "Ana", "en", _reader(lines), out, speed=3.0, drills=DRILLS[:1]
    )
    text = out.getvalue()
    assert "That is not what was asked; the drill starts again." in text
    assert "put the white bishop on f1" in text  # the lifted bishop: the set-up asks for it back
    assert [(r.drill, r.passed) for r in session.results] == [("touch_own", True)], text


def test_arbiter_teach_on_a_millennium_board_from_piped_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command end to end: a virtual Millennium board (whole-board reports), input
    piped, one drill done before the input ends; the summary saved."""
    summary = tmp_path / "summary.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(RIGHT[0]) + "\n"))
    argv = ["teach", "--board", "millennium-sim", "--lang", "cs", "--pupil", "Jan"]
    assert main([*argv, "--summary", str(summary)]) == 0
    out = capsys.readouterr().out
    assert "zvedni figuru z g1 a vrať ji na g1" in out
    assert "Bílý táhl Jf3." in out
    assert "Jan: správně 1 z 1 cvičení." in out
    saved = json.loads(summary.read_text(encoding="utf-8"))
    assert (
        saved["pupil"] == "Jan" and saved["score"] == 1 and saved["drills"] == {"touch_own": True}
    )
