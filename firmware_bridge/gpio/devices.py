"""The clock panel's devices on the GPIO seam: buttons, player LEDs and the buzzer.

Buttons are inputs with the internal pull-up, wired to GND: pressed reads 0. They are
edge-triggered: the back-end calls them at the interrupt with the edge's monotonic time, and
that time (less the stream's `origin`) becomes the event's `t`, so a clock press is dated
when the button closed, not when the app loop saw it (6.9: which came first, the flag or
the move, can hang on milliseconds).

A contact bounces for a few milliseconds on press and release, and RPi.GPIO reports the
level of a `both` edge by reading the line a moment later, so a bounce can make it read the
wrong level, and its `bouncetime` filter can swallow the last edge of a burst. The buttons
therefore debounce in software, the same way on every back-end:

* a press is accepted on an edge that reads low while the button is up, when nothing was
  accepted in the last `debounce_s`; its time is that edge's time, the first of the bounce;
* a release is accepted on an edge that reads high while the button is down, likewise;
* an edge reading low while the button is already down is never a press: it is a bounce of
  the release read at the wrong moment;
* `update(now)`, which the loop calls anyway, reads the settled line once `debounce_s` has
  passed and corrects the state when an edge was lost or misread: a release that was
  swallowed, or a press whose edges all read high (dated by its first edge).

Events go to `emit`, which the session gives (e.g. `queue.Queue.put`); on a Pi it is called
from RPi.GPIO's callback thread, so it must be thread-safe.

Outputs hold no thread and read no clock: the session calls `update(now)` from its loop, and
`next_due(now)` says when the next change is due, so the loop can sleep until then.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.errors import PinUsageError
from firmware_bridge.gpio.base import Pin
from rules.events import Accept, ArbiterAction, Claim, Event, Offer, PauseClocks, Press, Resume
from rules.supervision import BLINK_HZ, BeepPattern, LedShow
from rules.types import Side

log = logging.getLogger(__name__)

#: default software debounce: contacts settle in 1–10 ms; no player presses twice in 50 ms
DEBOUNCE_S = 0.05
#: the back-end's own filter (RPi.GPIO `bouncetime`): off by default. The software debounce
#: does the job on every back-end, and rpi-lgpio (the Pi 5's RPi.GPIO) implements
#: `bouncetime` with lgpio's debounce, which reports an edge only once the line has been
#: steady that long: the callback, and so the press time, would come late by that much.
HW_BOUNCE_S = 0.0
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
        return Resume(t=self.t) if paused else PauseClocks(t=self.t)


Emit = Callable[["Event | PauseToggle | DrawHold"], None]


class Button(ABC):
    """A push button to GND on a pulled-up input; see the module docstring for the debounce."""

    #: while a button is down, how often `next_due` asks the loop to look at it
    HELD_POLL_S = 0.05

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
        self._last_change: float | None = None  # time of the last accepted press or release
        self._first_unsettled: float | None = None  # first edge not yet accounted for
        self._lock = threading.Lock()  # edges come on the back-end's thread, update on the loop's
        pin.setup_input("up")
        pin.when_edge(self._on_edge, "both", hw_bounce_s)

    def _settled(self, t: float) -> bool:
        return self._last_change is None or t - self._last_change >= self.debounce_s - 1e-9

    def _on_edge(self, pin: Pin, level: int, t: float) -> None:
        with self._lock:
            pressed_at = None
            first = self._first_unsettled
            recent = first is not None and t - first < self.debounce_s
            if level == (1 if self.is_pressed else 0) and self._settled(t):
                # a change read right after a misread edge began with that edge
                pressed_at = self._accept(first if recent and first is not None else t)
            elif self._settled(t) and not recent:
                self._first_unsettled = t  # a wrong-level edge: `update` will look again
        self._fire(pressed_at)  # outside the lock: the session's sink may block briefly

    def _accept(self, t: float) -> float | None:
        """Flip the state at `t`; the press time if it became a press."""
        self.is_pressed = not self.is_pressed
        self._last_change = t
        self._first_unsettled = None
        return t if self.is_pressed else None

    def update(self, now: float) -> None:
        """Once the line has settled, correct a state that a lost or misread edge left wrong."""
        with self._lock:
            pressed_at = None
            if self._settled(now):
                if self.pin.read() == (1 if self.is_pressed else 0):
                    first = self._first_unsettled
                    pressed_at = self._accept(first if first is not None else now)
                else:
                    self._first_unsettled = None
        self._fire(pressed_at)

    def next_due(self, now: float) -> float | None:
        """When `update` should look at the line again; None while it rests released."""
        if not self.is_pressed and self._first_unsettled is None:
            return None
        last = self._last_change if self._last_change is not None else now
        settled = last + self.debounce_s
        return settled if settled > now else now + self.HELD_POLL_S

    def _fire(self, t: float | None) -> None:
        if t is None:
            return
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

    def __init__(self, pin: Pin, side: Side, emit: Emit, **options: float) -> None:
        self.side = side
        super().__init__(pin, emit, **options)

    def event(self, t: float) -> Press:
        return Press(t=t, side=self.side)


@dataclass(frozen=True, slots=True)
class DrawHold:
    """A player held the claim button `HOLD_S` or longer, from `t` (not a contract event).

    Whether it offers a draw or accepts the opponent's offer depends on the game, which the
    session knows: `to_action(offer)` (the side whose offer stands, or None) gives the
    contract's `accept` (9.1.2.2) or `offer` (9.1.2.1).
    """

    t: float
    side: Side

    def to_action(self, offer: Side | None) -> Event:
        if offer is not None and offer != self.side:
            return Accept(t=self.t, side=self.side)
        return Offer(t=self.t, side=self.side)


class ClaimButton(Button):
    """A player's claim button. A press released within `hold_s` is a claim,
    `Claim(kind='any')`: whatever the Laws allow the player now. Held `hold_s` or longer it
    is the player's draw offer, or the acceptance of the opponent's (`DrawHold`). Either is
    dated at the press, and sent when it is known: at the release, or once held `hold_s`.
    """

    #: seconds a press must be held to be a draw offer rather than a claim
    HOLD_S = 2.0

    def __init__(
        self, pin: Pin, side: Side, emit: Emit, *, hold_s: float = HOLD_S, **options: float
    ) -> None:
        self.side = side
        self.hold_s = hold_s
        self._down_at: float | None = None  # the press not yet sent (a claim, or a hold)
        super().__init__(pin, emit, **options)

    def _accept(self, t: float) -> float | None:
        pressed_at = super()._accept(t)
        if pressed_at is not None:
            self._down_at = pressed_at  # a claim or a hold: the release or the time tells
            return None
        down, self._down_at = self._down_at, None
        return down  # released before `hold_s`: the claim, dated at the press

    def update(self, now: float) -> None:
        super().update(now)
        held = None
        with self._lock:
            down = self._down_at
            if self.is_pressed and down is not None and now - down >= self.hold_s:
                held, self._down_at = down, None
        if held is not None and held - self.origin >= 0:
            self.emit(DrawHold(t=held - self.origin, side=self.side))

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
        self._last_end: float | None = None  # end of the last beep scheduled
        self._level = 0
        self.played: list[tuple[float, str]] = []  # (start, pattern name), for the record
        pin.setup_output(0)

    def play(self, pattern: BeepPattern, now: float) -> None:
        """Play `pattern` from `now`, or after what is still playing and a short gap."""
        last = self._last_end
        start = now if last is None else max(now, last + PATTERN_GAP_S)
        self.played.append((start, pattern.name))
        t = start
        for on_s, off_s in pattern.segments:
            self._beeps.append((t, t + on_s))
            self._last_end = t + on_s
            t += on_s + off_s
        self.update(now)

    def silence(self, now: float) -> None:
        self._beeps.clear()
        self._last_end = None
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
