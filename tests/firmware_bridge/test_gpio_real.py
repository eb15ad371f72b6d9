"""Opt-in test on a real Raspberry Pi: the RPi.GPIO back-end through a jumper wire.

Connect header pin 8 (GPIO 14) to pin 10 (GPIO 15) with a jumper, disable the serial
console on them (`raspi-config` → Interface Options → Serial Port: no login shell, no
hardware), and run

    OTB_GPIO_REAL=1 .venv/bin/pytest tests/firmware_bridge/test_gpio_real.py

GPIO 14 drives GPIO 15: each edge must reach the callback with the right level, stamped
within a few milliseconds of the write, and a ClockButton on GPIO 15 must see one press per
low pulse. Everywhere else (CI, a desktop) the test is skipped.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from firmware_bridge.gpio import open_pins
from firmware_bridge.gpio.base import Pin
from firmware_bridge.gpio.devices import ClockButton, PauseToggle
from rules.events import Event, Press

pytestmark = pytest.mark.skipif(
    os.environ.get("OTB_GPIO_REAL") != "1",
    reason="real GPIO test: set OTB_GPIO_REAL=1 on a Pi with pin 8 jumpered to pin 10",
)

OUT, IN = 14, 15
#: how late an edge may be stamped after the write on a loaded small Pi
LATE_S = 0.05


def test_edges_through_a_jumper_carry_level_and_time() -> None:
    pins = open_pins("rpi")
    try:
        out = pins.pin(OUT, "loop_out")
        out.setup_output(1)
        inp = pins.pin(IN, "loop_in")
        inp.setup_input("up")
        seen: list[tuple[int, float]] = []
        arrived = threading.Event()

        def on_edge(pin: Pin, level: int, t: float) -> None:
            seen.append((level, t))
            arrived.set()

        inp.when_edge(on_edge, "both")
        time.sleep(0.05)
        for k in range(20):
            level = k % 2  # 0, 1, 0, 1, ...
            arrived.clear()
            before = time.monotonic()
            out.write(level)
            assert arrived.wait(1.0), f"edge {k} to {level} never reached the callback"
            got_level, t = seen[-1]
            assert got_level == level
            assert before <= t <= before + LATE_S, (before, t)
            assert inp.read() == level
            time.sleep(0.02)
    finally:
        pins.close()


def test_a_clock_button_on_real_pins_gives_one_press_per_pulse() -> None:
    pins = open_pins("rpi")
    try:
        out = pins.pin(OUT, "loop_out")
        out.setup_output(1)
        presses: list[Event | PauseToggle] = []
        button = ClockButton(pins.pin(IN, "clock_white"), "white", presses.append)
        starts = []
        for _ in range(5):
            starts.append(time.monotonic())
            out.write(0)
            time.sleep(0.1)
            out.write(1)
            time.sleep(0.1)
            button.update(time.monotonic())
        assert [type(p) for p in presses] == [Press] * 5
        for press, start in zip(presses, starts, strict=True):
            assert start <= press.t <= start + LATE_S
    finally:
        pins.close()
