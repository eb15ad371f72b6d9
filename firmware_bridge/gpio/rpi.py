"""The RPi.GPIO back-end of the GPIO seam: thin, BCM numbering, edges by interrupt.

RPi.GPIO is imported here, lazily, when `RpiPins` is built, and nowhere else. On a
Raspberry Pi 5 (and on Raspberry Pi OS Bookworm kernels, where RPi.GPIO 0.7.1 fails with
"Failed to add edge detection") the `rpi-lgpio` package provides the same `RPi.GPIO`
module on top of lgpio; this file works with either.

The edge callback is the one place in the project that reads a clock: it stamps
`time.monotonic()` as soon as RPi.GPIO's thread calls it, so a clock press carries the time
of the interrupt, not the time the app loop got round to it. Tests inject a stand-in
module (`gpio_module=`) and a clock (`clock=`) and check the calls made.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from firmware_bridge.errors import GpioUnavailable
from firmware_bridge.gpio import messages as said
from firmware_bridge.gpio.base import Edge, EdgeCallback, Pin, Pins, Pull

INSTALL_HINT = said.RPI_MISSING


def import_rpi_gpio() -> Any:
    """Import `RPi.GPIO`, or say in one line how to get it."""
    try:
        return importlib.import_module("RPi.GPIO")
    except ImportError as exc:
        raise GpioUnavailable.of(INSTALL_HINT) from exc
    except RuntimeError as exc:  # "This module can only be run on a Raspberry Pi!"
        raise GpioUnavailable.of(said.RPI_CANNOT_RUN, reason=exc) from exc


class RpiPin(Pin):
    """One BCM line through RPi.GPIO."""

    def __init__(self, pins: RpiPins, number: int, name: str) -> None:
        super().__init__(number, name)
        self._pins = pins
        self._gpio = pins.gpio

    def _call(self, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RuntimeError as exc:
            raise GpioUnavailable.of(
                said.RPI_FAILED, what=what, number=self.number, name=self.name, reason=exc
            ) from exc

    def _setup_input(self, pull: Pull) -> None:
        g = self._gpio
        pud = {"up": g.PUD_UP, "down": g.PUD_DOWN, None: g.PUD_OFF}[pull]
        self._call(said.RPI_SET_UP, g.setup, self.number, g.IN, pull_up_down=pud)

    def _setup_output(self, initial: int) -> None:
        g = self._gpio
        self._call(
            said.RPI_SET_UP, g.setup, self.number, g.OUT, initial=g.HIGH if initial else g.LOW
        )

    def _read(self) -> int:
        return 1 if self._gpio.input(self.number) else 0

    def _write(self, level: int, at: float | None) -> None:
        g = self._gpio
        g.output(self.number, g.HIGH if level else g.LOW)

    def _watch(self, callback: EdgeCallback, edge: Edge, bounce_s: float) -> None:
        g = self._gpio
        clock = self._pins.clock
        fixed = {"falling": 0, "rising": 1}.get(edge)

        def on_edge(channel: int) -> None:
            t = clock()  # the moment of the interrupt: the ONE clock read of the project
            level = fixed if fixed is not None else (1 if g.input(channel) else 0)
            callback(self, level, t)

        kind = {"falling": g.FALLING, "rising": g.RISING, "both": g.BOTH}[edge]
        kwargs: dict[str, Any] = {"callback": on_edge}
        bouncetime = round(bounce_s * 1000)
        if bouncetime > 0:  # RPi.GPIO refuses bouncetime=0
            kwargs["bouncetime"] = bouncetime
        self._call(said.RPI_WATCH, g.add_event_detect, self.number, kind, **kwargs)

    def _unwatch(self) -> None:
        self._gpio.remove_event_detect(self.number)


class RpiPins(Pins):
    """Pins on a Raspberry Pi through RPi.GPIO (or rpi-lgpio), BCM numbering.

    Args:
        gpio_module: the `RPi.GPIO` module; imported when not given (tests pass a stand-in).
        clock: the monotonic clock the edge callback reads; `time.monotonic` on a Pi.
    """

    backend = "rpi"

    def __init__(
        self, gpio_module: Any = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.gpio = gpio_module if gpio_module is not None else import_rpi_gpio()
        self.clock = clock
        self.gpio.setwarnings(False)
        self.gpio.setmode(self.gpio.BCM)

    def _make_pin(self, number: int, name: str) -> Pin:
        return RpiPin(self, number, name)

    def _close(self) -> None:
        if self._claimed:
            self.gpio.cleanup(sorted(self._claimed))


__all__ = ["INSTALL_HINT", "RpiPin", "RpiPins", "import_rpi_gpio"]
