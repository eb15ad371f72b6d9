"""The live session's time base: stream seconds `t` mapped to the monotonic clock.

Live code never reads the wall clock. `MonotonicClock` maps `time.monotonic()` to the
stream's `t` (seconds since the game's `start`, events.md), optionally sped up (the demo);
tests inject a `FakeClock`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from arbiter.errors import SourceError


class Clock(Protocol):
    """The session's time base: stream seconds `t`, and the monotonic seconds behind them."""

    def now(self) -> float:
        """The stream time now (seconds since the game's `start`)."""

    def real_delay(self, dt: float) -> float:
        """How many real seconds `dt` stream seconds take (for waiting)."""

    def mono(self, t: float) -> float:
        """The monotonic time at which the stream reaches `t` (GPIO edges are stamped so)."""

    def stream(self, mono: float) -> float:
        """The stream time of the monotonic time `mono` (the inverse of `mono`)."""


class MonotonicClock:
    """`time.monotonic()` as stream time: t = (monotonic - origin) × speed.

    Args:
        t0: the stream time now (0 for a new game; the journal's last `t` on a resume, so
            that the clocks go on as they stood: events.md `restart`).
        speed: how much faster than real time the stream runs (1 for play; the demo's
            `--speed`).
        source: the monotonic clock (injectable for tests).
    """

    def __init__(
        self, t0: float = 0.0, *, speed: float = 1.0, source: Callable[[], float] = time.monotonic
    ) -> None:
        if not speed > 0:
            raise SourceError(f"the speed must be above 0, not {speed!r}")
        self.speed = speed
        self._source = source
        self.origin = source() - t0 / speed

    def now(self) -> float:
        return (self._source() - self.origin) * self.speed

    def real_delay(self, dt: float) -> float:
        return max(0.0, dt / self.speed)

    def mono(self, t: float) -> float:
        return self.origin + t / self.speed

    def stream(self, mono: float) -> float:
        return (mono - self.origin) * self.speed


class PacedClock(MonotonicClock):
    """Real time at `speed`, never past the moment a scripted player last allowed (the demo
    on a virtual board: `arbiter.demo.board.PlayedOnTheBoard`).

    Stream time runs with the monotonic clock, as `MonotonicClock`'s, but stops at `cap`:
    the player allows the time of its next event (`set`), waits until the stream gets there
    (`until`), then acts; whatever the virtual board reports of that act reaches the session
    while the time stands at exactly that moment, however late the machine's load makes it
    arrive. Every run of the demo so gives the same journal and PGN, clocks included (issue
    12 item 5, trial row 17), and time still runs between events (releases, the clocks on
    the screen). A machine too slow for the speed makes the game slower, never different.

    The time stands at `cap` for at most `HOLD_S` real seconds: a report that has not come by
    then waits on something that itself waits for time to pass (a link judged silent, which
    reconnects after a back-off on this clock). The time then runs on, as on a plain real-time
    clock: the game goes on right, only no longer to the tenth of the script's times.
    """

    #: real seconds the time may stand at `cap` (a board's report comes within milliseconds)
    HOLD_S = 1.0

    def __init__(self, *, speed: float = 1.0, source: Callable[[], float] = time.monotonic) -> None:
        super().__init__(speed=speed, source=source)
        self.cap = 0.0
        self._held_since: float | None = None  # the real time the running time passed `cap`
        self._last = 0.0  # never back

    def now(self) -> float:
        running = super().now()
        if running <= self.cap:
            self._held_since = None
            value = running
        else:
            real = self._source()
            if self._held_since is None:
                self._held_since = real
            value = self.cap if real - self._held_since < self.HOLD_S else running
        self._last = max(self._last, value)
        return self._last

    def set(self, t: float) -> None:
        """Let the stream time run up to `t` (never back)."""
        self.cap = max(self.cap, t)

    def until(self, t: float) -> float:
        """The real seconds until the running time reaches `t` (0 if it has)."""
        return self.real_delay(t - super().now())


class FakeClock:
    """A clock a test sets by hand (`set`, `advance`); stream time and monotonic time agree."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t
        self.origin = 0.0

    def now(self) -> float:
        return self.t

    def set(self, t: float) -> None:
        self.t = t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t

    def real_delay(self, dt: float) -> float:
        return max(0.0, dt)

    def mono(self, t: float) -> float:
        return t

    def stream(self, mono: float) -> float:
        return mono
