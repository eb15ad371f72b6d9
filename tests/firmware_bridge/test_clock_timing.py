"""A raw DGT capture timed by the board's own clock, and `--clock-white` (issue 18, item 2).

The capture is built by our simulator: a DGT board in update mode with a DGT 3000 whose
times message (`8D`, d6 bit 3 = left's turn, bit 4 = right's, as real clocks send them)
comes every second the clock runs. White sits on the clock's right.
"""

from __future__ import annotations

import io

import pytest

from arbiter.cli.decode import DecodeStats, decode_stream
from firmware_bridge.clock_timing import ClockTimeline
from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.sim.dgt_board import DgtBoardModel
from rules.events import Event, Lift, Place, Press

WIRE = 10 / 9600


def clocked_game() -> tuple[bytes, list[tuple[str, float]]]:
    """e4 after 7 s (White, right side), e5 after 4 s (Black, left side): bytes, presses."""
    board = DgtBoardModel()
    out = bytearray(board.receive(bytes([0x4B, 0x42])))
    left, right = 300, 300
    out += board.clock_times(left, right, running=False, lever="right")  # baseline
    presses: list[tuple[str, float]] = []
    t = 0.0
    for mover, seconds, lift, square, piece in (
        ("right", 7, "e2", "e4", "P"),
        ("left", 4, "e7", "e5", "p"),
    ):
        for _ in range(seconds):
            t += 1
            if mover == "right":
                right -= 1
            else:
                left -= 1
            out += board.clock_times(left, right, lever=mover)
        out += board.lift(lift) + board.place(square, piece)
        other = "left" if mover == "right" else "right"
        out += board.clock_times(left, right, lever=other)  # the press: the lever goes over
        presses.append(("white" if mover == "right" else "black", t))
    return bytes(out), presses


def test_the_timeline_follows_the_clock_not_the_wire() -> None:
    data, _ = clocked_game()
    timeline = ClockTimeline.from_capture(DgtCodec, data)
    assert timeline.clocked
    assert timeline.time_at(len(data)) == pytest.approx(11.0, abs=0.2)
    assert len(data) * WIRE < 0.5  # what the wire rate alone would say


def test_decode_with_clock_white_right_gives_the_presses_and_times() -> None:
    data, presses = clocked_game()
    stats = DecodeStats()
    events: list[Event] = list(
        decode_stream(DgtCodec(clock_white="right"), io.BytesIO(data), "game.bin", stats)
    )
    assert stats.clocked
    got = [(e.side, e.t) for e in events if isinstance(e, Press)]
    assert [side for side, _ in got] == [side for side, _ in presses]
    for (_, t), (_, want) in zip(got, presses, strict=True):
        assert t == pytest.approx(want, abs=0.2)
    moves = [e for e in events if isinstance(e, Lift | Place)]
    assert moves[0].t == pytest.approx(7.0, abs=0.2)  # e2 lifted at 7 s, before the press


def test_clock_white_left_puts_every_press_on_the_other_side() -> None:
    data, _ = clocked_game()
    events = list(decode_stream(DgtCodec(), io.BytesIO(data), "game.bin", DecodeStats()))
    sides = [e.side for e in events if isinstance(e, Press)]
    assert sides == ["black", "white"]  # wrong for this game: hence --clock-white right


def test_a_raw_capture_without_a_clock_keeps_wire_times() -> None:
    board = DgtBoardModel(clock_version=None)
    data = board.receive(bytes([0x4B, 0x42])) + board.lift("e2") + board.place("e4", "P")
    timeline = ClockTimeline.from_capture(DgtCodec, data)
    assert not timeline.clocked
    assert timeline.time_at(len(data)) == pytest.approx(len(data) * WIRE)


def test_decode_start_then_pgn_writes_the_real_clock(tmp_path: object) -> None:
    """`arbiter decode RAW --start --clock-white right` then `arbiter pgn`: the `[%clk]` are
    what the simulated DGT 3000 showed (4:53 and 4:56 of a 5-minute game), not wire times."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    work = Path(str(tmp_path))
    data, _ = clocked_game()
    (work / "game.bin").write_bytes(data)
    decode = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "decode", "--protocol", "dgt", "--start",
         "--clock-white", "right", str(work / "game.bin")],
        cwd=root, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "times from the board's clock readings" in decode.stderr
    assert '"time_control": "300"' in decode.stdout.splitlines()[0]
    (work / "game.jsonl").write_text(decode.stdout, encoding="utf-8")
    pgn = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "pgn", str(work / "game.jsonl")],
        cwd=root, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert "1. e4 { [%clk 0:04:52" in pgn and "1... e5 { [%clk 0:04:56" in pgn
