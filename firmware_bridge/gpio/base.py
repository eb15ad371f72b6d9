"""The GPIO seam: an abstract `Pins` factory and the `Pin` it hands out (house style lesson 7).

Devices (buttons, LEDs, the buzzer, the reed matrix) never touch a GPIO library. They ask a
`Pins` factory for a `Pin` by BCM number, set it up as an input or an output, read it, write
it, and register one edge callback. Which library does the work is chosen by name through
`open_pins(name)`, which imports the back-end only when it is asked for, so that a machine
without RPi.GPIO can still run every test and the `fake` and `none` back-ends.

Time comes from the seam: an edge callback receives `(pin, level, t)`, where `t` is the
monotonic time of the edge as the back-end stamped it at the interrupt. The real back-end
(`rpi.py`) is the one place that reads a clock; the fake (`fake.py`) takes its times from
the test. Nothing here reads a clock or starts a thread.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Literal

from firmware_bridge.errors import GpioError, GpioUnavailable, PinConfigError, PinUsageError

#: BCM numbers reachable on the 40-pin header (0 and 1 are the HAT ID EEPROM's, left alone)
BCM_RANGE = range(2, 28)

Edge = Literal["falling", "rising", "both"]
Pull = Literal["up", "down"] | None
#: an edge callback: the pin, its level after the edge (0 or 1), the monotonic time of the edge
EdgeCallback = Callable[["Pin", int, float], None]

EDGES: tuple[str, ...] = ("falling", "rising", "both")
PULLS: tuple[object, ...] = ("up", "down", None)






class Pin(ABC):
    """One GPIO line, by BCM number, as a back-end drives it.

    A back-end must implement `_setup_input`, `_setup_output`, `_read`, `_write`,
    `_watch` and `_unwatch`; the checks (mode, edge and pull names) live here once.
    """

    def __init__(self, number: int, name: str) -> None:
        self.number = number
        self.name = name
        self.mode: Literal["input", "output"] | None = None
        self.pull: Pull = None
        self._watching = False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} GPIO{self.number} {self.name!r} {self.mode or 'unset'}>"

    def _where(self) -> str:
        return f"GPIO {self.number} ({self.name!r})"

    # --- set-up -----------------------------------------------------------------------------
    def setup_input(self, pull: Pull = "up") -> None:
        """Make the pin an input with the internal pull-up, pull-down or none (`None`)."""
        if pull not in PULLS:
            raise PinUsageError(f"{self._where()}: pull must be 'up', 'down' or None, not {pull!r}")
        self._setup_input(pull)
        self.mode = "input"
        self.pull = pull

    def setup_output(self, initial: int = 0) -> None:
        """Make the pin an output driven at `initial` (0 or 1)."""
        self._setup_output(_level(initial, self._where()))
        self.mode = "output"
        self.pull = None

    # --- use --------------------------------------------------------------------------------
    def read(self) -> int:
        """The pin's level now, 0 or 1."""
        if self.mode is None:
            raise PinUsageError(f"{self._where()} was read before it was set up")
        return self._read()

    def write(self, level: int, at: float | None = None) -> None:
        """Drive an output to `level`. `at` is the caller's time, recorded by the fake only."""
        if self.mode != "output":
            raise PinUsageError(f"{self._where()} is not an output; it cannot be written")
        self._write(_level(level, self._where()), at)

    def when_edge(self, callback: EdgeCallback, edge: Edge = "both", bounce_s: float = 0.0) -> None:
        """Call `callback(pin, level, t)` on each edge of an input.

        `bounce_s` asks the back-end to ignore further edges for that long after one it
        reported (RPi.GPIO's `bouncetime`); devices debounce in software as well, since a
        back-end's filter differs between libraries. One callback a pin.
        """
        if self.mode != "input":
            raise PinUsageError(f"{self._where()} is not an input; it has no edges to watch")
        if edge not in EDGES:
            raise PinUsageError(f"{self._where()}: edge must be one of {EDGES}, not {edge!r}")
        if bounce_s < 0:
            raise PinUsageError(f"{self._where()}: bounce_s must not be negative, not {bounce_s}")
        if self._watching:
            raise PinUsageError(f"{self._where()} already has an edge callback")
        self._watch(callback, edge, bounce_s)
        self._watching = True

    def stop_watching(self) -> None:
        """Remove the edge callback, if any."""
        if self._watching:
            self._unwatch()
            self._watching = False

    # --- what a back-end provides ------------------------------------------------------------
    @abstractmethod
    def _setup_input(self, pull: Pull) -> None: ...

    @abstractmethod
    def _setup_output(self, initial: int) -> None: ...

    @abstractmethod
    def _read(self) -> int: ...

    @abstractmethod
    def _write(self, level: int, at: float | None) -> None: ...

    @abstractmethod
    def _watch(self, callback: EdgeCallback, edge: Edge, bounce_s: float) -> None: ...

    @abstractmethod
    def _unwatch(self) -> None: ...


class Pins(ABC):
    """A factory of pins for one back-end; each BCM number may be claimed once.

    `pin(number, name)` claims a pin for a named use (e.g. `"clock_white"`), so that a pin
    map giving one GPIO to two devices fails with both names in the message.
    """

    #: the back-end's name in the registry
    backend: str = ""

    def __init__(self) -> None:
        self._claimed: dict[int, Pin] = {}
        self.closed = False

    def pin(self, number: int, name: str) -> Pin:
        """Claim GPIO `number` (BCM) for the use `name`."""
        if self.closed:
            raise PinUsageError(f"the {self.backend!r} pins are closed; cannot claim GPIO {number}")
        if isinstance(number, bool) or not isinstance(number, int) or number not in BCM_RANGE:
            raise PinConfigError(
                f"{name!r}: GPIO {number!r} is not a header GPIO (BCM {BCM_RANGE.start}–"
                f"{BCM_RANGE.stop - 1})"
            )
        owner = self._claimed.get(number)
        if owner is not None:
            raise PinConfigError(
                f"GPIO {number} is already used by {owner.name!r}; {name!r} cannot use it too"
            )
        made = self._make_pin(number, name)
        self._claimed[number] = made
        return made

    @property
    def claimed(self) -> dict[int, Pin]:
        """The pins handed out so far, by BCM number."""
        return dict(self._claimed)

    def close(self) -> None:
        """Stop every callback and give the lines back (outputs left as the back-end does)."""
        if self.closed:
            return
        for made in self._claimed.values():
            made.stop_watching()
        self._close()
        self.closed = True

    def __enter__(self) -> Pins:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def _make_pin(self, number: int, name: str) -> Pin: ...

    def _close(self) -> None:  # noqa: B027 - optional hook, most back-ends need nothing
        """Back-end clean-up after every pin stopped watching."""


class NoPins(Pins):
    """The `none` back-end: there is no GPIO here; asking for a pin says so."""

    backend = "none"

    def _make_pin(self, number: int, name: str) -> Pin:
        raise GpioUnavailable(
            f"{name!r} needs GPIO {number}, but the GPIO back-end is 'none'; "
            "use --gpio rpi on a Raspberry Pi, or --gpio fake"
        )


#: back-end name -> "module:Class", imported only when chosen (house style lesson 8)
BACKENDS: dict[str, str] = {
    "rpi": "firmware_bridge.gpio.rpi:RpiPins",
    "fake": "firmware_bridge.gpio.fake:FakePins",
    "none": "firmware_bridge.gpio.base:NoPins",
}


def open_pins(name: str, **options: Any) -> Pins:
    """Build the `Pins` of the back-end called `name` ('rpi', 'fake' or 'none').

    Raises:
        PinConfigError: the name is not a known back-end.
        GpioUnavailable: the back-end cannot run here (e.g. RPi.GPIO is not installed).
    """
    target = BACKENDS.get(name)
    if target is None:
        raise PinConfigError(
            f"unknown GPIO back-end {name!r}; choose one of {', '.join(sorted(BACKENDS))}"
        )
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    made: Pins = cls(**options)
    return made


def _level(value: object, where: str) -> int:
    if isinstance(value, bool) or value in (0, 1):
        return 1 if value else 0
    raise PinUsageError(f"{where}: a level is 0 or 1, not {value!r}")


__all__ = [
    "BACKENDS",
    "BCM_RANGE",
    "Edge",
    "EdgeCallback",
    "GpioError",
    "GpioUnavailable",
    "NoPins",
    "Pin",
    "PinConfigError",
    "PinUsageError",
    "Pins",
    "Pull",
    "open_pins",
]
