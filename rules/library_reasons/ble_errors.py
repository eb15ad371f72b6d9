"""bleak's reasons (Bluetooth LE, the `ble` extra), said in our words: what a user reads when
a Bluetooth LE board cannot be found, connected or written to.

bleak raises its own exception classes (`bleak.exc`), recognised here by their names so
that this package never imports bleak: a device not found (`BleakDeviceNotFoundError`, its
text `Device with address ... was not found.`), Bluetooth not available by its typed reason
(`BleakBluetoothNotAvailableError.reason`: no adapter, no central role, switched off, denied),
a D-Bus error by its error name (`BleakDBusError.dbus_error`: `org.bluez.Error.NotReady`,
`org.freedesktop.DBus.Error.AccessDenied`, ...), a GATT protocol error by its code, and its
plain `BleakError`s by their fixed texts (bleak 0.21 to 3.x: `bleak/exc.py`,
`bleak/backends/bluezdbus/`). Around bleak, the system's: no D-Bus socket means no
Bluetooth service (BlueZ), a timeout means the board did not answer; any other `OSError`
goes by its number (`os_errors`). A reason not in the tables stays as bleak says it.
"""

from __future__ import annotations

import re

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = [
    "BLE_REASONS",
    "BLE_TEXTS",
    "DBUS_REASONS",
    "GATT_REASONS",
    "UNAVAILABLE_REASONS",
    "around_bleak",
    "bleak_reason",
    "is_bleak",
]

#: the reasons, each once (the tables below point at them)
NOT_FOUND = N_(
    "no device with this address was found (is the board switched on, near, and not "
    "connected to a phone or another computer?)"
)
NO_ADAPTER = N_("this computer has no Bluetooth adapter")
NO_CENTRAL = N_("the Bluetooth adapter cannot connect to Bluetooth LE devices")
SWITCHED_OFF = N_("Bluetooth is switched off: switch it on (bluetoothctl power on)")
DENIED = N_("permission to use Bluetooth was denied")
UNAVAILABLE = N_("Bluetooth is not available")
NOT_CONNECTED = N_("the board is not connected")
DISCONNECTED = N_("the board disconnected")
NO_SERVICE = N_("no Bluetooth service on this system (is BlueZ running? is there an adapter?)")
NO_ANSWER = N_("no answer in time (is the board on, near, and not connected to a phone?)")
BUSY = N_("another Bluetooth operation is in progress: try again")
ABORTED = N_("the connection was aborted")
OLD_BLUEZ = N_("Bluetooth LE needs BlueZ 5.55 or newer")
NO_CHARACTERISTIC = N_("the board lacks the Bluetooth characteristic {uuid} (is it another model?)")
WRITE_REFUSED = N_("the board does not allow this write")
PAIRING = N_("the board asks for pairing first")

#: `BleakBluetoothNotAvailableError.reason` (`BleakBluetoothNotAvailableReason`), by name
UNAVAILABLE_REASONS: dict[str, str] = {
    "NO_BLUETOOTH": NO_ADAPTER,
    "NO_BLE_CENTRAL_ROLE": NO_CENTRAL,
    "POWERED_OFF": SWITCHED_OFF,
    "DENIED_BY_USER": DENIED,
    "DENIED_BY_SYSTEM": DENIED,
    "DENIED_BY_UNKNOWN": DENIED,
    "UNKNOWN": UNAVAILABLE,
}

#: `BleakDBusError.dbus_error`: BlueZ's and D-Bus's error names
DBUS_REASONS: dict[str, str] = {
    "org.bluez.Error.NotReady": SWITCHED_OFF,
    "org.bluez.Error.InProgress": BUSY,
    "org.bluez.Error.NotConnected": NOT_CONNECTED,
    "org.bluez.Error.DoesNotExist": NOT_FOUND,
    "org.bluez.Error.NotAuthorized": DENIED,
    "org.bluez.Error.NotPermitted": DENIED,
    "org.bluez.Error.AuthenticationFailed": PAIRING,
    "org.freedesktop.DBus.Error.UnknownObject": NOT_FOUND,
    "org.freedesktop.DBus.Error.AccessDenied": DENIED,
    "org.freedesktop.DBus.Error.ServiceUnknown": NO_SERVICE,
    "org.freedesktop.DBus.Error.NoReply": NO_ANSWER,
    "org.freedesktop.DBus.Error.Timeout": NO_ANSWER,
}
#: `org.bluez.Error.Failed`'s details that say one of our reasons
DBUS_FAILED_DETAILS: dict[str, str] = {
    "Software caused connection abort": ABORTED,
    "le-connection-abort-by-local": ABORTED,
    "Operation already in progress": BUSY,
    "Not connected": NOT_CONNECTED,
}

#: `BleakGATTProtocolError.code` (Bluetooth Core 5.2, vol. 3, part F, 3.4.1.1)
GATT_REASONS: dict[int, str] = {
    0x03: WRITE_REFUSED,  # WRITE_NOT_PERMITTED
    0x05: PAIRING,  # INSUFFICIENT_AUTHENTICATION
    0x08: PAIRING,  # INSUFFICIENT_AUTHORIZATION
    0x0C: PAIRING,  # INSUFFICIENT_ENCRYPTION_KEY_SIZE
    0x0F: PAIRING,  # INSUFFICIENT_ENCRYPTION
}

#: bleak's plain texts (`BleakError(...)`), by a pattern; the fields are what it names
BLE_TEXTS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"^Device with address \S+ was not found", NOT_FOUND),
        (r"^device '[^']*' not found", NOT_FOUND),
        (r"^No Bluetooth adapters found", NO_ADAPTER),
        (r"^Bluetooth adapter not found", NO_ADAPTER),  # bleak before 0.20
        (r"^adapter '[^']*' not found", NO_ADAPTER),
        (r"^No Bluetooth adapters with BLE 'central' role found", NO_CENTRAL),
        (r"^No powered Bluetooth adapters found", SWITCHED_OFF),
        (r"^Not connected$", NOT_CONNECTED),
        (r"^failed to discover services, device disconnected", DISCONNECTED),
        (r"device may be disconnected$", DISCONNECTED),
        (r"^Bleak requires BlueZ >= 5\.", OLD_BLUEZ),
        (r"^Characteristic (?P<uuid>\S+) was not found", NO_CHARACTERISTIC),
    )
)

#: every reason above, for the tests and docs/languages.md
BLE_REASONS = (
    NOT_FOUND, NO_ADAPTER, NO_CENTRAL, SWITCHED_OFF, DENIED, UNAVAILABLE, NOT_CONNECTED,
    DISCONNECTED, NO_SERVICE, NO_ANSWER, BUSY, ABORTED, OLD_BLUEZ, NO_CHARACTERISTIC,
    WRITE_REFUSED, PAIRING,
)  # fmt: skip


def is_bleak(exc: BaseException) -> bool:
    """Was `exc` raised by bleak (its exception classes live in the `bleak` package)?"""
    return any(kind.__module__.split(".")[0] == "bleak" for kind in type(exc).__mro__)


def _names(exc: BaseException) -> set[str]:
    return {kind.__name__ for kind in type(exc).__mro__}


def _bleak_reason(exc: BaseException) -> Reason | None:
    names = _names(exc)
    if "BleakDeviceNotFoundError" in names:
        return Reason(NOT_FOUND)
    if "BleakBluetoothNotAvailableError" in names:
        why = getattr(getattr(exc, "reason", None), "name", None)
        if why in UNAVAILABLE_REASONS:
            return Reason(UNAVAILABLE_REASONS[why])
    if "BleakDBusError" in names and exc.args:
        name = str(exc.args[0])
        if name in DBUS_REASONS:
            return Reason(DBUS_REASONS[name])
        details = str(exc.args[1]) if len(exc.args) > 1 else ""
        if name == "org.bluez.Error.Failed" and details in DBUS_FAILED_DETAILS:
            return Reason(DBUS_FAILED_DETAILS[details])
        return None
    if "BleakGATTProtocolError" in names and exc.args and isinstance(exc.args[0], int):
        found = GATT_REASONS.get(exc.args[0])
        return None if found is None else Reason(found)
    text = str(exc.args[-1]) if exc.args else ""
    for pattern, template in BLE_TEXTS:
        match = pattern.search(text)
        if match:
            return Reason(template, **match.groupdict())
    return None


def around_bleak(exc: BaseException) -> Reason | None:
    """The system's reason around bleak: no D-Bus socket means no Bluetooth service (BlueZ),
    a timeout (asyncio's too) that the board did not answer; None for anything else."""
    if isinstance(exc, FileNotFoundError | ConnectionRefusedError):
        return Reason(NO_SERVICE)
    if isinstance(exc, TimeoutError):
        return Reason(NO_ANSWER)
    return None


def bleak_reason(exc: BaseException) -> Reason:
    """The reason of one of bleak's exceptions (`is_bleak`): by the tables above, else as
    bleak says it."""
    found = _bleak_reason(exc)
    if found is not None:
        return found
    return Reason.library(str(exc) or type(exc).__name__)
