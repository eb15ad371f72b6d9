"""A Chessnut board on its USB cable: a HID device read by `HidTransport` (one message a
report, commands one a write and paced), and a whole game on a virtual one.

Facts from chessnutech/EasyLinkSDK `sdk/EasyLink.cpp` (one `hid_write` per command,
`WRITE_INTERVAL` 200 ms, a report sized `readBuf[1] + 2`) and mono424/chessnutdriver
(the USB position report `01 3D`, 65 bytes); the bytes are built here, not recorded.
"""

from __future__ import annotations

import importlib.util
import time

import chess
import pytest

from firmware_bridge.codecs.chessnut import (
    ChessnutCodec,
    report_message,
    split_messages,
)
from firmware_bridge.errors import HidUnavailableError
from firmware_bridge.hid_transport import FakeHidBoard, HidTransport, open_hid
from firmware_bridge.registry import link_kind
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from firmware_bridge.source import BoardSource
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Event, Sensor, Snapshot, Start
from rules.replay import replay

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_a_report_is_cut_to_its_message() -> None:
    ack = bytes([0x23, 0x01, 0x00])
    assert report_message(ack + bytes(61)) == ack  # the report's padding is not a message
    battery = bytes([0x2A, 0x02, 0xDF, 0x00])
    assert report_message(battery + bytes(60)) == battery
    position = ChessnutBoard(usb=True).position_message()
    assert len(position) == 65
    assert report_message(position + bytes(191)) == position
    # a 65-byte message in a 64-byte report: filled to its size, the next report starts clean
    assert report_message(position[:64]) == position[:64] + bytes(1)
    assert report_message(b"") == b""


def test_commands_are_cut_apart() -> None:
    codec = ChessnutCodec()
    joined = codec.encode_startup() + codec.encode_leds(["e2", "e4"]) + codec.encode_beep(1000, 200)
    assert split_messages(joined) == [
        bytes([0x21, 0x01, 0x00]),
        bytes([0x0A, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0]),  # N4
        bytes([0x0B, 0x04, 0x03, 0xE8, 0x00, 0xC8]),
    ]


def test_the_charging_flag_is_bit_7() -> None:
    """`2A 02 <b> 00`, bit 7 charging, bits 0-6 percent: picochess's parser and
    DGTCentaurMods `emulators/chessnut.py` (`_send_battery_response`) agree."""
    codec = ChessnutCodec()
    codec.feed(bytes([0x2A, 0x02, 0x80 | 85, 0x00]), 1.0)
    assert codec.battery == (85, True)
    codec.feed(bytes([0x2A, 0x02, 40, 0x00]), 2.0)
    assert codec.battery == (40, False)


def test_the_usb_board_is_read_report_by_report_and_written_command_by_command() -> None:
    board = ChessnutBoard(usb=True)
    with FakeHidBoard("fake-hidraw", on_write=board.receive) as device:
        transport = HidTransport(
            "fake-hidraw", ChessnutCodec(), clock=time.monotonic, write_interval_s=0.05
        )
        transport.open()
        events = transport.read_events(1.0)
        assert [e.board for e in events if isinstance(e, Snapshot)] == [chess.STARTING_BOARD_FEN]
        assert transport.codec.acks == 1  # the 23 01 00 of the start-up (chessnutdriver)
        board.lift("e2")
        device.notify(board.place("e4", "P"))
        assert [e.board for e in transport.read_events(1.0) if isinstance(e, Snapshot)] == [
            AFTER_E4
        ]
        codec = transport.codec
        assert isinstance(codec, ChessnutCodec)
        transport.send(codec.encode_leds(["e4"]) + codec.encode_beep(1000, 200))
        began = time.monotonic()
        while len(device.writes) < 3 and time.monotonic() - began < 2:
            transport.step(0.01)
        assert device.writes[1:] == split_messages(
            codec.encode_leds(["e4"]) + codec.encode_beep(1000, 200)
        )
        assert time.monotonic() - began >= 0.04  # the second command waited its turn
        assert board.lit_squares() == {"e4"} and board.beeps == [(1000, 200)]
        transport.close()


def test_an_unplugged_usb_board_is_found_again() -> None:
    now = [0.0]
    board = ChessnutBoard(usb=True)
    with FakeHidBoard("fake-hidraw", on_write=board.receive) as device:
        transport = HidTransport(
            "fake-hidraw", ChessnutCodec(), clock=lambda: now[0], write_interval_s=0.0
        )
        transport.open()
        transport.read_events(0.5)
        device.unplug()
        now[0] = 1.0
        assert [e.status for e in transport.step(0.0) if isinstance(e, Sensor)] == ["disconnected"]
        board.lift("e2")
        board.place("e4", "P")
        device.plug()
        now[0] = 2.0
        back = transport.step(0.0) + transport.read_events(0.5)
        assert isinstance(back[0], Sensor) and back[0].status == "reconnected"
        assert back[-1] == Snapshot(t=2.0, board=AFTER_E4)
        transport.close()


def test_without_hidapi_the_message_says_what_to_install() -> None:
    assert link_kind("chessnut") == "hid"
    if importlib.util.find_spec("hid") is not None:
        pytest.skip("hidapi is installed here")
    with pytest.raises(HidUnavailableError, match=r"pip install 'otb-arbiter\[hid\]'"):
        open_hid("/dev/hidraw9")


@pytest.mark.slow
def test_a_game_on_a_virtual_usb_chessnut_gives_its_moves() -> None:
    board_ = chess.Board()
    moves = []
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O", "f6", "d4", "exd4"]:
        moves.append(board_.parse_san(san))
        board_.push(moves[-1])
    speed = 10.0
    board = VirtualBoard("chessnut", moves_to_events(moves, gap_s=1.5), speed=speed)

    def clock() -> float:
        return time.monotonic() * speed

    board.start()
    assert board.started_at is not None
    source = BoardSource(
        f"chessnut:{board.path}", clock=clock, zero=board.started_at * speed, step_s=0.003
    ).start()
    events: list[Event] = []
    try:
        while not board.wait_done(0):
            events += source.poll_events(0.05)
        end = time.monotonic() + 0.2
        while time.monotonic() < end:
            events += source.poll_events(0.02)
    finally:
        source.close()
        board.close()
    assert not [e for e in events if isinstance(e, Sensor)]
    rulings = replay([Start(t=0.0, auto_press=True), *events])
    assert [r.uci for r in rulings if r.type == "move"] == [m.uci() for m in moves]
