"""`arbiter demo --board PROTOCOL-sim`: the demo on a virtual e-board, through the real serial
path, with the stream's presses and claims beside the board."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess.pgn
import pytest

from arbiter.demo import demo_game
from arbiter.journal import read_journal
from rules.events import Lift, Place, Snapshot, Start

SPEED = "20"


@pytest.mark.parametrize("sim", ["dgt-sim", "millennium-sim", "certabo-sim"])
def test_the_demo_on_a_virtual_board_gives_the_games_pgn(tmp_path: Path, sim: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--board", sim, "--speed", SPEED,
         "--out", str(tmp_path), "--plain"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "Traceback" not in done.stderr
    assert "1-0 (checkmate)" in done.stdout
    pgn = tmp_path / "demo-game.pgn"
    game = chess.pgn.read_game(pgn.open(encoding="utf-8"))
    assert game is not None and game.headers["Result"] == "1-0"
    expected = [m.uci() for m in demo_game().mainline_moves()]
    assert [m.uci() for m in game.mainline_moves()] == expected
    events, warnings = read_journal(tmp_path / "demo-journal.jsonl")
    assert not warnings
    start = events[0]
    assert isinstance(start, Start)
    protocol = sim.removesuffix("-sim")
    assert start.sources is not None and start.sources[0].startswith(f"board:{protocol}:")
    # the pieces came from the board's codec: squares (DGT) or whole boards (the others)
    sensed = [e for e in events if isinstance(e, (Lift, Place, Snapshot))]
    assert len(sensed) >= len(expected)
    if protocol != "dgt":
        assert all(isinstance(e, Snapshot) for e in sensed)


def test_an_unknown_virtual_board_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--board", "dgt", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2
    assert "dgt-sim" in done.stderr and "Traceback" not in done.stderr
