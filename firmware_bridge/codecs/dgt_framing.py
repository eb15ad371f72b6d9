"""Cutting the DGT board's byte stream into messages (`eboard-protocols.md` 1.3).

Every message starts with its id (bit 7 set) and two bytes holding bits 13–7 and 6–0 of the
*total* length; data bytes have bit 7 clear. That makes resynchronisation simple and exact,
and this module applies it without ever raising on what the wire brings:

- while hunting, bytes with bit 7 clear are dropped, and so is a bit-7 byte that is no known id;
- a bit-7 byte inside a header or body aborts the partial message (its bytes are dropped) and
  starts a new one, so a valid message after any garbage is always found;
- a length below 3, or other than the id allows, drops the header and hunting goes on;
- dropped bytes are told apart only as unknown ids and the rest (`OUTSIDE`, `UNKNOWN`): a
  per-byte reason is the same however the stream is cut, and lets hunting run as searches
  over the bytes (4 MB of garbage in one pass);
- `8F` (the EEPROM move log, ~8 KB, only sent after `49`) is accepted up to 0x2000 bytes so
  that one arriving unasked is drained whole; the codec then drops it.

The framer knows nothing of what messages mean; `DgtFramer.push` returns complete `Frame`s and
`Dropped` notes in stream order, and the codec reports the drops as `sensor` events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_LOW = rb"[\x00-\x7f]"
_VARIABLE = tuple(i for i, (low, high) in LENGTHS.items() if low != high)
#: the next message that may be whole: a fixed-length one complete with its exact header,
#: or the header of a variable-length one (its length is checked after the match)
_CANDIDATE = re.compile(
    b"|".join(
        re.escape(bytes([i, low >> 7, low & 0x7F])) + _LOW + b"{%d}" % (low - 3)
        for i, (low, high) in LENGTHS.items()
        if low == high
    )
    + b"|["
    + b"".join(re.escape(bytes([i])) for i in _VARIABLE)
    + b"]"
    + _LOW
    + b"{2}"
)
#: wire bytes that are neither data (bit 7 clear) nor a message id: deleting the others
#: counts them
_NOT_UNKNOWN = bytes(range(0x80)) + bytes(LENGTHS)
#: the longest message: a partial one can only start this close to the end of a chunk
_LONGEST = max(high for _, high in LENGTHS.values())
OUTSIDE = "bytes outside a message"
UNKNOWN = "unknown message ids"



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
                i = self._hunt(data, i, out)
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
                        out.append(Dropped(3, OUTSIDE))
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

    def _hunt(self, data: bytes, i: int, out: list[Frame | Dropped]) -> int:
        """Hunting from `data[i]`: drop the garbage up to the next whole message and take it,
        or keep the partial message the chunk ends in; return where to go on.

        Done with searches over the bytes, never a Python step per byte: 4 MB of garbage in
        one chunk costs one pass (bench/codec_garbage.py). Every byte between messages is
        garbage, whatever message it seemed to begin: a message is cut short by the next
        bit-7 byte, so only the last bit-7 byte of a chunk can begin a partial one.
        """
        n = len(data)
        pos = i
        while True:
            match = _CANDIDATE.search(data, pos)
            if match is None:
                break
            m = match.start()
            msg_id = data[m]
            low, high = LENGTHS[msg_id]
            if low == high:
                self._garbage(data[i:m], out)
                out.append(Frame(msg_id, data[m + 3 : m + low]))
                return m + low
            length = (data[m + 1] << 7) | data[m + 2]
            if not low <= length <= high:
                pos = m + 1
                continue
            cut = _HIGH_BIT.search(data, m + 3, m + length)
            if cut is not None:
                pos = cut.start()
                continue
            if m + length > n:
                break  # may be the partial message at the end: decided below
            self._garbage(data[i:m], out)
            out.append(Frame(msg_id, data[m + 3 : m + length]))
            return m + length
        start = self._partial_start(data, max(pos, i))
        self._garbage(data[i:start], out)
        if start < n:
            self._id, self._header_got, self._length = data[start], 1, 0
            self._body = bytearray()
            return start + 1  # the byte-wise path takes the rest of the partial message
        return n

    @staticmethod
    def _partial_start(data: bytes, i: int) -> int:
        """Where, from `i`, a message that may still complete begins (len(data) if none):
        the chunk's last bit-7 byte, if it is an id and what follows fits its header."""
        n = len(data)
        starts = [m.start() for m in _HIGH_BIT.finditer(data, max(i, n - _LONGEST))]
        if not starts:
            return n
        h = starts[-1]
        if data[h] not in LENGTHS:
            return n
        if h + 3 <= n:
            length = (data[h + 1] << 7) | data[h + 2]
            low, high = LENGTHS[data[h]]
            if not low <= length <= high or h + length <= n:
                return n
        return h

    @staticmethod
    def _garbage(span: bytes, out: list[Frame | Dropped]) -> None:
        """Report `span` as dropped: bit-7 bytes that are no id, and all the rest."""
        if not span:
            return
        unknown = len(span.translate(None, _NOT_UNKNOWN))
        if len(span) > unknown:
            out.append(Dropped(len(span) - unknown, OUTSIDE))
        if unknown:
            out.append(Dropped(unknown, UNKNOWN))

    def _abort(self) -> Dropped:
        note = Dropped(self.partial, OUTSIDE)
        self.reset()
        return note
