"""The board side of the Certabo and Tabutronic Sentio protocols (`eboard-protocols.md` 3).

`CertaboBoard` owns a set of RFID-tagged pieces and a placement of them; `record()` is the
line the board streams (`:` + 320 numbers + ` \\r\\n`, squares a8 ... h1 of its own frame,
so h1 first when it is seated the other way round). `lift`, `place` and `set_placement`
return the record after the change. It can break lines inside records the way captured data
shows (a bare LF every N characters, even inside numbers) and give weak reads on chosen
squares (`0 0 56 0 0`-like groups). `receive(data)` takes the host's 8-byte LED commands; the
board sends nothing back. `SentioBoard` is the occupancy-only Sentio (3.4).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import chess

from firmware_bridge.codecs.certabo_calibration import EMPTY, CertaboCalibration, Ident
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.sim.held_board import HeldBoard

#: pieces of a standard set, plus the spare queen of each colour picochess calibrates
SET_COUNTS: dict[str, int] = {
    "K": 1, "Q": 2, "R": 2, "B": 2, "N": 2, "P": 8,
    "k": 1, "q": 2, "r": 2, "b": 2, "n": 2, "p": 8,
}  # fmt: skip
CALIBRATION_PLACEMENT = "rnbqkbnr/pppppppp/3q4/8/8/3Q4/PPPPPPPP/RNBQKBNR"


def make_tags(extra: Mapping[str, int] | None = None) -> dict[str, list[Ident]]:
    """A deterministic tag set: letter -> identifiers, `SET_COUNTS` plus `extra` pieces."""
    counts = dict(SET_COUNTS)
    for letter, n in (extra or {}).items():
        counts[letter] = counts.get(letter, 0) + n
    tags: dict[str, list[Ident]] = {}
    serial = 0
    for letter, n in counts.items():
        tags[letter] = []
        for _ in range(n):
            serial += 1
            tags[letter].append(
                (3, 0, 100 + serial % 100, 80 + serial // 100, 1 + serial * 7 % 255)
            )
    return tags


def _insert_breaks(body: bytes, every: int) -> bytes:
    if every <= 0:
        return body
    return b"\n".join(body[i : i + every] for i in range(0, len(body), every))


class CertaboBoard:
    """A virtual Certabo board with a tagged piece set."""

    def __init__(
        self,
        placement: str = chess.STARTING_BOARD_FEN,
        *,
        rotated: bool = False,
        tags: Mapping[str, Sequence[Ident]] | None = None,
        line_break_every: int = 0,
    ) -> None:
        self.rotated = rotated
        self.tags: dict[str, list[Ident]] = {k: list(v) for k, v in (tags or make_tags()).items()}
        self.line_break_every = line_break_every
        #: square (python-chess number) -> the tag of the piece standing there
        self.on: dict[int, Ident] = {}
        #: the LED bitmap as last received (8 bytes, the board's own frame)
        self.leds = bytes(8)
        self._rx = bytearray()
        self.set_placement(placement)

    def calibration(self) -> CertaboCalibration:
        """The calibration that knows every tag of this set (as if all had been calibrated)."""
        return CertaboCalibration({i: letter for letter, ids in self.tags.items() for i in ids})

    # ---- placing pieces ----------------------------------------------------------------

    def _free_tag(self, letter: str, keep: Collection[Ident]) -> Ident:
        for ident in self.tags.get(letter, []):
            if ident not in keep:
                return ident
        raise CodecUsageError(f"the set has no {letter!r} left to put down")

    def lift(self, square: str) -> bytes:
        """Take the piece off `square`; return the next record."""
        sq = chess.parse_square(square)
        if sq not in self.on:
            raise CodecUsageError(f"there is no piece on {square} to lift")
        del self.on[sq]
        return self.record()

    def place(self, square: str, piece: str) -> bytes:
        """Put a `piece` (FEN letter) of the set on `square`, replacing what stood there."""
        if piece not in self.tags:
            raise CodecUsageError(f"not a piece letter: {piece!r}")
        sq = chess.parse_square(square)
        self.on.pop(sq, None)
        self.on[sq] = self._free_tag(piece, set(self.on.values()))
        return self.record()

    def set_placement(self, placement: str) -> bytes:
        """Set up a FEN placement, keeping each piece that stays where it is."""
        wanted = chess.BaseBoard(placement).piece_map()
        letters = {sq: self._letter(ident) for sq, ident in self.on.items()}
        kept = {sq: self.on[sq] for sq, p in wanted.items() if letters.get(sq) == p.symbol()}
        for sq, p in sorted(wanted.items()):
            if sq not in kept:
                kept[sq] = self._free_tag(p.symbol(), set(kept.values()))
        self.on = kept
        return self.record()

    def _letter(self, ident: Ident) -> str:
        return next(k for k, ids in self.tags.items() if ident in ids)

    # ---- what the board sends ----------------------------------------------------------

    def idents(self, weak: Collection[str] = ()) -> list[Ident]:
        """The 64 identifiers in the order the board sends them; `weak` squares read badly."""
        weak_squares = {chess.parse_square(s) for s in weak}
        out = []
        for rank in range(7, -1, -1):
            for file in range(8):
                sq = chess.square(file, rank)
                ident = self.on.get(sq, EMPTY)
                if sq in weak_squares and ident != EMPTY:
                    ident = (0, 0, ident[2], 0, 0)
                out.append(ident)
        return out[::-1] if self.rotated else out

    def record(self, weak: Collection[str] = ()) -> bytes:
        """The record line the board streams for the current placement."""
        numbers = " ".join(str(n) for ident in self.idents(weak) for n in ident)
        body = _insert_breaks(numbers.encode("ascii"), self.line_break_every)
        return b":" + body + b" \r\n"

    # ---- what the board hears ----------------------------------------------------------

    def receive(self, data: bytes) -> bytes:
        """Take LED commands (8 bytes each, 3.3); the board answers nothing."""
        self._rx += data
        while len(self._rx) >= 8:
            self.leds = bytes(self._rx[:8])
            del self._rx[:8]
        return b""

    def lit_squares(self) -> set[str]:
        """Squares whose LED is on, named in the normal (White-relative) frame."""
        return _lit(self.leds, self.rotated)


def _lit(leds: bytes, rotated: bool) -> set[str]:
    out = set()
    for index in range(64):
        if leds[index // 8] >> (index % 8) & 1:
            i = 63 - index if rotated else index
            out.add("abcdefgh"[i % 8] + str(8 - i // 8))
    return out


class SentioBoard(HeldBoard):
    """A virtual Tabutronic Sentio: occupancy records of 8 numbers, bit 7 = file a (3.4)."""

    def __init__(self, placement: str = chess.STARTING_BOARD_FEN, *, rotated: bool = False):
        self.board = chess.BaseBoard(placement)
        self.rotated = rotated
        self.leds = bytes(8)
        self._rx = bytearray()

    def occupancy(self) -> list[int]:
        """The 8 rank bytes the board sends, rank 8 first in its own frame."""
        cells = [
            self.board.piece_at(chess.square(f, r)) is not None
            for r in range(7, -1, -1)
            for f in range(8)
        ]
        if self.rotated:
            cells.reverse()
        return [sum(0x80 >> f for f in range(8) if cells[8 * r + f]) for r in range(8)]

    def record(self) -> bytes:
        return b":" + " ".join(str(n) for n in self.occupancy()).encode("ascii") + b" \r\n"

    def _report(self) -> bytes:
        return self.record()

    def receive(self, data: bytes) -> bytes:
        """Take LED commands (8 bytes each, 3.3); the board answers nothing."""
        self._rx += data
        while len(self._rx) >= 8:
            self.leds = bytes(self._rx[:8])
            del self._rx[:8]
        return b""

    def lit_squares(self) -> set[str]:
        return _lit(self.leds, self.rotated)


__all__ = ["CALIBRATION_PLACEMENT", "CertaboBoard", "SentioBoard", "make_tags"]
