"""Chessnut (Air, Air+, Pro, Go) codec, sans I/O (`eboard-protocols.md` 4).

The same bytes travel over BLE notifications and USB HID reports (4.1); the transport that
reads them is not this module's job. Messages are `[type, length, payload...]` (4.2):

- position `01 24` + 32 bytes + 4 bytes (38 in all): squares h8, g8 ... a8, h7 ... a1, two per
  byte, low nibble first, codes `0` empty, `1` q, `2` k, `3` b, `4` p, `5` n, `6` R, `7` P,
  `8` r, `9` B, `A` N, `B` Q, `C` K; the 4-byte tail (an uptime counter and `00 00`) is ignored;
- battery `2A 02 <b> 00`: bit 7 charging, bits 0-6 percent;
- stored games `32 01 <n>` (the reply to `31 01 00`, as picochess sees it; unverified);
- over USB the position report is `01 3D` + the same 32 board bytes + a tail, 65 bytes
  (mono424/chessnutdriver); `23 01 00` acknowledges a command and `21 01 00` echoes the
  start command: both are counted in `acks`, never as dropped bytes.

The board sends a position on every change, undebounced: a piece slid across the board shows
on each square it crosses. picochess waits 350 ms for the board to settle; this codec does not
wait (it has no clock of its own): every position message becomes a `Snapshot` at once, and
the arbiter's `slide_s` and `noise_s` (events.md, Sensor settings) decide what a move was.

The format has no checksum. A byte that starts no known message, a known type with a wrong
length byte, a position with a nibble above `C` or a battery reply above 100 % is dropped
(the codec resynchronises on the next byte) and reported as `Sensor(status='dropped')`; a
corrupted nibble that stays a valid code cannot be detected, nor, in itself, a message cut
short in transit: a BLE link left at the default MTU delivers the 38 bytes cut to 20 (4.1), and the
codec would take the next message's first bytes for the rest; the transport must request an
MTU of 500. What the codec can see is the next position's `01 24` header inside a message
with a good position after it: the cut message is then dropped, and so is line noise that
looks like a header (`_later_position`).

Orientation (0): the order above is the board's own; when it shows the initial position
turned 180 degrees the codec sets `rotated` (locked from the first initial position seen, 8)
and mirrors reports and LEDs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar, Literal

import chess

from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.placement import cells_to_placement
from firmware_bridge.errors import CodecUsageError
from rules.events import Event, Sensor, Snapshot

Orientation = Literal["auto", "normal", "rotated"]
POSITION, BATTERY, STORED_GAMES, ACK, START_ECHO = 0x01, 0x2A, 0x32, 0x23, 0x21
#: message type -> its length byte (bytes after the two header bytes)
LENGTHS: dict[int, int] = {POSITION: 0x24, BATTERY: 0x02, STORED_GAMES: 0x01}
POSITION_SIZE = 2 + LENGTHS[POSITION]
#: the USB position report `01 3D`: 65 bytes in all (mono424/chessnutdriver
#: `lib/ChessnutMessage.dart` takes 65 bytes and `chessnut_board.dart` starts a USB message
#: at `01 3D`), the board bytes where the BLE report has them; its length byte (61) does not
#: count the whole report
USB_POSITION_LENGTH = 0x3D
USB_POSITION_SIZE = 65
#: header (type, length byte) -> bytes of body after it. `23 01 00` acknowledges a command
#: (chessnutdriver waits for it after `21 01 00` and after LEDs); `21 01 00` is the board's
#: echo of the start command (rmarabini/chessnutair `constants.py`, CONFIRMATION)
BODIES: dict[bytes, int] = {
    bytes([POSITION, LENGTHS[POSITION]]): LENGTHS[POSITION],
    bytes([POSITION, USB_POSITION_LENGTH]): USB_POSITION_SIZE - 2,
    bytes([BATTERY, 0x02]): 0x02,
    bytes([STORED_GAMES, 0x01]): 0x01,
    bytes([ACK, 0x01]): 0x01,
    bytes([START_ECHO, 0x01]): 0x01,
}
_POSITION_HEADER = re.compile(rb"\x01[\x24\x3d]")
CODES = ".qkbpnRPrBNQK"
INITIAL_CELLS = "rnbqkbnr" + "p" * 8 + "." * 32 + "P" * 8 + "RNBQKBNR"
TURNED_CELLS = INITIAL_CELLS[::-1]
#: where a message may begin: a type byte with its length byte, or a type byte ending the
#: bytes read so far (its length byte still to come)
_HEADER = re.compile(
    b"|".join(re.escape(header) for header in BODIES)
    + b"|["
    + b"".join(re.escape(header[:1]) for header in BODIES)
    + b"]\\Z"
)
#: a position byte is good when both nibbles are codes 0-C
_GOOD_BYTES = bytes(b for b in range(256) if b & 0x0F <= 0x0C and b >> 4 <= 0x0C)
#: byte -> the two cells it holds, in stream order (low nibble first)
_PAIRS = [
    (CODES[b & 0x0F] + CODES[b >> 4]) if b & 0x0F <= 0x0C and b >> 4 <= 0x0C else ""
    for b in range(256)
]


def message_size(data: bytes) -> int:
    """The length of the message that starts `data`: by its header where the codec knows it
    (`01 3D` is 65 bytes though its length byte says 61), else 2 + its length byte (how
    chessnutech/EasyLinkSDK `sdk/EasyLink.cpp` sizes a report: `readBuf[1] + 2`)."""
    if len(data) < 2:
        return len(data)
    body = BODIES.get(bytes(data[:2]))
    return 2 + (body if body is not None else data[1])


def split_messages(data: bytes) -> list[bytes]:
    """Messages or commands written one after another, cut apart (a short tail stays whole).

    Over USB HID each goes in a report of its own (EasyLinkSDK writes one command a write)."""
    out = []
    pos = 0
    while pos < len(data):
        size = max(1, message_size(data[pos:]))
        out.append(bytes(data[pos : pos + size]))
        pos += size
    return out


def report_message(report: bytes) -> bytes:
    """The message a USB HID report holds (one a report, EasyLinkSDK), without the report's
    padding. A report cut shorter than a known message (a 65-byte `01 3D` in a 64-byte
    report) is filled with zeros to its size: the missing bytes are the tail no one reads,
    and the next report then starts a message, as it does on the wire."""
    if not report:
        return b""
    size = message_size(report)
    if len(report) >= size:
        return bytes(report[:size])
    if bytes(report[:2]) in BODIES:
        return bytes(report) + bytes(size - len(report))
    return bytes(report)


def position_cells(board_bytes: bytes) -> str:
    """The 32 board bytes of a position message -> 64 cells in a8 ... h1 order.

    The message lists each rank from file h to file a, so every 8 cells are reversed.
    """
    stream = "".join(_PAIRS[b] for b in board_bytes)
    return "".join(stream[8 * r : 8 * r + 8][::-1] for r in range(8))


def _square(square: str | int) -> int:
    if isinstance(square, str):
        try:
            return chess.parse_square(square)
        except ValueError:
            raise CodecUsageError(f"not a square name: {square!r}") from None
    if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 64:
        raise CodecUsageError(f"not a square: {square!r}")
    return square


class ChessnutCodec(Codec):
    """Decode Chessnut messages and encode Chessnut commands (4.2)."""

    name = "chessnut"
    has_leds = True
    #: not a serial device (USB HID or BLE): there is no baud rate to open or to stamp
    #: raw captures with
    baudrate = 0
    bits_per_byte = 8
    sensor_settings: ClassVar[dict[str, float]] = {}

    def __init__(self, orientation: Orientation = "auto") -> None:
        """`orientation`: 'auto' detects it from the first initial position; 'normal' or
        'rotated' fixes it from the start."""
        if orientation not in ("auto", "normal", "rotated"):
            raise CodecUsageError(
                f"orientation must be 'auto', 'normal' or 'rotated', not {orientation!r}"
            )
        self._buf = bytearray()
        self._drop_count = 0
        self._drop_reasons: dict[str, int] = {}
        self.rotated = orientation == "rotated"
        self.orientation_locked = orientation != "auto"
        #: the last battery reply: (percent, charging)
        self.battery: tuple[int, bool] | None = None
        #: the last stored-games reply
        self.stored_games: int | None = None
        #: acknowledgements received (`23 01 00`, and the `21 01 00` echo of start-up)
        self.acks = 0

    @property
    def pending(self) -> int:
        """Bytes held back because they may begin a message that has not fully arrived."""
        return len(self._buf)

    # ---- decoding -------------------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> list[Event]:
        """Take bytes received at `now`; return the snapshots they complete, in order,
        stamped `t = now`.

        Dropped bytes are reported as one `Sensor(status='dropped')` just before the next
        message decoded (or by `flush`), so the events are the same however the reads are
        cut. Garbage is skipped by searching for the next possible header, not byte by byte.
        """
        buf = self._buf
        buf += data
        events: list[Event] = []
        pos = 0
        n = len(buf)
        while pos < n:
            match = _HEADER.search(buf, pos)
            start = match.start() if match else n
            if start > pos:
                self._drop(start - pos, "bytes outside a message")
                pos = start
            if match is None or pos + 1 >= n:
                break  # nothing more, or a type byte whose length byte has not come
            kind = buf[pos]
            length = BODIES[bytes(buf[pos : pos + 2])]
            body = bytes(buf[pos + 2 : pos + 2 + length])
            problem = self._problem(kind, body)
            if problem:
                self._drop(1, problem)
                pos += 1
                continue
            if len(body) < length:
                break  # may still be good: wait for the rest
            later = self._later_position(buf, pos, 2 + len(body))
            if later is None:
                break  # a position may begin inside this message: wait to see it whole
            if later > pos:
                self._drop(later - pos, "a message cut short by the next position")
                pos = later
                continue
            events.extend(self.flush(now))
            events.extend(self._handle(kind, body, now))
            pos += 2 + len(body)
        del buf[:pos]
        return events

    def _drop(self, count: int, reason: str) -> None:
        self._drop_count += count
        self._drop_reasons[reason] = self._drop_reasons.get(reason, 0) + count

    def flush(self, now: float) -> list[Event]:
        """Report the bytes dropped and not yet reported (e.g. garbage at the end of a read)."""
        if not self._drop_count:
            return []
        reasons = "; ".join(f"{r} ({c} bytes)" for r, c in sorted(self._drop_reasons.items()))
        detail = f"chessnut: {self._drop_count} byte(s) dropped ({reasons})"
        event = Sensor(t=now, status="dropped", bytes=self._drop_count, detail=detail)
        self._drop_count = 0
        self._drop_reasons = {}
        return [event]

    @classmethod
    def _later_position(cls, buf: bytearray, pos: int, size: int) -> int | None:
        """Where a whole position message starts inside the message at `pos` (`size` bytes
        long), if one does: its start; `pos` if none does; None if one may, but has not
        fully arrived. With no checksum this is the only sign of a message cut short (or of
        line noise that looks like a header): the next message's `01 24` header shows up
        inside it, followed by a good position. The later message wins; no real position
        of a game's holds `01 24` (a queen beside an empty square, then a pawn beside a
        king) and one that did would at worst lose this one report."""
        start = pos + 1
        end = pos + size + 1  # a header may start on the message's last byte
        while True:
            match = _POSITION_HEADER.search(buf, start, end)
            if match is None:
                if len(buf) == pos + size and buf[-1] == POSITION:
                    # the message's last byte is a position's type byte and the next byte
                    # (its length byte, perhaps) has not come: wait, as a whole feed would
                    # see it (issue 17 D11: otherwise the cut decides which message wins)
                    return None
                return pos
            j = match.start()
            wanted = BODIES[bytes(buf[j : j + 2])]
            body = bytes(buf[j + 2 : j + 2 + wanted])
            if not cls._problem(POSITION, body):
                return j if len(body) == wanted else None
            start = j + 1

    @staticmethod
    def _problem(kind: int, body: bytes) -> str:
        """Why a (possibly partial) message body cannot be good, or '' if it may be."""
        if kind == POSITION:
            if body[:32].translate(None, _GOOD_BYTES):
                return "a position with a square code above C"
        elif kind == BATTERY and body[:1] and body[0] & 0x7F > 100:
            return "a battery level above 100 %"
        return ""

    def _handle(self, kind: int, body: bytes, now: float) -> list[Event]:
        if kind == POSITION:
            cells = position_cells(body[:32])
            if not self.orientation_locked:
                if cells == INITIAL_CELLS:
                    self.rotated, self.orientation_locked = False, True
                elif cells == TURNED_CELLS:
                    self.rotated, self.orientation_locked = True, True
            placement = cells_to_placement(cells[::-1] if self.rotated else cells)
            return [Snapshot(t=now, board=placement)]
        if kind == BATTERY:
            self.battery = (body[0] & 0x7F, bool(body[0] & 0x80))
        elif kind == STORED_GAMES:
            self.stored_games = body[0]
        else:
            self.acks += 1
        return []

    # ---- encoding -------------------------------------------------------------------------

    def split_commands(self, data: bytes) -> list[bytes]:
        """Commands are `[type, length, payload]` (4.2): cut apart by their length bytes."""
        return split_messages(data)

    def encode_startup(self) -> bytes:
        """Start-up (8): real-time position reports. Send it again after every reconnect."""
        return self.encode_start_reports()

    def encode_start_reports(self) -> bytes:
        """`21 01 00`: real-time position reports (4.2, N1)."""
        return bytes((0x21, 0x01, 0x00))

    def encode_battery_request(self) -> bytes:
        """`29 01 00`: ask for the battery level (reply `2A 02 b 00`)."""
        return bytes((0x29, 0x01, 0x00))

    def encode_stored_games_request(self) -> bytes:
        """`31 01 00`: ask how many games the board stored (reply `32 01 n`, unverified)."""
        return bytes((0x31, 0x01, 0x00))

    def encode_leds(self, squares: Iterable[str | int]) -> bytes:
        """`0A 08` + one byte per rank, 8 to 1, bit 7 = file a ... bit 0 = file h (4.2).

        On a rotated board the squares are mirrored, so the same physical LEDs light.
        """
        ranks = bytearray(8)
        for square in squares:
            sq = _square(square)
            if self.rotated:
                sq = 63 - sq
            ranks[7 - chess.square_rank(sq)] |= 0x80 >> chess.square_file(sq)
        return bytes((0x0A, 0x08)) + bytes(ranks)

    def encode_leds_off(self) -> bytes:
        """All LEDs off: `0A 08` + eight zero bytes."""
        return bytes((0x0A, 0x08)) + bytes(8)

    def encode_beep(self, frequency_hz: int, duration_ms: int) -> bytes:
        """`0B 04 fH fL dH dL`: a beep, frequency in Hz and duration in ms, big-endian."""
        for value, what in ((frequency_hz, "frequency"), (duration_ms, "duration")):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFFFF:
                raise CodecUsageError(f"the {what} must be a whole number 0-65535, not {value!r}")
        return (
            bytes((0x0B, 0x04)) + frequency_hz.to_bytes(2, "big") + duration_ms.to_bytes(2, "big")
        )


__all__ = [
    "CODES",
    "LENGTHS",
    "ChessnutCodec",
    "cells_to_placement",
    "message_size",
    "position_cells",
    "report_message",
    "split_messages",
]
