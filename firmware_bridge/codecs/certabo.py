"""Certabo (RFID) and Tabutronic Sentio codecs, sans I/O (`eboard-protocols.md` 3).

Both boards stream text records unasked at 38400 8N1: `:` + decimal numbers separated by
spaces + ` \\r\\n`. Captured data shows bare LFs inside records, even inside numbers (`8\\n4` is
84), so CR and LF are deleted within a record, which starts at `:` and ends at `\\r\\n`; junk
before `:` is dropped, and a record with the wrong count of numbers (320 for Certabo, 8 for
Sentio) is dropped; both are reported as `Sensor(status='dropped')` events (3.1). Short lines
`L` and `D` are board flags (single-colour and RGB LEDs, unverified), not garbage.

Certabo records carry the tag identifier (5 numbers) on each square, a8 ... h1; a group with
three or more zeros is an empty square (the vendor's rule, 3.1), except that a weak read (not
all zeros: some byte of a tag came through, `0 0 56 0 0`) keeps what the square read in the
record before, so a tag read weakly in two records running does not make its piece vanish.
A `CertaboCalibration` turns identifiers into FEN letters (unknown tags become '?'); without
one, every occupied square is '?'. RFID reads flicker, so each square shows the identifier
seen most often in the last 3 records (3.2, picochess). Since the board streams
continuously, a `Snapshot` is emitted only when the board
so filtered changes (the first record always gives one).

Orientation (0): with a calibration, the initial position read turned 180 degrees sets
`rotated`, and the first initial position seen locks it; without a calibration (or for the
occupancy-only Sentio) it is configured. LEDs (3.3) are 8 bytes, rank 8 first, bit 0 = file a,
mirrored (`63 - index`) on a rotated board.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import deque
from collections.abc import Iterable
from typing import ClassVar, Literal, NamedTuple

import chess

from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.certabo_calibration import (
    EMPTY,
    MIN_RECORDS,
    CertaboCalibration,
    Ident,
    majority,
    normalise,
)
from firmware_bridge.codecs.placement import cells_to_placement
from firmware_bridge.errors import CodecUsageError
from rules.events import Event, Sensor, Snapshot

Orientation = Literal["auto", "normal", "rotated"]
CERTABO_NUMBERS = 320
SENTIO_NUMBERS = 8
#: longest run of bytes the framer holds without a record end (a full Certabo record with
#: its stray LFs is about 1300 bytes)
MAX_PENDING = 2048
INITIAL_CELLS = "rnbqkbnr" + "p" * 8 + "." * 32 + "P" * 8 + "RNBQKBNR"
TURNED_CELLS = INITIAL_CELLS[::-1]
_FLAGS = {b"L": "single", b"D": "rgb"}
_DIGITS = b"0123456789"


def square_index(square: str | int) -> int:
    """A square name or python-chess square -> index in the a8 ... h1 order (a8 = 0)."""
    if isinstance(square, str):
        try:
            sq = chess.parse_square(square)
        except ValueError:
            raise CodecUsageError(f"not a square name: {square!r}") from None
    elif isinstance(square, bool) or not isinstance(square, int) or not 0 <= square < 64:
        raise CodecUsageError(f"not a square: {square!r}")
    else:
        sq = square
    return (7 - chess.square_rank(sq)) * 8 + chess.square_file(sq)


def encode_led_bitmap(squares: Iterable[str | int], *, rotated: bool = False) -> bytes:
    """The 8-byte LED command of 3.3: byte 0 = rank 8 ... byte 7 = rank 1, bit 0 = file a.

    On a rotated board the index (a8 = 0 ... h1 = 63) is mirrored to `63 - index`.
    """
    out = bytearray(8)
    for square in squares:
        index = square_index(square)
        if rotated:
            index = 63 - index
        out[index // 8] |= 1 << (index % 8)
    return bytes(out)


class Record(NamedTuple):
    """A record with the expected count of numbers."""

    numbers: list[int]


class Flag(NamedTuple):
    """A flag line (`L` or `D`): the LED kind the board says it has (unverified)."""

    kind: str


class Dropped(NamedTuple):
    """Bytes that are no record (`size` of them), and why."""

    size: int
    reason: str


Item = Record | Flag | Dropped


class RecordFramer:
    """Cut a Certabo/Sentio byte stream into records of `count` numbers (3.1).

    `feed` returns, in stream order, `Record`, `Flag` and `Dropped` items. Whatever way the
    stream is cut into chunks, the records found and the total of bytes dropped are the same.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self._buf = bytearray()

    @property
    def pending(self) -> int:
        """Bytes held back: an unfinished record or line."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Item]:
        buf = self._buf
        buf += data
        out: list[Item] = []
        pos = 0
        n = len(buf)
        while pos < n:
            colon = buf.find(b":", pos)
            if colon < 0:
                nl = buf.rfind(b"\n", pos)
                if nl >= 0:
                    self._junk(bytes(buf[pos : nl + 1]), out)
                    pos = nl + 1
                if n - pos > MAX_PENDING:
                    out.append(Dropped(n - pos, "a line too long without a record"))
                    pos = n
                break
            if colon > pos:
                self._junk(bytes(buf[pos:colon]), out)
                pos = colon
            nxt = buf.find(b":", colon + 1)
            if nxt >= 0:
                # every ':' before the last one ahead of the next LF begins a record cut
                # short (no LF, so neither end): drop them in one step, not one per ':'
                lf = buf.find(b"\n", colon + 1)
                last = buf.rfind(b":", colon + 1, lf if lf >= 0 else n)
                if last > colon:
                    out.append(Dropped(last - colon, "a record cut short by the next one"))
                    pos = last
                    continue
            # search for the record's end only up to the next ':', so a run of ':' without
            # ends costs one pass, not one pass per ':' (linear in the bytes fed)
            end = buf.find(b"\r\n", colon + 1, nxt if nxt >= 0 else n)
            if end < 0 and nxt >= 0:
                # no CR LF before the next record: a record ended by a bare LF (picochess's
                # recorded test data ends records with " \n") is read; anything else is cut
                self._record(bytes(buf[colon + 1 : nxt]), nxt - colon, out, cut=True)
                pos = nxt
                continue
            if end < 0:
                if n - colon > MAX_PENDING:
                    out.append(Dropped(n - colon, "a record without an end"))
                    pos = n
                break
            self._record(bytes(buf[colon + 1 : end]), end + 2 - colon, out, cut=False)
            pos = end + 2
        del buf[:pos]
        return out

    def _record(self, raw: bytes, size: int, out: list[Item], *, cut: bool) -> None:
        """Read the body `raw` of a record spanning `size` bytes (from ':' to its end).

        A record may end with a flag line the board sent before the record's own CR LF
        (`... 170\nL\r\n`: an LED acknowledgement); the record is read and the flag kept.
        """
        flag: Flag | None = None
        head, sep, tail = raw.rpartition(b"\n")
        kind = _FLAGS.get(tail.strip(b"\r")) if sep else None
        if kind is not None:
            raw, flag = head, Flag(kind)
        if cut and flag is None and not raw.endswith(b" \n"):
            # only the " \n" end counts: a record cut inside its last number still holds
            # the right count of numbers, one of them wrong
            out.append(Dropped(size, "a record cut short by the next one"))
            return
        numbers = self._numbers(raw.translate(None, b"\r\n"))
        if numbers is not None and len(numbers) == self.count:
            out.append(Record(numbers))
            if flag is not None:
                out.append(flag)
        elif cut:
            out.append(Dropped(size, "a record cut short by the next one"))
            return
        elif numbers is None:
            out.append(Dropped(size, "a record that is not numbers"))
        else:
            out.append(Dropped(size, f"a record of {len(numbers)} numbers, not {self.count}"))

    @staticmethod
    def _numbers(body: bytes) -> list[int] | None:
        tokens = body.split(b" ")
        numbers = []
        for tok in tokens:
            if not tok:
                continue
            if len(tok) > 3 or tok.translate(None, _DIGITS):
                return None
            value = int(tok)
            if value > 255:
                return None
            numbers.append(value)
        return numbers

    @staticmethod
    def _junk(chunk: bytes, out: list[Item]) -> None:
        for line in chunk.splitlines(keepends=True):
            kind = _FLAGS.get(line.strip(b"\r\n"))
            if kind is not None:
                out.append(Flag(kind))
            else:
                out.append(Dropped(len(line), "bytes outside a record"))


class _StreamCodec(Codec):
    """What the Certabo and Sentio codecs share: framing, drop reports, LEDs, settings."""

    has_leds = True
    baudrate = 38400
    bytesize = 8
    parity = "N"
    stopbits = 1
    bits_per_byte = 10
    count = 0

    def __init__(self, orientation: Orientation) -> None:
        if orientation not in ("auto", "normal", "rotated"):
            raise CodecUsageError(
                f"orientation must be 'auto', 'normal' or 'rotated', not {orientation!r}"
            )
        self._framer = RecordFramer(self.count)
        self.rotated = orientation == "rotated"
        self.orientation_locked = orientation != "auto"
        #: the LED kind the board announced by a flag line ('single' or 'rgb'), unverified
        self.led_kind: str | None = None
        self._last: str | None = None

    @property
    def pending(self) -> int:
        """Bytes held back: an unfinished record or line."""
        return self._framer.pending

    def feed(self, data: bytes, now: float) -> list[Event]:
        """Take bytes received at `now`; return snapshots of changed boards and drop reports,
        in stream order, stamped `t = now`."""
        events: list[Event] = []
        dropped = 0
        reasons: list[str] = []
        for item in self._framer.feed(data):
            if isinstance(item, Dropped):
                dropped += item.size
                if item.reason not in reasons:
                    reasons.append(item.reason)
                continue
            if dropped:
                events.append(self._dropped(now, dropped, reasons))
                dropped, reasons = 0, []
            if isinstance(item, Flag):
                self.led_kind = item.kind
                continue
            placement = self._placement(item.numbers)
            if placement != self._last:
                self._last = placement
                events.append(Snapshot(t=now, board=placement))
        if dropped:
            events.append(self._dropped(now, dropped, reasons))
        return events

    def _dropped(self, now: float, count: int, reasons: list[str]) -> Sensor:
        detail = f"{self.name}: {count} byte(s) dropped ({'; '.join(reasons)})"
        return Sensor(t=now, status="dropped", bytes=count, detail=detail)

    @abstractmethod
    def _placement(self, numbers: list[int]) -> str:
        """The FEN placement a record shows (each board family reads its own records)."""

    def encode_startup(self) -> bytes:
        """No bytes: the board streams records unasked from the moment the port opens (3.1).

        A start-up is also a reconnect (8), so the codec forgets the last board and any
        half-read record (`resync`): the next record gives a fresh snapshot.
        """
        self.resync()
        return b""

    def resync(self) -> None:
        """Forget the last board and any half-read record (after a reconnect, 8), so the next
        record gives a fresh snapshot."""
        self._framer = RecordFramer(self.count)
        self._last = None

    def encode_leds(self, squares: Iterable[str | int]) -> bytes:
        """Light the LEDs of `squares` (3.3): 8 bytes, mirrored on a rotated board."""
        return encode_led_bitmap(squares, rotated=self.rotated)

    def encode_leds_off(self) -> bytes:
        """All LEDs off: 8 zero bytes (3.3)."""
        return bytes(8)


class CertaboCodec(_StreamCodec):
    """Certabo RFID board: identifiers -> pieces through a calibration (3.1, 3.2)."""

    name = "certabo"
    count = CERTABO_NUMBERS
    #: RFID reads flicker: a square that empties and shows its piece again within 0.5 s
    #: never changed (events.md, Sensor settings). The majority of the last three records
    #: reports a change about two records late, so a press may come before the report of
    #: its move: `latency_s` lets the rules wait for it instead of ruling a press without
    #: a move (7.5.3).
    sensor_settings: ClassVar[dict[str, float]] = {"noise_s": 0.5, "latency_s": 0.6}

    def __init__(
        self,
        calibration: CertaboCalibration | None = None,
        *,
        orientation: Orientation = "auto",
        history: int = 3,
    ) -> None:
        """`orientation` 'auto' detects it from the initial position once a calibration is
        set; `history` is the number of records each square's majority is taken over."""
        super().__init__(orientation)
        if isinstance(history, bool) or not isinstance(history, int) or history < 1:
            raise CodecUsageError(f"history must be a whole number, 1 or more, not {history!r}")
        self.calibration = calibration
        self._history: deque[list[Ident]] = deque(maxlen=history)
        #: the last records as read (raw 5-number groups, the board's own order), for
        #: building a calibration (`calibrate`, which sets weak reads aside)
        self.records: deque[list[Ident]] = deque(maxlen=4 * MIN_RECORDS)

    def resync(self) -> None:
        """As `_StreamCodec.resync`, and forget the records the flicker filter holds: the
        board may have changed while it was away."""
        super().resync()
        self._history.clear()

    def calibrate(self, *, rotated: bool = False, records: int = MIN_RECORDS) -> CertaboCalibration:
        """Build a calibration from the last `records` records (the initial position must be
        set up, 3.2) and use it from now on; return it for saving. `rotated` says how the
        board is seated (tags cannot tell), and the codec keeps that orientation (locked).

        Raises:
            CalibrationError: too few records, or they do not show the initial position.
        """
        recent = list(self.records)[-records:]
        calibration = CertaboCalibration.from_records(recent, rotated=rotated, min_records=records)
        self.calibration = calibration
        self.rotated, self.orientation_locked = rotated, True
        self._last = None
        return calibration

    def _placement(self, numbers: list[int]) -> str:
        groups = [numbers[i : i + 5] for i in range(0, CERTABO_NUMBERS, 5)]
        record = [normalise(group) for group in groups]
        if self._history:
            # A weak read (`0 0 56 0 0`: some byte of a tag came through) is no evidence
            # that the square emptied: it keeps what the last record read there (3.1).
            previous = self._history[-1]
            for i, group in enumerate(groups):
                if record[i] == EMPTY and any(group):
                    record[i] = previous[i]
        self.records.append([(g[0], g[1], g[2], g[3], g[4]) for g in groups])
        self._history.append(record)
        if len(self._history) == 1:
            filtered = record
        else:
            rows = list(self._history)
            filtered = [majority([r[i] for r in rows]) for i in range(64)]
        calibration = self.calibration
        if calibration is None:
            cells = "".join("." if ident == EMPTY else "?" for ident in filtered)
        else:
            cells = "".join(calibration.letter(ident) for ident in filtered)
            if not self.orientation_locked:
                if cells == INITIAL_CELLS:
                    self.rotated, self.orientation_locked = False, True
                elif cells == TURNED_CELLS:
                    self.rotated, self.orientation_locked = True, True
        return cells_to_placement(cells[::-1] if self.rotated else cells)


class SentioCodec(_StreamCodec):
    """Tabutronic Sentio: occupancy records of 8 numbers, rank 8 first, bit 7 = file a (3.4).

    Occupancy cannot show colour or kind, so occupied squares are '?' and the orientation is
    configured ('normal' or 'rotated').
    """

    name = "sentio"
    occupancy_only = True
    count = SENTIO_NUMBERS
    sensor_settings: ClassVar[dict[str, float]] = {}

    def __init__(self, *, orientation: Literal["normal", "rotated"] = "normal") -> None:
        if orientation not in ("normal", "rotated"):  # 'auto' from a caller that ignores types
            raise CodecUsageError("a Sentio board cannot detect its orientation: configure it")
        super().__init__(orientation)

    def _placement(self, numbers: list[int]) -> str:
        cells = "".join(
            "?" if rank_bits & (0x80 >> f) else "." for rank_bits in numbers for f in range(8)
        )
        return cells_to_placement(cells[::-1] if self.rotated else cells)


__all__ = [
    "CERTABO_NUMBERS",
    "SENTIO_NUMBERS",
    "CertaboCodec",
    "RecordFramer",
    "SentioCodec",
    "encode_led_bitmap",
]
