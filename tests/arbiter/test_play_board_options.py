"""`arbiter play --board` options: `--capture FILE`, `--clock-white left|right` (DGT 3000),
and `--calibration FILE` reaching a Certabo board's codec (and no other board's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.clock import FakeClock
from arbiter.errors import SourceError
from arbiter.inputs.board import BoardAdapter
from arbiter.live.config import Settings
from arbiter.live.setup import open_sources
from firmware_bridge.virtual import VirtualBoard


def _board(settings: Settings) -> BoardAdapter:
    sources, _ = open_sources(settings, FakeClock())
    boards = [s for s in sources if isinstance(s, BoardAdapter)]
    assert len(boards) == 1
    return boards[0]


def test_capture_and_clock_white_reach_the_dgt_board(tmp_path: Path) -> None:
    capture = tmp_path / "dgt.jsonl"
    with VirtualBoard("dgt") as virtual:
        virtual.start()
        board = _board(
            Settings(
                play={"board": f"dgt:{virtual.path}", "capture": str(capture),
                      "clock_white": "right", "keyboard": False}
            )
        )  # fmt: skip
        assert board.board.codec.clock_white == "right"  # type: ignore[attr-defined]
        board.start(lambda item: None, FakeClock())
        try:
            import time

            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and '"rx"' not in capture.read_text("utf-8"):
                time.sleep(0.05)
        finally:
            board.close()
    lines = [json.loads(line) for line in capture.read_text("utf-8").splitlines()]
    assert any("tx" in line for line in lines) and any("rx" in line for line in lines)


def test_clock_white_is_refused_for_a_board_without_a_dgt_3000(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="--clock-white"):
        _board(Settings(play={"board": "millennium:loop://", "clock_white": "left"}))


def test_calibration_reaches_a_certabo_board_and_no_other(tmp_path: Path) -> None:
    calibration = tmp_path / "certabo.json"
    with VirtualBoard("certabo") as virtual:
        virtual.save_calibration(calibration)
    board = _board(Settings(play={"board": "certabo:loop://", "calibration": str(calibration)}))
    assert board.board.codec.calibration is not None  # type: ignore[attr-defined]
    # a camera's calibration beside a DGT board is not the board's business
    dgt = _board(Settings(play={"board": "dgt:loop://", "calibration": str(calibration)}))
    assert dgt.board.codec.name == "dgt"


def test_the_options_are_on_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "play", "--help"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0
    for option in ("--capture", "--clock-white", "--calibration", "--feedback"):
        assert option in done.stdout


def test_auto_detection_gives_a_certabo_board_its_calibration_and_no_other(
    tmp_path: Path,
) -> None:
    """`--board auto:DEVICE --calibration FILE`: the calibration reaches the board found if it
    is a Certabo (which, without it, would tell only where pieces stand), and the journal's
    name of the board keeps it for `arbiter resume`; a DGT board found ignores it."""
    calibration = tmp_path / "certabo.json"
    with VirtualBoard("certabo") as virtual:
        virtual.save_calibration(calibration)
        virtual.start()
        board = _board(
            Settings(play={"board": f"auto:{virtual.path}", "calibration": str(calibration)})
        )
        try:
            assert board.board.codec.name == "certabo"
            assert board.board.codec.calibration is not None  # type: ignore[attr-defined]
            assert board.name == f"board:auto:{virtual.path} calibration={calibration}"
        finally:
            board.close()
    with VirtualBoard("dgt") as virtual:
        virtual.start()
        board = _board(
            Settings(play={"board": f"auto:{virtual.path}", "calibration": str(calibration)})
        )
        try:
            assert board.board.codec.name == "dgt"
            assert board.name == f"board:auto:{virtual.path}"
        finally:
            board.close()


def test_clock_white_reaches_a_revelation_board() -> None:
    """A Revelation II is a DGT board: a DGT 3000 may sit on it too."""
    board = _board(Settings(play={"board": "revelation:loop://", "clock_white": "right"}))
    assert board.board.codec.name == "dgt"
    assert board.board.codec.revelation  # type: ignore[attr-defined]


@pytest.mark.parametrize("protocol", ["dgt", "millennium"])
def test_clock_white_with_a_detected_board(protocol: str) -> None:
    """`auto:` with `--clock-white`: set on the DGT board found; refused, naming the board
    found, for any other."""
    virtual = VirtualBoard(protocol).start()
    try:
        settings = Settings(play={"board": f"auto:{virtual.path}", "clock_white": "right"})
        if protocol == "dgt":
            board = _board(settings)
            assert board.board.codec.clock_white == "right"  # type: ignore[attr-defined]
            board.close()
        else:
            with pytest.raises(SourceError, match="is a millennium board"):
                _board(settings)
    finally:
        virtual.close()
