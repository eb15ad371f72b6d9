"""A stand-in for bleak in which no Bluetooth LE device is ever found: `BleakClient.connect`
raises what bleak's BlueZ backend raises for an address it has not seen
(`BleakDeviceNotFoundError`, `Device with address ... was not found.`), and a scan finds
nothing. See README.md beside it."""

from __future__ import annotations

from typing import Any

from bleak.exc import BleakDeviceNotFoundError, BleakError

__all__ = ["BleakClient", "BleakError", "BleakScanner"]


class BleakScanner:
    @staticmethod
    async def discover(timeout: float = 5.0, return_adv: bool = False, **kwargs: Any) -> Any:
        return {} if return_adv else []


class BleakClient:
    def __init__(self, address: str, disconnected_callback: Any = None, **kwargs: Any) -> None:
        self.address = address

    async def connect(self, **kwargs: Any) -> bool:
        raise BleakDeviceNotFoundError(
            self.address, f"Device with address {self.address} was not found."
        )

    async def disconnect(self) -> bool:
        return True
