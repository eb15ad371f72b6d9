"""A fake Bluetooth LE radio: peripherals that live in this process, for tests and demos.

Shipped with the package as gpiozero ships its mock pins: `FakePeripheral(address, profile)`
is a board's radio side, registered under its address while it exists (`register`); a
`BleTransport` opening that address gets a `FakeCentral` connection to it instead of the
radio, and `arbiter boards` lists it beside real ones. What the peripheral `notify`s reaches
the connected central cut into notifications of `mtu - 3` bytes, as a real link cuts them
(a Chessnut position at the default MTU arrives as 20 + 18 bytes); what the central writes
waits in `written` for the board model to answer (`take_written`), or is answered at once by
`on_write`. `power_off` drops the link and refuses connections until `power_on`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from firmware_bridge.ble.central import Advert, BleCentral, BleConnection
from firmware_bridge.ble.profiles import BleProfile
from firmware_bridge.errors import BleLinkLost, TransportError

__all__ = ["FakeCentral", "FakeConnection", "FakePeripheral", "lookup", "registered"]

_registry: dict[str, FakePeripheral] = {}
_registry_lock = threading.Lock()


def lookup(address: str) -> FakePeripheral | None:
    """The fake peripheral registered at `address`, if one is."""
    with _registry_lock:
        return _registry.get(address)


def registered() -> list[FakePeripheral]:
    """Every fake peripheral registered now."""
    with _registry_lock:
        return list(_registry.values())


class FakePeripheral:
    """A board's radio: see the module docstring.

    Args:
        address: what a `--board PROTOCOL:ADDRESS` names.
        profile: the board's GATT layout (`profiles.PROFILES`).
        name: the advertised name (default: the profile's first name prefix).
        mtu: the largest MTU this peripheral agrees to (the central asks `profile.mtu`).
        on_write: answers each write at once (its reply is notified); None keeps writes in
            `written` for `take_written`.
    """

    def __init__(
        self,
        address: str,
        profile: BleProfile,
        *,
        name: str | None = None,
        mtu: int = 247,
        on_write: Callable[[bytes], bytes] | None = None,
    ) -> None:
        self.address = address
        self.profile = profile
        self.name = name if name is not None else profile.names[0]
        self.max_mtu = mtu
        self.on_write = on_write
        self.powered = True
        #: host writes not yet taken, one entry per GATT write
        self.written: list[bytes] = []
        #: every GATT write received, in order (for tests)
        self.writes: list[bytes] = []
        #: notifications sent, in order (for tests)
        self.notified: list[bytes] = []
        self._connection: FakeConnection | None = None
        self._lock = threading.Condition()

    # -- the registry ---------------------------------------------------------------------

    def register(self) -> FakePeripheral:
        """Make this peripheral reachable at its address (replacing any other there)."""
        with _registry_lock:
            _registry[self.address] = self
        return self

    def unregister(self) -> None:
        """Remove it from the registry and drop any connection."""
        with _registry_lock:
            if _registry.get(self.address) is self:
                del _registry[self.address]
        self.power_off()

    def __enter__(self) -> FakePeripheral:
        return self.register()

    def __exit__(self, *exc: object) -> None:
        self.unregister()

    # -- the radio ------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connection is not None

    @property
    def mtu(self) -> int:
        """The MTU of the current connection (23 when none)."""
        connection = self._connection
        return connection.mtu if connection is not None else 23

    def advert(self) -> Advert:
        return Advert(self.address, self.name, (self.profile.service,), -50)

    def power_off(self) -> None:
        """Switch the board off: the link drops, connections are refused."""
        with self._lock:
            self.powered = False
            connection, self._connection = self._connection, None
        if connection is not None:
            connection.notifications.lost(f"{self.address}: the board went away")

    def power_on(self) -> None:
        """Switch it on again: it can be connected to."""
        with self._lock:
            self.powered = True

    def _accept(self, connection: FakeConnection) -> None:
        with self._lock:
            if not self.powered:
                raise TransportError(f"no Bluetooth LE board answers at {self.address}")
            old, self._connection = self._connection, connection
        if old is not None:
            old.notifications.lost("another central connected")

    def _leave(self, connection: FakeConnection) -> None:
        with self._lock:
            if self._connection is connection:
                self._connection = None

    def notify(self, data: bytes) -> int:
        """Send `data` to the connected central in notifications of `mtu - 3` bytes.

        Returns the bytes sent: 0 when no central is connected (they are lost, as on air).
        """
        connection = self._connection
        if not data or connection is None:
            return 0
        size = connection.mtu - 3
        for pos in range(0, len(data), size):
            chunk = bytes(data[pos : pos + size])
            self.notified.append(chunk)
            connection.notifications.put(chunk)
        return len(data)

    def _received(self, chunk: bytes) -> None:
        self.writes.append(chunk)
        if self.on_write is not None:
            self.notify(self.on_write(chunk))
            return
        with self._lock:
            self.written.append(chunk)
            self._lock.notify_all()

    def take_written(self, timeout: float) -> bytes:
        """The bytes the central wrote and nobody took yet, waiting up to `timeout` s."""
        with self._lock:
            if not self.written and timeout > 0:
                self._lock.wait(timeout)
            out = b"".join(self.written)
            self.written.clear()
            return out


class FakeConnection(BleConnection):
    """A central's connection to a `FakePeripheral`."""

    def __init__(self, peripheral: FakePeripheral, mtu: int) -> None:
        super().__init__()
        self.peripheral = peripheral
        self.mtu = mtu

    def _write_chunk(self, chunk: bytes) -> None:
        if self.notifications.is_lost or self.peripheral._connection is not self:
            raise BleLinkLost(f"{self.peripheral.address}: the board is not connected")
        self.peripheral._received(chunk)

    def close(self) -> None:
        self.notifications.lost("closed")
        self.peripheral._leave(self)


class FakeCentral(BleCentral):
    """A central that sees only the registered fake peripherals."""

    #: MTU the fake central asks for when the profile does not say (as bleak on BlueZ)
    default_mtu: ClassVar[int] = 23

    def scan(self, timeout: float) -> list[Advert]:
        return [p.advert() for p in registered() if p.powered]

    def connect(self, address: str, profile: BleProfile, timeout: float) -> BleConnection:
        peripheral = lookup(address)
        if peripheral is None:
            raise TransportError(f"no Bluetooth LE board answers at {address}")
        if peripheral.profile.service != profile.service:
            raise TransportError(
                f"the board at {address} is not a {profile.protocol} board "
                f"(it offers no service {profile.service})"
            )
        mtu = max(23, min(profile.mtu or self.default_mtu, peripheral.max_mtu))
        connection = FakeConnection(peripheral, mtu)
        peripheral._accept(connection)
        return connection
