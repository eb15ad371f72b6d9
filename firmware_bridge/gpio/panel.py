"""The clock panel: both clock buttons, the pause and claim buttons, the LEDs and the buzzer.

`ClockPanel` builds every device from a `PinMap` on one `Pins` factory (a GPIO given twice
fails there, naming both uses), turns the rulings the session hands it into what the LEDs
and the buzzer show through the pure `indications` (FIDE 12.6, see `indications.py`), and
drives the outputs from the session's loop with `update(now)`.
"""

from __future__ import annotations

from collections.abc import Iterable

from firmware_bridge.gpio.base import Pins
from firmware_bridge.gpio.devices import (
    DEBOUNCE_S,
    ArbiterButton,
    Button,
    Buzzer,
    ClaimButton,
    ClockButton,
    Emit,
    PlayerLed,
)
from firmware_bridge.gpio.pins import DEFAULT_PINS, PinMap
from rules.rulings import Ruling
from rules.supervision import (
    DEFAULT_MODE,
    Indications,
    PanelMode,
    PanelState,
    indications,
)


class ClockPanel:
    """Every button, LED and the buzzer of the pin map, on `pins`.

    Args:
        pins: the GPIO back-end.
        emit: where button events go (thread-safe: called from the interrupt thread).
        pin_map: which GPIO does what.
        mode: strict/feedback, deciding what the panel may show (12.6).
        origin: the monotonic time at which the stream began (edge times minus it are `t`).

    Every `now` given to `follow`, `update` and `next_due` is on the same monotonic clock
    the back-end stamps edges with (`time.monotonic` on a Pi; the test's times on the fake).
        debounce_s: the buttons' software debounce.
    """

    def __init__(
        self,
        pins: Pins,
        emit: Emit,
        pin_map: PinMap = DEFAULT_PINS,
        *,
        mode: PanelMode = DEFAULT_MODE,
        origin: float = 0.0,
        debounce_s: float = DEBOUNCE_S,
    ) -> None:
        self.mode = mode
        self.state = PanelState()
        self.shown = Indications()
        opts = {"origin": origin, "debounce_s": debounce_s}
        m = pin_map
        self.clock_buttons = {
            "white": ClockButton(pins.pin(m.clock_white, "clock_white"), "white", emit, **opts),
            "black": ClockButton(pins.pin(m.clock_black, "clock_black"), "black", emit, **opts),
        }
        self.pause_button = ArbiterButton(pins.pin(m.pause, "pause"), emit, **opts)
        self.claim_buttons = {
            "white": ClaimButton(pins.pin(m.claim_white, "claim_white"), "white", emit, **opts),
            "black": ClaimButton(pins.pin(m.claim_black, "claim_black"), "black", emit, **opts),
        }
        self.leds = {
            "white": PlayerLed(pins.pin(m.led_white, "led_white")),
            "black": PlayerLed(pins.pin(m.led_black, "led_black")),
        }
        self.buzzer = Buzzer(pins.pin(m.buzzer, "buzzer"))

    @property
    def buttons(self) -> list[Button]:
        """Every button of the panel."""
        return [*self.clock_buttons.values(), self.pause_button, *self.claim_buttons.values()]

    def begin(self, running: str | None, now: float) -> Indications:
        """A game starts (or resumes) with `running`'s clock running: show it."""
        self.state = PanelState(running=running)
        return self.follow([], now)

    def follow(self, rulings: Iterable[Ruling], now: float) -> Indications:
        """Take one step's rulings and show what 12.6 allows; returns what is shown."""
        self.state = self.state.after(rulings)
        shown = indications(self.state, self.mode)
        self.show(shown, now)
        return shown

    def show(self, shown: Indications, now: float) -> None:
        """Set both LEDs and play the beeps of `shown`."""
        self.shown = shown
        for side, led in self.leds.items():
            led.show(shown.led(side), now)
        for beep in shown.beeps:
            self.buzzer.play(beep, now)

    def update(self, now: float) -> None:
        """Drive blinking LEDs and the buzzer to what `now` asks for; settle the buttons."""
        for button in self.buttons:
            button.update(now)
        for led in self.leds.values():
            led.update(now)
        self.buzzer.update(now)

    def next_due(self, now: float) -> float | None:
        """The next moment `update` has work (a blink, a beep's end, a held button), or None."""
        dues = [b.next_due(now) for b in self.buttons]
        dues += [led.next_due(now) for led in self.leds.values()]
        dues.append(self.buzzer.next_due(now))
        pending = [d for d in dues if d is not None]
        return min(pending) if pending else None

    def close(self, now: float) -> None:
        """Stop the buttons' callbacks and switch the LEDs and the buzzer off."""
        for button in (
            *self.clock_buttons.values(),
            self.pause_button,
            *self.claim_buttons.values(),
        ):
            button.close()
        for led in self.leds.values():
            led.off(now)
        self.buzzer.silence(now)


__all__ = ["ClockPanel"]
