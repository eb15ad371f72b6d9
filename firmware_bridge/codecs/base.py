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

from rules.errors import ArbiterError
from rules.events import Event


class CodecError(ArbiterError):
    """Base of the codecs' errors."""


class CodecUsageError(CodecError, ValueError):
    """The caller asked for something the protocol cannot say (a bad square, a bad time)."""


class Codec(ABC):
    """A board protocol, sans I/O."""

    #: the protocol's name as the CLI writes it (`dgt`, `millennium`, `certabo`, ...)
    name: str = ""
    #: serial settings for pyserial: baudrate, bytesize, parity, stopbits
    baudrate: int = 9600
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
