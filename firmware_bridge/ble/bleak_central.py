"""The real radio: a `BleCentral` over `bleak` (the `ble` extra), imported only when used.

bleak is asyncio; the board loop is a thread. The central runs one event loop in its own
daemon thread and waits for each operation (`run`); notifications arrive in that loop and
are handed to the connection's `Notifications`, which the transport's thread reads. bleak's
own errors (no adapter, D-Bus refused, a board out of range) become `TransportError`s that
say what happened, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from firmware_bridge.ble.central import Advert, BleCentral, BleConnection
from firmware_bridge.ble.profiles import BleProfile
from firmware_bridge.errors import BleLinkLost, BleUnavailableError, TransportError
from rules.library_reasons import Reason, ble_reason
from rules.library_reasons.ble_errors import DISCONNECTED

__all__ = ["BleakCentral", "BleakConnection"]

T = TypeVar("T")

#: what a user is told, as templates of `ArbiterError.of` (arbiter/i18n.py DEVICE_ERRORS);
#: bleak's own reason (`_why`) in our words where its table knows it
#: (`rules.library_reasons.ble_errors`), else as bleak says it
BLEAK_MISSING = "Bluetooth LE boards need the bleak package: pip install 'otb-arbiter[ble]'"
CANNOT_SCAN = "cannot scan for Bluetooth LE boards: {reason}"
CANNOT_CONNECT = "cannot connect to the Bluetooth LE board {address}: {reason}"


def _bleak() -> Any:
    try:
        return importlib.import_module("bleak")
    except ImportError:
        raise BleUnavailableError.of(BLEAK_MISSING) from None


class BleakCentral(BleCentral):
    """bleak's scanner and clients, driven from threads; see the module docstring."""

    def __init__(self) -> None:
        self.bleak = _bleak()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="bleak-loop", daemon=True
        )
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
        """Run `coroutine` in the central's loop and wait up to `timeout` s for it."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise

    def scan(self, timeout: float) -> list[Advert]:
        async def discover() -> Any:
            return await self.bleak.BleakScanner.discover(timeout=timeout, return_adv=True)

        try:
            found = self.run(discover(), timeout + 10.0)
        except Exception as exc:  # bleak's and D-Bus's errors: no adapter, adapter off, ...
            raise BleUnavailableError.of(CANNOT_SCAN, reason=_why(exc)) from None
        adverts = []
        for address, (device, adv) in dict(found).items():
            services = tuple(str(u).lower() for u in (adv.service_uuids or ()))
            name = adv.local_name or getattr(device, "name", None)
            adverts.append(Advert(str(address), name, services, adv.rssi))
        return adverts

    def connect(self, address: str, profile: BleProfile, timeout: float) -> BleConnection:
        connection = BleakConnection(self, address)
        try:
            self.run(connection.start(profile, timeout), timeout + 5.0)
        except Exception as exc:  # bleak's and D-Bus's errors, a timeout
            with contextlib.suppress(Exception):
                connection.close()
            raise TransportError.of(CANNOT_CONNECT, address=address, reason=_why(exc)) from None
        return connection


def _why(exc: BaseException) -> Reason:
    """bleak's (or the system's) reason for `exc`, in our words: said in the user's language
    with the error that carries it (`rules.library_reasons.ble_reason`)."""
    return ble_reason(exc)


class BleakConnection(BleConnection):
    """One bleak client: every notifying characteristic of the profile feeds one stream."""

    def __init__(self, central: BleakCentral, address: str) -> None:
        super().__init__()
        self.central = central
        self.address = address
        self.client: Any = None
        self.write_uuid = ""

    async def start(self, profile: BleProfile, timeout: float) -> None:
        bleak = self.central.bleak

        def gone(_client: Any) -> None:
            self.notifications.lost(
                Reason.recorded(f"{self.address}: the board disconnected", DISCONNECTED)
            )

        def notified(_sender: Any, data: bytearray) -> None:
            self.notifications.put(bytes(data))

        self.client = bleak.BleakClient(self.address, disconnected_callback=gone, timeout=timeout)
        await self.client.connect()
        backend = getattr(self.client, "_backend", None)
        acquire = getattr(backend, "_acquire_mtu", None)
        if acquire is not None:  # BlueZ: bleak's documented way to learn the agreed MTU
            with contextlib.suppress(Exception):
                await acquire()
        self.mtu = int(getattr(self.client, "mtu_size", 23) or 23)
        self.write_uuid = profile.write
        for uuid in profile.notify:
            await self.client.start_notify(uuid, notified)

    def _write_chunk(self, chunk: bytes) -> None:
        async def write() -> None:
            await self.client.write_gatt_char(self.write_uuid, chunk, response=False)

        try:
            self.central.run(write(), 5.0)
        except Exception as exc:  # bleak's errors when the link went away
            self.notifications.lost(str(exc))
            why = _why(exc)  # the journal keeps the English, the screen says `why`
            raise BleLinkLost(
                Reason.recorded(f"{self.address}: write failed: {why}", "{reason}", reason=why)
            ) from None

    def close(self) -> None:
        self.notifications.lost("closed")
        client = self.client
        if client is None:
            return

        async def disconnect() -> None:
            await client.disconnect()

        with contextlib.suppress(Exception):
            self.central.run(disconnect(), 5.0)
