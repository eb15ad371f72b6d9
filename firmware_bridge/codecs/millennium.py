"""Millennium ChessLink codec, sans I/O (`eboard-protocols.md` 2).

The board speaks ASCII at 38400 baud, 7 data bits, odd parity. This codec works on the 8-bit
wire bytes (open the port 8N1: bit 7 of every byte is the parity bit), so it can check the
parity of every received byte: the XOR check of a frame covers only the 7-bit codes, and a
reader that merely masks bit 7 would accept a frame whose parity bit flipped (2.1).

Boards shipped today do not all set that bit: the eONE and boards reached over Bluetooth LE
send plain 7-bit ASCII (chesslinkdriver `lib/ChessLink.dart` turns its parity check off for
the eONE; python-mchess masks bit 7; DGTCentaurMods emulates the eONE in plain ASCII). The
codec accepts both and learns which link it is on from the first whole good frame that tells
them apart (`link`: 'parity' or 'plain'); from then on a byte breaking that link's rule is
dropped, so a parity link keeps its per-byte check. Check digits may come in lower case
(chesslinkdriver parses them with `int.parse(..., radix: 16)`).

Frames are `<letter><data><check>` with no terminator; the letter fixes the length (2.2).
Auto `s` status reports may arrive between a command and its reply, so replies are matched by
letter, never by order (2.4). Every status frame becomes a `Snapshot`; version, acknowledgement
and EEPROM replies update the codec's state (`version`, `acks`, `eeprom`). A byte outside a
frame, or a frame with a bad parity bit, a bad character or a bad check, is dropped and
reported as a `Sensor(status='dropped')` event; decoding goes on from the next byte.

Orientation (0, 2.3): the maker's note orders the 64 status characters a8 ... h8, a7 ... h1;
the three independent drivers read them h1 first (h1, g1 ... a1, h2 ... a8: chesslinkdriver
`ChessLink.SQUARES`, python-mchess, DGTCentaurMods' eONE emulation). The first initial
position seen tells which order this board uses and locks it for the rest of the game (8:
never flipped mid-game on partial evidence). A board seated as those drivers assume
('normal', `rotated` False) sends h1 first, and its LED frame is the mirror of the note's
(chesslinkdriver `LEDPattern`: LED 0 at the h1 corner), so positions are mirrored
(`80 - position`); `rotated` True is the documented a8-first order, the seat turned round.
Until an initial position is seen (a board seated with a game in progress), the codec reads
h1 first, as those drivers do, so such a board does not come out turned.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar, Literal

import chess

from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.placement import cells_to_placement
from firmware_bridge.errors import CodecUsageError
from rules.events import Event, Sensor, Snapshot

Orientation = Literal["auto", "normal", "rotated"]

#: reply letter -> frame length including the letter and the two check characters (2.2)
REPLY_LENGTHS: dict[str, int] = {"s": 67, "v": 7, "l": 3, "x": 3, "w": 7, "r": 7}
PIECE_CHARS = b"KQRBNPkqrbnp."
HEX_CHARS = b"0123456789ABCDEFabcdef"
INITIAL_CELLS = "rnbqkbnr" + "p" * 8 + "." * 32 + "P" * 8 + "RNBQKBNR"
TURNED_CELLS = INITIAL_CELLS[::-1]
LED_COUNT = 81
DEFAULT_SLOT_TIME = 0x14
Link = Literal["parity", "plain"]
#: 8-bit wire byte -> its 7-bit code
_MASK = bytes(b & 0x7F for b in range(256))
#: wire bytes with odd parity (what a parity link sends) and with bit 7 clear (a plain link)
_ODD_BYTES = bytes(b for b in range(256) if bin(b).count("1") % 2)
_PLAIN_BYTES = bytes(range(0x80))


def with_parity(code: int) -> int:
    """The wire byte for a 7-bit code: bit 7 set when the code has an even number of ones."""
    return code | (0x80 if bin(code).count("1") % 2 == 0 else 0)


def check_digits(text: str) -> str:
    """The frame check of 2.2: XOR of the 7-bit codes, as two upper-case hex digits."""
    x = 0
    for ch in text:
        x ^= ord(ch) & 0x7F
    return f"{x:02X}"


def to_wire(text: str) -> bytes:
    """Frame `text` (append its check) and set the odd-parity bit of every byte."""
    framed = text + check_digits(text)
    return bytes(with_parity(ord(ch)) for ch in framed)


_HEX_RE = b"[0-9A-Fa-f]"
#: a complete frame as its 7-bit codes may show it (parity, link and check come after)
_FRAME = re.compile(
    b"s["
    + re.escape(PIECE_CHARS)
    + b"]{64}"
    + _HEX_RE
    + b"{2}"
    + b"|[vwr]"
    + _HEX_RE
    + b"{6}"
    + b"|[lx]"
    + _HEX_RE
    + b"{2}"
)
_LONGEST = max(REPLY_LENGTHS.values())
_START_BYTES = frozenset(
    code for letter in REPLY_LENGTHS for code in (with_parity(ord(letter)), ord(letter))
)
#: per letter: the characters allowed in the data part (between letter and check)
_DATA_CHARS: dict[str, bytes] = {
    "s": PIECE_CHARS,
    "v": HEX_CHARS,
    "l": HEX_CHARS,
    "x": HEX_CHARS,
    "w": HEX_CHARS,
    "r": HEX_CHARS,
}


def _square_index(square: str | int) -> int:
    """A square name ('e4') or python-chess square number -> python-chess square number."""
    if isinstance(square, str):
        try:
            return chess.parse_square(square)
        except ValueError:
            raise CodecUsageError(f"not a square name: {square!r}") from None
    if isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 64:
        raise CodecUsageError(f"not a square: {square!r}")
    return square


def _byte_arg(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFF:
        raise CodecUsageError(f"{name} must be a whole number from 0 to 255, not {value!r}")
    return value


def led_positions(square: str | int) -> tuple[int, int, int, int]:
    """The 0-based positions of the four corner LEDs of `square`, normal frame (2.3).

    File edge F (0 left of a ... 8 right of h), rank edge E (0 above rank 8 ... 8 below
    rank 1); the position is 9F + E, and the square uses F in {f, f+1}, E in {8-r, 9-r}.
    """
    sq = _square_index(square)
    f = chess.square_file(sq)
    rank = chess.square_rank(sq) + 1
    return (9 * f + 8 - rank, 9 * f + 9 - rank, 9 * f + 17 - rank, 9 * f + 18 - rank)


class MillenniumCodec(Codec):
    """Decode ChessLink replies and encode ChessLink commands (2.2 - 2.4)."""

    name = "millennium"
    reports_version = True
    has_leds = True
    baudrate = 38400
    #: 8N1 at the port; bit 7 carries the odd parity of the 7-bit code (same wire as 7O1)
    bytesize = 8
    parity = "N"
    stopbits = 1
    bits_per_byte = 10
    #: report-on-change mode suits the contract's defaults (events.md, Sensor settings)
    sensor_settings: ClassVar[dict[str, float]] = {
        "noise_s": 0.1,
        "slide_s": 0.25,
        "latency_s": 0.0,
    }

    def __init__(self, orientation: Orientation = "auto") -> None:
        """`orientation`: 'auto' detects it from the first initial position (reading h1
        first until then); 'normal' (h1 first, as the independent drivers) or 'rotated' (the
        maker's documented a8-first order) fixes it and locks it from the start."""
        if orientation not in ("auto", "normal", "rotated"):
            raise CodecUsageError(
                f"orientation must be 'auto', 'normal' or 'rotated', not {orientation!r}"
            )
        self._buf = bytearray()
        self.rotated = orientation == "rotated"
        #: 'parity' or 'plain' once a frame has shown which the link is (None: not yet)
        self.link: Link | None = None
        self.orientation_locked = orientation != "auto"
        #: firmware version from the last `v` reply, as (major, minor)
        self.version: tuple[int, int] | None = None
        #: EEPROM contents the board confirmed (`w` and `r` replies), address -> value
        self.eeprom: dict[int, int] = {}
        #: acknowledgements received, by letter (`l` for LEDs, `x` for LEDs off)
        self.acks: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        """Bytes held back because they may begin a frame that has not fully arrived."""
        return len(self._buf)

    # ---- decoding -------------------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> list[Event]:
        """Take wire bytes received at `now`; return the snapshots and drop reports they
        complete, in the order they happened, each stamped `t = now`."""
        buf = self._buf
        buf += data
        events: list[Event] = []
        dropped = 0
        reasons: list[str] = []

        def flush() -> None:
            nonlocal dropped
            if dropped:
                detail = f"millennium: {dropped} byte(s) dropped ({'; '.join(reasons)})"
                events.append(Sensor(t=now, status="dropped", bytes=dropped, detail=detail))
                dropped = 0
                reasons.clear()

        def drop(count: int, reason: str) -> None:
            nonlocal dropped
            dropped += count
            if reason not in reasons:
                reasons.append(reason)

        masked = bytes(buf).translate(_MASK)
        pos = 0
        n = len(buf)
        while pos < n:
            match = _FRAME.search(masked, pos)
            m = match.start() if match else n
            wait = self._waiting_start(buf, masked, pos, m)
            if wait is not None:
                if wait > pos:
                    drop(wait - pos, "bytes outside a frame")
                pos = wait
                break  # a frame that may still be good: wait for the rest
            if match is None:
                drop(n - pos, "bytes outside a frame")
                pos = n
                break
            letter = chr(masked[m])
            length = REPLY_LENGTHS[letter]
            wire = bytes(buf[m : m + length])
            problem = self._link_problem(letter, wire) or self._problem(
                letter, masked[m : m + length], length
            )
            if buf[m] not in _START_BYTES:
                problem = "bytes outside a frame"  # a letter's code with the wrong bit 7
            if problem:
                if m > pos:
                    drop(m - pos, "bytes outside a frame")
                drop(1, problem)
                pos = m + 1
                continue
            if m > pos:
                drop(m - pos, "bytes outside a frame")
            flush()
            self._learn_link(wire)
            events.extend(self._handle(masked[m : m + length].decode("ascii"), now))
            pos = m + length
        del buf[:pos]
        flush()
        return events

    def _waiting_start(self, buf: bytearray, masked: bytes, pos: int, limit: int) -> int | None:
        """The first start byte in `[pos, limit)` whose frame runs past the bytes held and
        may still be good (so decoding must wait there), or None.

        Only the last 66 bytes can hold such a start: a frame is at most 67 bytes long.
        Everything before `limit` (the next complete frame that parses) else is garbage.
        """
        n = len(buf)
        for p in range(max(pos, n - _LONGEST + 1), min(limit, n)):
            if buf[p] not in _START_BYTES:
                continue
            letter = chr(masked[p])
            length = REPLY_LENGTHS[letter]
            if p + length <= n:
                continue
            wire = bytes(buf[p:])
            if not (self._link_problem(letter, wire) or self._problem(letter, masked[p:], length)):
                return p
        return None

    def _link_problem(self, letter: str, wire: bytes) -> str:
        """Why the wire bytes break this link's rule (odd parity, or bit 7 clear), or ''."""
        parity_ok = not wire.translate(None, _ODD_BYTES)
        plain_ok = not wire.translate(None, _PLAIN_BYTES)
        if self.link == "parity" and not parity_ok:
            return f"bad parity in a '{letter}' frame"
        if self.link == "plain" and not plain_ok:
            return f"bit 7 set in a '{letter}' frame of a plain ASCII link"
        if not (parity_ok or plain_ok):
            return f"bad parity in a '{letter}' frame"
        return ""

    def _learn_link(self, wire: bytes) -> None:
        """Lock the link kind on the first good frame only one kind could have sent."""
        if self.link is not None:
            return
        parity_ok = not wire.translate(None, _ODD_BYTES)
        plain_ok = not wire.translate(None, _PLAIN_BYTES)
        if parity_ok != plain_ok:
            self.link = "parity" if parity_ok else "plain"

    @staticmethod
    def _problem(letter: str, text: bytes, length: int) -> str:
        """Why the (possibly partial) frame `text` cannot be good, or '' if it may be."""
        data = text[1 : length - 2]
        if data.translate(None, _DATA_CHARS[letter]):
            return f"bad character in a '{letter}' frame"
        check = text[length - 2 :]
        if check.translate(None, HEX_CHARS):
            return f"bad check characters in a '{letter}' frame"
        if len(text) == length:
            x = 0
            for b in text[:-2]:
                x ^= b
            if check.upper() != b"%02X" % x:
                return f"bad check in a '{letter}' frame"
        return ""

    def _handle(self, text: str, now: float) -> list[Event]:
        letter = text[0]
        if letter == "s":
            return [Snapshot(t=now, board=self._placement(text[1:65]))]
        if letter == "v":
            self.version = (int(text[1:3], 16), int(text[3:5], 16))
        elif letter in ("w", "r"):
            self.eeprom[int(text[1:3], 16)] = int(text[3:5], 16)
        else:  # l, x
            self.acks[letter] += 1
        return []

    def _placement(self, cells: str) -> str:
        if not self.orientation_locked:
            if cells == TURNED_CELLS:  # the initial position, h1 first
                self.rotated, self.orientation_locked = False, True
            elif cells == INITIAL_CELLS:  # the initial position in the documented order
                self.rotated, self.orientation_locked = True, True
        return cells_to_placement(cells if self.rotated else cells[::-1])

    # ---- encoding -------------------------------------------------------------------------

    def encode_startup(self) -> bytes:
        """Start-up (2.4, 8): report on change (`W0203`), ask for the board (`S`) and for
        the firmware version (`V`). Send it again after every reconnect."""
        return self.encode_eeprom_write(0x02, 0x03) + self.encode_status() + self.encode_version()

    def encode_version(self) -> bytes:
        """`V`: ask for the firmware version (reply `v`)."""
        return to_wire("V")

    def encode_status(self) -> bytes:
        """`S`: ask for the whole board (reply `s`)."""
        return to_wire("S")

    def encode_leds_off(self) -> bytes:
        """`X`: all LEDs off (reply `x`)."""
        return to_wire("X")

    def encode_eeprom_write(self, address: int, value: int) -> bytes:
        """`W`: write `value` at EEPROM `address` (2.4; reply `w` + address + value)."""
        a = _byte_arg(address, "address")
        v = _byte_arg(value, "value")
        return to_wire(f"W{a:02X}{v:02X}")

    def encode_eeprom_read(self, address: int) -> bytes:
        """`R`: read EEPROM `address` (reply `r` + address + value)."""
        return to_wire(f"R{_byte_arg(address, 'address'):02X}")

    def encode_led_corners(self, codes: Sequence[int], slot_time: int = DEFAULT_SLOT_TIME) -> bytes:
        """`L`: set all 81 corner LEDs (2.3).

        `codes[p]` is the bit pattern of the LED at position p of the maker's frame (0 at the
        a8 corner, 8 at a1, 72 at h8, 80 at h1): played from bit 7 to bit 0, one bit per slot
        of `slot_time` x 4.096 ms, repeating (`FF` on, `00` off, `AA` blink). A board that
        reads h1 first (not `rotated`) numbers its LEDs from the h1 corner, so the positions
        are mirrored (`80 - p`) and the same physical corners light.
        """
        if len(codes) != LED_COUNT:
            raise CodecUsageError(f"the board has {LED_COUNT} LEDs, not {len(codes)}")
        physical = [_byte_arg(c, "an LED code") for c in codes]
        if not self.rotated:
            physical.reverse()
        text = f"L{_byte_arg(slot_time, 'slot time'):02X}" + "".join(f"{c:02X}" for c in physical)
        return to_wire(text)

    def encode_leds(
        self, patterns: Mapping[str | int, int], slot_time: int = DEFAULT_SLOT_TIME
    ) -> bytes:
        """`L` lighting the four corners of each square of `patterns` (square -> code).

        Adjacent squares share corners; a corner shared by two squares gets both patterns
        ORed together, so it shows whenever either square does (2.3).
        """
        codes = [0] * LED_COUNT
        for square, pattern in patterns.items():
            p = _byte_arg(pattern, "an LED pattern")
            for pos in led_positions(square):
                codes[pos] |= p
        return self.encode_led_corners(codes, slot_time)


__all__ = [
    "INITIAL_CELLS",
    "REPLY_LENGTHS",
    "TURNED_CELLS",
    "MillenniumCodec",
    "cells_to_placement",
    "check_digits",
    "led_positions",
    "to_wire",
    "with_parity",
]
