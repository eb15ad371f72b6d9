"""Times for a raw DGT capture taken from the board's own clock (`eboard-protocols.md` 1.7).

A raw byte capture has no times. Stamped at the wire rate, a game of an hour comes out in
seconds, and its `[%clk]` are nonsense. A DGT board with a clock sends the clock's times
(`8D`) every second the clock runs and on every change: those readings are the real time
line. `ClockTimeline.from_capture` decodes the bytes once, notes the byte index of every
clock reading, and builds anchors: between two readings real time advanced by what the
clocks consumed (the sum of each side's drop in seconds; a side that gained time, an
increment, consumed nothing), or, when nothing was consumed (a stopped clock, or two
readings within one second), by the wire time between them. `time_at(index)` then stamps a
byte: the time of the last reading before it plus the wire time since, never past the next
reading. Before the first reading, and without any reading, it is the wire-rate time.

Pure: bytes in, numbers out; no clock of ours is read.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.dgt_clock import ClockStatus


@dataclass(frozen=True)
class ClockTimeline:
    """Byte index -> time, anchored on the clock readings of a capture."""

    per_byte: float
    #: (index of the last byte of a reading, time of that reading), increasing in both
    anchors: tuple[tuple[int, float], ...]
    #: the clock's first reading, for the game's time control
    first: ClockStatus | None = None

    @classmethod
    def from_capture(cls, make_codec: Callable[[], Codec], data: bytes) -> ClockTimeline:
        """Decode `data` with a fresh codec from `make_codec` and anchor on its clock
        readings (the codec's `clock` attribute, a `ClockStatus`, after each byte)."""
        codec = make_codec()
        per_byte = codec.bits_per_byte / codec.baudrate
        readings: list[tuple[int, ClockStatus]] = []
        last: ClockStatus | None = None
        for index in range(len(data)):
            codec.feed(data[index : index + 1], index * per_byte)
            clock = getattr(codec, "clock", None)
            if isinstance(clock, ClockStatus) and clock is not last:
                readings.append((index, clock))
            last = clock if isinstance(clock, ClockStatus) else last
        first = readings[0][1] if readings else None
        return cls(per_byte=per_byte, anchors=tuple(_anchor(readings, per_byte)), first=first)

    @property
    def time_control(self) -> str | None:
        """The time control the clock was set to, in PGN syntax (`300`), when its first
        reading shows both sides alike and whole minutes, as a clock set for a game does;
        else None. An increment cannot be read from the times, so none is given."""
        first = self.first
        if first is None or first.left_s != first.right_s or first.left_s % 60:
            return None
        return str(first.left_s)

    @property
    def clocked(self) -> bool:
        """Whether the capture held any clock reading at all."""
        return bool(self.anchors)

    def time_at(self, index: int) -> float:
        """The time byte `index` (counted from 0) arrived."""
        wire = index * self.per_byte
        if not self.anchors or index < self.anchors[0][0]:
            return wire
        k = bisect_right(self.anchors, (index, float("inf"))) - 1
        at, t = self.anchors[k]
        guess = t + (index - at) * self.per_byte
        if k + 1 < len(self.anchors):
            return min(guess, self.anchors[k + 1][1])
        return guess


def _anchor(readings: list[tuple[int, ClockStatus]], per_byte: float) -> list[tuple[int, float]]:
    anchors: list[tuple[int, float]] = []
    previous: ClockStatus | None = None
    for index, clock in readings:
        if previous is None:
            t = index * per_byte
        else:
            consumed = max(0, previous.left_s - clock.left_s) + max(
                0, previous.right_s - clock.right_s
            )
            wire = (index - anchors[-1][0]) * per_byte
            t = anchors[-1][1] + (consumed if consumed > 0 else wire)
        anchors.append((index, t))
        previous = clock
    return anchors


__all__ = ["ClockTimeline"]
