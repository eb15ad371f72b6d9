"""The board side of the Millennium ChessLink protocol (`eboard-protocols.md` 2), for tests.

`MillenniumBoard` holds a placement and answers host commands with the bytes a real board
would send (`receive(data) -> bytes`); `lift`, `place` and `set_placement` return the status
report the board sends after the change. Seated as the independent drivers assume, it
reports its 64 squares h1 ... a1, h2 ... a8 and numbers its LEDs from the h1 corner
(docs/eboard-protocols.md); seated the other way round (`rotated=True`) it sends the maker's
documented order, a8 ... h1, and the maker's LED frame (2.3). Wire bytes carry odd parity in
bit 7 (2.1); a command with a bad parity bit or check is ignored, as the board ignores it
(2.2). `plain_ascii=True` is an eONE or a board behind a Bluetooth LE bridge: it sends 7-bit
ASCII with bit 7 clear and reads commands by their 7-bit codes (docs/eboard-protocols.md,
"Millennium as shipped today").
"""

from __future__ import annotations

import chess

from firmware_bridge.codecs.millennium import LED_COUNT, to_wire, with_parity
from firmware_bridge.sim.held_board import HeldBoard

#: host command letter -> frame length including the letter and the two check characters
COMMAND_LENGTHS: dict[str, int] = {"V": 3, "S": 3, "X": 3, "T": 3, "R": 5, "W": 7, "L": 167}
_WIRE_LETTERS = {with_parity(ord(k)): k for k in COMMAND_LENGTHS}
_MASK = bytes(b & 0x7F for b in range(256))


def _odd(b: int) -> bool:
    return bin(b).count("1") % 2 == 1


class MillenniumBoard(HeldBoard):
    """A virtual ChessLink board: placement, EEPROM, LEDs and the bytes it would send."""

    def __init__(
        self,
        placement: str = chess.STARTING_BOARD_FEN,
        *,
        rotated: bool = False,
        version: tuple[int, int] = (1, 1),
        plain_ascii: bool = False,
    ) -> None:
        self.board = chess.BaseBoard(placement)
        self.rotated = rotated
        self.version = version
        self.plain_ascii = plain_ascii
        #: EEPROM: address 2 = auto reports (0 every scan, 1 off, 3 on change, ...) (2.4)
        self.eeprom: dict[int, int] = {0x01: 20, 0x02: 0x00}
        #: the 81 LED codes as last set, in the board's own (physical) position order
        self.leds: list[int] = [0] * LED_COUNT
        self.slot_time = 0
        self._rx = bytearray()

    # ---- what the board sends ---------------------------------------------------------

    def cells(self) -> str:
        """The 64 status characters in the order this board sends them."""
        out = []
        for rank in range(7, -1, -1):
            for file in range(8):
                piece = self.board.piece_at(chess.square(file, rank))
                out.append(piece.symbol() if piece else ".")
        text = "".join(out)
        return text if self.rotated else text[::-1]

    def _wire(self, text: str) -> bytes:
        """Frame `text` for this board's link: odd parity in bit 7, or plain 7-bit ASCII."""
        framed = to_wire(text)
        return bytes(b & 0x7F for b in framed) if self.plain_ascii else framed

    def status_frame(self) -> bytes:
        """The `s` report of the current placement, on the wire."""
        return self._wire("s" + self.cells())

    def _report(self) -> bytes:
        return b"" if self.eeprom.get(0x02) == 0x01 else self.status_frame()

    # ---- what the board hears ---------------------------------------------------------

    def receive(self, data: bytes) -> bytes:
        """Take bytes from the host; return the board's replies to the commands completed."""
        self._rx += data
        out = bytearray()
        while self._rx:
            first = self._rx[0] & 0x7F if self.plain_ascii else self._rx[0]
            letter = _WIRE_LETTERS.get(with_parity(first))
            if letter is None:
                del self._rx[0]
                continue
            length = COMMAND_LENGTHS[letter]
            if len(self._rx) < length:
                break
            frame = bytes(self._rx[:length])
            if not self.plain_ascii and not all(_odd(b) for b in frame):
                del self._rx[0]
                continue
            text = bytes(b & 0x7F for b in frame).decode("ascii")
            if to_wire(text[:-2])[-2:].translate(_MASK) != text[-2:].encode("ascii"):
                del self._rx[0]
                continue
            del self._rx[:length]
            out += self._answer(text[:-2])
        return bytes(out)

    def _answer(self, text: str) -> bytes:
        letter = text[0]
        try:
            if letter == "V":
                return self._wire(f"v{self.version[0]:02X}{self.version[1]:02X}")
            if letter == "S":
                return self.status_frame()
            if letter == "X":
                self.leds = [0] * LED_COUNT
                return self._wire("x")
            if letter == "L":
                self.slot_time = int(text[1:3], 16)
                codes = [int(text[3 + 2 * i : 5 + 2 * i], 16) for i in range(LED_COUNT)]
                self.leds = codes
                return self._wire("l")
            if letter == "W":
                address, value = int(text[1:3], 16), int(text[3:5], 16)
                self.eeprom[address] = value
                return self._wire(f"w{address:02X}{value:02X}")
            if letter == "R":
                address = int(text[1:3], 16)
                return self._wire(f"r{address:02X}{self.eeprom.get(address, 0):02X}")
        except ValueError:
            return b""  # non-hex data: the board ignores the command
        return b""  # T: the board restarts and says nothing

    def lit_corners(self) -> set[int]:
        """Physical corner positions whose LED code is not 0, mapped to the normal frame."""
        return {i if self.rotated else 80 - i for i, c in enumerate(self.leds) if c}


__all__ = ["COMMAND_LENGTHS", "MillenniumBoard"]
