"""Fuzzing the DGT codec (house style lesson 5, `eboard-protocols.md` 1.3): garbage,
truncated and corrupted messages never make `feed` raise, every byte is accounted for, and a
valid message after any garbage is decoded."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.codecs.dgt_framing import DgtFramer, Dropped, Frame
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_ack, clock_times
from firmware_bridge.testing import feed_chunks, pieces
from rules.events import Lift, Place, Press, Sensor, Snapshot


def _valid_messages() -> list[bytes]:
    board = DgtBoardModel("r3k2r/8/8/3q4/8/8/8/R3K2R")
    board.receive(b"\x4b")
    return [
        board.receive(b"\x42"),
        board.receive(b"\x45"),
        board.receive(b"\x4d"),
        board.receive(b"\x47"),
        board.receive(b"\x4c"),
        board.receive(b"\x55"),
        board.lift("d5"),
        board.place("d4", "q"),
        clock_times(300, 295, lever="right", turn="left"),
        clock_ack(0x10, 0x0A),
    ]


VALID = _valid_messages()
#: the message decoded after the garbage, and what it must give
PROBE = bytes.fromhex("8E 00 05 24 01")
PROBE_EVENT = Place(t=1.0, square="e4", piece="P")

messages = st.sampled_from(VALID)
chunk_sizes = st.lists(st.integers(min_value=1, max_value=70), min_size=1, max_size=40)


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A valid message truncated, with a byte changed, inserted or removed."""
    msg = bytearray(draw(messages))
    kind = draw(st.sampled_from(["truncate", "change", "insert", "delete"]))
    i = draw(st.integers(min_value=0, max_value=len(msg) - 1))
    if kind == "truncate":
        del msg[i:]
    elif kind == "change":
        msg[i] = draw(st.integers(0, 255))
    elif kind == "insert":
        msg.insert(i, draw(st.integers(0, 255)))
    else:
        del msg[i]
    return bytes(msg)


streams = st.lists(st.one_of(st.binary(max_size=80), messages, damaged()), max_size=12).map(
    b"".join
)


@settings(max_examples=300)
@given(data=streams, sizes=chunk_sizes)
def test_framer_accounts_for_every_byte(data: bytes, sizes: list[int]) -> None:
    whole = DgtFramer()
    items = whole.push(data)
    framed = sum(i.size for i in items if isinstance(i, Frame))
    dropped = sum(i.count for i in items if isinstance(i, Dropped))
    assert framed + dropped + whole.partial == len(data)
    framer = DgtFramer()
    parts = [i for chunk in pieces(data, sizes) for i in framer.push(chunk)]
    assert [i for i in parts if isinstance(i, Frame)] == [i for i in items if isinstance(i, Frame)]
    assert sum(i.count for i in parts if isinstance(i, Dropped)) == dropped


@settings(max_examples=300)
@given(data=streams, sizes=chunk_sizes)
def test_feed_never_raises_and_ignores_chunking(data: bytes, sizes: list[int]) -> None:
    whole = DgtCodec()
    events = whole.feed(data, 1.0) + whole.flush(1.0)
    cut = DgtCodec()
    assert feed_chunks(cut, data, sizes) == events
    for event in events:
        assert isinstance(event, Lift | Place | Snapshot | Sensor | Press)


@settings(max_examples=300)
@given(garbage=streams, sizes=chunk_sizes)
def test_valid_message_after_garbage_is_decoded(garbage: bytes, sizes: list[int]) -> None:
    codec = DgtCodec()
    events = feed_chunks(codec, garbage + PROBE, sizes, flush=False)
    assert events[-1] == PROBE_EVENT
    reported = sum(e.bytes or 0 for e in events if isinstance(e, Sensor))
    assert reported <= len(garbage)


@given(garbage=st.binary(min_size=1, max_size=200).map(lambda b: bytes(x & 0x7F for x in b)))
def test_bytes_outside_messages_are_reported_exactly(garbage: bytes) -> None:
    codec = DgtCodec()
    events = codec.feed(garbage + PROBE, 1.0)
    assert events == [
        Sensor(
            t=1.0,
            status="dropped",
            bytes=len(garbage),
            detail=f"bytes outside a message ({len(garbage)} bytes)",
        ),
        PROBE_EVENT,
    ]


@given(message=damaged())
def test_damaged_message_then_valid_one(message: bytes) -> None:
    codec = DgtCodec()
    events = codec.feed(message, 1.0) + codec.feed(PROBE, 1.0)
    assert events[-1] == PROBE_EVENT


@given(cut=st.integers(min_value=1, max_value=66))
def test_truncated_dump_is_dropped_whole(cut: int) -> None:
    dump = VALID[0]
    codec = DgtCodec()
    assert codec.feed(dump[:cut], 1.0) == []
    events = codec.feed(PROBE, 1.0)
    assert events[0] == Sensor(
        t=1.0, status="dropped", bytes=cut, detail=f"bytes outside a message ({cut} bytes)"
    )
    assert events[1:] == [PROBE_EVENT]


@given(index=st.integers(min_value=3, max_value=66), code=st.integers(0x10, 0x7F))
def test_dump_with_a_bad_piece_code_is_dropped(index: int, code: int) -> None:
    dump = bytearray(VALID[0])
    dump[index] = code
    codec = DgtCodec()
    events = codec.feed(bytes(dump) + PROBE, 1.0)
    assert [type(e) for e in events] == [Sensor, Place]
    assert events[0].bytes == 67  # type: ignore[attr-defined]
    assert codec.board is None  # the bad dump did not reach the image


def test_field_update_off_the_board_is_dropped() -> None:
    codec = DgtCodec()
    events = codec.feed(bytes.fromhex("8E 00 05 40 01") + PROBE, 1.0)
    assert events == [
        Sensor(
            t=1.0, status="dropped", bytes=5, detail="field update 40 01 out of range (5 bytes)"
        ),
        PROBE_EVENT,
    ]
