"""bleak's exception classes as `bleak/exc.py` (bleak 3.1) defines them: the names, the
arguments and the texts `rules.library_reasons.ble_errors` reads."""

from __future__ import annotations

import enum
from typing import Any


class BleakError(Exception):
    pass


class BleakBluetoothNotAvailableReason(enum.Enum):
    NO_BLUETOOTH = enum.auto()
    NO_BLE_CENTRAL_ROLE = enum.auto()
    POWERED_OFF = enum.auto()
    DENIED_BY_USER = enum.auto()
    DENIED_BY_SYSTEM = enum.auto()
    DENIED_BY_UNKNOWN = enum.auto()
    UNKNOWN = enum.auto()


class BleakBluetoothNotAvailableError(BleakError):
    def __init__(self, msg: str, reason: BleakBluetoothNotAvailableReason) -> None:
        super().__init__(msg, reason)

    @property
    def reason(self) -> BleakBluetoothNotAvailableReason:
        return self.args[1]


class BleakCharacteristicNotFoundError(BleakError):
    def __init__(self, char_specifier: Any) -> None:
        super().__init__(f"Characteristic {char_specifier} was not found!")
        self.char_specifier = char_specifier


class BleakDeviceNotFoundError(BleakError):
    def __init__(self, identifier: str, *args: object) -> None:
        super().__init__(*args)
        self.identifier = identifier


class BleakDBusError(BleakError):
    def __init__(self, dbus_error: str, error_body: list[Any]) -> None:
        super().__init__(dbus_error, *error_body)

    @property
    def dbus_error(self) -> str:
        return self.args[0]

    def __str__(self) -> str:
        name = f"[{self.dbus_error}]"
        return name + " " + self.args[1] if len(self.args) > 1 else name


class BleakGATTProtocolError(BleakError):
    def __init__(self, error_code: int) -> None:
        super().__init__(error_code, "GATT Protocol Error: ...")
