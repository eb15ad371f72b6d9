"""Chessnut fuzzing (`eboard-protocols.md` 4.2): device garbage never raises, a good message
after garbage is decoded, and corrupted messages are dropped and reported where the format
lets anyone tell (it has no checksum: a nibble that stays a valid code is misread)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from firmware_bridge.testing import dropped, expand, feed_cut, snapshots
from rules.events import Event, Sensor

GOOD = ChessnutBoard(reporting=True).lift("e2")
GOOD_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
#: longer than any message, starting none and never a square code: it ends whatever came before
FLUSH = b"\xff" * 40


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=300), cuts=st.lists(st.integers(0, 500), max_size=8))
def test_garbage_never_raises_and_a_good_message_follows(garbage: bytes, cuts: list[int]) -> None:
    codec = ChessnutCodec(orientation="normal")
    data = garbage + FLUSH + GOOD
    events = feed_cut(codec, data, cuts)
    assert snapshots(events)[-1] == GOOD_BOARD
    assert codec.pending == 0
    assert dropped(events) <= len(data) - len(GOOD)


@settings(max_examples=100, deadline=None)
@given(cut=st.integers(1, len(GOOD) - 1))
def test_truncated_message_is_reported_and_the_next_decoded(cut: int) -> None:
    codec = ChessnutCodec(orientation="normal")
    events = codec.feed(GOOD[:cut] + FLUSH + GOOD, 1.0)
    if cut < 34:  # the squares are cut: never decoded, every byte reported
        assert snapshots(events) == [GOOD_BOARD]
        assert dropped(events) == cut + len(FLUSH)
    else:  # only the unchecked tail is cut: it is taken from the next bytes
        assert snapshots(events) == [GOOD_BOARD, GOOD_BOARD]
        assert dropped(events) == len(FLUSH) - (len(GOOD) - cut)


@settings(max_examples=400, deadline=None)
@given(index=st.integers(0, len(GOOD) - 1), bit=st.integers(0, 7))
def test_flipped_bit_is_dropped_or_misreads_one_square(index: int, bit: int) -> None:
    bad = bytearray(GOOD)
    bad[index] ^= 1 << bit
    codec = ChessnutCodec(orientation="normal")
    events = codec.feed(bytes(bad) + FLUSH + GOOD, 1.0)
    seen = snapshots(events)
    assert seen[-1] == GOOD_BOARD
    if index < 2 or (2 <= index < 34 and (bad[index] & 0x0F > 0x0C or bad[index] >> 4 > 0x0C)):
        # a broken header or an impossible square code: never decoded, reported
        assert seen == [GOOD_BOARD]
        assert dropped(events) >= len(bad)
    elif 2 <= index < 34:
        (misread, _) = seen
        diff = sum(1 for p, q in zip(expand(misread), expand(GOOD_BOARD), strict=True) if p != q)
        assert diff == 1
    else:
        assert seen == [GOOD_BOARD, GOOD_BOARD]  # the tail is not part of the position


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from([GOOD, GOOD[:20], bytes.fromhex("2A 02 DF 00"), FLUSH])
        | st.binary(max_size=20),
        max_size=12,
    ),
    cuts=st.lists(st.integers(0, 1000), max_size=12),
)
def test_chunking_does_not_change_what_is_decoded(parts: list[bytes], cuts: list[int]) -> None:
    data = b"".join(parts)
    whole = ChessnutCodec(orientation="normal")
    a = whole.feed(data, 1.0)
    cut = ChessnutCodec(orientation="normal")
    b = feed_cut(cut, data, cuts)
    assert snapshots(a) == snapshots(b)
    assert dropped(a) + whole.pending == dropped(b) + cut.pending
    assert whole.battery == cut.battery


def test_events_are_the_same_however_the_reads_are_cut() -> None:
    """Issue 17 (D11): garbage, positions and battery replies cut at random places give the
    same events, drop reports included, as the whole stream fed at once."""
    import random

    from firmware_bridge.codecs.chessnut import ChessnutCodec
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    rng = random.Random(11)
    board = ChessnutBoard()
    stream = bytearray()
    for square, piece in (("e2", None), ("e4", "P"), ("e7", None), ("e5", "p")):
        stream += rng.randbytes(rng.randrange(0, 30))
        stream += board.lift(square) if piece is None else board.place(square, piece)
        stream += bytes.fromhex("2A 02 DF 00")
    stream += rng.randbytes(7)
    whole = ChessnutCodec()
    expected = whole.feed(bytes(stream), 1.0) + whole.flush(1.0)
    assert any(isinstance(e, Sensor) for e in expected)
    for _ in range(20):
        codec = ChessnutCodec()
        events: list[Event] = []
        pos = 0
        while pos < len(stream):
            step = rng.randrange(1, 50)
            events += codec.feed(bytes(stream[pos : pos + step]), 1.0)
            pos += step
        assert events + codec.flush(1.0) == expected


def _byte_at_a_time(data: bytes) -> tuple[list[Event], ChessnutCodec]:
    codec = ChessnutCodec(orientation="normal")
    events: list[Event] = []
    for i in range(len(data)):
        events += codec.feed(data[i : i + 1], 1.0)
    return events + codec.flush(1.0), codec


def test_a_reply_cut_short_by_a_position_is_dropped_however_the_reads_are_cut() -> None:
    """Issue 17 (D11), the report's 40 bytes: a stored-games reply cut short (`32 01`), then a
    whole position. Its type byte `01` ends the short reply: fed at once, the position wins;
    a byte at a time, the reply was taken whole before the position's `24` came, and the
    position was lost (37 bytes reported dropped, no snapshot)."""
    data = b"\x32\x01" + ChessnutBoard().position_message()
    whole = ChessnutCodec(orientation="normal")
    expected = whole.feed(data, 1.0) + whole.flush(1.0)
    assert snapshots(expected) == ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"]
    assert dropped(expected) == 2 and whole.stored_games is None
    events, codec = _byte_at_a_time(data)
    assert events == expected
    assert codec.stored_games is None


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from(
            [GOOD, GOOD[:20], b"\x32\x01", b"\x32\x01\x05", b"\x2a\x02", b"\x01", b"\x01\x24"]
        )
        | st.binary(max_size=12),
        max_size=10,
    )
)
def test_byte_at_a_time_gives_the_events_of_one_feed(parts: list[bytes]) -> None:
    """Whole messages, their beginnings and header bytes in any order: the events (drop
    reports included, with a final flush) do not depend on the reads being one byte each."""
    data = b"".join(parts)
    whole = ChessnutCodec(orientation="normal")
    expected = whole.feed(data, 1.0) + whole.flush(1.0)
    events, codec = _byte_at_a_time(data)
    assert events == expected
    assert (codec.stored_games, codec.battery, codec.pending) == (
        whole.stored_games,
        whole.battery,
        whole.pending,
    )
