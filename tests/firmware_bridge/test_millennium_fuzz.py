"""Millennium fuzzing: device garbage never raises, a good frame after garbage is decoded,
and frames with a wrong check or a wrong parity bit are dropped and reported (2.1, 2.2)."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codecs.millennium import MillenniumCodec, to_wire
from firmware_bridge.sim.millennium_board import MillenniumBoard
from firmware_bridge.testing import dropped, feed_cut, snapshots

GOOD = MillenniumBoard().lift("e2")
GOOD_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
FRAMES = [GOOD, to_wire("v0101"), to_wire("l"), to_wire("x"), to_wire("w0203"), to_wire("r0203")]
#: a flush: more bytes than the longest frame, none of them a frame letter, so anything the
#: codec still holds is decided before the good frame
FLUSH = b"\x00" * 70


@settings(max_examples=300, deadline=None)
@given(garbage=st.binary(max_size=300), cuts=st.lists(st.integers(0, 2000), max_size=8))
def test_garbage_never_raises_and_a_good_frame_follows(garbage: bytes, cuts: list[int]) -> None:
    codec = MillenniumCodec(orientation="normal")
    data = garbage + FLUSH + GOOD
    events = feed_cut(codec, data, cuts)
    assert snapshots(events)[-1] == GOOD_BOARD
    assert codec.pending == 0
    decoded_bytes = sum(len(GOOD) for _ in snapshots(events))
    assert dropped(events) <= len(data) - len(GOOD)
    assert dropped(events) + decoded_bytes <= len(data)


@settings(max_examples=200, deadline=None)
@given(frame=st.sampled_from(FRAMES), cut=st.integers(1, 66))
def test_truncated_frame_is_reported_and_the_next_decoded(frame: bytes, cut: int) -> None:
    cut = min(cut, len(frame) - 1)
    codec = MillenniumCodec(orientation="normal")
    events = codec.feed(frame[:cut] + GOOD, 1.0)
    assert snapshots(events) == [GOOD_BOARD]
    assert dropped(events) == cut


@settings(max_examples=400, deadline=None)
@given(index=st.integers(0, len(GOOD) - 1), bit=st.integers(0, 7))
def test_flipped_bit_is_never_decoded_and_is_reported(index: int, bit: int) -> None:
    bad = bytearray(GOOD)
    bad[index] ^= 1 << bit
    codec = MillenniumCodec(orientation="normal")
    events = codec.feed(bytes(bad) + FLUSH + GOOD, 1.0)
    # one bit flip changes the parity of its byte: the corrupted frame never decodes
    assert snapshots(events) == [GOOD_BOARD]
    assert dropped(events) == len(bad) + len(FLUSH)


@settings(max_examples=200, deadline=None)
@given(
    cells=st.lists(st.sampled_from("KQRBNPkqrbnp."), min_size=64, max_size=64),
    wrong=st.integers(1, 255),
)
def test_wrong_check_with_good_parity_is_dropped(cells: list[str], wrong: int) -> None:
    text = "s" + "".join(cells)
    good = to_wire(text)
    check = int(good[-2:].translate(bytes(b & 0x7F for b in range(256))), 16)
    bad = to_wire(text)[:-2] + to_wire("%02X" % (check ^ wrong))[:2]
    codec = MillenniumCodec(orientation="rotated")  # the cells are in the documented order
    events = codec.feed(bad + good, 1.0)
    placement = chess.BaseBoard(None)
    for i, ch in enumerate(cells):
        if ch != ".":
            placement.set_piece_at(chess.square(i % 8, 7 - i // 8), chess.Piece.from_symbol(ch))
    assert snapshots(events) == [placement.board_fen()]
    assert dropped(events) == len(bad)


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(st.sampled_from([*FRAMES, GOOD[:30]]) | st.binary(max_size=20), max_size=12),
    cuts=st.lists(st.integers(0, 2000), max_size=12),
)
def test_chunking_does_not_change_what_is_decoded(parts: list[bytes], cuts: list[int]) -> None:
    data = b"".join(parts)
    whole = MillenniumCodec(orientation="normal")
    a = whole.feed(data, 1.0)
    cut = MillenniumCodec(orientation="normal")
    b = feed_cut(cut, data, cuts)
    assert snapshots(a) == snapshots(b)
    assert dropped(a) + whole.pending == dropped(b) + cut.pending
    assert (whole.version, whole.eeprom, whole.acks) == (cut.version, cut.eeprom, cut.acks)
