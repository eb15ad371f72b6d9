"""Millennium boards as shipped today (docs/eboard-protocols.md, "Millennium as shipped today").

- Plain 7-bit ASCII: the eONE and boards over Bluetooth LE send bit 7 clear. Sources:
  mono424/chesslinkdriver `lib/ChessLink.dart` (parity check off for the eONE,
  `checkParity: boardType != eONE`), domschl/python-mchess (masks bit 7), DGTCentaurMods'
  eONE emulation (plain ASCII).
- Lower-case check digits: chesslinkdriver `lib/ChessLinkMessage.dart` parses the check with
  `int.parse(hex, radix: 16)`, which takes either case.
- Square order h1 first (h1, g1 ... a1, h2 ... a8): chesslinkdriver `ChessLink.SQUARES`
  (ranks 1..8, files h..a); its LED frame `LEDPattern.getSquareIndices` puts the h1 corner
  at LED 0, the mirror of the maker's note, so the same h1-first frame holds for LEDs.
"""

from __future__ import annotations

import chess

from firmware_bridge.codecs.millennium import MillenniumCodec, check_digits
from firmware_bridge.sim.millennium_board import MillenniumBoard
from firmware_bridge.testing import dropped, snapshots

INITIAL = chess.STARTING_BOARD_FEN
M6_TEXT = "srnbqkbnrpppppppp" + "." * 32 + "PPPPPPPPRNBQKBNR73"


def cells_h1_first(placement: str) -> str:
    """A placement as chesslinkdriver's SQUARES order reads it: h1, g1 ... a1, h2 ... a8."""
    board = chess.BaseBoard(placement)
    out = []
    for rank in range(8):
        for file in range(7, -1, -1):
            piece = board.piece_at(chess.square(file, rank))
            out.append(piece.symbol() if piece else ".")
    return "".join(out)


def plain_frame(text: str) -> bytes:
    return (text + check_digits(text)).encode("ascii")


def test_plain_ascii_status_decodes_and_locks_the_link() -> None:
    data = M6_TEXT.encode("ascii")  # the spec's M6 with bit 7 clear in every byte
    for chunks in ([data], [data[i : i + 1] for i in range(len(data))]):
        codec = MillenniumCodec()
        events = [e for c in chunks for e in codec.feed(c, 1.0)]
        assert snapshots(events) == [INITIAL] and dropped(events) == 0
        assert codec.link == "plain"


def test_parity_link_still_checks_every_byte() -> None:
    codec = MillenniumCodec()
    codec.feed(MillenniumBoard().status_frame(), 0.0)
    assert codec.link == "parity"
    # the same frame sent plain: bytes of even 7-bit weight now break the link's parity
    events = codec.feed(M6_TEXT.encode("ascii"), 1.0)
    assert snapshots(events) == [] and dropped(events) > 0


def test_lower_case_check_digits_are_accepted() -> None:
    text = "v0201"
    check = check_digits(text).lower()
    codec = MillenniumCodec()
    assert codec.feed((text + check).encode("ascii"), 1.0) == []
    assert codec.version == (2, 1)


def test_a_board_seated_mid_game_reads_h1_first() -> None:
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    codec = MillenniumCodec()
    events = codec.feed(plain_frame("s" + cells_h1_first(after_e4)), 1.0)
    assert snapshots(events) == [after_e4]
    assert not codec.orientation_locked  # only an initial position locks the order


def test_h1_first_led_frame_matches_chesslinkdriver() -> None:
    # LEDPattern.getSquareIndices("h1") = [0, 1, 9, 10]; ("a8") = [70, 71, 79, 80]
    codec = MillenniumCodec()
    for square, leds in (("h1", [0, 1, 9, 10]), ("a8", [70, 71, 79, 80])):
        text = bytes(b & 0x7F for b in codec.encode_leds({square: 0xFF})).decode()
        lit = [i for i in range(81) if text[3 + 2 * i : 5 + 2 * i] == "FF"]
        assert lit == leds


def test_plain_ascii_board_round_trip() -> None:
    board = MillenniumBoard(plain_ascii=True)
    codec = MillenniumCodec()
    replies = board.receive(codec.encode_startup())
    assert all(b < 0x80 for b in replies)
    events = codec.feed(replies, 0.0)
    assert snapshots(events) == [INITIAL] and codec.version == (1, 1)
    assert codec.link == "plain" and not codec.rotated
    events = codec.feed(board.lift("e2"), 1.0) + codec.feed(board.place("e4", "P"), 2.0)
    assert snapshots(events)[-1] == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
