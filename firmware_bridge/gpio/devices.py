"""The clock panel's devices on the GPIO seam: buttons, player LEDs and the buzzer.

Buttons are inputs with the internal pull-up, wired to GND: pressed reads 0. They are
edge-triggered: the back-end calls them at the interrupt with the edge's monotonic time, and
that time (less the stream's `origin`) becomes the event's `t`, so a clock press is dated
when the button closed, not when the app loop saw it (6.9: which came first, the flag or
the move, can hang on milliseconds). A contact bounces for a few milliseconds on press and
release; the back-end's `bounce_s` filter helps, and each button also debounces in software
with the same rule on every back-end: an edge is ignored within `debounce_s` of the last
accepted press or release. The first edge of a bouncing press is the press.

Events go to `emit`, which the session gives (e.g. `queue.Queue.put`); on a Pi it is called
from RPi.GPIO's callback thread, so it must be thread-safe.

Outputs hold no thread and read no clock: the session calls `update(now)` from its loop, and
`next_due(now)` says when the next change is due, so the loop can sleep until then.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.gpio.base import Pin, PinUsageError
from firmware_bridge.gpio.indications import BLINK_HZ, BeepPattern, LedShow
from rules.events import ArbiterAction, Claim, Event, Press

log = logging.getLogger(__name__)

#: default software debounce: contacts settle in 1–10 ms; no player presses twice in 50 ms
DEBOUNCE_S = 0.05
#: the back-end's own filter (RPi.GPIO bouncetime), kept shorter than the software one
HW_BOUNCE_S = 0.005
#: silence between two queued beep patterns, so that they do not run into one tone
PATTERN_GAP_S = 0.3


@dataclass(frozen=True, slots=True)
class PauseToggle:
    """The arbiter's pause button was pressed at `t` (not a contract event).

    Whether it pauses or resumes depends on the clock's state, which the session knows:
    `to_action(paused)` gives the contract's `arbiter` event (`pause` or `resume`).
    """

    t: float

    def to_action(self, paused: bool) -> ArbiterAction:
        return ArbiterAction(t=self.t, action="resume" if paused else "pause")


Emit = Callable[[Event | PauseToggle], None]


class Button(ABC):
    """A push button to GND on a pulled-up input; `pressed(t)` runs once a debounced press."""

    def __init__(
        self,
        pin: Pin,
        emit: Emit,
        *,
        origin: float = 0.0,
        debounce_s: float = DEBOUNCE_S,
        hw_bounce_s: float = HW_BOUNCE_S,
    ) -> None:
        if debounce_s < 0:
            raise PinUsageError(f"GPIO {pin.number} ({pin.name!r}): debounce_s must be >= 0")
        self.pin = pin
        self.emit = emit
        self.origin = origin
        self.debounce_s = debounce_s
        self.is_pressed = False
        self._last_press: float | None = None
        self._last_release: float | None = None
        pin.setup_input("up")
        pin.when_edge(self._on_edge, "both", hw_bounce_s)

    def _quiet_since(self, t: float, last: float | None) -> bool:
        return last is None or t - last >= self.debounce_s

    def _on_edge(self, pin: Pin, level: int, t: float) -> None:
        if level == 0:  # closed
            if self._quiet_since(t, self._last_press) and self._quiet_since(t, self._last_release):
                self._last_press = t
                self.is_pressed = True
                self._fire(t)
        elif self._quiet_since(t, self._last_press):  # opened, not a bounce of the press
            self._last_release = t
            self.is_pressed = False

    def _fire(self, t: float) -> None:
        stream_t = t - self.origin
        if stream_t < 0:
            log.debug("%s pressed %.3f s before the stream began; ignored", self.pin, -stream_t)
            return
        self.emit(self.event(stream_t))

    @abstractmethod
    def event(self, t: float) -> Event | PauseToggle:
        """The event a press at stream time `t` stands for."""

    def close(self) -> None:
        self.pin.stop_watching()


class ClockButton(Button):
    """A player's clock button: a press emits the contract's `Press(t, side)`."""

    def __init__(self, pin: Pin, side: str, emit: Emit, **options: float) -> None:
        self.side = side
        super().__init__(pin, emit, **options)

    def event(self, t: float) -> Press:
        return Press(t=t, side=self.side)


class ClaimButton(Button):
    """A player's claim button: `Claim(kind='any')`, whatever the Laws allow them now."""

    def __init__(self, pin: Pin, side: str, emit: Emit, **options: float) -> None:
        self.side = side
        super().__init__(pin, emit, **options)

    def event(self, t: float) -> Claim:
        return Claim(t=t, side=self.side, kind="any")


class ArbiterButton(Button):
    """The arbiter's pause button: each press is a `PauseToggle` (pause, or resume)."""

    def event(self, t: float) -> PauseToggle:
        return PauseToggle(t=t)


class PlayerLed:
    """One player's LED (active high, through a resistor to GND): off, on, or blinking.

    Blinking is lit for the first half of each period from the moment it began; `update(now)`
    writes the level the phase asks for, only when it changes.
    """

    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.show_now = LedShow.OFF
        self.rate_hz = 0.0
        self._since = 0.0
        self._level = 0
        pin.setup_output(0)

    def on(self, now: float) -> None:
        self.show(LedShow.ON, now)

    def off(self, now: float) -> None:
        self.show(LedShow.OFF, now)

    def blink(self, now: float, rate_hz: float = BLINK_HZ[LedShow.BLINK]) -> None:
        """Blink at `rate_hz` (full on-off cycles a second) from `now`."""
        if rate_hz <= 0:
            raise PinUsageError(f"{self.pin!r}: a blink rate must be positive, not {rate_hz}")
        self.show_now, self.rate_hz, self._since = LedShow.BLINK, rate_hz, now
        self.update(now)

    def show(self, what: LedShow, now: float) -> None:
        """Show `what`; asking again for the blink already shown keeps its phase."""
        if what == self.show_now:
            self.update(now)
            return
        self.show_now = what
        self.rate_hz = BLINK_HZ.get(what, 0.0)
        self._since = now
        self.update(now)

    def level_at(self, now: float) -> int:
        if self.show_now is LedShow.ON:
            return 1
        if self.show_now is LedShow.OFF:
            return 0
        half_periods = int((now - self._since) * 2 * self.rate_hz + 1e-9)
        return 1 if half_periods % 2 == 0 else 0

    def update(self, now: float) -> None:
        level = self.level_at(now)
        if level != self._level:
            self._level = level
            self.pin.write(level, now)

    def next_due(self, now: float) -> float | None:
        """When the blink next changes the level; None when steady."""
        if self.show_now in (LedShow.ON, LedShow.OFF):
            return None
        half = 1 / (2 * self.rate_hz)
        done = int((now - self._since) / half + 1e-9)
        return self._since + (done + 1) * half


class Buzzer:
    """An active buzzer on a plain output (through a transistor): beeps on a schedule.

    `play(pattern, now)` queues a pattern after whatever is still playing; `update(now)`
    switches the output on during each beep and off when it ends.
    """

    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self._beeps: list[tuple[float, float]] = []  # (start, end), in order
        self._level = 0
        self.played: list[tuple[float, str]] = []  # (start, pattern name), for the record
        pin.setup_output(0)

    def play(self, pattern: BeepPattern, now: float) -> None:
        """Play `pattern` from `now`, or after what is still playing and a short gap."""
        start = max(now, self._beeps[-1][1] + PATTERN_GAP_S) if self._beeps else now
        self.played.append((start, pattern.name))
        t = start
        for on_s, off_s in pattern.segments:
            self._beeps.append((t, t + on_s))
            t += on_s + off_s
        self.update(now)

    def silence(self, now: float) -> None:
        self._beeps.clear()
        self.update(now)

    @property
    def busy(self) -> bool:
        return bool(self._beeps)

    def update(self, now: float) -> None:
        while self._beeps and self._beeps[0][1] <= now:
            self._beeps.pop(0)
        level = 1 if self._beeps and self._beeps[0][0] <= now else 0
        if level != self._level:
            self._level = level
            self.pin.write(level, now)

    def next_due(self, now: float) -> float | None:
        """When the output next switches; None when nothing is scheduled."""
        for start, end in self._beeps:
            if start > now:
                return start
            if end > now:
                return end
        return None


__all__ = [
    "DEBOUNCE_S",
    "ArbiterButton",
    "Button",
    "Buzzer",
    "ClaimButton",
    "ClockButton",
    "Emit",
    "PauseToggle",
    "PlayerLed",
]
