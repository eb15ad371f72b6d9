"""The pyserial transport over pseudo-terminals and `loop://`, with board models on the far side.

No hardware: a `VirtualBoard` (a board model of `firmware_bridge.sim` behind a pty) or a bare
pty that never answers plays the board; pyserial opens the pty's slave as it would a USB port.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import pytest

from firmware_bridge import transport as transport_module
from firmware_bridge.capture import CaptureWriter
from firmware_bridge.errors import DetectionError, TransportError
from firmware_bridge.registry import codec_for
from firmware_bridge.source import BoardSource
from firmware_bridge.transport import LinkPolicy, SerialTransport, detect_protocol
from firmware_bridge.virtual import VirtualBoard
from rules.events import Event, Lift, Sensor, Snapshot

INITIAL = chess.STARTING_BOARD_FEN
SENTIO_INITIAL = "????????/????????/8/8/8/8/????????/????????"


@pytest.fixture
def bare_pty() -> Iterator[tuple[int, str]]:
    """A pty nobody answers on: (master fd, slave path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    try:
        yield master, os.ttyname(slave)
    finally:
        for fd in (master, slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def drain(master: int) -> bytes:
    out = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except (BlockingIOError, OSError):
            return bytes(out)
        if not chunk:
            return bytes(out)
        out += chunk


def collect(
    transport: SerialTransport, until: Callable[[list[Event]], bool], limit: float
) -> list[Event]:
    events: list[Event] = []
    deadline = time.monotonic() + limit
    while not until(events):
        assert time.monotonic() < deadline, f"timed out; events so far: {events}"
        events += transport.step(0.01)
    return events


def snapshots(events: list[Event]) -> list[str]:
    return [e.board for e in events if isinstance(e, Snapshot)]


@pytest.mark.parametrize("protocol", ["dgt", "millennium", "certabo", "sentio"])
def test_start_up_puts_each_board_in_reporting_mode_and_gets_a_full_report(
    protocol: str, tmp_path: Path
) -> None:
    board = VirtualBoard(protocol, record_s=0.05).start()
    options = {}
    if protocol == "certabo":
        board.save_calibration(tmp_path / "cal.json")
        options["calibration"] = tmp_path / "cal.json"
    codec = codec_for(protocol, **options)
    try:
        with SerialTransport(board.path, codec) as transport:
            events = collect(transport, lambda ev: bool(snapshots(ev)), 5)
            expected = INITIAL if protocol != "sentio" else SENTIO_INITIAL
            assert snapshots(events)[0] == expected
            if protocol == "dgt":
                assert board.model.mode == "update_nice"  # 4B went out
                collect(transport, lambda ev: codec.version is not None, 2)
                assert codec.version == (1, 10)
            if protocol == "millennium":
                assert board.model.eeprom[0x02] == 0x03  # report on change (W0203)
                collect(transport, lambda ev: codec.version is not None, 2)
                assert codec.version == (1, 1)
            board.act(Lift(t=1.0, square="e2"))
            if protocol == "dgt":
                events = collect(transport, lambda ev: any(isinstance(e, Lift) for e in ev), 5)
                lifts = [e for e in events if isinstance(e, Lift)]
                assert (lifts[0].square, lifts[0].piece) == ("e2", "P")
            else:
                lifted = expected.replace("/PPPPPPPP/", "/PPPP1PPP/").replace(
                    "/????????/R", "/????1???/R"
                )
                if protocol == "sentio":
                    lifted = "????????/????????/8/8/8/8/????1???/????????"
                events = collect(transport, lambda ev: lifted in snapshots(ev), 5)
    finally:
        board.close()


def test_loop_url_writes_the_start_up_and_records_both_directions(tmp_path: Path) -> None:
    path = tmp_path / "loop.jsonl"
    codec = codec_for("dgt")
    ticks = iter(range(100, 100000))
    with CaptureWriter(path) as capture:
        # a clock that jumps a second a call: no silence judged, the commands still paced
        transport = SerialTransport(
            "loop://",
            codec,
            clock=lambda: float(next(ticks)),
            capture=capture,
            policy=LinkPolicy(silence_s=None, pace_s=0.1),
        )
        transport.open()
        transport.send(bytes([0x42]))
        deadline = time.monotonic() + 0.8  # the commands go 0.1 s apart (paced)
        while time.monotonic() < deadline:
            transport.step(0.01)
        transport.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    tx = b"".join(bytes.fromhex(line["tx"]) for line in lines if "tx" in line)
    rx = b"".join(bytes.fromhex(line["rx"]) for line in lines if "rx" in line)
    assert tx.startswith(bytes([0x4B, 0x4D, 0x42, 0x2B, 0x03, 0x03, 0x09, 0x00]))
    assert bytes([0x42]) in tx[8:]
    assert rx == tx[: len(rx)] and len(rx) >= 8  # loop:// echoes what was written
    times = [line["t"] for line in lines]
    assert times == sorted(times) and times[0] >= 100


def test_dgt_commands_are_written_a_tenth_of_a_second_apart(tmp_path: Path) -> None:
    """The DGT board buffers about 10 command bytes; picochess waits 0.1 s after each board
    command (eboard-protocols.md 1.1), so the start-up 4B 4D 42 and the clock's VERSION
    request go one by one, 0.1 s apart."""
    path = tmp_path / "paced.jsonl"
    with CaptureWriter(path) as capture:
        transport = SerialTransport("loop://", codec_for("dgt"), capture=capture)
        transport.open()
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:
            transport.step(0.01)
        transport.close()
    sent = [json.loads(line) for line in path.read_text().splitlines()]
    sent = [line for line in sent if "tx" in line]
    assert [line["tx"] for line in sent[:4]] == ["4b", "4d", "42", "2b03030900"]
    gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(sent)]
    assert min(gaps) >= 0.095


def test_silence_is_a_disconnect_and_the_start_up_is_repeated(bare_pty: tuple[int, str]) -> None:
    master, path = bare_pty
    speed = 20.0
    t0 = time.monotonic()
    codec = codec_for("dgt")
    transport = SerialTransport(path, codec, clock=lambda: (time.monotonic() - t0) * speed)
    transport.open()
    events = collect(
        transport,
        lambda ev: (
            [e.status for e in ev if isinstance(e, Sensor)] == ["disconnected", "reconnected"]
        ),
        5,
    )
    down = next(e for e in events if isinstance(e, Sensor))
    assert 2.0 <= down.t <= 2.8
    assert "no byte for" in (down.detail or "")
    for _ in range(5):  # the start-up's commands go 0.1 s apart (1.1): let them all out
        transport.step(0.01)
    written = drain(master)
    startup = bytes([0x4B, 0x4D, 0x42])
    assert written.count(startup) == 2  # once at open, once after reopening
    assert 0x45 in written  # the keep-alive went out while waiting
    assert 0x4E not in written
    transport.close()


def test_a_closed_pty_is_a_read_error_then_back_off_until_the_device_returns() -> None:
    board = VirtualBoard("millennium").start()
    fake = [0.0]
    transport = SerialTransport(board.path, codec_for("millennium"), clock=lambda: fake[0])
    try:
        transport.open()
        collect(transport, lambda ev: bool(snapshots(ev)), 5)
        board.disconnect()
        fake[0] = 0.1
        events = collect(transport, lambda ev: bool(ev), 5)
        assert [e.to_dict()["status"] for e in events] == ["disconnected"]
        assert "read failed" in (events[0].detail or "")
        attempts: list[float] = []
        real_open = transport_module.open_port

        def counting_open(url: str, settings: dict, **kw: object):  # type: ignore[no-untyped-def]
            attempts.append(fake[0])
            return real_open(url, settings, **kw)

        transport_module.open_port = counting_open  # type: ignore[assignment]
        try:
            for t in [0.2, 0.6, 1.0, 1.6, 2.0, 3.5, 3.6, 8.5, 8.6]:
                fake[0] = t
                assert transport.step(0.0) == []
            assert attempts == [0.6, 1.6, 3.6, 8.6]  # back-off 0.5, 1, 2, 5 s
            board.reconnect()
            fake[0] = 13.6
            events = transport.step(0.0)
        finally:
            transport_module.open_port = real_open  # type: ignore[assignment]
        assert [e.to_dict()["status"] for e in events] == ["reconnected"]
        assert attempts[-1] == 13.6
        events = collect(transport, lambda ev: bool(snapshots(ev)), 5)
        assert snapshots(events)[0] == INITIAL  # the whole start-up again: a fresh report
        assert transport.reconnects == 1
    finally:
        transport.close()
        board.close()


def test_a_port_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyUSB9")
    with pytest.raises(TransportError, match="ttyUSB9"):
        SerialTransport(missing, codec_for("dgt")).open()
    with pytest.raises(TransportError, match="ttyUSB9"):
        BoardSource(f"dgt:{missing}").start()


def test_chessnut_is_not_a_serial_board() -> None:
    with pytest.raises(TransportError, match="not a serial device"):
        SerialTransport("loop://", codec_for("chessnut"))


@pytest.mark.parametrize("protocol", ["dgt", "millennium", "certabo", "sentio"])
def test_auto_detection_finds_each_protocol(protocol: str) -> None:
    board = VirtualBoard(protocol, record_s=0.05).start()
    try:
        assert detect_protocol(board.path) == protocol
    finally:
        board.close()


def test_auto_detection_of_a_silent_port_says_what_it_tried(bare_pty: tuple[int, str]) -> None:
    master, path = bare_pty
    with pytest.raises(DetectionError, match=r"dgt at 9600.*millennium at 38400.*certabo"):
        detect_protocol(path, scale=0.1)
    written = drain(master)
    assert written == bytes([0x4D]) + bytes([0xD6, 0xB5, 0xB6])  # 4D, then V56; never 4E or T


def test_board_source_auto_detects_and_stamps_session_times(tmp_path: Path) -> None:
    board = VirtualBoard("millennium").start()
    capture = tmp_path / "cap.jsonl"
    zero = time.monotonic()
    try:
        with BoardSource(f"auto:{board.path}", capture_path=capture, zero=zero) as source:
            assert source.protocol == "millennium"
            assert source.start_settings() == {"noise_s": 0.1, "slide_s": 0.25, "latency_s": 0.0}
            events: list[Event] = []
            deadline = time.monotonic() + 5
            while not snapshots(events):
                assert time.monotonic() < deadline
                events += source.poll_events(0.1)
            elapsed = time.monotonic() - zero
            assert all(0 <= e.t <= elapsed for e in events)
            board.act(Lift(t=1.0, square="e2"))
            while len(snapshots(events)) < 2:
                assert time.monotonic() < deadline
                events += source.poll_events(0.1)
            assert snapshots(events)[-1] == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
    finally:
        board.close()
    lines = [json.loads(line) for line in capture.read_text().splitlines()]
    assert any("tx" in line and line["tx"] == "d6b5b6" for line in lines)  # the probe
    assert any("rx" in line for line in lines)


def test_sent_commands_reach_the_board_and_are_answered() -> None:
    board = VirtualBoard("millennium").start()
    codec = codec_for("millennium")
    try:
        with SerialTransport(board.path, codec) as transport:
            collect(transport, lambda ev: bool(snapshots(ev)), 5)
            transport.send(codec.encode_leds({"e2": 0xFF, "e4": 0xAA}))
            collect(transport, lambda ev: codec.acks["l"] == 1, 5)
            assert board.model.lit_corners() == {40, 41, 42, 43, 49, 50, 51, 52}
    finally:
        board.close()


def test_the_bridge_modules_do_not_import_pyserial_until_a_port_is_opened() -> None:
    import subprocess
    import sys

    code = (
        "import sys, firmware_bridge.source, firmware_bridge.transport, firmware_bridge.virtual,"
        " arbiter.cli.decode; print(sorted(m for m in sys.modules if m.split('.')[0] == 'serial'))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_a_dgt_board_that_fell_back_to_idle_is_put_back_in_update_mode() -> None:
    board = VirtualBoard("dgt").start()
    speed = 20.0
    t0 = time.monotonic()
    codec = codec_for("dgt")
    try:
        with SerialTransport(
            board.path, codec, clock=lambda: (time.monotonic() - t0) * speed
        ) as transport:
            collect(transport, lambda ev: bool(snapshots(ev)), 5)
            board.model.mode = "idle"  # its power blinked: it answers 45 but reports nothing
            board.act(Lift(t=1.0, square="e2"))
            events = collect(transport, lambda ev: board.model.mode == "update_nice", 2)
            assert not [e for e in events if isinstance(e, Sensor)]  # the link never went
            board.act(Lift(t=2.0, square="d2"))
            events = collect(transport, lambda ev: any(isinstance(e, Lift) for e in ev), 2)
            assert [e.square for e in events if isinstance(e, Lift)] == ["d2"]
    finally:
        board.close()
