"""Millennium ChessLink codec: the spec's vectors M1-M10 byte for byte, three-way feeding,
replies matched by letter, orientation, and the board model (`eboard-protocols.md` 2)."""

from __future__ import annotations

import time

import chess
import pytest

from firmware_bridge.codecs.millennium import MillenniumCodec, led_positions, to_wire
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.sim.millennium_board import MillenniumBoard
from rules.events import Event, Sensor, Snapshot

INITIAL = chess.STARTING_BOARD_FEN
M6_TEXT = "srnbqkbnrpppppppp" + "." * 32 + "PPPPPPPPRNBQKBNR73"
M6_WIRE = bytes.fromhex(
    "73 F2 6E 62 F1 6B 62 6E F2"
    + " 70" * 8
    + " AE" * 32
    + " D0" * 8
    + " 52 CE C2 51 CB C2 CE 52 37 B3"
)
M7_TEXT = "sRNBKQBNRPPPPPPPP" + "." * 32 + "pppppppprnbkqbnr73"
M10_TEXT = (
    "L14000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00FFFFFFFF0000000000FFFFFFFF0000000000000000000000000000000000000000000000000000000049"
)
JUNK = bytes.fromhex("00 FF 41 10 0A 0D")  # no frame letter among them


def wire_of(text: str) -> bytes:
    """Text (check included) -> wire bytes with odd parity, straight from 2.1's rule."""
    return bytes(ord(c) | (0x80 if bin(ord(c)).count("1") % 2 == 0 else 0) for c in text)


def dropped(events: list[Event]) -> int:
    return sum(e.bytes or 0 for e in events if isinstance(e, Sensor) and e.status == "dropped")


def decoded(events: list[Event]) -> list[Event]:
    return [e for e in events if not isinstance(e, Sensor)]


def three_ways(data: bytes) -> list[tuple[list[Event], int]]:
    """Feed `data` whole, byte by byte, and between junk; return (events, dropped) each."""
    results = []
    whole = MillenniumCodec()
    ev = whole.feed(data, 1.0)
    results.append((decoded(ev), dropped(ev)))
    single = MillenniumCodec()
    ev = [e for i in range(len(data)) for e in single.feed(data[i : i + 1], 1.0)]
    results.append((decoded(ev), dropped(ev)))
    junky = MillenniumCodec()
    ev = junky.feed(JUNK + data + JUNK, 1.0)
    results.append((decoded(ev), dropped(ev) - 2 * len(JUNK)))
    return results


# ---- M1-M5, M10: host -> board ---------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "args", "text", "wire"),
    [
        ("encode_version", (), "V56", "D6 B5 B6"),  # M1
        ("encode_status", (), "S53", "D3 B5 B3"),  # M2
        ("encode_leds_off", (), "X58", "58 B5 38"),  # M3
        ("encode_eeprom_write", (2, 3), "W020356", "57 B0 32 B0 B3 B5 B6"),  # M4
        ("encode_eeprom_read", (2,), "R0250", "52 B0 32 B5 B0"),  # M5
    ],
)
def test_commands_m1_to_m5(method: str, args: tuple[int, ...], text: str, wire: str) -> None:
    out = getattr(MillenniumCodec(), method)(*args)
    assert out == bytes.fromhex(wire)
    assert bytes(b & 0x7F for b in out).decode() == text


def test_startup_is_report_on_change_then_status_then_version() -> None:
    assert MillenniumCodec().encode_startup() == bytes.fromhex(
        "57 B0 32 B0 B3 B5 B6" + "D3 B5 B3" + "D6 B5 B6"
    )


def test_m10_leds_e2_e4_steady() -> None:
    codec = MillenniumCodec(orientation="rotated")  # M10 is in the maker's documented frame
    out = codec.encode_leds({"e2": 0xFF, "e4": 0xFF}, slot_time=0x14)
    assert len(out) == 167
    assert out == wire_of(M10_TEXT)


def test_m10_h1_first_frame() -> None:
    codec = MillenniumCodec(orientation="normal")  # LEDs numbered from h1 (chesslinkdriver)
    text = bytes(b & 0x7F for b in codec.encode_leds({"e2": 0xFF, "e4": 0xFF})).decode()
    lit = [i for i in range(81) if text[3 + 2 * i : 5 + 2 * i] == "FF"]
    assert lit == [28, 29, 30, 31, 37, 38, 39, 40]
    assert text.endswith("49")


def test_led_positions_follow_the_corner_grid() -> None:
    assert sorted(led_positions("a8")) == [0, 1, 9, 10]
    assert sorted(led_positions("a1")) == [7, 8, 16, 17]
    assert sorted(led_positions("h1")) == [70, 71, 79, 80]
    assert sorted(led_positions(chess.E4)) == [40, 41, 49, 50]


def test_shared_corners_combine_patterns() -> None:
    codec = MillenniumCodec(orientation="rotated")  # the maker's frame, as led_positions
    text = bytes(b & 0x7F for b in codec.encode_leds({"e2": 0xAA, "e3": 0x55}))
    codes = [int(text[3 + 2 * i : 5 + 2 * i], 16) for i in range(81)]
    shared = set(led_positions("e2")) & set(led_positions("e3"))
    assert len(shared) == 2
    assert all(codes[p] == 0xFF for p in shared)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("encode_leds", ({"e9": 0xFF},)),
        ("encode_leds", ({"e2": 256},)),
        ("encode_leds", ({64: 1},)),
        ("encode_led_corners", ([0] * 80,)),
        ("encode_eeprom_write", (256, 0)),
        ("encode_eeprom_read", (-1,)),
    ],
)
def test_misuse_raises_usage_error(call: str, args: tuple[object, ...]) -> None:
    with pytest.raises(CodecUsageError):
        getattr(MillenniumCodec(), call)(*args)


def test_bad_orientation_is_misuse() -> None:
    with pytest.raises(CodecUsageError):
        MillenniumCodec(orientation="sideways")  # type: ignore[arg-type]


# ---- M6-M9: board -> host --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "snapshots", "state"),
    [
        (M6_TEXT, [INITIAL], {"rotated": True}),  # the documented order: the turned seat
        (M7_TEXT, [INITIAL], {"rotated": False}),  # h1 first, as the independent drivers
        ("v010176", [], {"version": (1, 1)}),
        ("l6C", [], {"acks": {"l": 1}}),
        ("x78", [], {"acks": {"x": 1}}),
        ("w020376", [], {"eeprom": {2: 3}}),
        ("r020474", [], {"eeprom": {2: 4}}),
    ],
)
def test_every_reply_three_ways(text: str, snapshots: list[str], state: dict[str, object]) -> None:
    data = wire_of(text)
    assert to_wire(text[:-2]) == data  # the sample's check is right
    for how in ("whole", "bytes", "junk"):
        codec = MillenniumCodec()
        if how == "whole":
            events = codec.feed(data, 1.0)
        elif how == "bytes":
            events = [e for i in range(len(data)) for e in codec.feed(data[i : i + 1], 1.0)]
        else:
            events = codec.feed(JUNK + data + JUNK, 1.0)
        assert decoded(events) == [Snapshot(t=1.0, board=b) for b in snapshots]
        assert dropped(events) == (2 * len(JUNK) if how == "junk" else 0)
        assert codec.pending == 0
        for name, value in state.items():
            assert getattr(codec, name) == value


def test_m6_wire_bytes_and_decode() -> None:
    assert wire_of(M6_TEXT) == M6_WIRE
    assert to_wire(M6_TEXT[:-2]) == M6_WIRE
    for events, n in three_ways(M6_WIRE):
        assert events == [Snapshot(t=1.0, board=INITIAL)]
        assert n == 0


def test_m6_documented_order_is_the_turned_seat_and_locks() -> None:
    codec = MillenniumCodec()
    assert codec.feed(M6_WIRE, 0.5) == [Snapshot(t=0.5, board=INITIAL)]
    assert codec.rotated and codec.orientation_locked
    # a later h1-first initial position does not flip it back: it reads as turned
    (ev,) = codec.feed(wire_of(M7_TEXT), 0.6)
    assert isinstance(ev, Snapshot)
    assert ev.board == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"
    # and LEDs are in the maker's frame (a8 corner = 0)
    text = bytes(b & 0x7F for b in codec.encode_leds({"a8": 0xFF})).decode()
    lit = [i for i in range(81) if text[3 + 2 * i : 5 + 2 * i] == "FF"]
    assert lit == sorted(led_positions("a8"))


def test_h1_first_board_locks_normal() -> None:
    assert M7_TEXT.endswith("73")
    codec = MillenniumCodec()
    codec.feed(wire_of(M7_TEXT), 0.0)
    assert codec.orientation_locked and not codec.rotated
    (ev,) = codec.feed(M6_WIRE, 0.1)
    assert isinstance(ev, Snapshot)
    assert ev.board == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"


def test_m8_version_reply() -> None:
    wire = bytes.fromhex("76 B0 31 B0 31 37 B6")
    assert wire == wire_of("v010176")
    for how in ("whole", "bytes"):
        codec = MillenniumCodec()
        chunks = [wire] if how == "whole" else [wire[i : i + 1] for i in range(len(wire))]
        assert [e for c in chunks for e in codec.feed(c, 2.0)] == []
        assert codec.version == (1, 1)
        assert codec.pending == 0


def test_m9_acknowledgements() -> None:
    codec = MillenniumCodec()
    assert codec.feed(bytes.fromhex("EC B6 43") + bytes.fromhex("F8 37 38"), 0.0) == []
    assert codec.acks == {"l": 1, "x": 1}


def test_eeprom_replies_interleaved_with_status_reports() -> None:
    codec = MillenniumCodec()
    stream = to_wire("w0203") + M6_WIRE + to_wire("r0204") + M6_WIRE
    events = codec.feed(stream, 3.0)
    assert events == [Snapshot(t=3.0, board=INITIAL)] * 2
    assert codec.eeprom == {2: 4}


def test_reply_split_around_junk_is_dropped_and_next_decoded() -> None:
    codec = MillenniumCodec()
    events = codec.feed(M6_WIRE[:30] + M6_WIRE, 1.0)
    assert decoded(events) == [Snapshot(t=1.0, board=INITIAL)]
    assert dropped(events) == 30


def test_flipped_parity_bit_is_dropped_although_xor_passes() -> None:
    bad = bytearray(M6_WIRE)
    bad[20] ^= 0x80  # the 7-bit code, hence the XOR check, is unchanged
    codec = MillenniumCodec()
    events = codec.feed(bytes(bad), 1.0)
    assert decoded(events) == []
    assert dropped(events) == len(bad)
    assert events[-1].detail and "parity" in events[-1].detail


def test_wrong_check_is_dropped() -> None:
    bad = wire_of(M6_TEXT[:-2] + "74")
    events = MillenniumCodec().feed(bad, 1.0)
    assert decoded(events) == []
    assert "bad check" in (events[0].detail or "")
    assert dropped(events) == len(bad)


def test_truncated_frame_waits_then_garbage_is_reported_once_decided() -> None:
    codec = MillenniumCodec()
    assert codec.feed(M6_WIRE[:40], 1.0) == []
    assert codec.pending == 40
    events = codec.feed(to_wire("x"), 2.0)  # the rest never came: an `x` ack did
    assert decoded(events) == []
    assert dropped(events) == 40
    assert codec.acks["x"] == 1


# ---- the board model -------------------------------------------------------------------


def test_board_answers_commands() -> None:
    board = MillenniumBoard(rotated=True)  # the documented order: M6
    codec = MillenniumCodec()
    replies = board.receive(codec.encode_startup())
    assert replies == to_wire("w0203") + M6_WIRE + to_wire("v0101")
    assert codec.feed(replies, 0.0) == [Snapshot(t=0.0, board=INITIAL)]
    assert codec.eeprom == {2: 3} and codec.version == (1, 1)
    assert board.receive(codec.encode_eeprom_read(1)) == to_wire("r0114")
    assert board.receive(codec.encode_leds_off()) == to_wire("x")
    assert board.receive(bytes([0xD3, 0xB5, 0xB4])) == b""  # bad check: ignored


@pytest.mark.parametrize("rotated", [False, True])
def test_board_lift_place_and_leds(rotated: bool) -> None:
    board = MillenniumBoard(rotated=rotated)
    codec = MillenniumCodec()
    codec.feed(board.status_frame(), 0.0)
    assert codec.rotated is rotated
    (ev,) = codec.feed(board.lift("e2"), 1.0)
    assert isinstance(ev, Snapshot)
    assert ev.board == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
    (ev,) = codec.feed(board.place("e4", "P"), 1.2)
    assert isinstance(ev, Snapshot)
    assert ev.board == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    assert board.receive(codec.encode_leds({"e2": 0xFF, "e4": 0xAA})) == to_wire("l")
    assert board.lit_corners() == set(led_positions("e2")) | set(led_positions("e4"))


def test_board_in_polled_mode_sends_no_report() -> None:
    board = MillenniumBoard()
    board.receive(MillenniumCodec().encode_eeprom_write(2, 1))
    assert board.lift("e2") == b""


def test_board_misuse_raises() -> None:
    board = MillenniumBoard()
    with pytest.raises(CodecUsageError):
        board.lift("e4")
    with pytest.raises(CodecUsageError):
        board.place("e4", "Z")


def test_decode_throughput_beats_wire_rate() -> None:
    """38400 baud 7O1 is 3840 bytes/s; the decoder must keep up with many boards' worth."""
    board = MillenniumBoard()
    frames = []
    for sq in ("e2", "d2", "g1", "b8"):
        frames.append(board.lift(sq))
    data = b"".join(frames) * 500
    codec = MillenniumCodec()
    start = time.perf_counter()
    events = codec.feed(data, 0.0)
    elapsed = time.perf_counter() - start
    assert len(events) == 2000
    assert len(data) / elapsed > 10 * 3840
