"""The DGT clock link as the other drivers run it (issue 18 item 7): END after the times are
set, two buttons held at once, and the board's commands cut apart for pacing.

Byte vectors are built from the facts of jromang/picochess and JohanSjoblom/picochess
`dgt/board.py` (SETNRUN then END in `setnrun`/`start_clock`; the button ACK table
`05-49 ... 73-53`), not recorded.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.codecs.dgt_clock import buttons_pressed, clock_end, clock_setnrun
from firmware_bridge.codecs.pegasus import PegasusCodec
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_ack
from firmware_bridge.transport import LinkPolicy, LinkTransport


def test_end_follows_setnrun_once_it_is_acknowledged() -> None:
    codec = DgtCodec()
    first = codec.encode_clock_times(300, 240, "white")
    assert first == clock_setnrun(300, 240, "left")  # 2B 0A 03 0A ... 01 00
    assert codec.clock_pending == "SETNRUN"
    codec.poll(0.0)
    codec.feed(clock_ack(0x10, 0x0A), 0.5)
    assert codec.poll(0.6) == clock_end() == bytes([0x2B, 0x03, 0x03, 0x03, 0x00])
    codec.feed(clock_ack(0x10, 0x03), 0.9)
    assert codec.clock_pending is None and codec.clock_errors == []


def test_a_board_model_shows_the_times_after_the_end() -> None:
    board = DgtBoardModel()
    codec = DgtCodec()
    codec.feed(board.receive(codec.encode_startup()), 0.0)
    board.clock_text = "ARBITER"
    out = board.receive(codec.encode_clock_setnrun(60, 60, "left"))
    codec.feed(out, 0.1)
    codec.feed(board.receive(codec.poll(0.2)), 0.2)
    assert board.clock_set == (60, 60, "left")
    assert board.clock_text is None  # END: back to the times


@pytest.mark.parametrize(
    ("ack2", "ack3", "pressed"),
    [
        # picochess's table, ack2-ack3: single buttons
        (5, 49, "back"),
        (33, 52, "minus"),
        (17, 51, "run"),
        (9, 50, "plus"),
        (65, 53, "ok"),
        # two at once
        (37, 52, "back+minus"),
        (21, 51, "back+run"),
        (13, 50, "back+plus"),
        (69, 53, "back+ok"),
        (49, 51, "minus+run"),
        (41, 50, "minus+plus"),
        (97, 53, "minus+ok"),
        (25, 50, "run+plus"),
        (81, 53, "run+ok"),
        (73, 53, "plus+ok"),
        # the spec's D11 gives ack2 = 0: the button from ack3 alone
        (0, 0x35, "ok"),
    ],
)
def test_buttons_and_two_button_combinations(ack2: int, ack3: int, pressed: str) -> None:
    assert buttons_pressed(ack2, ack3) == pressed
    codec = DgtCodec()
    codec.feed(clock_ack(0x10, 0x88, ack2, ack3), 3.0)
    assert codec.clock_buttons == [(3.0, pressed)]


def test_an_ack_naming_no_button_is_no_press() -> None:
    assert buttons_pressed(0x01, 0x00) is None
    codec = DgtCodec()
    codec.feed(clock_ack(0x10, 0x88, 0x01, 0x00), 1.0)
    assert codec.clock_buttons == []


def test_commands_are_cut_apart_for_pacing() -> None:
    codec = DgtCodec(revelation=True)
    data = codec.encode_startup() + codec.encode_leds(["e2", "e4"]) + bytes([0x45])
    assert codec.split_commands(data) == [
        b"\x4b",
        b"\x4d",
        b"\x42",
        bytes([0x2B, 0x03, 0x03, 0x09, 0x00]),  # the clock's VERSION (D9)
        codec.encode_leds(["e2", "e4"]),
        b"\x45",
    ]
    pegasus = PegasusCodec()
    assert pegasus.split_commands(pegasus.encode_startup()) == [b"\x40", b"\x4d", b"\x42", b"\x44"]


class MemoryLink(LinkTransport):
    """A link that keeps what is written (each `_transmit` one write) and reads nothing."""

    def __init__(self, codec: DgtCodec, clock: Callable[[], float], policy: LinkPolicy) -> None:
        super().__init__("memory", codec, clock=clock, policy=policy)
        self.sent: list[bytes] = []

    def _connect(self) -> None:
        pass

    def _receive(self, timeout: float) -> bytes:
        return b""

    def _transmit(self, data: bytes) -> None:
        self.sent.append(bytes(data))

    def _release(self) -> None:
        pass


def test_a_paced_link_writes_one_command_at_a_time_and_no_twin_requests() -> None:
    now = [0.0]
    link = MemoryLink(DgtCodec(), lambda: now[0], LinkPolicy(silence_s=None, pace_s=0.1))
    link.open()
    assert link.sent == [b"\x4b"]
    link.send(b"\x42\x42\x45")  # a dump already waits in the start-up: no twin
    for step in range(1, 12):
        now[0] = step * 0.05
        link.step(0.0)
    assert link.sent == [
        b"\x4b",
        b"\x4d",
        b"\x42",
        bytes([0x2B, 0x03, 0x03, 0x09, 0x00]),
        b"\x45",
    ]
    link.close()
