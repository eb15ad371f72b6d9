"""The board side of the Chessnut protocol (`eboard-protocols.md` 4), for tests.

`ChessnutBoard` holds a placement, answers host commands (`receive(data) -> bytes`) and, once
real-time reports are on (`21 01 00`), returns the position message a board sends after
`lift`, `place` or `set_placement`: `01 24` + 32 bytes (h8 ... a1, low nibble first) + an
uptime counter (2 bytes, little-endian) + `00 00`. A board seated the other way round
(`rotated=True`) sends the squares in the opposite order and mirrors its LEDs.
`usb=True` is the board on its USB cable: the position report is `01 3D` + the same 32 board
bytes + a zero tail, 65 bytes (mono424/chessnutdriver), and commands are acknowledged with
`23 01 00` (the acknowledgement chessnutdriver waits for).
"""

from __future__ import annotations

import chess

from firmware_bridge.codecs.chessnut import CODES
from firmware_bridge.sim.held_board import HeldBoard


class ChessnutBoard(HeldBoard):
    """A virtual Chessnut Air: placement, battery, LEDs, beeps and the bytes it would send."""

    def __init__(
        self,
        placement: str = chess.STARTING_BOARD_FEN,
        *,
        rotated: bool = False,
        battery: int = 95,
        charging: bool = True,
        reporting: bool = False,
        usb: bool = False,
    ) -> None:
        self.board = chess.BaseBoard(placement)
        self.rotated = rotated
        self.usb = usb
        self.battery = battery
        self.charging = charging
        #: real-time reports on (after `21 01 00`)
        self.reporting = reporting
        self.uptime = 0
        #: LED bytes as last received, rank 8 first, bit 7 = file a (the board's own frame)
        self.leds = bytes(8)
        #: beeps asked for: (frequency Hz, duration ms)
        self.beeps: list[tuple[int, int]] = []
        self.stored_games = 0
        self._rx = bytearray()

    # ---- what the board sends ----------------------------------------------------------

    def position_message(self) -> bytes:
        """The 38-byte position message of the current placement."""
        order = [chess.square(f, r) for r in range(7, -1, -1) for f in range(7, -1, -1)]
        if self.rotated:
            order = [63 - sq for sq in order]
        codes = []
        for sq in order:
            piece = self.board.piece_at(sq)
            codes.append(CODES.index(piece.symbol()) if piece else 0)
        body = bytes(codes[i] | codes[i + 1] << 4 for i in range(0, 64, 2))
        tail = (self.uptime & 0xFFFF).to_bytes(2, "little") + b"\x00\x00"
        self.uptime += 1
        if self.usb:
            return b"\x01\x3d" + body + tail + bytes(65 - 2 - 32 - len(tail))
        return b"\x01\x24" + body + tail

    def _report(self) -> bytes:
        return self.position_message() if self.reporting else b""

    # ---- what the board hears ----------------------------------------------------------

    def receive(self, data: bytes) -> bytes:
        """Take commands `[type, length, payload]`; return the replies of those completed."""
        self._rx += data
        out = bytearray()
        while len(self._rx) >= 2:
            kind, length = self._rx[0], self._rx[1]
            if len(self._rx) < 2 + length:
                break
            payload = bytes(self._rx[2 : 2 + length])
            del self._rx[: 2 + length]
            out += self._answer(kind, payload)
        return bytes(out)

    def _answer(self, kind: int, payload: bytes) -> bytes:
        ack = b"\x23\x01\x00" if self.usb else b""
        if kind == 0x21 and payload == b"\x00":
            self.reporting = True
            return ack + self.position_message()
        if kind == 0x29:
            level = min(self.battery, 100) | (0x80 if self.charging else 0)
            return bytes((0x2A, 0x02, level, 0x00))
        if kind == 0x31:
            return bytes((0x32, 0x01, self.stored_games))
        if kind == 0x0A and len(payload) == 8:
            self.leds = payload
            return ack
        elif kind == 0x0B and len(payload) == 4:
            self.beeps.append(
                (int.from_bytes(payload[:2], "big"), int.from_bytes(payload[2:], "big"))
            )
        return b""

    def lit_squares(self) -> set[str]:
        """Squares whose LED is on, named in the normal (White-relative) frame."""
        out = set()
        for r in range(8):
            for f in range(8):
                if self.leds[r] & (0x80 >> f):
                    sq = chess.square(f, 7 - r)
                    out.add(chess.square_name(63 - sq if self.rotated else sq))
        return out


__all__ = ["ChessnutBoard"]
