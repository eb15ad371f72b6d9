"""A reed-switch matrix on GPIO: scan it to a bitboard, debounce, emit contract events.

A magnet in each piece closes the switch under its square: the board senses occupancy only
(`eboard-protocols.md` 6). Sixty-four switches sit on an 8 × 8 matrix: 8 row lines (one a
rank) and 8 column lines (one a file), each switch in series with a diode from its column
to its row. To scan, one row at a time is driven low and the 8 columns, held high by the
internal pull-ups, are read: a column reads low when the switch where it crosses the driven
row is closed. Without the diodes, current also runs backwards through other closed
switches, and three closed corners of a rectangle make the fourth read closed ("ghosting");
a chess position always closes many rectangles. `FakeReedBoard` simulates both wirings.

By default the rows that are not being scanned float (they are set as inputs) rather than
being driven high: with the diodes that changes nothing, and a board built without them
then ghosts instead of shorting two outputs together. `idle_rows="high"` keeps every row an
output and only writes levels, which costs fewer library calls a scan; use it only on a
board with its diodes fitted.

`ReedMatrix.scan(now)` is pure scanning: it returns the occupancy as a 64-bit bitboard in
python-chess numbering (a1 = 0, h8 = 63). Which matrix corner holds a1 (`a1_corner`) is a
setting, since occupancy cannot tell which way round the board lies.

`ReedMatrixSource.step(now)` is called by the session's loop (or a timer); it scans once a
period (50 Hz by default), accepts a square's new state after `stable_scans` identical
scans, and returns contract events stamped with the time of the scan that confirmed them
(not of the first scan that saw the change: a stream's times never run backwards, and a
clock press may fall in between; the `latency_s` of `sensor_settings` covers the delay):
first a `snapshot` (`?` on each occupied square), then piece-less `lift` and `place`
events, lifts before places within one scan (a capture: 2 lifts, 1 place). A piece slid or
adjusted is left to the rules (`noise_s`, `slide_s`); `sensor_settings` gives the values
for the stream's `start`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Literal

import chess

from firmware_bridge.errors import PinConfigError
from firmware_bridge.gpio.base import Pin, Pins
from rules.events import Event, Lift, Place, Snapshot

#: which matrix cell (row r, column c) holds a1; rows run along ranks, columns along files
A1_CORNERS = ("r0c0", "r0c7", "r7c0", "r7c7")
#: 50 Hz, the slowest rate the debounce and the rules' `noise_s` = 0.05 assume
MAX_PERIOD_S = 0.02
#: times closer than this are the same moment (float sums of periods drift by ~1e-15)
_EPSILON_S = 1e-9


def square_at(row: int, col: int, a1_corner: str = "r0c0") -> chess.Square:
    """The square under matrix cell (`row`, `col`) for a board whose a1 is at `a1_corner`."""
    if a1_corner not in A1_CORNERS:
        raise PinConfigError(
            f"unknown a1_corner {a1_corner!r}; choose one of {', '.join(A1_CORNERS)}"
        )
    rank = row if a1_corner[1] == "0" else 7 - row
    file = col if a1_corner[3] == "0" else 7 - col
    return chess.square(file, rank)


def cell_of(square: chess.Square, a1_corner: str = "r0c0") -> tuple[int, int]:
    """The matrix cell (row, col) under `square`: the inverse of `square_at`."""
    row = chess.square_rank(square)
    col = chess.square_file(square)
    # each flip is its own inverse
    return (
        row if a1_corner[1] == "0" else 7 - row,
        col if a1_corner[3] == "0" else 7 - col,
    )


def placement(occupied: int) -> str:
    """A FEN piece placement with `?` on every occupied square of the bitboard."""
    ranks = []
    for rank in range(7, -1, -1):
        text, run = "", 0
        for file in range(8):
            if occupied >> chess.square(file, rank) & 1:
                text += (str(run) if run else "") + "?"
                run = 0
            else:
                run += 1
        ranks.append(text + (str(run) if run else ""))
    return "/".join(ranks)


class ReedMatrix:
    """An 8 × 8 switch matrix on 16 GPIOs: `scan(now)` returns the occupancy bitboard.

    Args:
        pins: the GPIO back-end.
        rows: 8 BCM numbers, matrix rows 0–7 (ranks, from the a1 corner's side).
        cols: 8 BCM numbers, matrix columns 0–7 (files).
        a1_corner: the matrix cell of a1 (see `A1_CORNERS`).
        settle: called after driving a row and before reading the columns (e.g. a short
            busy wait for a long cable); nothing by default, since a Python call on a Pi
            already takes longer than the lines need to settle.
        idle_rows: "float" (default) or "high": what rows do while another row is scanned.
    """

    def __init__(
        self,
        pins: Pins,
        rows: Sequence[int],
        cols: Sequence[int],
        *,
        a1_corner: str = "r0c0",
        settle: Callable[[], None] | None = None,
        idle_rows: Literal["float", "high"] = "float",
    ) -> None:
        if idle_rows not in ("float", "high"):
            raise PinConfigError(f"idle_rows must be 'float' or 'high', not {idle_rows!r}")
        if len(rows) != 8 or len(cols) != 8:
            raise PinConfigError(
                f"a reed matrix needs 8 row and 8 column GPIOs, not {len(rows)} and {len(cols)}"
            )
        self.a1_corner = a1_corner
        self.settle = settle
        self.idle_rows = idle_rows
        self._bits = [[1 << square_at(r, c, a1_corner) for c in range(8)] for r in range(8)]
        self.rows: list[Pin] = [pins.pin(n, f"matrix_rows[{i}]") for i, n in enumerate(rows)]
        self.cols: list[Pin] = [pins.pin(n, f"matrix_cols[{i}]") for i, n in enumerate(cols)]
        for pin in self.rows:
            if idle_rows == "float":
                pin.setup_input(None)
            else:
                pin.setup_output(1)
        for pin in self.cols:
            pin.setup_input("up")

    def scan(self, now: float) -> int:
        """Scan every row once; the occupied squares as a bitboard (a1 = bit 0)."""
        occupied = 0
        floating = self.idle_rows == "float"
        for r, row in enumerate(self.rows):
            if floating:
                row.setup_output(0)
            else:
                row.write(0, now)
            if self.settle is not None:
                self.settle()
            bits = self._bits[r]
            for c, col in enumerate(self.cols):
                if not col.read():
                    occupied |= bits[c]
            if floating:
                row.setup_input(None)
            else:
                row.write(1, now)
        return occupied


class ReedMatrixSource:
    """Turns timed scans of a `ReedMatrix` into debounced contract events.

    Args:
        matrix: the scanner.
        period_s: time between scans; at most 0.02 (50 Hz).
        stable_scans: identical scans needed before a square's new state is accepted.
        origin: the monotonic time at which the stream began (`now - origin` is `t`).
    """

    def __init__(
        self,
        matrix: ReedMatrix,
        *,
        period_s: float = MAX_PERIOD_S,
        stable_scans: int = 2,
        origin: float = 0.0,
    ) -> None:
        if not 0 < period_s <= MAX_PERIOD_S:
            raise PinConfigError(
                f"reed matrix scan period {period_s} s: it must be above 0 and at most "
                f"{MAX_PERIOD_S} s (50 Hz)"
            )
        if stable_scans < 1:
            raise PinConfigError(f"stable_scans must be 1 or more, not {stable_scans}")
        self.matrix = matrix
        self.period_s = period_s
        self.stable_scans = stable_scans
        self.origin = origin
        self.occupied: int | None = None  # accepted occupancy, None before the first snapshot
        self.next_due: float | None = None  # when `step` next scans
        self.scans = 0
        self._recent: deque[int] = deque(maxlen=stable_scans)

    @property
    def sensor_settings(self) -> dict[str, float]:
        """The sensor settings of the stream's `start` for this source (`events.md`)."""
        return {"noise_s": 0.05, "latency_s": round(self.stable_scans * self.period_s, 6)}

    def step(self, now: float) -> list[Event]:
        """Scan if a scan is due at `now`; the events that scan confirms (often none)."""
        due = self.next_due
        if due is not None and now < due - _EPSILON_S:
            return []
        # keep the 50 Hz phase; a caller later than one period gets no burst of catch-up scans
        follows = due + self.period_s if due is not None else now + self.period_s
        self.next_due = follows if follows > now + _EPSILON_S else now + self.period_s
        return self.take(self.matrix.scan(now), now)

    def take(self, raw: int, now: float) -> list[Event]:
        """Take one scan's bitboard `raw`, made at `now`; the events it confirms."""
        self.scans += 1
        self._recent.append(raw)
        if len(self._recent) < self.stable_scans:
            return []
        all_set = all_clear = chess.BB_ALL
        for scan in self._recent:
            all_set &= scan
            all_clear &= ~scan
        t = now - self.origin
        if self.occupied is None:
            self.occupied = all_set
            return [Snapshot(t=t, board=placement(all_set))]
        new = (self.occupied | all_set) & ~all_clear
        lifted = self.occupied & ~new
        placed = new & ~self.occupied
        self.occupied = new
        events: list[Event] = [Lift(t=t, square=chess.square_name(s)) for s in _squares(lifted)]
        events += [Place(t=t, square=chess.square_name(s)) for s in _squares(placed)]
        return events


def _squares(bb: int) -> list[chess.Square]:
    return list(chess.scan_forward(bb))


__all__ = [
    "A1_CORNERS",
    "MAX_PERIOD_S",
    "ReedMatrix",
    "ReedMatrixSource",
    "cell_of",
    "placement",
    "square_at",
]
