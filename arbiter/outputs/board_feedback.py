"""What a board shows the players: the LEDs of squares and a DGT 3000's times, as bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: a Millennium LED pattern: always on (eboard-protocols.md 2.3)
LED_ON = 0xFF


@dataclass(frozen=True, slots=True)
class ClockTimes:
    """Our clock's times for a DGT 3000 on a DGT board, when the codec saw one (else none)."""

    white: float
    black: float
    running: str | None

    def __call__(self, codec: Any) -> bytes:
        if codec.name != "dgt" or not dgt_clock_present(codec):
            return b""
        return bytes(codec.encode_clock_times(self.white, self.black, self.running))


def dgt_clock_present(codec: Any) -> bool:
    """A DGT 3000 is on the board: it sent valid times (`clock_present`), or it answered the
    start-up's VERSION command and has not said "no clock" since."""
    if codec.clock_present is not None:
        return bool(codec.clock_present)
    return codec.clock_version is not None


@dataclass(frozen=True, slots=True)
class Leds:
    """The LEDs of `squares` (Millennium: all four corners of each, steady)."""

    squares: list[str]

    def __call__(self, codec: Any) -> bytes:
        if codec.name == "millennium":
            return bytes(codec.encode_leds(dict.fromkeys(self.squares, LED_ON)))
        return bytes(codec.encode_leds(self.squares))
