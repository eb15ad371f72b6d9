"""`arbiter demo --board PROTOCOL-sim`: the demo on a virtual e-board, through the real serial
path, with the stream's presses and claims beside the board."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import pytest
from at_once import AtOnce

from arbiter.demo.game import demo_game
from arbiter.records.journal import read_journal
from firmware_bridge.virtual import VIRTUAL_KINDS
from rules.events import Lift, Place, Snapshot, Start

SPEED = "20"


@pytest.fixture(scope="module")
def at_once(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AtOnce]:
    """The boards' demos made at the same time (`tests/at_once.py`): each runs in real time
    in a program of its own; their waits overlap."""
    runs = AtOnce(request, tmp_path_factory)
    yield runs
    runs.close()


@pytest.mark.realtime
@pytest.mark.parametrize(
    "sim", ["dgt-sim", "millennium-sim", "certabo-sim", "pegasus-sim", "chessnut-ble-sim"]
)
def test_the_demo_on_a_virtual_board_gives_the_games_pgn(
    sim: str, at_once: AtOnce, request: pytest.FixtureRequest
) -> None:
    at_once.result(request, "sim", demo_on)


def demo_on(sim: str, tmp_path: Path) -> None:
    """`arbiter demo --board SIM` in real time: the game's PGN, the board's own events."""
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
    protocol = VIRTUAL_KINDS[sim.removesuffix("-sim")][0]
    assert start.sources is not None and start.sources[0].startswith(f"board:{protocol}:")
    # the pieces came from the board's codec: squares (DGT) or whole boards (the others)
    sensed = [e for e in events if isinstance(e, (Lift, Place, Snapshot))]
    assert len(sensed) >= len(expected)
    if protocol == "pegasus":  # occupancy only: no piece is ever named
        assert {e.piece for e in sensed if isinstance(e, Place)} == {"?"}
    elif protocol != "dgt":
        assert all(isinstance(e, Snapshot) for e in sensed)


def test_an_unknown_virtual_board_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--board", "dgt", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2
    assert "dgt-sim" in done.stderr and "Traceback" not in done.stderr


def test_a_cut_board_demo_journal_is_not_resumed_without_inputs_but_goes_on_with_some(
    tmp_path: Path,
) -> None:
    """A board demo's journal names a temporary pty and the presses beside it: `arbiter
    resume` says why it cannot reopen them (and leaves the journal as it was); given inputs,
    it finishes the game."""
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--board", "dgt-sim", "--speed", "40",
         "--out", str(tmp_path), "--plain"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    lines = (tmp_path / "demo-journal.jsonl").read_text(encoding="utf-8").splitlines()
    presses = [i for i, line in enumerate(lines) if '"type": "press"' in line]
    journal = tmp_path / "cut.jsonl"
    journal.write_text("\n".join(lines[: presses[19] + 1]) + "\n", encoding="utf-8")
    before = journal.read_text(encoding="utf-8")

    def arbiter(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "arbiter.cli", *args, "--display", "plain"],
            capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    for command in (["resume", str(journal)], ["play", "--journal", str(journal)]):
        refused = arbiter(*command)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "Traceback" not in refused.stderr
        assert "played by `arbiter demo` on a virtual e-board" in refused.stderr
        assert f"arbiter pgn {journal}" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        assert journal.read_text(encoding="utf-8") == before  # no restart journaled

    last_t = read_journal(journal)[0][-1].t
    resign = tmp_path / "resign.jsonl"
    resign.write_text(
        json.dumps({"t": last_t + 0.3, "type": "resign", "side": "black"}) + "\n", "utf-8"
    )
    pgn = tmp_path / "cut.pgn"
    finished = arbiter("resume", str(journal), "--events", str(resign), "--pgn", str(pgn))
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr
    assert "game over: 1-0 (resignation)" in finished.stdout
    game = chess.pgn.read_game(pgn.open(encoding="utf-8"))
    assert game is not None and game.headers["Result"] == "1-0"
    expected = [m.uci() for m in demo_game().mainline_moves()][:20]
    assert [m.uci() for m in game.mainline_moves()] == expected


def test_a_gone_virtual_board_or_the_demo_cannot_be_reopened_a_live_one_can() -> None:
    from arbiter.live.setup import gone_inputs
    from firmware_bridge.virtual import VirtualBoard

    assert gone_inputs(["gpio:fake", "board:dgt:/dev/ttyACM0"]) is None
    assert "`arbiter demo`, and" in (gone_inputs(["demo"]) or "")
    with VirtualBoard("dgt") as board:
        alive = f"board:dgt:{board.path}"
        assert gone_inputs([alive, "gpio:fake"]) is None  # still there: reopen it
    gone = gone_inputs([alive, "gpio:fake"]) or ""
    assert f"virtual board ({board.path})" in gone and "cannot be reopened" in gone
