"""The shape every e-board codec shares (`eboard-protocols.md` 0, house style lesson 1).

A codec is a pure object. The transport feeds it the bytes it read and the monotonic time
they came (`feed(data, now) -> events`), asks it what its timers want written
(`poll(now) -> bytes`), and asks it to turn requests into bytes (`encode_*() -> bytes`).
It never opens a port, sleeps or reads a clock. Garbage from the device never puts it in a
terminal state: it resynchronises and reports what it dropped as a `sensor` event with
status `dropped`. It raises only when the caller misuses it (`CodecUsageError`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from firmware_bridge.errors import CodecUsageError
from rules.events import Event


class Codec(ABC):
    """A board protocol, sans I/O."""

    #: the protocol's name as the CLI writes it (`dgt`, `millennium`, `certabo`, ...)
    name: str = ""
    #: serial settings for pyserial: baudrate (0: not a serial device), bytesize, parity,
    #: stopbits
    baudrate: int = 9600
    bytesize: ClassVar[int] = 8
    parity: ClassVar[str] = "N"
    stopbits: ClassVar[int] = 1
    #: the board answers `encode_version()`, and the answer sets `version`: a reply proves
    #: the link (the transport clears `version` at start-up and waits for it)
    reports_version: ClassVar[bool] = False
    #: the board's firmware version from its last reply, if it reports one
    version: tuple[int, int] | None = None
    #: the board lights squares: it has `encode_leds(...)` (its own argument: squares, or
    #: squares with patterns) and `encode_leds_off()`
    has_leds: ClassVar[bool] = False
    #: the board carries a chess clock whose presses and times come through the codec
    has_clock: ClassVar[bool] = False
    #: the board senses occupancy only: its snapshots show '?' for every piece
    occupancy_only: ClassVar[bool] = False
    #: bits on the wire per byte (start + data + parity + stop), for stamping raw captures
    bits_per_byte: int = 10
    #: the sensor settings this board's events need in the stream's `start`
    sensor_settings: ClassVar[dict[str, float]] = {}

    @property
    def pending(self) -> int:
        """Bytes held back because they may begin a message that has not fully arrived.

        Bounded by the longest message the protocol has, whatever the wire brings."""
        return 0

    @abstractmethod
    def feed(self, data: bytes, now: float) -> list[Event]:
        """Take bytes received at `now`; return the events they complete, stamped `t = now`."""

    def flush(self, now: float) -> list[Event]:
        """Events held back and due now, e.g. bytes dropped since the last message (codecs
        that report drops with the next message, so that events do not depend on how the
        reads were cut). Call it at the end of a capture or when the link goes quiet."""
        return []

    def poll(self, now: float) -> bytes:
        """Bytes the codec's timers want written at `now` (a board request, a resend)."""
        return b""

    @abstractmethod
    def encode_startup(self) -> bytes:
        """The bytes that put a freshly opened (or reconnected) board into reporting mode."""

    def split_commands(self, data: bytes) -> list[bytes]:
        """The commands in `data` (bytes this codec encoded), one by one, for a link that
        writes them apart (`transport.LinkPolicy.pace_s`). Default: all as one."""
        return [bytes(data)] if data else []

    def encode_version(self) -> bytes:
        """The version request (only where `reports_version`).

        Raises:
            CodecUsageError: the board has no version request.
        """
        raise CodecUsageError(f"a {self.name} board has no version request")
