"""The seam between the board loop and a Bluetooth LE stack.

A `BleCentral` scans (`scan`) and connects (`connect`); a `BleConnection` hands over the bytes
its board notified, in the order they came (`read`), and writes commands (`write`), cut to
what one write may carry (`mtu - 3` bytes). A lost link raises `BleLinkLost`, an `OSError`
as a failing serial port's errors are, so the transport treats both alike: a `disconnected`
event, then reconnection with back-off.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass

from firmware_bridge.ble.profiles import BleProfile
from firmware_bridge.errors import BleLinkLost, BleUnavailableError

__all__ = [
    "Advert",
    "BleCentral",
    "BleConnection",
    "BleLinkLost",
    "BleUnavailableError",
    "Notifications",
]




@dataclass(frozen=True)
class Advert:
    """A peripheral seen in a scan: its address, advertised name, service UUIDs and signal."""

    address: str
    name: str | None
    services: tuple[str, ...] = ()
    rssi: int | None = None


class Notifications:
    """The bytes a board notified, waiting to be read; thread-safe.

    The stack's thread `put`s each notification; the transport's thread `take`s what came.
    After `lost`, `take` hands over what was left, then raises `BleLinkLost`.
    """

    def __init__(self) -> None:
        self._chunks: deque[bytes] = deque()
        self._ready = threading.Condition()
        self._lost: str | None = None

    def put(self, data: bytes) -> None:
        with self._ready:
            self._chunks.append(bytes(data))
            self._ready.notify_all()

    def lost(self, reason: str) -> None:
        with self._ready:
            if self._lost is None:
                self._lost = reason
            self._ready.notify_all()

    @property
    def is_lost(self) -> bool:
        return self._lost is not None

    def take(self, timeout: float) -> bytes:
        """All bytes notified so far, waiting up to `timeout` s for the first.

        Raises:
            BleLinkLost: the link was lost and nothing is left to read.
        """
        with self._ready:
            if not self._chunks and self._lost is None and timeout > 0:
                self._ready.wait(timeout)
            if self._chunks:
                out = b"".join(self._chunks)
                self._chunks.clear()
                return out
            if self._lost is not None:
                raise BleLinkLost(self._lost)
            return b""


class BleConnection(ABC):
    """A connection to one board: notifications in, writes out."""

    #: the MTU agreed with the board; one write carries at most `mtu - 3` bytes
    mtu: int = 23

    def __init__(self) -> None:
        self.notifications = Notifications()

    def read(self, timeout: float) -> bytes:
        """The bytes the board notified, waiting up to `timeout` s (b"" if none came).

        Raises:
            BleLinkLost: the link is gone.
        """
        return self.notifications.take(timeout)

    def write(self, data: bytes) -> None:
        """Write `data` to the board's command characteristic, cut to `mtu - 3` bytes a write.

        Raises:
            BleLinkLost: the link is gone.
        """
        if self.notifications.is_lost:
            raise BleLinkLost("the board is not connected")
        size = max(20, self.mtu - 3)
        for pos in range(0, len(data), size):
            self._write_chunk(data[pos : pos + size])

    @abstractmethod
    def _write_chunk(self, chunk: bytes) -> None:
        """One GATT write (without response). Raises `BleLinkLost` if the link is gone."""

    @abstractmethod
    def close(self) -> None:
        """Disconnect; never raises."""


class BleCentral(ABC):
    """What finds and connects Bluetooth LE boards."""

    @abstractmethod
    def scan(self, timeout: float) -> list[Advert]:
        """The peripherals advertising within `timeout` s.

        Raises:
            BleUnavailableError: no Bluetooth LE here (the message says why).
        """

    @abstractmethod
    def connect(self, address: str, profile: BleProfile, timeout: float) -> BleConnection:
        """Connect to `address`, subscribe to the profile's notifications.

        Raises:
            TransportError: the board cannot be reached (the message says why).
        """
