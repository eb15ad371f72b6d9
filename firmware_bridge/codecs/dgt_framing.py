"""Cutting the DGT board's byte stream into messages (`eboard-protocols.md` 1.3).

Every message starts with its id (bit 7 set) and two bytes holding bits 13–7 and 6–0 of the
*total* length; data bytes have bit 7 clear. That makes resynchronisation simple and exact,
and this module applies it without ever raising on what the wire brings:

- while hunting, bytes with bit 7 clear are dropped, and so is a bit-7 byte that is no known id;
- a bit-7 byte inside a header or body aborts the partial message (its bytes are dropped) and
  starts a new one, so a valid message after any garbage is always found;
- a length below 3, or other than the id allows, drops the header and hunting goes on;
- `8F` (the EEPROM move log, ~8 KB, only sent after `49`) is accepted up to 0x2000 bytes so
  that one arriving unasked is drained whole; the codec then drops it.

The framer knows nothing of what messages mean; `DgtFramer.push` returns complete `Frame`s and
`Dropped` notes in stream order, and the codec reports the drops as `sensor` events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from firmware_bridge.codecs.base import CodecError

BOARD_DUMP = 0x86
BWTIME = 0x8D
FIELD_UPDATE = 0x8E
EE_MOVES = 0x8F
BUSADRES = 0x90
SERIALNR = 0x91
TRADEMARK = 0x92
VERSION = 0x93
BATTERY_STATUS = 0xA0
LONG_SERIALNR = 0xA2

#: message id → (smallest, largest) total length including the 3-byte header (1.3 table).
#: Battery: the DGT header says 7 data bytes but lists 9; trust the header, need byte 0.
LENGTHS: dict[int, tuple[int, int]] = {
    BOARD_DUMP: (67, 67),
    BWTIME: (10, 10),
    FIELD_UPDATE: (5, 5),
    EE_MOVES: (3, 0x2000),
    BUSADRES: (5, 5),
    SERIALNR: (8, 8),
    TRADEMARK: (3, 0x200),
    VERSION: (5, 5),
    BATTERY_STATUS: (4, 12),
    LONG_SERIALNR: (13, 13),
}

_HIGH_BIT = re.compile(rb"[\x80-\xff]")


class DgtFrameError(CodecError):
    """A complete DGT message whose content is impossible (bad piece code, bad BCD).

    Raised by the message decoders and caught inside the codec, which drops the message and
    reports it; it never leaves `DgtCodec.feed`.
    """


@dataclass(frozen=True, slots=True)
class Frame:
    """One complete board message: its id and its data bytes (header stripped)."""

    msg_id: int
    body: bytes

    @property
    def size(self) -> int:
        """Total length on the wire, header included."""
        return len(self.body) + 3


@dataclass(frozen=True, slots=True)
class Dropped:
    """`count` bytes thrown away while resynchronising, and why."""

    count: int
    reason: str


class DgtFramer:
    """Incremental DGT message framer: push any chunking of the stream, get the same frames."""

    def __init__(self) -> None:
        self._id: int | None = None
        self._header_got = 0
        self._length = 0
        self._body = bytearray()

    @property
    def partial(self) -> int:
        """Bytes of an unfinished message held back (header included), 0 when hunting."""
        return 0 if self._id is None else self._header_got + len(self._body)

    def reset(self) -> None:
        """Forget any partial message (after a reconnect its rest will never come)."""
        self._id = None
        self._header_got = 0
        self._length = 0
        self._body = bytearray()

    def push(self, data: bytes) -> list[Frame | Dropped]:
        """Take the next bytes of the stream; return what they complete, in stream order."""
        out: list[Frame | Dropped] = []
        i, n = 0, len(data)
        while i < n:
            if self._id is None:
                match = _HIGH_BIT.search(data, i)
                j = match.start() if match else n
                if j > i:
                    out.append(Dropped(j - i, "bytes outside a message"))
                if j == n:
                    break
                byte = data[j]
                i = j + 1
                if byte not in LENGTHS:
                    out.append(Dropped(1, f"unknown message id {byte:02X}"))
                    continue
                self._id, self._header_got, self._length = byte, 1, 0
                self._body = bytearray()
                continue
            if self._header_got < 3:
                byte = data[i]
                if byte & 0x80:
                    out.append(self._abort())
                    continue  # the bit-7 byte starts the next message
                self._length = (self._length << 7) | byte
                self._header_got += 1
                i += 1
                if self._header_got == 3:
                    low, high = LENGTHS[self._id]
                    if not low <= self._length <= high:
                        out.append(
                            Dropped(3, f"{self._id:02X} header with bad length {self._length}")
                        )
                        self.reset()
                    elif self._length == 3:
                        out.append(Frame(self._id, b""))
                        self.reset()
                continue
            need = self._length - 3 - len(self._body)
            end = min(n, i + need)
            match = _HIGH_BIT.search(data, i, end)
            if match:
                self._body += data[i : match.start()]
                i = match.start()
                out.append(self._abort())
                continue
            self._body += data[i:end]
            i = end
            if len(self._body) == self._length - 3:
                out.append(Frame(self._id, bytes(self._body)))
                self.reset()
        return out

    def _abort(self) -> Dropped:
        note = Dropped(self.partial, f"{self._id or 0:02X} message cut short")
        self.reset()
        return note
