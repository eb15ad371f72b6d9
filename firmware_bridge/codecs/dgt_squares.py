"""DGT square numbering and piece codes (`eboard-protocols.md` 1.4, 1.5).

The board numbers its squares 0…63 row by row *as seen with the connector on the player's
left*, whatever the players do. With White on that side (``normal``) index 0 is a8 and
``index = (8 - rank) * 8 + file``; with the board turned 180° (``rotated``) index 0 is h1,
i.e. the normal square of ``63 - index``. These helpers keep that arithmetic in one place so
the codec, its LED commands and the board model can never disagree on it.
"""

from __future__ import annotations

import chess

from firmware_bridge.codecs.placement import cells_to_placement

#: piece code → FEN letter (1.5). Order is R, N, B, K, Q: 05/0B are kings, 06/0C queens.
#: 0D–0F are the "magic pieces" (draw, white wins, black wins): tokens, reported as "?".
CODE_TO_LETTER: dict[int, str] = {
    0x01: "P",
    0x02: "R",
    0x03: "N",
    0x04: "B",
    0x05: "K",
    0x06: "Q",
    0x07: "p",
    0x08: "r",
    0x09: "n",
    0x0A: "b",
    0x0B: "k",
    0x0C: "q",
    0x0D: "?",
    0x0E: "?",
    0x0F: "?",
}
#: FEN letter → piece code, for the board model (magic pieces are written as 0D, "draw").
LETTER_TO_CODE: dict[str, int] = {
    letter: code for code, letter in CODE_TO_LETTER.items() if letter != "?"
}
LETTER_TO_CODE["?"] = 0x0D
EMPTY = 0x00
#: the highest valid piece code; 10–7F are not pieces and make a frame garbage
MAX_CODE = 0x0F


def index_to_square(index: int, rotated: bool) -> chess.Square:
    """The chess square (python-chess numbering) that board index `index` reports (1.4)."""
    if rotated:
        index = 63 - index
    return chess.square(index % 8, 7 - index // 8)


def square_to_index(square: chess.Square, rotated: bool) -> int:
    """The board index of `square`, the inverse of `index_to_square` (1.4, 1.9 LEDs)."""
    index = (7 - chess.square_rank(square)) * 8 + chess.square_file(square)
    return 63 - index if rotated else index


def placement_from_codes(codes: bytes | bytearray | list[int], rotated: bool) -> str:
    """The FEN piece placement shown by 64 piece codes in board index order."""
    board = ["."] * 64
    for index, code in enumerate(codes):
        if code != EMPTY:
            board[index_to_square(index, rotated)] = CODE_TO_LETTER[code]
    return cells_to_placement(
        [board[chess.square(f, r)] for r in range(7, -1, -1) for f in range(8)]
    )


def codes_from_placement(placement: str, rotated: bool) -> bytes:
    """64 piece codes in board index order for a FEN piece placement (board model, tests).

    Raises:
        ValueError: the placement is not 8 ranks of 8 squares of known letters.
    """
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise ValueError(f"placement {placement!r} must have 8 ranks")
    codes = [EMPTY] * 64
    for row, text in enumerate(ranks):
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
                continue
            if ch not in LETTER_TO_CODE or file > 7:
                raise ValueError(f"placement {placement!r}: bad rank {8 - row}")
            codes[square_to_index(chess.square(file, 7 - row), rotated)] = LETTER_TO_CODE[ch]
            file += 1
        if file != 8:
            raise ValueError(f"placement {placement!r}: rank {8 - row} is not 8 squares")
    return bytes(codes)
