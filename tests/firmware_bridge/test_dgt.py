"""DGT codec against the spec's test vectors D1–D15 (`eboard-protocols.md` 1.10).

Every board → host sample is fed three ways (house style lesson 5): whole, one byte at a
time, and with junk before and after; the three must give the same events, and the junk must
be reported as dropped bytes.
"""

from __future__ import annotations

from collections.abc import Callable

import chess
import pytest

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_ack, clock_times
from rules.events import Event, Lift, Place, Sensor, Snapshot


def h(text: str) -> bytes:
    return bytes.fromhex(text)


D1 = h("4B 4D 42")
D2 = h("86 00 43 08 09 0A 0C 0B 0A 09 08" + " 07" * 8 + " 00" * 32 + " 01" * 8)
D2 += h("02 03 04 06 05 04 03 02")
D3 = h("86 00 43 02 03 04 05 06 04 03 02" + " 01" * 8 + " 00" * 32 + " 07" * 8)
D3 += h("08 09 0A 0B 0C 0A 09 08")
D4 = h("8E 00 05 34 00")
D5 = h("8E 00 05 24 01")
# d6 = 09: running, left lever up, bit 3 = the left clock's turn. Corrected from `...11`:
# DGT's 2015 header says bit 3 is the right's turn, but real recordings of a DGT board with
# a DGT 3000 (1,755 clock messages) set bit 3 with the left lever up and the left time
# running, and arnsholt/dgtdriver (src/main/java/org/riisholt/dgtdriver/BWTime.java,
# leftToMove = d6 & 0x08, rightToMove = d6 & 0x10) reads it so
# (docs/eboard-protocols.md, "DGT clock turn bits").
D6 = h("8D 00 0A 01 25 07 00 59 58 09")
D7 = h("93 00 05 01 0A")
D8 = h("91 00 08 31 32 33 34 35")
D9 = h("2B 03 03 09 00")
D10 = h("8D 00 0A 0A 10 09 0A 23 00 00")
D11 = h("8D 00 0A 0A 10 08 2A 00 35 00")
D12 = h("2B 0A 03 0A 00 05 00 00 05 00 01 00")
D13 = h("2B 0C 03 0C 41 52 42 49 54 45 52 20 00 00")
D14_END = h("2B 03 03 03 00")
D14_BEEP = h("2B 04 03 0B 10 00")
D15_ON = h("60 04 01 34 24 00")
D15_OFF = h("60 04 00 40 40 00")

INITIAL = chess.STARTING_BOARD_FEN
#: junk with and without bit 7: a stray byte, an unknown id (FF), a cut-short 8E header
JUNK_BEFORE = h("00 13 7F FF 55 8E 00")
JUNK_AFTER = h("21 FF 7F 00")
T = 5.0


def three_ways(
    sample: bytes, setup: Callable[[DgtCodec], None] = lambda c: None
) -> tuple[list[Event], list[DgtCodec]]:
    """Feed `sample` whole, byte by byte, and wrapped in junk; return the events and codecs.

    Asserts that the three give the same events and that the junk is reported as dropped.
    """
    codecs = []
    for _ in range(3):
        codec = DgtCodec()
        setup(codec)
        codecs.append(codec)
    whole = codecs[0].feed(sample, T)
    by_byte = [e for b in sample for e in codecs[1].feed(bytes([b]), T)]
    junked = codecs[2].feed(JUNK_BEFORE + sample + JUNK_AFTER, T) + codecs[2].flush(T + 1)
    assert by_byte == whole
    assert junked[0] == Sensor(
        t=T,
        status="dropped",
        bytes=len(JUNK_BEFORE),
        detail="bytes outside a message (6 bytes); unknown message ids (1 bytes)",
    )
    assert junked[1:-1] == whole
    assert junked[-1].to_dict() == {
        "t": T + 1,
        "type": "sensor",
        "status": "dropped",
        "bytes": len(JUNK_AFTER),
        "detail": "bytes outside a message (3 bytes); unknown message ids (1 bytes)",
    }
    for codec in codecs:
        assert codec.flush(T + 2) == []
    return whole, codecs


def fed(*samples: bytes) -> Callable[[DgtCodec], None]:
    def setup(codec: DgtCodec) -> None:
        for sample in samples:
            codec.feed(sample, 1.0)

    return setup


# -- host → board vectors -------------------------------------------------------------------


def test_D1_startup() -> None:
    codec = DgtCodec()
    out = codec.encode_startup()
    assert out[:3] == D1
    assert out == D1 + D9  # start-up then the clock version request (1.6)
    assert codec.clock_pending == "VERSION"


def test_D9_clock_version_request() -> None:
    assert DgtCodec().encode_clock_version() == D9


def test_D12_setnrun_five_minutes_left_running() -> None:
    assert DgtCodec().encode_clock_setnrun(300, 300, "left") == D12


def test_D12_by_colour_follows_clock_white() -> None:
    assert DgtCodec(clock_white="left").encode_clock_times(300, 300, "white") == D12
    right = DgtCodec(clock_white="right").encode_clock_times(300, 240, "white")
    assert right == h("2B 0A 03 0A 00 04 00 00 05 00 02 00")


def test_D13_dgt3000_text_silent() -> None:
    assert DgtCodec().encode_clock_text("ARBITER ") == D13
    assert DgtCodec().encode_clock_text("ARBITER") == D13  # padded to 8


def test_D14_end_and_beep() -> None:
    assert DgtCodec().encode_clock_end() == D14_END
    assert DgtCodec().encode_clock_beep(1.024) == D14_BEEP


def test_D15_revelation_leds() -> None:
    codec = DgtCodec(revelation=True)
    assert codec.encode_leds(["e2", "e4"]) == D15_ON
    assert codec.encode_leds_off() == D15_OFF
    assert codec.encode_leds(["e4"]) == h("60 04 01 24 24 00")


def test_D15_leds_follow_orientation() -> None:
    codec = DgtCodec(revelation=True, rotated=True)
    # turned board: e2 is index 63 - 52 = 11, e4 is 63 - 36 = 27
    assert codec.encode_leds(["e2", "e4"]) == h("60 04 01 0B 1B 00")


def test_D15_leds_refused_unless_revelation() -> None:
    with pytest.raises(CodecUsageError, match="Revelation"):
        DgtCodec().encode_leds(["e2", "e4"])
    with pytest.raises(CodecUsageError):
        DgtCodec().encode_leds_off()
    assert DgtCodec.is_revelation_name("PCS-REVII-081500")
    assert not DgtCodec.is_revelation_name("DGT_BT_12345")


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.encode_leds(["e9"]),
        lambda c: c.encode_leds([]),
        lambda c: c.encode_leds(["a1", "b2", "c3"]),
    ],
)
def test_bad_led_requests_are_usage_errors(call: Callable[[DgtCodec], bytes]) -> None:
    with pytest.raises(CodecUsageError):
        call(DgtCodec(revelation=True))


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.encode_clock_setnrun(-1, 300, "left"),
        lambda c: c.encode_clock_setnrun(300, 36000, "left"),
        lambda c: c.encode_clock_setnrun(300, 300, "white"),
        lambda c: c.encode_clock_times(300, 300, "left"),
        lambda c: c.encode_clock_text("TOO LONG!"),
        lambda c: c.encode_clock_text("café"),
        lambda c: c.encode_clock_text("OK", beep=16),
        lambda c: c.encode_clock_beep(0),
        lambda c: c.encode_clock_beep(9.0),
    ],
)
def test_bad_clock_requests_are_usage_errors(call: Callable[[DgtCodec], bytes]) -> None:
    with pytest.raises(CodecUsageError):
        call(DgtCodec())


def test_clock_white_must_be_a_side() -> None:
    with pytest.raises(CodecUsageError):
        DgtCodec(clock_white="white")  # type: ignore[arg-type]


# -- board → host vectors -------------------------------------------------------------------


def test_D2_initial_position_normal() -> None:
    events, codecs = three_ways(D2)
    assert events == [Snapshot(t=T, board=INITIAL)]
    for codec in codecs:
        assert codec.rotated is False
        assert codec.orientation_locked
        assert codec.board == INITIAL


def test_D3_initial_position_rotated() -> None:
    events, codecs = three_ways(D3)
    assert events == [Snapshot(t=T, board=INITIAL)]
    for codec in codecs:
        assert codec.rotated is True
        assert codec.orientation_locked


def test_D2_D3_orientation_locked_for_the_game() -> None:
    codec = DgtCodec()
    codec.feed(D3, 1.0)
    # a later dump of the initial position the other way round does not flip it
    turned = "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"  # White on ranks 7-8, kings on d
    assert codec.feed(D2, 2.0) == [Snapshot(t=2.0, board=turned)]
    assert codec.rotated is True
    codec.unlock_orientation()
    codec.feed(D2, 3.0)
    assert codec.rotated is False


def test_D2_orientation_set_by_caller_wins() -> None:
    codec = DgtCodec()
    codec.rotated = True
    codec.feed(D2, 1.0)
    assert codec.rotated is True


def test_D4_lift_e2() -> None:
    events, _ = three_ways(D4, fed(D2))
    assert events == [Lift(t=T, square="e2", piece="P")]


def test_D4_lift_without_board_image_has_no_piece() -> None:
    events, _ = three_ways(D4)
    assert events == [Lift(t=T, square="e2")]


def test_D4_lift_on_rotated_board() -> None:
    events, _ = three_ways(D4, fed(D3))
    assert events == [Lift(t=T, square="d7", piece="p")]  # index 52 = 63 - 11


def test_D5_place_e4() -> None:
    events, codecs = three_ways(D5, fed(D2, D4))
    assert events == [Place(t=T, square="e4", piece="P")]
    for codec in codecs:
        assert codec.board == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_D6_clock_times() -> None:
    events, codecs = three_ways(D6)
    assert events == []  # the first times message only sets the lever baseline
    for codec in codecs:
        clock = codec.clock
        assert clock is not None
        assert (clock.right_s, clock.left_s) == (1 * 3600 + 25 * 60 + 7, 59 * 60 + 58)
        assert clock.running and clock.turn == "left" and clock.lever == "left"
        assert not (clock.left_flag or clock.right_flag or clock.battery_low)
        assert codec.clock_present is True


def test_D7_version() -> None:
    events, codecs = three_ways(D7)
    assert events == []
    assert all(codec.version == (1, 10) for codec in codecs)


def test_D8_serial() -> None:
    events, codecs = three_ways(D8)
    assert events == []
    assert all(codec.serial == "12345" for codec in codecs)


def test_D10_clock_version_ack() -> None:
    def started(codec: DgtCodec) -> None:
        codec.encode_startup()  # the clock version request is pending

    events, codecs = three_ways(D10, started)
    assert events == []
    for codec in codecs:
        assert codec.clock_version == (2, 3)
        assert codec.clock_pending is None
        assert codec.clock_errors == []


def test_D11_ok_button() -> None:
    events, codecs = three_ways(D11)
    assert events == []
    assert all(codec.clock_buttons == [(T, "ok")] for codec in codecs)


# -- the board model speaks the same vectors ------------------------------------------------


def test_model_answers_the_vectors() -> None:
    board = DgtBoardModel()
    assert board.receive(D1) == D7 + D2  # 4B: no reply, 4D: version, 42: dump
    assert board.receive(h("45")) == D8
    assert DgtBoardModel(rotated=True).receive(h("42")) == D3
    assert board.lift("e2") == D4
    assert board.place("e4", "P") == D5
    assert clock_times(3598, 5107, running=True, turn="left") == D6
    assert board.receive(D9) == D10
    assert clock_ack(0x10, 0x88, 0x00, 0x35) == D11


def test_model_is_silent_outside_update_mode() -> None:
    board = DgtBoardModel()
    assert board.lift("e2") == b""
    assert board.receive(D9) == b""  # ACKs come only in update modes (1.7)
    assert board.piece_at("e2") is None


def test_model_applies_clock_and_led_commands() -> None:
    board = DgtBoardModel()
    board.receive(h("4B"))
    assert board.receive(D12[:5]) == b""  # split command: waits for the rest
    assert board.receive(D12[5:]) == clock_ack(0x10, 0x0A)
    assert board.clock_set == (300, 300, "left")
    board.receive(D13)
    assert board.clock_text == "ARBITER "
    board.receive(D14_END)
    assert board.clock_text is None
    board.receive(D15_ON)
    assert board.leds == (0x34, 0x24)
    board.receive(D15_OFF)
    assert board.leds == ()


# -- 1.6: odd update orders -----------------------------------------------------------------


def test_sliding_queen_updates_in_order() -> None:
    """Queen c1→c4 takes a pawn, sliding over c2 and c3 (1.6): every update, in order."""
    board = DgtBoardModel("4k3/8/8/8/2p5/8/8/2Q1K3")
    board.receive(h("4B"))
    dump = board.receive(h("42"))
    stream = b"".join(
        [
            board.lift("c4"),
            board.place("c2", "Q"),
            board.place("c3", "Q"),
            board.lift("c1"),
            board.lift("c2"),
            board.place("c4", "Q"),
            board.lift("c3"),
        ]
    )
    events, codecs = three_ways(stream, fed(dump))
    assert events == [
        Lift(t=T, square="c4", piece="p"),
        Place(t=T, square="c2", piece="Q"),
        Place(t=T, square="c3", piece="Q"),
        Lift(t=T, square="c1", piece="Q"),
        Lift(t=T, square="c2", piece="Q"),
        Place(t=T, square="c4", piece="Q"),
        Lift(t=T, square="c3", piece="Q"),
    ]
    for codec in codecs:
        assert codec.board == "4k3/8/8/8/2Q5/8/8/4K3"


def test_magic_pieces_are_unknown() -> None:
    events, _ = three_ways(h("8E 00 05 1C 0D 8E 00 05 1D 0E 8E 00 05 1E 0F"))
    assert [e.to_dict() for e in events] == [
        {"t": T, "type": "place", "square": sq, "piece": "?"} for sq in ("e5", "f5", "g5")
    ]


def test_feeding_something_else_than_bytes_is_a_usage_error() -> None:
    with pytest.raises(CodecUsageError):
        DgtCodec().feed(5, 1.0)  # type: ignore[arg-type]
    assert DgtCodec().feed(bytearray(D7), 1.0) == []


def test_model_clock_messages() -> None:
    board = DgtBoardModel()
    assert board.receive(h("41")) == clock_times(0, 0, running=False, no_clock=True)
    assert board.clock_times(300, 300, lever="right") == b""  # not in update mode
    board.receive(h("4B") + D12)
    # the raised lever's clock runs: the turn bits follow it (bit 4 = right, as real clocks)
    assert board.clock_times(299, 300, lever="right") == clock_times(
        299, 300, lever="right", turn="right"
    )
    assert board.clock_times(299, 300, lever="right")[-1] == 0x01 | 0x02 | 0x10
    assert board.clock_times(299, 300, lever="left")[-1] == 0x01 | 0x08
    assert board.receive(h("41")) == clock_times(300, 300, lever="left", turn="left")
    assert DgtBoardModel(clock_version=None).receive(h("4B") + D9) == b""


def test_reconnect_reports_a_message_cut_short() -> None:
    codec = DgtCodec()
    codec.feed(D2[:20], 1.0)
    codec.encode_startup()
    assert codec.feed(D7, 2.0) == [
        Sensor(
            t=2.0, status="dropped", bytes=20, detail="message cut short by a reconnect (20 bytes)"
        )
    ]


def test_clock_turn_bits_follow_the_real_dgt3000() -> None:
    """d6 bit 3 = left's turn, bit 4 = right's (arnsholt/dgtdriver BWTime.java; real DGT 3000
    recordings: bit 3 comes with the left lever up, bit 4 with bit 1 set)."""
    from firmware_bridge.codecs.dgt_clock import ClockStatus, parse_bwtime

    left = parse_bwtime(bytes.fromhex("01250700595809"), 1.0)
    right = parse_bwtime(bytes.fromhex("01250700595813"), 1.0)
    assert isinstance(left, ClockStatus) and isinstance(right, ClockStatus)
    assert (left.turn, left.lever) == ("left", "left")
    assert (right.turn, right.lever) == ("right", "right")
    stopped = parse_bwtime(bytes.fromhex("01250700595802"), 1.0)
    assert isinstance(stopped, ClockStatus) and stopped.turn is None and not stopped.running


def test_battery_request_and_reply() -> None:
    codec = DgtCodec()
    board = DgtBoardModel()
    assert codec.encode_battery_request() == h("4C")
    codec.feed(board.receive(codec.encode_battery_request()), 1.0)
    assert codec.battery_percent == 87  # the model's A0 reply
