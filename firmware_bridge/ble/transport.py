"""`BleTransport`: a board's Bluetooth LE link and codec, run by the loop every link shares.

The loop (`firmware_bridge.transport.LinkTransport`) reads what came, feeds the codec, writes
what its timers and the session want written, watches for silence and reconnects with
back-off; here only the link differs. The central is the one given, or `central_for(address)`:
the fake radio's if a `FakePeripheral` is registered at that address, else bleak's (imported
only then). A board switched off or out of range is a lost link (`disconnected`), found
again when it comes back (`reconnected`), and gets the whole start-up again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

from firmware_bridge.ble.central import BleCentral, BleConnection
from firmware_bridge.ble.profiles import PROFILES, BleProfile
from firmware_bridge.capture import CaptureWriter
from firmware_bridge.codecs.base import Codec
from firmware_bridge.errors import TransportError
from firmware_bridge.transport import BACKOFF_S, LinkPolicy, LinkTransport

__all__ = ["CONNECT_TIMEOUT_S", "BleTransport", "central_for", "real_central"]

#: how long one connection attempt may take
CONNECT_TIMEOUT_S = 10.0

_real: BleCentral | None = None
_real_lock = threading.Lock()


def real_central() -> BleCentral:
    """The one bleak central of this process (made on first use).

    Raises:
        BleUnavailableError: bleak is not installed (the `ble` extra).
    """
    global _real
    with _real_lock:
        if _real is None:
            from firmware_bridge.ble.bleak_central import BleakCentral

            _real = BleakCentral()
        return _real


def central_for(address: str) -> BleCentral:
    """The fake radio's central if a fake peripheral is registered at `address`, else bleak's."""
    from firmware_bridge.ble import fake

    if fake.lookup(address) is not None:
        return fake.FakeCentral()
    return real_central()


class BleTransport(LinkTransport):
    """A Bluetooth LE board at `address`, spoken to by `codec`; see the module docstring.

    Args:
        address: the board's address (a MAC on Linux, a UUID on macOS, or a fake's).
        codec: the protocol's codec.
        profile: the board's GATT layout (default: `PROFILES[protocol]`).
        protocol: the registry's name (`chessnut-ble`, `pegasus`, `millennium-ble`), used
            to find the profile when none is given (default: the codec's name, `-ble` added
            where the board also has a wire).
        central: the central to use (default `central_for(address)` at each connection).
        clock, capture, policy, backoff_s: as for `SerialTransport`.
    """

    def __init__(
        self,
        address: str,
        codec: Codec,
        *,
        profile: BleProfile | None = None,
        protocol: str | None = None,
        central: BleCentral | None = None,
        clock: Callable[[], float] = time.monotonic,
        capture: CaptureWriter | None = None,
        policy: LinkPolicy | None = None,
        backoff_s: tuple[float, ...] = BACKOFF_S,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        if profile is None:
            key = protocol or codec.name
            found = PROFILES.get(key) or PROFILES.get(f"{key}-ble")
            if found is None:
                raise TransportError(f"a {key} board is not reached over Bluetooth LE")
            profile = found
        self.profile = profile
        self.central = central
        self.connect_timeout_s = connect_timeout_s
        self._connection: BleConnection | None = None
        super().__init__(
            address, codec, clock=clock, capture=capture, policy=policy, backoff_s=backoff_s
        )

    def _connect(self) -> None:
        central = self.central or central_for(self.url)
        self._connection = central.connect(self.url, self.profile, self.connect_timeout_s)

    def _receive(self, timeout: float) -> bytes:
        connection = self._connection
        assert connection is not None  # step checked the link
        return connection.read(timeout)

    def _transmit(self, data: bytes) -> None:
        assert self._connection is not None
        self._connection.write(data)

    def _release(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):  # a dead link may fail to close: it is gone
                connection.close()
