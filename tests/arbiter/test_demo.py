"""`arbiter demo`: the bundled real game with its incidents, played live to the end."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import chess.pgn

from arbiter.demo.game import DEMO_PGN, default_speed, demo_events, demo_game
from arbiter.records.journal import read_journal
from rules.events import Start
from rules.replay import replay

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_game_is_bundled_in_the_package_and_is_real() -> None:
    game = demo_game()
    assert (ROOT / "arbiter" / "data" / DEMO_PGN).is_file()
    assert game.headers["White"] == "MagnusCarlsen" and game.headers["Result"] == "1-0"
    clocks = [node.clock() for node in game.mainline()]
    assert all(c is not None for c in clocks)  # every move with its [%clk]
    assert game.end().board().is_checkmate()


def test_the_demo_stream_has_its_incidents_and_still_ends_in_mate() -> None:
    events = demo_events()
    assert isinstance(events[0], Start)
    rulings = replay(events)
    kinds = [
        (r.type, getattr(r, "kind", None), getattr(r, "valid", None), getattr(r, "completed", None))
        for r in rulings
    ]
    # an illegal move put down, not completed, then corrected (7.5.1, 4.7)
    assert ("illegal", None, None, False) in kinds
    assert not any(r.type == "illegal" and r.completed for r in rulings)
    # a touch-move violation, recorded, the move played standing (4.3.1)
    violations = [r for r in rulings if r.type == "violation"]
    assert [v.kind for v in violations] == ["touch_move"]
    # an incorrect draw claim: refused, time to the opponent (9.5.3), a draw offer
    assert ("claim", "threefold", False, None) in kinds
    assert any(r.type == "penalty" and r.kind == "time_added" for r in rulings)
    assert any(r.type == "draw_offer" for r in rulings)
    # a piece touched, put back and then moved: the duty is honoured (no second violation)
    moves = [r.san for r in rulings if r.type == "move"]
    game_moves = [n.san() for n in demo_game().mainline()]
    assert moves == game_moves  # the incidents never change the game
    over = [r for r in rulings if r.type == "game_over"]
    assert over[0].result == "1-0" and over[0].reason == "checkmate"


def test_the_default_speed_fits_the_game_in_about_twenty_seconds() -> None:
    events = demo_events()
    speed = default_speed(events)
    assert 15 <= events[-1].t / speed <= 25


def test_arbiter_demo_runs_to_the_end_and_says_where_the_files_are(tmp_path: Path) -> None:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--speed", "60", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    took = time.monotonic() - began
    assert done.returncode == 0, done.stderr
    assert took < 30
    assert "Traceback" not in done.stderr
    journal, pgn = tmp_path / "demo-journal.jsonl", tmp_path / "demo-game.pgn"
    assert f"Journal: {journal}" in done.stdout and f"PGN:     {pgn}" in done.stdout
    assert "1-0 (checkmate)" in done.stdout
    # the screen without a terminal: plain lines with the incidents' articles
    for text in ("4.3.1", "9.5.3", "illegal", "checkmate"):
        assert text in done.stdout
    events, warnings = read_journal(journal)
    assert not warnings
    # played live at x60, the game is ruled exactly as its stream replays
    live = [r.to_dict() for r in replay(events)]
    assert live == [r.to_dict() for r in replay(demo_events())]
    game = chess.pgn.read_game(pgn.open(encoding="utf-8"))
    assert game is not None and game.headers["Result"] == "1-0"
    assert game.end().board().is_checkmate()
