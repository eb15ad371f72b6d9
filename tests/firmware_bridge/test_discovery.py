"""`arbiter boards` and `--board auto`: what is found on serial ports, USB HID and Bluetooth
LE, with no radio or package needed to say what could not be searched."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arbiter.cli.boards import report
from firmware_bridge import discovery
from firmware_bridge.ble.central import Advert, BleCentral
from firmware_bridge.ble.fake import FakePeripheral
from firmware_bridge.ble.profiles import PROFILES
from firmware_bridge.discovery import Discovery, Found, ble_boards, hid_boards, serial_boards
from firmware_bridge.errors import BleUnavailableError, DetectionError, SearchNote
from firmware_bridge.registry import parse_board_spec
from firmware_bridge.source import BoardSource, choose_board

ROOT = Path(__file__).resolve().parents[2]


def port(device: str, vid: int | None = None, pid: int | None = None) -> Any:
    return SimpleNamespace(device=device, vid=vid, pid=pid, description="n/a")


def test_serial_ports_are_named_by_vid_pid() -> None:
    ports = [
        port("/dev/ttyS0"),  # a built-in UART: not listed
        port("/dev/ttyACM0", 0x04D8, 0x000A),  # DGT (eboard-protocols.md 1.1)
        port("/dev/ttyUSB0", 0x0403, 0x6001),  # FTDI: an older DGT board, or anything
        port("/dev/ttyUSB1", 0x1234, 0x5678),
    ]
    found = serial_boards(ports=lambda: ports)
    assert [(f.device, f.spec) for f in found.found] == [
        ("/dev/ttyACM0", "dgt:/dev/ttyACM0"),
        ("/dev/ttyUSB0", "auto:/dev/ttyUSB0"),
        ("/dev/ttyUSB1", None),
    ]
    assert found.found[0].detail == "04d8:000a"
    assert [f.what for f in found.found] == [
        "DGT board",
        "FTDI bridge: an older DGT board?",
        "unknown serial device",
    ]
    # `arbiter boards` says what each is in the user's language (issue 15); notes too
    found.notes.append(SearchNote.of(discovery.HID_NOT_SEARCHED))
    out = io.StringIO()
    report(found, out, "sr")
    lines = out.getvalue().splitlines()
    assert "DGT tabla" in lines[0] and "FTDI most: starija DGT tabla?" in lines[1]
    assert "nepoznat serijski uređaj" in lines[2]
    assert lines[3] == "napomena: USB HID: nije pretraženo (na ovom sistemu nema /sys/class/hidraw)"


def test_chessnut_boards_are_found_on_hidraw(tmp_path: Path) -> None:
    for name, hid_id, hid_name in (
        ("hidraw0", "0003:0000046D:0000C52B", "Logitech receiver"),
        ("hidraw1", "0003:00002D80:00008002", "Chessnut Air"),  # VID 2D80 (4.1)
    ):
        (tmp_path / name / "device").mkdir(parents=True)
        (tmp_path / name / "device" / "uevent").write_text(
            f"DRIVER=hid-generic\nHID_ID={hid_id}\nHID_NAME={hid_name}\n", encoding="utf-8"
        )
    found = hid_boards(tmp_path)
    assert found.found == [
        Found("hid", "/dev/hidraw1", "Chessnut Air", "chessnut:/dev/hidraw1", "2d80:8002")
    ]
    assert hid_boards(tmp_path / "missing").notes


class NoRadio(BleCentral):
    def scan(self, timeout: float) -> list[Advert]:
        raise BleUnavailableError("no adapter")

    def connect(self, address: str, profile: Any, timeout: float) -> Any:
        raise BleUnavailableError("no adapter")


class Radio(BleCentral):
    def scan(self, timeout: float) -> list[Advert]:
        return [
            Advert("AA:BB", "Chessnut Air", (), -60),
            Advert("CC:DD", "Some headphones", (), -40),
            Advert("EE:FF", "DGT_PEGASUS_123", (PROFILES["pegasus"].service,), -70),
        ]

    def connect(self, address: str, profile: Any, timeout: float) -> Any:
        raise AssertionError("a scan connects to nothing")


def test_bluetooth_boards_are_found_by_name_and_service() -> None:
    found = ble_boards(0.0, central=Radio())
    assert [(f.spec, f.detail) for f in found.found] == [
        ("chessnut-ble:AA:BB", "-60 dBm"),
        ("pegasus:EE:FF", "-70 dBm"),
    ]
    assert parse_board_spec("chessnut-ble:AA:BB") == ("chessnut-ble", "AA:BB")


def test_no_radio_is_a_note_and_fakes_are_still_listed() -> None:
    with FakePeripheral("virtual-pegasus", PROFILES["pegasus"]):
        found = ble_boards(0.0, central=NoRadio())
    assert [f.spec for f in found.found] == ["pegasus:virtual-pegasus"]
    assert [str(note) for note in found.notes] == ["Bluetooth LE: not searched (no adapter)"]


def test_the_report_gives_each_board_its_board_option() -> None:
    found = Discovery(
        [
            Found("serial", "/dev/ttyACM0", "DGT board", "dgt:/dev/ttyACM0", "04d8:000a"),
            Found("serial", "/dev/ttyUSB1", "unknown serial device", None, "1234:5678"),
        ],
        ["Bluetooth LE: not searched (no adapter)"],
    )
    out = io.StringIO()
    assert report(found, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("--board dgt:/dev/ttyACM0") and "04d8:000a" in lines[0]
    assert lines[1].endswith("try --board auto:/dev/ttyUSB1")
    assert lines[2] == "note: Bluetooth LE: not searched (no adapter)"
    assert report(Discovery(), io.StringIO()) == 1


def test_board_auto_takes_the_one_board_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = discovery.discover

    def without_hardware(**options: Any) -> Discovery:
        options.update(ports=lambda: [], hid_root=Path("/nonexistent"), central=NoRadio())
        return real(**options)

    monkeypatch.setattr(discovery, "discover", without_hardware)
    with pytest.raises(DetectionError, match=r"no board found.*not searched"):
        choose_board()
    with FakePeripheral("virtual-pegasus", PROFILES["pegasus"]):
        assert choose_board() == ("pegasus", "virtual-pegasus")
        source = BoardSource("auto")
        assert (source.protocol, source.device) == ("pegasus", "virtual-pegasus")
        assert source.codec.name == "pegasus"
        source.close()
        with (
            FakePeripheral("virtual-chessnut", PROFILES["chessnut-ble"]),
            pytest.raises(DetectionError, match=r"2 boards found.*name one"),
        ):
            choose_board()


def test_arbiter_boards_runs_without_radio_or_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "boards", "--scan-s", "0.5"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and done.stdout
    if done.returncode == 1:
        assert "no board found" in done.stdout
