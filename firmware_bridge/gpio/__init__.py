"""GPIO: the seam (`base`), its back-ends (`rpi`, `fake`), the clock panel's devices, the pin
map, and the reed-switch matrix scanner. Importing this package never imports RPi.GPIO."""

from firmware_bridge.errors import GpioError, GpioUnavailable, PinConfigError, PinUsageError
from firmware_bridge.gpio.base import BACKENDS, NoPins, Pin, Pins, open_pins

__all__ = [
    "BACKENDS",
    "GpioError",
    "GpioUnavailable",
    "NoPins",
    "Pin",
    "PinConfigError",
    "PinUsageError",
    "Pins",
    "open_pins",
]
