"""Certabo and Sentio fuzzing (`eboard-protocols.md` 3.1): device garbage never raises, a good
record after garbage is decoded, and corrupted records are dropped and reported, or (a digit
turned into another digit: the format has no check) misread on one square only."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codecs.certabo import CertaboCodec, SentioCodec
from firmware_bridge.sim.certabo_board import CertaboBoard, SentioBoard
from firmware_bridge.testing import dropped, expand, feed_cut, snapshots

BOARD = CertaboBoard(line_break_every=64)
CALIBRATION = BOARD.calibration()
GOOD = BOARD.lift("e2")
GOOD_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
SENTIO_GOOD = SentioBoard().lift("e2")
SENTIO_BOARD = "????????/????????/8/8/8/8/????1???/????????"


def squares_differing(a: str, b: str) -> int:
    return sum(1 for p, q in zip(expand(a), expand(b), strict=True) if p != q)


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=400), cuts=st.lists(st.integers(0, 3000), max_size=8))
def test_garbage_never_raises_and_a_good_record_follows(garbage: bytes, cuts: list[int]) -> None:
    codec = CertaboCodec(CALIBRATION, orientation="normal", history=1)
    events = feed_cut(codec, garbage + GOOD, cuts)
    assert snapshots(events)[-1] == GOOD_BOARD
    assert codec.pending == 0
    sentio = SentioCodec()
    events = feed_cut(sentio, garbage + SENTIO_GOOD, cuts)
    assert snapshots(events)[-1] == SENTIO_BOARD


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(1, len(GOOD) - 1))
def test_truncated_record_is_reported_and_the_next_decoded(cut: int) -> None:
    codec = CertaboCodec(CALIBRATION, orientation="normal", history=1)
    events = codec.feed(GOOD[:cut] + GOOD, 1.0)
    assert snapshots(events) == [GOOD_BOARD]
    assert dropped(events) == cut


@settings(max_examples=500, deadline=None)
@given(index=st.integers(0, len(GOOD) - 1), bit=st.integers(0, 7))
def test_flipped_bit_is_dropped_or_misreads_one_square(index: int, bit: int) -> None:
    bad = bytearray(GOOD)
    bad[index] ^= 1 << bit
    codec = CertaboCodec(CALIBRATION, orientation="normal", history=1)
    events = codec.feed(bytes(bad) + GOOD, 1.0)
    seen = snapshots(events)
    assert seen[-1] == GOOD_BOARD
    if dropped(events) == 0:
        # a digit became another digit: one identifier misread, which the table may not know
        assert len(seen) in (1, 2)
        assert squares_differing(seen[0], GOOD_BOARD) <= 1
    else:
        assert seen == [GOOD_BOARD]
        assert dropped(events) >= len(bad) - 2


@settings(max_examples=200, deadline=None)
@given(index=st.integers(0, len(SENTIO_GOOD) - 1), bit=st.integers(0, 7))
def test_sentio_flipped_bit_misreads_one_rank_at_most(index: int, bit: int) -> None:
    bad = bytearray(SENTIO_GOOD)
    bad[index] ^= 1 << bit
    codec = SentioCodec()
    events = codec.feed(bytes(bad) + SENTIO_GOOD, 1.0)
    seen = snapshots(events)
    assert seen[-1] == SENTIO_BOARD
    for board in seen[:-1]:
        diff = [
            i
            for i, (p, q) in enumerate(zip(expand(board), expand(SENTIO_BOARD), strict=True))
            if p != q
        ]
        assert len({i // 8 for i in diff}) <= 1


PIECES = [GOOD, BOARD.record(), b"L\r\n", b"D", b"\x00junk\n", b":1 2 3 \r\n", GOOD[:200]]


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(st.sampled_from(PIECES) | st.binary(max_size=20), max_size=12),
    cuts=st.lists(st.integers(0, 20000), max_size=12),
)
def test_chunking_does_not_change_what_is_decoded(parts: list[bytes], cuts: list[int]) -> None:
    data = b"".join(parts)
    whole = CertaboCodec(CALIBRATION, orientation="normal")
    a = whole.feed(data, 1.0)
    cut = CertaboCodec(CALIBRATION, orientation="normal")
    b = feed_cut(cut, data, cuts)
    assert snapshots(a) == snapshots(b)
    assert dropped(a) + whole.pending == dropped(b) + cut.pending
    assert whole.led_kind == cut.led_kind
