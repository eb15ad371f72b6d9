"""One contract for every GPIO back-end (house style lesson 10).

The same tests run on the fake pins and on the RPi.GPIO back-end over a behavioural
stand-in of the `RPi.GPIO` module (levels, pulls, edge detection with bouncetime, as the
library documents them), so a device that works on the fake works through `rpi.py` too.
Real hardware is not reachable here; on a Pi the stand-in is the only part to swap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from firmware_bridge.errors import PinUsageError
from firmware_bridge.gpio.base import Pins
from firmware_bridge.gpio.devices import ClockButton, PauseToggle
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.rpi import RpiPins
from rules.events import Event, Press


class StandInGPIO:
    """Behaves like RPi.GPIO for what `rpi.py` uses: BCM mode, pulls, outputs, edges."""

    BCM = 11
    IN, OUT = 1, 0
    HIGH, LOW = 1, 0
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
    FALLING, RISING, BOTH = 32, 31, 33

    def __init__(self) -> None:
        self.mode: int | None = None
        self.direction: dict[int, int] = {}
        self.pull: dict[int, int] = {}
        self.out: dict[int, int] = {}
        self.forced: dict[int, int] = {}
        self.detect: dict[int, tuple[int, Callable[[int], None], int]] = {}
        self.last_event_ms: dict[int, float] = {}
        self.now = 0.0  # the clock the back-end's callback reads

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        self.mode = mode

    def setup(self, channel: int, direction: int, pull_up_down: int = 20, initial: int = 0) -> None:
        assert self.mode == self.BCM, "setup before setmode(BCM)"
        self.direction[channel] = direction
        if direction == self.OUT:
            self.out[channel] = initial
        else:
            self.pull[channel] = pull_up_down

    def input(self, channel: int) -> int:
        if self.direction.get(channel) == self.OUT:
            return self.out[channel]
        if channel in self.forced:
            return self.forced[channel]
        return {self.PUD_UP: 1, self.PUD_DOWN: 0}.get(self.pull.get(channel, 20), 1)

    def output(self, channel: int, level: int) -> None:
        if self.direction.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self.out[channel] = level

    def add_event_detect(
        self, channel: int, edge: int, callback: Callable[[int], None], bouncetime: int = 0
    ) -> None:
        if channel in self.detect:
            raise RuntimeError("Conflicting edge detection already enabled for this GPIO channel")
        self.detect[channel] = (edge, callback, bouncetime)

    def remove_event_detect(self, channel: int) -> None:
        self.detect.pop(channel, None)

    def cleanup(self, channels: list[int]) -> None:
        for c in channels:
            self.direction.pop(c, None)

    def force(self, channel: int, level: int, t: float) -> None:
        """An outside circuit moves the line at time t; run the callback as the library would."""
        before = self.input(channel)
        self.forced[channel] = level
        after = self.input(channel)
        if before == after or channel not in self.detect:
            return
        edge, callback, bouncetime = self.detect[channel]
        if (edge == self.FALLING and after != 0) or (edge == self.RISING and after != 1):
            return
        last = self.last_event_ms.get(channel)
        if last is not None and bouncetime and (t * 1000 - last) < bouncetime:
            return
        self.last_event_ms[channel] = t * 1000
        self.now = t
        callback(channel)


@dataclass
class Rig:
    pins: Pins
    drive: Callable[[int, int, float], None]  # (BCM number, level, t)


def _fake() -> Rig:
    pins = FakePins()

    def drive(number: int, level: int, t: float) -> None:
        pin = pins[number]
        (pin.drive_low if level == 0 else pin.drive_high)(t)

    return Rig(pins, drive)


def _rpi() -> Rig:
    g = StandInGPIO()
    return Rig(RpiPins(gpio_module=g, clock=lambda: g.now), g.force)


@pytest.fixture(params=["fake", "rpi"])
def rig(request: pytest.FixtureRequest) -> Rig:
    return _fake() if request.param == "fake" else _rpi()


def test_input_reads_its_pull_then_the_line(rig: Rig) -> None:
    up = rig.pins.pin(2, "up")
    up.setup_input("up")
    down = rig.pins.pin(3, "down")
    down.setup_input("down")
    assert (up.read(), down.read()) == (1, 0)
    rig.drive(2, 0, 1.0)
    rig.drive(3, 1, 1.0)
    assert (up.read(), down.read()) == (0, 1)


def test_output_reads_back_what_was_written(rig: Rig) -> None:
    led = rig.pins.pin(22, "led")
    led.setup_output(1)
    assert led.read() == 1
    led.write(0, 2.0)
    assert led.read() == 0
    with pytest.raises(PinUsageError):
        led.when_edge(lambda *a: None)


def test_edges_carry_pin_level_and_edge_time(rig: Rig) -> None:
    seen: list[tuple[int, int, float]] = []
    both = rig.pins.pin(4, "both")
    both.setup_input("up")
    both.when_edge(lambda p, level, t: seen.append((p.number, level, t)), "both")
    falling = rig.pins.pin(17, "falling")
    falling.setup_input("up")
    falling.when_edge(lambda p, level, t: seen.append((p.number, level, t)), "falling")
    rig.drive(4, 0, 1.5)
    rig.drive(4, 1, 1.75)
    rig.drive(17, 0, 2.0)
    rig.drive(17, 1, 2.5)  # rising: not watched
    assert seen == [(4, 0, 1.5), (4, 1, 1.75), (17, 0, 2.0)]


def test_backend_bounce_filter(rig: Rig) -> None:
    seen: list[float] = []
    pin = rig.pins.pin(27, "b")
    pin.setup_input("up")
    pin.when_edge(lambda p, level, t: seen.append(t), "both", bounce_s=0.01)
    for k, level in enumerate([0, 1, 0, 1, 0]):
        rig.drive(27, level, 1.0 + k * 0.002)
    rig.drive(27, 1, 1.5)
    assert seen == [1.0, 1.5]


def test_stop_watching_and_close(rig: Rig) -> None:
    seen: list[float] = []
    pin = rig.pins.pin(5, "x")
    pin.setup_input("up")
    pin.when_edge(lambda p, level, t: seen.append(t))
    pin.stop_watching()
    rig.drive(5, 0, 1.0)
    assert seen == []
    pin.when_edge(lambda p, level, t: seen.append(t))  # may watch again
    rig.drive(5, 1, 2.0)
    rig.pins.close()
    rig.drive(5, 0, 3.0)
    assert seen == [2.0]
    assert rig.pins.closed


def test_a_bouncing_clock_button_is_one_press_on_every_backend(rig: Rig) -> None:
    out: list[Event | PauseToggle] = []
    ClockButton(rig.pins.pin(2, "clock_white"), "white", out.append, origin=100.0)
    levels = [0, 1, 0, 1, 0, 1, 0]  # 7 edges, 1 ms apart
    for k, level in enumerate(levels):
        rig.drive(2, level, 112.0 + k * 0.001)
    for k, level in enumerate([1, 0, 1]):  # release, with a bounce
        rig.drive(2, level, 112.3 + k * 0.001)
    assert out == [Press(t=112.0 - 100.0, side="white")]


def test_stand_in_refuses_to_write_an_input() -> None:
    g = StandInGPIO()
    g.setmode(g.BCM)
    g.setup(5, g.IN)
    with pytest.raises(RuntimeError):
        g.output(5, 1)
