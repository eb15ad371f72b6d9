"""What boards are plugged in or in range: USB serial ports, Chessnut boards on USB HID, and
Bluetooth LE boards (`arbiter boards`, `--board auto`).

Sans CLI: each search returns `Found` boards and `notes` saying what could not be searched
and why (no bleak, no adapter, no hidraw), never raising for a missing radio or package.

- Serial ports (pyserial's `list_ports`): a board is named by its USB VID:PID where a source
  gives one (`eboard-protocols.md` 1.1, 8): DGT `04d8:000a`; the FTDI `0403:6001` of older DGT
  boards and the CP210x `10c4:ea60` of Certabo boards are bridges other devices use too, so
  they are guesses. Others are listed as unknown; `probe=True` asks each what it is
  (`transport.detect_protocol`: DGT `4D`, Millennium `V`, listening for Certabo and Sentio).
- USB HID (`/sys/class/hidraw`, no package needed): Chessnut boards have VID `2D80` (4.1).
  Reading them needs the `hid` extra and a udev rule; `hidraw` nodes are listed all the same.
- Bluetooth LE: a scan by the central of `firmware_bridge.ble` (bleak, the `ble` extra), and
  the fake peripherals registered in this process; an advertisement is a board when its name
  or service says so (`ble.profiles.profile_for_advert`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.errors import Described, SearchNote
from rules.errors import ArbiterError

__all__ = [
    "HID_BOARDS",
    "SERIAL_BOARDS",
    "Discovery",
    "Found",
    "discover",
    "hid_boards",
    "serial_boards",
]

#: what a serial device is, as `arbiter boards` says it: templates of `ArbiterError.of`, said
#: in the user's language (arbiter/i18n.py DEVICE_ERRORS; a HID or BLE device's own name stays)
DGT_BOARD = "DGT board"
FTDI_BRIDGE = "FTDI bridge: an older DGT board?"
CP210X_BRIDGE = "CP210x bridge: a Certabo board?"
BLUETOOTH_SERIAL = "Bluetooth serial port"
UNKNOWN_SERIAL = "unknown serial device"
NO_ANSWER = "no board answered ({error})"
ANSWERED = "{protocol} board (it answered)"

#: USB VID:PID -> (protocol, what it is, certain?)
SERIAL_BOARDS: dict[tuple[int, int], tuple[str, str, bool]] = {
    (0x04D8, 0x000A): ("dgt", DGT_BOARD, True),
    (0x0403, 0x6001): ("dgt", FTDI_BRIDGE, False),
    (0x10C4, 0xEA60): ("certabo", CP210X_BRIDGE, False),
}
#: USB HID vendor -> protocol: Chessnut (EasyLinkSDK masks PID & FF00: 80xx-86xx)
HID_BOARDS: dict[int, str] = {0x2D80: "chessnut"}

#: what could not be searched (`Discovery.notes`), as templates of `ArbiterError.of`: the
#: `arbiter` command says them in the user's language (arbiter/i18n.py DEVICE_ERRORS)
SERIAL_NOT_SEARCHED = "serial ports: not searched (pyserial is missing)"
HID_NOT_SEARCHED = "USB HID: not searched (no /sys/class/hidraw on this system)"
BLE_NOT_SEARCHED = "Bluetooth LE: not searched ({error})"




@dataclass(frozen=True)
class Found:
    """A board (or a device that may be one): how it is reached, and the `--board` to use.

    `spec` is None for a device whose protocol is not known (an unknown serial port).
    """

    link: str  # "serial", "hid" or "ble"
    device: str
    what: str
    spec: str | None
    detail: str = ""
    #: `what` in every language, where it is our words (not a device's own name)
    said: ArbiterError | None = field(default=None, compare=False)


@dataclass
class Discovery:
    """The boards found and what could not be searched."""

    found: list[Found] = field(default_factory=list)
    notes: list[ArbiterError] = field(default_factory=list)

    @property
    def boards(self) -> list[Found]:
        """The devices known to be boards (with a `--board` spec)."""
        return [f for f in self.found if f.spec is not None]


def serial_boards(
    *, probe: bool = False, ports: Callable[[], Iterable[Any]] | None = None
) -> Discovery:
    """USB and Bluetooth serial ports (see the module docstring).

    `ports`: pyserial's `list_ports.comports` (injected for tests). With `probe`, unknown
    ports are asked what they are (about 5 s each when nothing answers).
    """
    out = Discovery()
    if ports is None:
        try:
            from serial.tools import list_ports
        except ImportError:  # pyserial is a dependency: only a broken install lacks it
            out.notes.append(SearchNote.of(SERIAL_NOT_SEARCHED))
            return out
        ports = list_ports.comports
    for port in ports():
        device = str(port.device)
        vid, pid = getattr(port, "vid", None), getattr(port, "pid", None)
        if vid is None and "rfcomm" not in device:
            continue  # a built-in UART (ttyS0, ttyAMA0): no board says it is one
        ids = f"{vid:04x}:{pid:04x}" if vid is not None and pid is not None else ""
        known = SERIAL_BOARDS.get((vid, pid)) if vid is not None and pid is not None else None
        if known is not None:
            protocol, what, certain = known
            spec = f"{protocol}:{device}" if certain else f"auto:{device}"
            said = Described.of(what)
            out.found.append(Found("serial", device, str(said), spec, ids, said))
            continue
        if probe:
            out.found.append(_probed(device, ids))
        else:
            said = Described.of(BLUETOOTH_SERIAL if "rfcomm" in device else UNKNOWN_SERIAL)
            detail = ids or str(port.description)
            out.found.append(Found("serial", device, str(said), None, detail, said))
    return out


def _probed(device: str, ids: str) -> Found:
    from firmware_bridge.transport import detect_protocol

    try:
        protocol = detect_protocol(device)
    except ArbiterError as exc:
        said = Described.of(NO_ANSWER, error=exc)
        return Found("serial", device, str(said), None, ids, said)
    said = Described.of(ANSWERED, protocol=protocol)
    return Found("serial", device, str(said), f"{protocol}:{device}", ids, said)


def hid_boards(root: Path = Path("/sys/class/hidraw")) -> Discovery:
    """Chessnut boards on USB HID, read from sysfs (`root`, injected for tests)."""
    out = Discovery()
    if not root.is_dir():
        out.notes.append(SearchNote.of(HID_NOT_SEARCHED))
        return out
    for node in sorted(root.iterdir()):
        try:
            uevent = (node / "device" / "uevent").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        info = dict(line.partition("=")[::2] for line in uevent.splitlines())
        parts = info.get("HID_ID", "").split(":")  # bus:vendor:product, hex
        if len(parts) != 3:
            continue
        try:
            vendor, product = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            continue
        protocol = HID_BOARDS.get(vendor)
        if protocol is None:
            continue
        name = info.get("HID_NAME", "") or protocol
        device = f"/dev/{node.name}"
        out.found.append(
            Found("hid", device, name, f"{protocol}:{device}", f"{vendor:04x}:{product:04x}")
        )
    return out


def ble_boards(timeout: float = 5.0, *, central: Any = None) -> Discovery:
    """Bluetooth LE boards advertising within `timeout` s, and the registered fakes.

    `central`: the scanning central (default: bleak's; a missing bleak or adapter is a note).
    """
    from firmware_bridge.ble import fake
    from firmware_bridge.ble.central import Advert
    from firmware_bridge.ble.profiles import profile_for_advert

    out = Discovery()
    adverts: list[Advert] = fake.FakeCentral().scan(0.0)
    try:
        if central is None:
            from firmware_bridge.ble.transport import real_central

            central = real_central()
        adverts += central.scan(timeout)
    except ArbiterError as exc:
        out.notes.append(SearchNote.of(BLE_NOT_SEARCHED, error=exc))
    seen: set[str] = set()
    for advert in adverts:
        if advert.address in seen:
            continue
        seen.add(advert.address)
        profile = profile_for_advert(advert.name, advert.services)
        if profile is None:
            continue
        detail = f"{advert.rssi} dBm" if advert.rssi is not None else ""
        out.found.append(
            Found(
                "ble",
                advert.address,
                advert.name or profile.protocol,
                f"{profile.protocol}:{advert.address}",
                detail,
            )
        )
    return out


def discover(
    *,
    ble_timeout: float = 5.0,
    probe: bool = False,
    bluetooth: bool = True,
    central: Any = None,
    ports: Callable[[], Iterable[Any]] | None = None,
    hid_root: Path = Path("/sys/class/hidraw"),
) -> Discovery:
    """Every search of this module, joined."""
    out = Discovery()
    searches = [serial_boards(probe=probe, ports=ports), hid_boards(hid_root)]
    if bluetooth:
        searches.append(ble_boards(ble_timeout, central=central))
    for part in searches:
        out.found += part.found
        out.notes += part.notes
    return out
