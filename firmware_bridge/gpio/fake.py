"""The `fake` back-end: pins a test drives by hand, shipped in the package (house style 9).

Like gpiozero's `MockFactory`, `FakePins` hands out `FakePin`s that behave like real lines:
an input reads its pull level until the test drives it (`drive_low(t)`, `drive_high(t)`,
`bounce(...)`), and every edge runs the callback with the time the test gave, filtered by
the callback's `bounce_s` as RPi.GPIO's `bouncetime` filters (edges within that time after a
reported edge are dropped). An output records `(t, level)` each time its level changes, for
`assert_states` and `assert_history`.

`FakeReedBoard` wires a simulated 8×8 reed-switch matrix to the fake pins: given the closed
switches, a column input reads low when a closed switch joins it to the row being driven
low. With `diodes=False` it also lets current run backwards through switches, which shows
the "ghost" fourth corner of a rectangle that makes diodes necessary.

No clock is read here: every time comes from the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import chess

from firmware_bridge.errors import PinUsageError
from firmware_bridge.gpio.base import Edge, EdgeCallback, Pin, Pins, Pull
from firmware_bridge.gpio.reed_matrix import cell_of


class FakePin(Pin):
    """A GPIO line driven by a test; see the module docstring."""

    def __init__(self, pins: FakePins, number: int, name: str) -> None:
        super().__init__(number, name)
        self._pins = pins
        self._driven: int | None = None  # level an outside circuit (the test) forces
        self._out = 0
        self._callback: EdgeCallback | None = None
        self._edge: Edge = "both"
        self._bounce_s = 0.0
        self._last_reported: float | None = None
        self.history: list[tuple[float, int]] = []  # outputs: (t, level) at each change
        self.edges: list[tuple[float, int]] = []  # inputs: every edge, reported or not

    # --- the back-end's part ----------------------------------------------------------------
    def _setup_input(self, pull: Pull) -> None:
        pass

    def _setup_output(self, initial: int) -> None:
        self._out = initial
        self._record(initial, None)

    def _read(self) -> int:
        if self.mode == "output":
            return self._out
        return self._input_level()

    def _write(self, level: int, at: float | None) -> None:
        self._out = level
        self._record(level, at)

    def _watch(self, callback: EdgeCallback, edge: Edge, bounce_s: float) -> None:
        self._callback, self._edge, self._bounce_s = callback, edge, bounce_s
        self._last_reported = None

    def _unwatch(self) -> None:
        self._callback = None

    def _record(self, level: int, at: float | None) -> None:
        t = self._pins.now if at is None else at
        self._pins.now = max(self._pins.now, t)
        if not self.history or self.history[-1][1] != level:
            self.history.append((t, level))

    def _input_level(self) -> int:
        circuit = self._pins.circuits.get(self.number)
        if circuit is not None:
            sunk = circuit(self)
            if sunk is not None:
                return sunk
        if self._driven is not None:
            return self._driven
        if self.pull == "up":
            return 1
        if self.pull == "down":
            return 0
        raise PinUsageError(f"{self._where()} floats: no pull and nothing drives it")

    # --- what a test does -------------------------------------------------------------------
    def drive_low(self, t: float) -> None:
        """Force the line low at time `t` (a button pressed to GND), firing the callback."""
        self._drive(0, t)

    def drive_high(self, t: float) -> None:
        """Force the line high at time `t`, firing the callback."""
        self._drive(1, t)

    def release(self, t: float) -> None:
        """Stop forcing the line: it goes back to its pull level at time `t`."""
        self._drive(None, t)

    def bounce(self, t: float, level: int, n: int = 3, interval: float = 0.001) -> float:
        """Move to `level` at `t` with `n` contact bounces `interval` apart; end at `level`.

        The line reaches `level` at `t`, falls back and returns `n` times (`2n` more edges),
        as a mechanical contact does. Returns the time of the last edge.
        """
        other = 1 - level
        self._drive(level, t)
        for i in range(n):
            self._drive(other, t + (2 * i + 1) * interval)
            self._drive(level, t + (2 * i + 2) * interval)
        return t + 2 * n * interval

    def _drive(self, level: int | None, t: float) -> None:
        if self.mode == "output":
            raise PinUsageError(f"{self._where()} is an output; a test cannot drive it")
        self._pins.now = max(self._pins.now, t)
        before = self._input_level() if self.mode == "input" else None
        self._driven = level
        if self.mode != "input":
            return
        after = self._input_level()
        if after == before:
            return
        self.edges.append((t, after))
        self.notify(after, t)

    def notify(self, level: int, t: float) -> None:
        """Run the callback for an edge to `level` at `t`, as the back-end's filter allows."""
        if self._callback is None:
            return
        if (self._edge, level) in (("falling", 1), ("rising", 0)):
            return
        last = self._last_reported
        if last is not None and self._bounce_s > 0 and t - last < self._bounce_s:
            return
        self._last_reported = t
        self._callback(self, level, t)

    # --- what a test checks -----------------------------------------------------------------
    def states(self) -> list[int]:
        """The output's levels in order, one entry a change."""
        return [level for _, level in self.history]

    def assert_states(self, expected: Sequence[int]) -> None:
        """Fail unless the output went through exactly the levels `expected`."""
        got = self.states()
        if got != list(expected):
            raise AssertionError(f"{self._where()} went through {got}, not {list(expected)}")

    def assert_history(self, expected: Sequence[tuple[float, int]], tol: float = 1e-9) -> None:
        """Fail unless the output changed to each level at each time (within `tol`)."""
        ok = len(self.history) == len(expected) and all(
            abs(t - et) <= tol and level == el
            for (t, level), (et, el) in zip(self.history, expected, strict=True)
        )
        if not ok:
            raise AssertionError(f"{self._where()} history {self.history}, not {list(expected)}")

    def level_at(self, t: float) -> int:
        """The output's level at time `t` according to its history."""
        level = self.history[0][1] if self.history else 0
        for when, value in self.history:
            if when > t:
                break
            level = value
        return level


class FakePins(Pins):
    """The fake back-end; `now` is the latest time a test gave it."""

    backend = "fake"

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0
        #: BCM number -> a circuit answering that input's level (None: the circuit lets go)
        self.circuits: dict[int, Callable[[FakePin], int | None]] = {}

    def _make_pin(self, number: int, name: str) -> FakePin:
        return FakePin(self, number, name)

    def __getitem__(self, number: int) -> FakePin:
        made = self._claimed.get(number)
        if made is None:
            raise PinUsageError(f"GPIO {number} has not been claimed from the fake pins")
        assert isinstance(made, FakePin)
        return made


class FakeReedBoard:
    """A simulated reed-switch matrix on fake pins: `closed` switches by (row, col).

    Rows are outputs the scanner drives low one at a time (idle rows float or stay high);
    columns are inputs with pull-ups. With `diodes=True` (a diode in series with every
    switch, anode at the column) current runs only from a column into a low row through one
    switch, so a column reads low exactly when the driven row's switch on it is closed.
    With `diodes=False` current runs either way through every closed switch: a column reads
    low when any path of closed switches leads to the low row, so three closed corners of a
    rectangle make the fourth read closed. A path from a low row to a row driven high is a
    short circuit between two outputs; it is counted in `shorts`.
    """

    def __init__(
        self,
        pins: FakePins,
        rows: Sequence[int],
        cols: Sequence[int],
        *,
        diodes: bool = True,
        closed: Iterable[tuple[int, int]] = (),
        a1_corner: str = "r0c0",
    ) -> None:
        self.pins = pins
        self.a1_corner = a1_corner
        self.rows = list(rows)
        self.cols = list(cols)
        self.diodes = diodes
        self.closed: set[tuple[int, int]] = set(closed)
        self.shorts = 0
        for number in self.cols:
            pins.circuits[number] = self._column_level

    def set_closed(self, closed: Iterable[tuple[int, int]]) -> None:
        """Replace the set of closed switches (matrix row, column)."""
        self.closed = set(closed)

    def set_squares(self, squares: Iterable[str | int]) -> None:
        """Close the switches under `squares` (names such as "e4", or python-chess numbers)."""
        cells = set()
        for square in squares:
            number = chess.parse_square(square) if isinstance(square, str) else square
            cells.add(cell_of(number, self.a1_corner))
        self.closed = cells

    def _row_drive(self, r: int) -> int | None:
        """0 or 1 for a row driven as an output; None for a floating one (or not yet set up)."""
        made = self.pins.claimed.get(self.rows[r])
        if made is None or made.mode != "output":
            return None
        return made.read()

    def _column_level(self, pin: FakePin) -> int | None:
        c = self.cols.index(pin.number)
        drives = [self._row_drive(r) for r in range(len(self.rows))]
        if self.diodes:
            hit = any(drives[r] == 0 and (r, c) in self.closed for r in range(len(self.rows)))
            return 0 if hit else None
        # no diodes: walk the graph of rows and columns joined by closed switches
        seen_rows: set[int] = set()
        seen_cols = {c}
        frontier = [("c", c)]
        while frontier:
            kind, i = frontier.pop()
            if kind == "c":
                for r in range(len(self.rows)):
                    if (r, i) in self.closed and r not in seen_rows:
                        seen_rows.add(r)
                        frontier.append(("r", r))
            else:
                for cc in range(len(self.cols)):
                    if (i, cc) in self.closed and cc not in seen_cols:
                        seen_cols.add(cc)
                        frontier.append(("c", cc))
        levels = {drives[r] for r in seen_rows}
        if 0 in levels and 1 in levels:
            self.shorts += 1
        return 0 if 0 in levels else None


__all__ = ["FakePin", "FakePins", "FakeReedBoard"]
