"""The GPIO seam: back-end registry, pin claims, the fake pins, and the RPi.GPIO back-end
driven through an injected stand-in module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.gpio import (
    GpioUnavailable,
    NoPins,
    PinConfigError,
    PinUsageError,
    open_pins,
)
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.rpi import INSTALL_HINT, RpiPins
from rules.errors import ArbiterError

ROOT = Path(__file__).resolve().parents[2]


def test_open_pins_by_name() -> None:
    assert isinstance(open_pins("fake"), FakePins)
    assert isinstance(open_pins("none"), NoPins)


def test_unknown_backend_is_named() -> None:
    with pytest.raises(PinConfigError, match=r"unknown GPIO back-end 'gpiozero'.*fake, none, rpi"):
        open_pins("gpiozero")


def test_missing_rpi_gpio_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)  # makes `import RPi.GPIO` fail
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(GpioUnavailable) as info:
        open_pins("rpi")
    assert str(info.value) == INSTALL_HINT
    assert "pip install 'otb-arbiter[pi]'" in str(info.value)
    assert "rpi-lgpio" in str(info.value)
    assert isinstance(info.value, ArbiterError)


def test_none_backend_refuses_pins_with_a_reason() -> None:
    with pytest.raises(GpioUnavailable, match=r"'clock_white' needs GPIO 2.*'none'"):
        open_pins("none").pin(2, "clock_white")


def test_a_pin_used_twice_names_both_uses() -> None:
    pins = FakePins()
    pins.pin(17, "claim_white")
    with pytest.raises(PinConfigError, match=r"GPIO 17 is already used by 'claim_white'; 'led'"):
        pins.pin(17, "led")


@pytest.mark.parametrize("number", [0, 1, 28, -3, "5", True])
def test_pins_outside_the_header_are_refused(number: Any) -> None:
    with pytest.raises(PinConfigError, match="not a header GPIO"):
        FakePins().pin(number, "buzzer")


def test_pin_misuse_is_our_error() -> None:
    pins = FakePins()
    p = pins.pin(5, "x")
    with pytest.raises(PinUsageError, match="read before it was set up"):
        p.read()
    p.setup_input("up")
    with pytest.raises(PinUsageError, match="not an output"):
        p.write(1)
    with pytest.raises(PinUsageError, match="edge must be"):
        p.when_edge(lambda *a: None, "sideways")  # type: ignore[arg-type]
    p.when_edge(lambda *a: None)
    with pytest.raises(PinUsageError, match="already has an edge callback"):
        p.when_edge(lambda *a: None)
    q = pins.pin(6, "y")
    q.setup_output()
    with pytest.raises(PinUsageError, match="a level is 0 or 1"):
        q.write(2)
    with pytest.raises(PinUsageError, match="an output; a test cannot drive it"):
        q.drive_low(0.0)  # type: ignore[attr-defined]


def test_closed_pins_refuse_new_claims() -> None:
    pins = FakePins()
    pins.close()
    with pytest.raises(PinUsageError, match="closed"):
        pins.pin(4, "x")


# --- the fake back-end ----------------------------------------------------------------------


def test_fake_input_reads_pull_then_what_the_test_drives() -> None:
    pins = FakePins()
    up, down, floating = pins.pin(2, "up"), pins.pin(3, "down"), pins.pin(4, "float")
    up.setup_input("up")
    down.setup_input("down")
    floating.setup_input(None)
    assert (up.read(), down.read()) == (1, 0)
    with pytest.raises(PinUsageError, match="floats"):
        floating.read()
    pins[2].drive_low(1.0)
    assert up.read() == 0
    pins[2].release(2.0)
    assert up.read() == 1


def test_fake_edges_carry_the_test_time_and_respect_the_edge_kind() -> None:
    pins = FakePins()
    seen: list[tuple[int, float]] = []
    p = pins.pin(2, "b")
    p.setup_input("up")
    p.when_edge(lambda pin, level, t: seen.append((level, t)), "falling")
    pins[2].drive_low(1.25)
    pins[2].drive_high(1.5)
    pins[2].drive_high(1.6)  # no change, no edge
    pins[2].drive_low(2.0)
    assert seen == [(0, 1.25), (0, 2.0)]


def test_fake_bouncetime_drops_edges_like_rpi_gpio() -> None:
    pins = FakePins()
    seen: list[tuple[int, float]] = []
    p = pins.pin(2, "b")
    p.setup_input("up")
    p.when_edge(lambda pin, level, t: seen.append((level, t)), "both", bounce_s=0.005)
    last = pins[2].bounce(1.0, 0, n=3, interval=0.001)
    assert last == pytest.approx(1.006)
    assert len(pins[2].edges) == 7  # 1 + 2 * 3 edges really happened
    assert seen == [(0, 1.0), (0, 1.006)]  # 1.001..1.004 fall within 5 ms of the first


def test_fake_output_history_and_assertions() -> None:
    pins = FakePins()
    led = pins.pin(22, "led")
    led.setup_output(0)
    led.write(1, 0.5)
    led.write(1, 0.7)  # no change, not recorded
    led.write(0, 1.0)
    fake = pins[22]
    fake.assert_states([0, 1, 0])
    fake.assert_history([(0.0, 0), (0.5, 1), (1.0, 0)])
    assert fake.level_at(0.6) == 1 and fake.level_at(1.2) == 0
    with pytest.raises(AssertionError, match="went through"):
        fake.assert_states([0, 1])
    with pytest.raises(AssertionError, match="history"):
        fake.assert_history([(0.0, 0), (0.6, 1), (1.0, 0)])


# --- the RPi.GPIO back-end with a stand-in module --------------------------------------------


class FakeGPIO:
    """Records the calls RpiPins makes, with RPi.GPIO's constants."""

    BCM, BOARD = 11, 10
    IN, OUT = 1, 0
    HIGH, LOW = 1, 0
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
    FALLING, RISING, BOTH = 32, 31, 33

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.levels: dict[int, int] = {}
        self.callbacks: dict[int, Any] = {}

    def setwarnings(self, flag: bool) -> None:
        self.calls.append(("setwarnings", flag))

    def setmode(self, mode: int) -> None:
        self.calls.append(("setmode", mode))

    def setup(self, channel: int, direction: int, **kw: Any) -> None:
        self.calls.append(("setup", channel, direction, kw))

    def input(self, channel: int) -> int:
        return self.levels.get(channel, 1)

    def output(self, channel: int, level: int) -> None:
        self.calls.append(("output", channel, level))

    def add_event_detect(self, channel: int, edge: int, **kw: Any) -> None:
        self.calls.append(("add_event_detect", channel, edge, kw.get("bouncetime")))
        self.callbacks[channel] = kw["callback"]

    def remove_event_detect(self, channel: int) -> None:
        self.calls.append(("remove_event_detect", channel))

    def cleanup(self, channels: list[int]) -> None:
        self.calls.append(("cleanup", channels))


def test_rpi_backend_makes_the_right_calls() -> None:
    g = FakeGPIO()
    clock = iter([100.25, 101.5])
    pins = RpiPins(gpio_module=g, clock=lambda: next(clock))
    assert g.calls[:2] == [("setwarnings", False), ("setmode", g.BCM)]

    button = pins.pin(2, "clock_white")
    button.setup_input("up")
    seen: list[tuple[int, int, float]] = []
    button.when_edge(lambda pin, level, t: seen.append((pin.number, level, t)), "both", 0.005)
    led = pins.pin(22, "led_white")
    led.setup_output(0)
    led.write(1)
    row = pins.pin(10, "matrix_rows[0]")
    row.setup_input(None)
    falling = pins.pin(3, "pause")
    falling.setup_input("down")
    falling.when_edge(lambda pin, level, t: seen.append((pin.number, level, t)), "falling")

    assert g.calls[2:] == [
        ("setup", 2, g.IN, {"pull_up_down": g.PUD_UP}),
        ("add_event_detect", 2, g.BOTH, 5),
        ("setup", 22, g.OUT, {"initial": g.LOW}),
        ("output", 22, g.HIGH),
        ("setup", 10, g.IN, {"pull_up_down": g.PUD_OFF}),
        ("setup", 3, g.IN, {"pull_up_down": g.PUD_DOWN}),
        ("add_event_detect", 3, g.FALLING, None),  # bounce 0: no bouncetime argument
    ]
    # RPi.GPIO calls back with the channel; the back-end stamps the clock and reads the level
    g.levels[2] = 0
    g.callbacks[2](2)
    g.callbacks[3](3)  # a falling-edge watch knows the level without reading it
    assert seen == [(2, 0, 100.25), (3, 0, 101.5)]

    pins.close()
    assert ("remove_event_detect", 2) in g.calls and ("remove_event_detect", 3) in g.calls
    assert g.calls[-1] == ("cleanup", [2, 3, 10, 22])


def test_rpi_backend_turns_runtime_errors_into_ours() -> None:
    def refuse(*args: Any, **kw: Any) -> None:
        raise RuntimeError("Failed to add edge detection")

    g = FakeGPIO()
    g.add_event_detect = refuse  # type: ignore[method-assign]
    pin = RpiPins(gpio_module=g).pin(4, "clock_black")
    pin.setup_input("up")
    with pytest.raises(GpioUnavailable, match=r"GPIO 4 \('clock_black'\).*rpi-lgpio"):
        pin.when_edge(lambda *a: None)


def test_rpi_backend_reads_and_reports_levels_as_ints() -> None:
    g = FakeGPIO()
    g.levels[5] = True  # RPi.GPIO may return bools on some builds
    pin = RpiPins(gpio_module=g).pin(5, "matrix_cols[0]")
    pin.setup_input("up")
    assert pin.read() == 1
    g.levels[5] = 0
    assert pin.read() == 0


def test_the_package_does_not_import_rpi_gpio() -> None:
    code = (
        "import sys, firmware_bridge.gpio, firmware_bridge.gpio.panel, "
        "firmware_bridge.gpio.reed_matrix, firmware_bridge.gpio.fake, firmware_bridge.gpio.rpi\n"
        "print(sorted(m for m in sys.modules if m.startswith('RPi')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
