"""The boards' libraries' reasons in our words (`rules.library_reasons`: `serial_errors`,
`ble_errors`, `hid_errors`, `link_errors`): pyserial's, bleak's and hidapi's exceptions, with
the types and texts their sources raise, said in every language; a reason not in a table
stays as the library says it; and `arbiter play` with a Bluetooth LE or USB HID board that is
not there says so in Czech, naming the board, with no traceback.

pyserial is a dependency of the package; bleak and hidapi are optional extras that `.ci/run`
does not install: their exceptions are built here as their sources make them (the stand-ins
in `fake_libraries/`, the same class names, arguments and texts), and the tests that use the
real libraries skip, saying why, where they are missing.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import serial

from arbiter.i18n import error_text
from arbiter.live.session import sensor_note
from firmware_bridge.errors import TransportError
from firmware_bridge.hid_transport import HidTransport, open_hid
from firmware_bridge.transport import LinkPolicy, SerialTransport, open_port
from rules.i18n import LANGUAGES
from rules.library_reasons import Reason, ble_reason, reason_of
from rules.library_reasons.ble_errors import (
    BLE_REASONS,
    BLE_TEXTS,
    DBUS_REASONS,
    GATT_REASONS,
    UNAVAILABLE_REASONS,
)
from rules.library_reasons.hid_errors import HID_REASONS
from rules.library_reasons.link_errors import LINK_DETAILS
from rules.library_reasons.serial_errors import SERIAL_REASONS

FAKES = Path(__file__).resolve().with_name("fake_libraries")
TRANSLATED = [code for code in LANGUAGES if code != "en"]
ROOT = Path(__file__).resolve().parents[2]


def _stand_in_exc() -> Any:
    """The stand-in's `bleak.exc`, its classes named as bleak's own (module `bleak.exc`),
    loaded beside the real bleak (if any) without taking its place in `sys.modules`."""
    spec = importlib.util.spec_from_file_location("bleak.exc", FAKES / "bleak" / "exc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fake_bleak_exc = _stand_in_exc()


def _said(reason: Reason) -> dict[str, str]:
    """`reason` in every language, each other than the English."""
    said = {language: reason.say(language) for language in LANGUAGES}
    for language in TRANSLATED:
        assert said[language] != said["en"], (language, said["en"])
    return said


def test_the_tables_cover_what_they_say() -> None:
    assert len(SERIAL_REASONS) == 14 and len(HID_REASONS) == 8
    assert set(UNAVAILABLE_REASONS) == {
        "NO_BLUETOOTH", "NO_BLE_CENTRAL_ROLE", "POWERED_OFF", "DENIED_BY_USER",
        "DENIED_BY_SYSTEM", "DENIED_BY_UNKNOWN", "UNKNOWN",
    }  # fmt: skip
    for template in (*BLE_REASONS, *HID_REASONS.values(), *LINK_DETAILS.values()):
        if template != "{device}: {reason}":
            _said(Reason(template, uuid="x", device="d", reason="r", seconds=1.5))
    print(
        f"covered: {len(SERIAL_REASONS)} pyserial forms, {len(BLE_TEXTS)} bleak texts, "
        f"{len(DBUS_REASONS)} D-Bus errors, {len(UNAVAILABLE_REASONS)} unavailable reasons, "
        f"{len(GATT_REASONS)} GATT codes, {len(HID_REASONS)} hidapi texts"
    )


# ------------------------------------------------------------------------------ pyserial

#: pyserial 3.5's exceptions as `serialposix.py` raises them, and our English for each
SERIAL_CASES: list[tuple[BaseException, str]] = [
    (
        serial.SerialException(
            errno.ENOENT,
            "could not open port /dev/ttyUSB0: [Errno 2] No such file or directory: '/dev/ttyUSB0'",
        ),
        "no such file or folder",
    ),
    (
        serial.SerialException(
            errno.EACCES, "could not open port /dev/ttyUSB0: [Errno 13] Permission denied"
        ),
        "permission denied",
    ),
    (
        serial.SerialException("read failed: [Errno 5] Input/output error"),
        "reading the port failed (an input/output error (the device or the card failed?))",
    ),
    (
        serial.SerialException(
            "device reports readiness to read but returned no data (device disconnected or "
            "multiple access on port?)"
        ),
        "the port gives no data: the board was unplugged, or another program is reading the port",
    ),
    (
        serial.SerialException("device reports error (poll)"),
        "the port reported an error (was the board unplugged?)",
    ),
    (
        serial.SerialException("Could not configure port: (25, 'Inappropriate ioctl for device')"),
        "the port cannot be set up (the device is not a terminal or serial port)",
    ),
    (
        serial.SerialException(
            errno.EAGAIN,
            "Could not exclusively lock port /dev/ttyUSB0: [Errno 11] Resource temporarily "
            "unavailable",
        ),
        "another program has locked the port",
    ),
    (
        serial.SerialException("write failed: [Errno 5] Input/output error"),
        "writing to the port failed (an input/output error (the device or the card failed?))",
    ),
    (serial.SerialException("write failed (select)"), "writing to the port failed"),
    (serial.SerialTimeoutException("Write timeout"), "writing to the port timed out"),
    (serial.PortNotOpenError(), "the port is not open"),
    (serial.SerialException("Port is already open."), "the port is already open"),
    (
        serial.SerialException("Port must be configured before it can be used."),
        "the port is not set up",
    ),
]


@pytest.mark.parametrize(("error", "english"), SERIAL_CASES, ids=lambda x: str(x)[:40])
def test_pyserial_s_reasons_in_every_language(error: BaseException, english: str) -> None:
    reason = reason_of(error)
    assert reason == english
    said = _said(reason)
    assert all("[Errno" not in text and "port /dev" not in text for text in said.values())


def test_pyserial_s_own_refusals_of_a_url_and_a_speed() -> None:
    with pytest.raises(ValueError) as bad_url:
        serial.serial_for_url("nosuch://here", do_not_open=True)
    # pyserial raises a ValueError here, not one of its own classes: the open says it
    with pytest.raises(TransportError) as refused:
        open_port("nosuch://here", {})
    assert "nosuch" in str(bad_url.value)
    assert "neznámý protokol 'nosuch'" in error_text(refused.value, "cs") or (
        "nosuch" in error_text(refused.value, "cs")
    )


def test_a_pyserial_text_not_in_the_table_stays() -> None:
    odd = serial.SerialException("something pyserial 4 might say")
    assert reason_of(odd) == "something pyserial 4 might say"
    assert {reason_of(odd).say(language) for language in LANGUAGES} == {
        "something pyserial 4 might say"
    }


def test_a_port_that_cannot_be_opened_is_said_by_its_number(tmp_path: Path) -> None:
    with pytest.raises(TransportError) as missing:
        open_port(str(tmp_path / "ttyUSB9"), {"baudrate": 9600})
    cs = error_text(missing.value, "cs")
    assert "ttyUSB9" in cs and "takové zařízení neexistuje" in cs and "Errno" not in cs


# --------------------------------------------------------------------------------- bleak


def _bleak_cases(exc: Any) -> list[tuple[BaseException, str]]:
    """bleak's exceptions as its sources raise them, from the module `exc` (bleak's own
    `bleak.exc` or the stand-in's), with our English for each."""
    address = "F0:0D:00:11:22:33"
    why = exc.BleakBluetoothNotAvailableReason
    return [
        (
            exc.BleakDeviceNotFoundError(address, f"Device with address {address} was not found."),
            "no device with this address was found (is the board switched on, near, and not "
            "connected to a phone or another computer?)",
        ),
        (
            exc.BleakBluetoothNotAvailableError("No Bluetooth adapters found.", why.NO_BLUETOOTH),
            "this computer has no Bluetooth adapter",
        ),
        (
            exc.BleakBluetoothNotAvailableError(
                "No Bluetooth adapters with BLE 'central' role found.", why.NO_BLE_CENTRAL_ROLE
            ),
            "the Bluetooth adapter cannot connect to Bluetooth LE devices",
        ),
        (
            exc.BleakBluetoothNotAvailableError(
                "No powered Bluetooth adapters found. Turn on Bluetooth and try again.",
                why.POWERED_OFF,
            ),
            "Bluetooth is switched off: switch it on (bluetoothctl power on)",
        ),
        (
            exc.BleakDBusError(
                "org.freedesktop.DBus.Error.AccessDenied", ["Rejected send message"]
            ),
            "permission to use Bluetooth was denied",
        ),
        (
            exc.BleakDBusError("org.bluez.Error.NotReady", ["Resource Not Ready"]),
            "Bluetooth is switched off: switch it on (bluetoothctl power on)",
        ),
        (
            exc.BleakDBusError("org.bluez.Error.InProgress", ["Operation already in progress"]),
            "another Bluetooth operation is in progress: try again",
        ),
        (
            exc.BleakDBusError("org.bluez.Error.Failed", ["le-connection-abort-by-local"]),
            "the connection was aborted",
        ),
        (exc.BleakError("Not connected"), "the board is not connected"),
        (
            exc.BleakError("failed to discover services, device disconnected"),
            "the board disconnected",
        ),
        (exc.BleakError("Bluetooth adapter not found"), "this computer has no Bluetooth adapter"),
        (exc.BleakError("Bleak requires BlueZ >= 5.55."), "Bluetooth LE needs BlueZ 5.55 or newer"),
        (
            exc.BleakCharacteristicNotFoundError("1b7e8262-2877-41c3-b46e-cf057c562023"),
            "the board lacks the Bluetooth characteristic 1b7e8262-2877-41c3-b46e-cf057c562023"
            " (is it another model?)",
        ),
        (exc.BleakGATTProtocolError(0x03), "the board does not allow this write"),
        (exc.BleakGATTProtocolError(0x05), "the board asks for pairing first"),
    ]


@pytest.mark.parametrize("case", range(15))
def test_bleak_s_reasons_in_every_language(case: int) -> None:
    """bleak's exceptions built as its sources build them (without bleak: the stand-ins)."""
    error, english = _bleak_cases(fake_bleak_exc)[case]
    reason = ble_reason(error)
    assert reason == english and reason_of(error) == english
    said = _said(reason)
    assert all("Bleak" not in text and "org.bluez" not in text for text in said.values())


def test_bleak_s_own_exceptions_when_it_is_installed() -> None:
    if importlib.util.find_spec("bleak") is None:
        pytest.skip("bleak (the ble extra) is not installed: its stand-ins were tested above")
    import bleak.exc as real

    for error, english in _bleak_cases(real):
        assert ble_reason(error) == english, error


def test_the_system_around_bleak_and_what_no_table_knows() -> None:
    assert ble_reason(FileNotFoundError(errno.ENOENT, "No such file")) == (
        "no Bluetooth service on this system (is BlueZ running? is there an adapter?)"
    )
    assert ble_reason(TimeoutError()).startswith("no answer in time")
    assert ble_reason(PermissionError(errno.EACCES, "x")) == "permission denied"
    odd = fake_bleak_exc.BleakDBusError("org.bluez.Error.Failed", ["a new BlueZ text"])
    assert ble_reason(odd) == "[org.bluez.Error.Failed] a new BlueZ text"
    assert ble_reason(odd).say("pl") == "[org.bluez.Error.Failed] a new BlueZ text"


# -------------------------------------------------------------------------------- hidapi

HID_CASES = [
    (
        OSError("open failed"),
        "the device cannot be opened (is it unplugged, or used by another program?)",
    ),
    (OSError("read error"), "reading the device failed (was it unplugged?)"),
    (OSError("write error"), "writing to the device failed (was it unplugged?)"),
    (ValueError("not open"), "the device is not open"),
]


@pytest.mark.parametrize(("error", "english"), HID_CASES, ids=lambda x: str(x)[:20])
def test_hidapi_s_reasons_in_every_language(error: BaseException, english: str) -> None:
    """hidapi raises plain `OSError`s and `ValueError`s with fixed texts and no number."""
    assert reason_of(error) == english
    _said(reason_of(error))
    assert reason_of(OSError(errno.EIO, "read error")) == (
        "an input/output error (the device or the card failed?)"
    )  # a number: the system's reason, not hidapi's


def test_hidapi_s_own_failure_when_it_is_installed() -> None:
    if importlib.util.find_spec("hid") is None:
        pytest.skip("hidapi (the hid extra) is not installed: its texts were tested above")
    import hid

    device = hid.device()
    with pytest.raises(OSError) as failed:
        device.open_path(b"/dev/hidraw-none")
    assert reason_of(failed.value).template == HID_REASONS["open failed"]
    with pytest.raises(TransportError) as missing:
        open_hid("/dev/hidraw-none")
    cs = error_text(missing.value, "cs")
    assert cs == (
        "šachovnici USB HID /dev/hidraw-none nelze otevřít: takové zařízení neexistuje "
        "(je připojená?)"
    )


class _FailingHid:
    """A HID device whose reads fail as hidapi's do (`OSError('read error')`)."""

    def read(self, max_length: int, timeout_ms: int = 0) -> list[int]:
        raise OSError("read error")

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


def test_a_lost_link_is_said_on_the_screen_and_kept_in_english_in_the_journal() -> None:
    from firmware_bridge.codecs.chessnut import ChessnutCodec

    transport = HidTransport(
        "/dev/hidraw3",
        ChessnutCodec(),
        opener=lambda path: _FailingHid(),
        policy=LinkPolicy(silence_s=None),
    )
    transport.open()
    events = transport.step(0.01)
    lost = [e for e in events if getattr(e, "status", None) == "disconnected"]
    assert lost and lost[0].to_dict()["detail"] == "/dev/hidraw3: read failed: read error"
    assert sensor_note(lost[0], "cs") == (
        "šachovnice není připojena (/dev/hidraw3: čtení selhalo (čtení zařízení selhalo "
        "(nebylo odpojeno?))); čeká se na ni: tahy zahrané mezitím se zkontrolují, až bude zpět"
    )
    assert "read failed: read error" in (sensor_note(lost[0]) or "")
    transport.close()


def test_a_serial_port_that_is_not_there_when_a_game_resumes(tmp_path: Path) -> None:
    from firmware_bridge.codecs.dgt import DgtCodec

    transport = SerialTransport(str(tmp_path / "ttyACM7"), DgtCodec())
    with pytest.raises(TransportError) as refused:
        transport.open()
    (event,) = transport.open_later(refused.value)
    assert "there is no such device" in (event.detail or "")
    pl = sensor_note(event, "pl") or ""
    assert "nie można otworzyć portu szachownicy" in pl and "nie ma takiego urządzenia" in pl
    transport.close()


# -------------------------------------------------------------------------- end to end


def _play(board: str, language: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """`arbiter play --board BOARD --lang LANGUAGE` in `folder` (its journal's), with bleak's
    and hidapi's stand-ins."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FAKES), str(ROOT)]))
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "play", "--board", board, "--lang", language,
         "--display", "plain"],
        capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120,
        cwd=folder,
    )  # fmt: skip


def test_play_with_a_bluetooth_le_board_not_found_says_it_in_czech(tmp_path: Path) -> None:
    ran = _play("chessnut-ble:F0:0D:00:11:22:33", "cs", tmp_path)
    assert ran.returncode != 0
    assert "Traceback" not in ran.stderr, ran.stderr
    assert (
        "arbiter play: k šachovnici Bluetooth LE F0:0D:00:11:22:33 se nelze připojit: "
        "zařízení s touto adresou nebylo nalezeno (je šachovnice zapnutá, nablízku a není "
        "připojená k telefonu nebo jinému počítači?)"
    ) in ran.stderr, ran.stderr
    english = _play("pegasus:F0:0D:00:11:22:33", "en", tmp_path)
    assert "cannot connect to the Bluetooth LE board F0:0D:00:11:22:33: no device with this" in (
        english.stderr
    ), english.stderr


def test_play_with_a_usb_hid_board_not_there_says_it_in_czech(tmp_path: Path) -> None:
    (tmp_path / "hidraw9").write_bytes(b"")  # the system opens it; hidapi does not
    ran = _play(f"chessnut:{tmp_path}/hidraw9", "cs", tmp_path)
    assert ran.returncode != 0 and "Traceback" not in ran.stderr, ran.stderr
    assert (
        f"arbiter play: šachovnici USB HID {tmp_path}/hidraw9 nelze otevřít: zařízení nelze "
        "otevřít (není odpojené, nebo ho nepoužívá jiný program?)"
    ) in ran.stderr, ran.stderr
    missing = _play("chessnut:/dev/hidraw-none", "cs", tmp_path)
    assert "Traceback" not in missing.stderr, missing.stderr
    assert (
        "arbiter play: šachovnici USB HID /dev/hidraw-none nelze otevřít: takové zařízení "
        "neexistuje (je připojená?)"
    ) in missing.stderr, missing.stderr
