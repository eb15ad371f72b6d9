"""Chessnut codec: vectors N1-N6 byte for byte, three-way feeding, resynchronisation,
orientation and the board model (`eboard-protocols.md` 4)."""

from __future__ import annotations

import time

import chess
import pytest

from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from rules.events import Event, Sensor, Snapshot

INITIAL = chess.STARTING_BOARD_FEN
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
N2 = bytes.fromhex(
    "01 24 58 23 31 85" + " 44" * 4 + " 00" * 16 + " 77" * 4 + " A6 C9 9B 6A 00 00 00 00"
)
N3 = bytes.fromhex(
    "01 24 58 23 31 85 44 44 44 44 00 00 00 00 00 00 00 00 00 70 00 00 00 00 00 00"
    " 77 07 77 77 A6 C9 9B 6A 2A 01 00 00"
)
N6 = bytes.fromhex("2A 02 DF 00")
JUNK = bytes.fromhex("00 FF 10 33 7E")  # none starts a message


def dropped(events: list[Event]) -> int:
    return sum(e.bytes or 0 for e in events if isinstance(e, Sensor) and e.status == "dropped")


def boards(events: list[Event]) -> list[str]:
    return [e.board for e in events if isinstance(e, Snapshot)]


def three_ways(data: bytes) -> list[tuple[list[str], int, ChessnutCodec]]:
    out = []
    codec = ChessnutCodec()
    ev = codec.feed(data, 1.0) + codec.flush(1.0)
    out.append((boards(ev), dropped(ev), codec))
    codec = ChessnutCodec()
    ev = [e for i in range(len(data)) for e in codec.feed(data[i : i + 1], 1.0)]
    ev += codec.flush(1.0)
    out.append((boards(ev), dropped(ev), codec))
    codec = ChessnutCodec()
    ev = codec.feed(JUNK + data + JUNK, 1.0) + codec.flush(1.0)
    out.append((boards(ev), dropped(ev) - 2 * len(JUNK), codec))
    return out


def test_n1_start_reports() -> None:
    codec = ChessnutCodec()
    assert codec.encode_start_reports() == bytes.fromhex("21 01 00")
    assert codec.encode_startup() == bytes.fromhex("21 01 00")


def test_n2_initial_position() -> None:
    assert len(N2) == 38
    for seen, n, codec in three_ways(N2):
        assert seen == [INITIAL] and n == 0
        assert codec.orientation_locked and not codec.rotated
        assert codec.pending == 0


def test_n3_after_e4() -> None:
    assert len(N3) == 38
    for seen, n, _ in three_ways(N2 + N3):
        assert seen == [INITIAL, AFTER_E4] and n == 0


@pytest.mark.parametrize(
    ("squares", "hexes"),
    [
        (["e4", "e2"], "0A 08 00 00 00 00 08 00 08 00"),  # N4
        (["d5", "e4"], "0A 08 00 00 00 10 08 00 00 00"),  # N5
        ([chess.A8, "h1"], "0A 08 80 00 00 00 00 00 00 01"),
    ],
)
def test_n4_n5_leds(squares: list[str | int], hexes: str) -> None:
    assert ChessnutCodec().encode_leds(squares) == bytes.fromhex(hexes)


def test_leds_rotated_and_off() -> None:
    codec = ChessnutCodec(orientation="rotated")
    assert codec.encode_leds(["e4", "e2"]) == bytes.fromhex("0A 08 00 10 00 10 00 00 00 00")
    assert codec.encode_leds_off() == bytes.fromhex("0A 08" + " 00" * 8)


def test_n6_battery() -> None:
    for seen, n, codec in three_ways(N6):
        assert seen == [] and n == 0
        assert codec.battery == (95, True)


def test_beep_and_requests() -> None:
    codec = ChessnutCodec()
    assert codec.encode_beep(1000, 200) == bytes.fromhex("0B 04 03 E8 00 C8")
    assert codec.encode_battery_request() == bytes.fromhex("29 01 00")
    assert codec.encode_stored_games_request() == bytes.fromhex("31 01 00")
    for bad in ((70000, 1), (1, -1), (1.5, 1)):
        with pytest.raises(CodecUsageError):
            codec.encode_beep(*bad)  # type: ignore[arg-type]
    with pytest.raises(CodecUsageError):
        codec.encode_leds(["z9"])
    with pytest.raises(CodecUsageError):
        ChessnutCodec(orientation="left")  # type: ignore[arg-type]


def test_bad_nibble_wrong_length_and_bad_battery_are_dropped() -> None:
    bad = bytearray(N3)
    bad[10] = 0xD0  # code D does not exist
    wrong_length = bytes.fromhex("01 20") + N3[2:]
    codec = ChessnutCodec()
    events = codec.feed(bytes(bad) + wrong_length + bytes.fromhex("2A 02 7F 00") + N2, 1.0)
    assert boards(events) == [INITIAL]
    assert dropped(events) == len(bad) + len(wrong_length) + 4
    assert codec.battery is None
    assert "above C" in (events[0].detail or "")


def test_truncated_message_waits() -> None:
    codec = ChessnutCodec()
    assert codec.feed(N2[:20], 1.0) == []
    assert codec.pending == 20
    assert boards(codec.feed(N2[20:], 1.1)) == [INITIAL]


@pytest.mark.parametrize("rotated", [False, True])
def test_board_model(rotated: bool) -> None:
    board = ChessnutBoard(rotated=rotated)
    codec = ChessnutCodec()
    assert board.lift("e2") == b""  # no reports before 21 01 00
    board.place("e2", "P")
    first = board.receive(codec.encode_startup())
    if not rotated:
        assert first == N2
    assert codec.feed(first, 0.0) == [Snapshot(t=0.0, board=INITIAL)]
    assert codec.rotated is rotated
    codec.feed(board.lift("e2"), 0.5)
    assert codec.feed(board.place("e4", "P"), 0.7) == [Snapshot(t=0.7, board=AFTER_E4)]
    assert board.receive(codec.encode_leds(["e2", "e4"])) == b""
    assert board.lit_squares() == {"e2", "e4"}
    assert codec.feed(board.receive(codec.encode_battery_request()), 1.0) == []
    assert codec.battery == (95, True)
    codec.feed(board.receive(codec.encode_stored_games_request()), 1.0)
    assert codec.stored_games == 0
    board.receive(codec.encode_beep(1000, 200))
    assert board.beeps == [(1000, 200)]


def test_board_after_e4_matches_n3() -> None:
    board = ChessnutBoard(reporting=True)
    board.uptime = 0x012A - 1
    board.lift("e2")
    assert board.place("e4", "P") == N3


def test_board_misuse() -> None:
    board = ChessnutBoard()
    with pytest.raises(CodecUsageError):
        board.lift("e4")
    with pytest.raises(CodecUsageError):
        board.place("e4", "W")


def test_decode_throughput_beats_wire_rate() -> None:
    """Compared with a 38400-baud serial link (3840 bytes/s); USB full-speed HID carries at
    most 64 bytes a millisecond (64000 bytes/s)."""
    board = ChessnutBoard(reporting=True)
    data = b"".join(board.lift(s) + board.place(s, "Q") for s in ("e2", "d2", "g1", "b8")) * 250
    codec = ChessnutCodec()
    start = time.perf_counter()
    events = codec.feed(data, 0.0)
    elapsed = time.perf_counter() - start
    assert len(events) == 2000
    assert len(data) / elapsed > 64000


# ---- Chessnut over USB (issue 18, item 5) ------------------------------------------------


def test_usb_position_report_01_3d_decodes() -> None:
    """mono424/chessnutdriver: a USB message starts at `01 3D` (`chessnut_board.dart`,
    `_isMessageStart`) and is 65 bytes, board bytes 2..33 low nibble first
    (`ChessnutMessage.dart`)."""
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    report = ChessnutBoard(usb=True).position_message()
    assert len(report) == 65 and report[:2] == bytes.fromhex("01 3D")
    assert report[2:34] == N2[2:34]  # the same board bytes as the BLE report
    for seen, n, _ in three_ways(report):
        assert seen == [INITIAL] and n == 0


def test_acknowledgements_are_not_dropped_bytes() -> None:
    """`23 01 00` (chessnutdriver's ack) and `21 01 00` (rmarabini/chessnutair constants.py,
    the board's confirmation of the start command) are messages, not garbage."""
    for ack in (bytes.fromhex("23 01 00"), bytes.fromhex("21 01 00")):
        for seen, n, codec in three_ways(ack + N2):
            assert seen == [INITIAL] and n == 0 and codec.acks == 1


def test_usb_board_round_trip_with_acks() -> None:
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    board = ChessnutBoard(usb=True)
    codec = ChessnutCodec()
    events = codec.feed(board.receive(codec.encode_startup()), 0.0)
    events += codec.feed(board.receive(codec.encode_leds(["e2"])), 0.5)
    events += codec.feed(board.lift("e2"), 1.0) + codec.feed(board.place("e4", "P"), 2.0)
    assert boards(events)[-1] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert dropped(events + codec.flush(3.0)) == 0 and codec.acks == 2
