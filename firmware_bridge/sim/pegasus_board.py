"""The board side of a DGT Pegasus (`codecs/pegasus.py`), for tests and virtual boards.

`PegasusBoard` holds the pieces really standing on it (so a game can be set up and played by
hand) but reports, as the Pegasus does, only occupancy: its dump is `86 00 43` + 64 bytes of
`00`/`01` in DGT square order (a8 first, 1.4), and once the host asked for updates (`43`,
`44` or `4B`) each lift or place is a field update `8E 00 05 <square> <00|01>`. It answers
`4D` (`93`), `45` (`91`), `47` (`92`), `42` (`86`) and the battery requests `4C` and `32`
(`A0`); `40` (reset) and the LED (`60 <n> ... 00`) and developer-key (`63 <n> ... 00`) packets
get no reply, as DGTCentaurMods' emulator records of a real board.
"""

from __future__ import annotations

from typing import Literal

import chess

from firmware_bridge.codecs.dgt_squares import square_to_index
from firmware_bridge.sim.dgt_board import message
from firmware_bridge.sim.held_board import HeldBoard

__all__ = ["PegasusBoard"]

Mode = Literal["bus", "idle", "update"]
#: packets with a length byte: type, length (payload and the closing 00), payload, 00
_LONG = (0x60, 0x63)


class PegasusBoard(HeldBoard):
    """A virtual DGT Pegasus; see the module docstring."""

    def __init__(
        self,
        placement: str = chess.STARTING_BOARD_FEN,
        *,
        rotated: bool = False,
        version: tuple[int, int] = (1, 0),
        serial: str = "P00000001A",
        battery: int = 88,
    ) -> None:
        self.board = chess.BaseBoard(placement)
        self.rotated = rotated
        self.version = version
        self.serial = serial
        self.battery = battery
        self.mode: Mode = "bus"
        #: the LED packets received (payload without type, length and closing 00)
        self.led_packets: list[bytes] = []
        self._rx = bytearray()

    # -- what the board sends ----------------------------------------------------------

    def occupancy(self) -> bytes:
        """64 bytes, `01` occupied / `00` empty, in board index order."""
        codes = bytearray(64)
        for square in self.board.piece_map():
            codes[square_to_index(square, self.rotated)] = 0x01
        return bytes(codes)

    def dump(self) -> bytes:
        """The `86` board dump."""
        return message(0x86, self.occupancy())

    @property
    def reporting(self) -> bool:
        return self.mode == "update"

    def lift(self, square: str) -> bytes:
        before = self.occupancy()
        super().lift(square)
        return self._updates(before)

    def place(self, square: str, piece: str) -> bytes:
        before = self.occupancy()
        super().place(square, piece)
        return self._updates(before)

    def set_placement(self, placement: str) -> bytes:
        before = self.occupancy()
        super().set_placement(placement)
        return self._updates(before)

    def _report(self) -> bytes:
        return b""  # `_updates` reports what changed

    def _updates(self, before: bytes) -> bytes:
        """Field updates of the squares whose occupancy changed (none outside update mode);
        emptied squares first, as a hand lifts before it places."""
        if not self.reporting:
            return b""
        after = self.occupancy()
        changed = [i for i in range(64) if before[i] != after[i]]
        changed.sort(key=lambda i: after[i])
        return b"".join(message(0x8E, bytes([i, after[i]])) for i in changed)

    # -- what the board hears ----------------------------------------------------------

    def receive(self, data: bytes) -> bytes:
        """Take host bytes (any chunking); return the board's replies."""
        self._rx += data
        out = bytearray()
        while self._rx:
            cmd = self._rx[0]
            if cmd in _LONG:
                if len(self._rx) < 2 or len(self._rx) < 2 + self._rx[1]:
                    break
                size = self._rx[1]
                if cmd == 0x60:
                    self.led_packets.append(bytes(self._rx[2 : 1 + size]))
                del self._rx[: 2 + size]
                continue
            del self._rx[0]
            out += self._command(cmd)
        return bytes(out)

    def _command(self, cmd: int) -> bytes:
        if cmd == 0x40:
            self.mode = "idle"
        elif cmd in (0x43, 0x44, 0x4B):
            self.mode = "update"
        elif cmd == 0x42:
            return self.dump()
        elif cmd == 0x4D:
            return message(0x93, bytes(self.version))
        elif cmd == 0x45:
            return message(0x91, self.serial.encode("ascii"))
        elif cmd == 0x47:
            return message(0x92, b"Digital Game Technology (virtual Pegasus)")
        elif cmd in (0x4C, 0x32):
            return message(0xA0, bytes([self.battery, 0, 0, 0, 0, 0, 0, 0, 0x02]))
        return b""
