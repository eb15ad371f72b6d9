"""Protocol names -> codecs, the CLI's `--board PROTOCOL:DEVICE` syntax, and auto-detection.

The CLI and the session name boards by protocol (`dgt`, `millennium`, `certabo`, `sentio`,
`chessnut`, `revelation`); `codec_for` builds the codec, importing its module only then,
so that a command that never touches a board never loads one. `parse_board_spec` splits
`dgt:/dev/ttyUSB0` (also `auto:/dev/ttyACM0` and pyserial URLs such as `millennium:loop://` or
`certabo:socket://host:port`).

`chessnut-ble`, `millennium-ble` (an eONE) and `pegasus` (a DGT Pegasus, occupancy only) are
boards reached over Bluetooth LE: their DEVICE is an address (`pegasus:F0:0D:..`), opened by
`firmware_bridge.ble.transport.BleTransport` (`BLE_PROTOCOLS`, `link_kind`). `chessnut` is a
Chessnut on its USB cable, a HID device (`chessnut:/dev/hidraw3`, `HidTransport`).

`revelation` is a DGT Revelation II: the DGT protocol with its LEDs (`eboard-protocols.md`
1.9). Nothing it sends tells it from other DGT boards, and its LED command stalls those, so it
is named: `--board revelation:/dev/rfcomm0`, or `dgt:` with a device path (or a symlink it
goes through) naming its Bluetooth name `PCS-REVII…` (1.1), e.g. a udev or `rfcomm` symlink
`/dev/PCS-REVII-081500`; `parse_board_spec` then says `revelation`. Any other DGT board's
LEDs stay dark.

Auto-detection (`eboard-protocols.md` 8, "Discovery") is described here as data, sans I/O:
each `Probe` says at which rate to open the port, what to send (never `4E` or `T`), and how
to tell from the codec fed with the replies that the board answered. `transport.detect_protocol`
runs the probes over a real port.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.codecs.base import Codec
from firmware_bridge.errors import BoardSpecError, UnknownProtocolError
from rules.events import Event, Snapshot

__all__ = [
    "BLE_PROTOCOLS",
    "HID_PROTOCOLS",
    "PROBES",
    "PROTOCOLS",
    "BoardSpecError",
    "Probe",
    "UnknownProtocolError",
    "codec_class",
    "codec_for",
    "link_kind",
    "parse_board_spec",
]

#: protocol name -> "module:Class", imported lazily
PROTOCOLS: dict[str, str] = {
    "dgt": "firmware_bridge.codecs.dgt:DgtCodec",
    "millennium": "firmware_bridge.codecs.millennium:MillenniumCodec",
    "certabo": "firmware_bridge.codecs.certabo:CertaboCodec",
    "sentio": "firmware_bridge.codecs.certabo:SentioCodec",
    "chessnut": "firmware_bridge.codecs.chessnut:ChessnutCodec",
    "revelation": "firmware_bridge.codecs.dgt:RevelationCodec",
    # Bluetooth LE (firmware_bridge.ble): the same codecs over GATT notifications
    "chessnut-ble": "firmware_bridge.codecs.chessnut:ChessnutCodec",
    "millennium-ble": "firmware_bridge.codecs.millennium:MillenniumCodec",
    "pegasus": "firmware_bridge.codecs.pegasus:PegasusCodec",
}
#: protocols whose DEVICE is a Bluetooth LE address (the rest are serial ports but HID ones)
#: errors a user sees, as templates of `ArbiterError.of`: the `arbiter` command says them in
#: the user's language (its catalogue marks the same English: arbiter/i18n.py DEVICE_ERRORS)
UNKNOWN_PROTOCOL = "unknown board protocol {name!r}; known: {known}"
CALIBRATION_NOT_CERTABO = "--calibration is for Certabo boards; a {protocol} board needs none"
NOT_A_SPEC = (
    "--board {spec!r}: expected PROTOCOL:DEVICE, e.g. dgt:/dev/ttyUSB0 (protocols: {known})"
)
NO_DEVICE = "--board {spec!r}: no device after {protocol!r}"

BLE_PROTOCOLS = frozenset({"chessnut-ble", "millennium-ble", "pegasus"})
#: protocols whose DEVICE is a USB HID device (`/dev/hidrawN`): a Chessnut on its cable
HID_PROTOCOLS = frozenset({"chessnut"})
AUTO = "auto"




def _known() -> str:
    return ", ".join(PROTOCOLS)


def codec_class(name: str) -> type[Codec]:
    """The codec class of protocol `name` (imported now).

    Raises:
        UnknownProtocolError: `name` is not one of `PROTOCOLS` (the message lists them).
    """
    target = PROTOCOLS.get(name.lower().strip()) if isinstance(name, str) else None
    if target is None:
        raise UnknownProtocolError.of(UNKNOWN_PROTOCOL, name=name, known=_known())
    module_name, _, class_name = target.partition(":")
    cls: type[Codec] = getattr(importlib.import_module(module_name), class_name)
    return cls


def codec_for(name: str, *, calibration: str | Path | None = None, **options: Any) -> Codec:
    """A fresh codec for protocol `name`.

    Args:
        name: one of `PROTOCOLS` (case-insensitive).
        calibration: Certabo only: the path of a calibration file (`CertaboCalibration.save`).
        options: passed on to the codec's constructor (e.g. `orientation`, `clock_white`).

    Raises:
        UnknownProtocolError: an unknown name.
        BoardSpecError: a calibration given for a protocol that has none.
        CalibrationError: the calibration file cannot be read.
    """
    cls = codec_class(name)
    if calibration is not None:
        if cls.name != "certabo":
            raise BoardSpecError.of(CALIBRATION_NOT_CERTABO, protocol=cls.name)
        from firmware_bridge.codecs.certabo_calibration import CertaboCalibration

        options["calibration"] = CertaboCalibration.load(calibration)
    try:
        return cls(**options)
    except TypeError as exc:
        raise BoardSpecError(f"bad option for a {cls.name} board: {exc}") from None


def link_kind(protocol: str) -> str:
    """`ble` for a board reached over Bluetooth LE, `hid` over USB HID, `serial` the rest."""
    if protocol in BLE_PROTOCOLS:
        return "ble"
    return "hid" if protocol in HID_PROTOCOLS else "serial"


def parse_board_spec(spec: str) -> tuple[str, str]:
    """Split `PROTOCOL:DEVICE` (the CLI's `--board`) into (protocol, device path or URL).

    `dgt:/dev/ttyUSB0` -> ('dgt', '/dev/ttyUSB0'); `auto:/dev/ttyACM0` -> ('auto', ...);
    `millennium:loop://` -> ('millennium', 'loop://'); `auto` alone -> ('auto', ''): the one
    board that `firmware_bridge.discovery` finds. The protocol is checked here.

    Raises:
        BoardSpecError: no `:`, or nothing after it.
        UnknownProtocolError: the part before `:` is neither a protocol nor `auto`.
    """
    if isinstance(spec, str) and spec.strip().lower() == AUTO:
        return AUTO, ""  # the one board found (firmware_bridge.discovery, BoardSource)
    if not isinstance(spec, str) or ":" not in spec:
        raise BoardSpecError.of(NOT_A_SPEC, spec=spec, known=f"{_known()}, {AUTO}")
    protocol, _, device = spec.partition(":")
    protocol = protocol.strip().lower()
    device = device.strip()
    if protocol != AUTO:
        codec_class(protocol)
    if not device:
        raise BoardSpecError.of(NO_DEVICE, spec=spec, protocol=protocol + ":")
    if protocol == "dgt":
        from firmware_bridge.codecs.dgt import DgtCodec

        if DgtCodec.is_revelation_path(device):
            protocol = "revelation"
    return protocol, device


@dataclass(frozen=True)
class Probe:
    """One step of auto-detection: open at `baudrate`, write `request`, read for `wait_s`.

    `answered(codec, events)` says, from the codec fed with what came back and the events it
    gave, whether the board spoke this protocol. `make_request` builds the request from the
    codec, so only documented, harmless commands go out (`4D`, `V`), never `4E` (boot loader)
    or `T` (reset).
    """

    protocol: str
    baudrate: int
    make_request: Callable[[Codec], bytes]
    answered: Callable[[Codec, list[Event]], bool]
    wait_s: float


def _version_request(codec: Codec) -> bytes:
    return codec.encode_version()  # DGT `4D` (answered by 93, 1.6), Millennium `V56`


def _has_version(codec: Codec, events: list[Event]) -> bool:
    return codec.version is not None


def _has_snapshot(codec: Codec, events: list[Event]) -> bool:
    return any(isinstance(event, Snapshot) for event in events)


#: tried in this order (eboard-protocols.md 8): DGT, Millennium, then the boards that stream
#: unasked (Certabo records of 320 numbers, Sentio records of 8)
PROBES: tuple[Probe, ...] = (
    Probe("dgt", 9600, _version_request, _has_version, 1.0),
    Probe("millennium", 38400, _version_request, _has_version, 1.0),
    Probe("certabo", 38400, lambda codec: b"", _has_snapshot, 1.5),
    Probe("sentio", 38400, lambda codec: b"", _has_snapshot, 1.5),
)
