"""DGT codec timers and the clock (`eboard-protocols.md` 1.6–1.8, 8): what `poll` writes,
the one-command-at-a-time clock queue, and the lever as a `Press`."""

from __future__ import annotations

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_ack, clock_times
from rules.events import Lift, Press, Sensor

SETNRUN = bytes.fromhex("2B 0A 03 0A 00 05 00 00 05 00 01 00")
TEXT = bytes.fromhex("2B 0C 03 0C 41 52 42 49 54 45 52 20 00 00")
END = bytes.fromhex("2B 03 03 03 00")


def test_quiet_period_then_one_board_request() -> None:
    codec = DgtCodec()
    assert codec.feed(bytes.fromhex("8E 00 05 34 00"), 10.0) == [Lift(t=10.0, square="e2")]
    assert codec.poll(10.2) == b""
    codec.feed(bytes.fromhex("8E 00 05 24 01"), 10.2)  # another update restarts the wait
    assert codec.poll(10.4) == b""
    assert codec.poll(10.45) == b"\x42"
    assert codec.poll(10.6) == b""  # once
    assert codec.poll(20.0) == b""


def test_explicit_board_request_cancels_the_timer() -> None:
    codec = DgtCodec()
    codec.feed(bytes.fromhex("8E 00 05 34 00"), 1.0)
    assert codec.encode_board_request() == b"\x42"
    assert codec.poll(2.0) == b""


def test_keep_alive_about_every_second_once_started() -> None:
    codec = DgtCodec()
    assert codec.poll(0.0) == b""
    assert codec.poll(5.0) == b""  # not started: nothing to keep alive
    codec.encode_startup()
    codec.feed(bytes.fromhex("8D 00 0A 0A 10 09 0A 23 00 00"), 5.0)  # version ACK
    writes = [codec.poll(5.0 + i / 10) for i in range(31)]
    assert [i for i, w in enumerate(writes) if w] == [10, 20, 30]
    assert set(writes) == {b"", b"\x45"}


def test_last_rx_tracks_the_board() -> None:
    codec = DgtCodec()
    assert codec.last_rx is None
    board = DgtBoardModel()
    codec.feed(board.receive(b"\x45"), 3.5)
    assert codec.last_rx == 3.5
    codec.feed(b"", 9.0)
    assert codec.last_rx == 3.5


def test_clock_commands_wait_for_the_ack() -> None:
    codec = DgtCodec()
    assert codec.encode_clock_setnrun(300, 300, "left") == SETNRUN
    assert codec.encode_clock_text("ARBITER") == b""  # queued
    assert codec.encode_clock_end() == b""
    assert codec.poll(0.0) == b""  # stamps SETNRUN, releases nothing
    assert codec.poll(1.0) == b""
    codec.feed(clock_ack(0x10, 0x0A), 1.5)  # SETNRUN acknowledged
    assert codec.poll(1.55) == END  # END follows SETNRUN, as picochess writes them
    codec.feed(clock_ack(0x10, 0x03), 1.58)
    assert codec.poll(1.6) == TEXT
    codec.feed(clock_ack(0x10, 0x0C), 2.0)
    assert codec.poll(2.1) == END
    codec.feed(clock_ack(0x10, 0x03), 2.5)
    assert codec.poll(2.6) == b""
    assert codec.clock_pending is None and codec.clock_errors == []


def test_ack_for_another_command_does_not_release() -> None:
    codec = DgtCodec()
    codec.encode_clock_setnrun(300, 300, "left")
    codec.encode_clock_end()
    codec.poll(0.0)
    codec.feed(clock_ack(0x10, 0x0C), 0.5)
    assert codec.clock_pending == "SETNRUN"
    assert codec.poll(0.6) == b""


def test_resend_once_after_two_seconds_give_up_after_six() -> None:
    codec = DgtCodec()
    assert codec.encode_clock_setnrun(300, 300, "left") == SETNRUN
    codec.encode_clock_end()
    assert codec.poll(10.0) == b""
    assert codec.poll(11.9) == b""
    assert codec.poll(12.0) == SETNRUN
    assert codec.poll(14.0) == b""  # only once
    assert codec.poll(15.9) == b""
    assert codec.poll(16.0) == END  # given up; the next one goes
    assert [(f.t, f.command) for f in codec.clock_errors] == [(16.0, "SETNRUN")]
    assert "no ACK after 6.0 s (sent twice)" in codec.clock_errors[0].reason


def test_error_ack_is_recorded() -> None:
    codec = DgtCodec()
    codec.encode_clock_setnrun(300, 300, "left")
    codec.poll(0.0)
    codec.feed(clock_ack(0x40, 0x0A), 1.0)
    assert codec.clock_pending == "SETNRUN" and codec.poll(1.1)  # resent once
    codec.feed(clock_ack(0x40, 0x0A), 2.0)
    assert codec.clock_pending is None
    assert codec.clock_errors[0].command == "SETNRUN"
    assert "error 40" in codec.clock_errors[0].reason


def test_startup_resends_a_command_lost_in_flight() -> None:
    codec = DgtCodec()
    codec.encode_clock_setnrun(300, 300, "left")
    codec.poll(0.0)
    assert codec.encode_startup().endswith(bytes.fromhex("2B 03 03 09 00"))
    assert codec.clock_pending == "VERSION"
    codec.feed(bytes.fromhex("8D 00 0A 0A 10 09 0A 23 00 00"), 1.0)
    assert codec.poll(1.1) == SETNRUN


def test_unasked_clock_messages() -> None:
    codec = DgtCodec()
    codec.feed(clock_ack(0x10, 0x81) + clock_ack(0x10, 0x8A), 1.0)
    assert codec.clock_ready and codec.clock_mode23 is True
    codec.feed(clock_ack(0x10, 0x90) + clock_ack(0x10, 0x88, 0, 0x33), 2.0)
    assert codec.clock_mode23 is False
    assert codec.clock_buttons == [(2.0, "run")]


def test_lever_press_white_on_the_left() -> None:
    """Lever up on the right means the left side is down: the left player pressed."""
    codec = DgtCodec(clock_white="left")
    assert codec.feed(clock_times(300, 300, lever="left"), 1.0) == []  # baseline
    assert codec.feed(clock_times(300, 300, lever="left"), 2.0) == []  # unchanged
    assert codec.feed(clock_times(298, 300, lever="right"), 3.0) == [Press(t=3.0, side="white")]
    assert codec.feed(clock_times(298, 295, lever="left"), 8.0) == [Press(t=8.0, side="black")]


def test_lever_press_white_on_the_right() -> None:
    codec = DgtCodec(clock_white="right")
    codec.feed(clock_times(300, 300, lever="right"), 1.0)
    assert codec.feed(clock_times(300, 298, lever="left"), 3.0) == [Press(t=3.0, side="white")]


def test_lever_baseline_resets_on_startup_and_no_clock() -> None:
    codec = DgtCodec()
    codec.feed(clock_times(300, 300, lever="left"), 1.0)
    codec.encode_startup()
    assert codec.feed(clock_times(300, 300, lever="right"), 2.0) == []
    codec.feed(clock_times(0, 0, running=False, no_clock=True), 3.0)
    assert codec.clock_present is False and codec.clock is None
    assert codec.feed(clock_times(300, 300, lever="left"), 4.0) == []
    assert codec.clock_present is True


def test_all_zero_clock_message_is_ignored() -> None:
    codec = DgtCodec()
    codec.feed(clock_times(300, 300, lever="right"), 1.0)
    assert codec.feed(bytes.fromhex("8D 00 0A 00 00 00 00 00 00 00"), 2.0) == []
    assert codec.clock is not None and codec.clock.left_s == 300


def test_impossible_bcd_is_dropped_and_reported() -> None:
    codec = DgtCodec()
    bad = bytes.fromhex("8D 00 0A 00 6A 00 00 00 00 01")  # 6A minutes
    assert codec.feed(bad, 1.0) == []
    assert codec.clock is None
    events = codec.feed(bytes.fromhex("93 00 05 01 0A"), 2.0)
    assert events == [
        Sensor(
            t=2.0,
            status="dropped",
            bytes=10,
            detail="impossible BCD 6A for right minutes in a clock message (10 bytes)",
        )
    ]


def test_other_board_messages_become_attributes() -> None:
    board = DgtBoardModel(serial="54321")
    codec = DgtCodec()
    for command in (b"\x46", b"\x47", b"\x4c", b"\x55"):
        assert codec.feed(board.receive(command), 1.0) == []
    assert codec.bus_address == 1
    assert codec.trademark == "Digital Game Technology (model)"
    assert codec.battery_percent == 87
    assert codec.serial == "5432154321"
    short_battery = bytes.fromhex("A0 00 0A 40 7F 7F 00 00 00 00")  # header says 7 data bytes
    assert codec.feed(short_battery, 2.0) == []
    assert codec.battery_percent == 64


def test_ee_moves_log_is_drained_and_reported() -> None:
    log = bytes([0x6A]) + bytes(range(0x40, 0x60)) * 247 + bytes([0x6B])
    total = len(log) + 3
    assert 0x1E00 < total < 0x2000
    stream = bytes([0x8F, total >> 7, total & 0x7F]) + log + bytes.fromhex("93 00 05 01 0A")
    codec = DgtCodec()
    events = codec.feed(stream, 1.0)
    assert [(e.status, e.bytes) for e in events] == [("dropped", total)]  # type: ignore[attr-defined]
    assert codec.version == (1, 10)


def test_an_error_ack_is_resent_once_then_a_fault() -> None:
    """Issue 18 item 7: a command answered with an error ACK (ack0 40) goes again; a second
    error is a fault."""
    from firmware_bridge.codecs.dgt import DgtCodec
    from firmware_bridge.sim.dgt_board import clock_ack

    codec = DgtCodec()
    command = codec.encode_clock_end()
    assert command
    codec.poll(0.0)
    assert codec.feed(clock_ack(0x40, 0x03), 0.5) == []
    assert codec.clock_errors == [] and codec.clock_pending == "END"
    assert command in codec.poll(0.6)
    codec.feed(clock_ack(0x40, 0x03), 1.0)
    assert codec.clock_pending is None
    assert len(codec.clock_errors) == 1 and "error 40" in codec.clock_errors[0].reason
