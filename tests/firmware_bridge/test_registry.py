"""Protocol names -> codecs, and the CLI's `--board PROTOCOL:DEVICE` syntax."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.codecs.certabo import CertaboCodec, SentioCodec
from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.codecs.millennium import MillenniumCodec
from firmware_bridge.errors import BoardSpecError, CalibrationError, UnknownProtocolError
from firmware_bridge.registry import PROBES, PROTOCOLS, codec_for, parse_board_spec
from firmware_bridge.sim.certabo_board import CertaboBoard
from rules.errors import ArbiterError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("dgt", DgtCodec),
        ("millennium", MillenniumCodec),
        ("certabo", CertaboCodec),
        ("sentio", SentioCodec),
        ("chessnut", ChessnutCodec),
        ("DGT", DgtCodec),
    ],
)
def test_codec_for_builds_a_fresh_codec_of_each_protocol(name: str, cls: type) -> None:
    first, second = codec_for(name), codec_for(name)
    assert type(first) is cls
    assert first is not second
    assert first.name == name.lower()


def test_unknown_protocol_lists_the_known_ones() -> None:
    with pytest.raises(UnknownProtocolError) as info:
        codec_for("novag")
    message = str(info.value)
    assert "'novag'" in message
    for name in PROTOCOLS:
        assert name in message
    assert isinstance(info.value, ArbiterError)


def test_codec_options_reach_the_codec_and_bad_ones_are_named() -> None:
    codec = codec_for("dgt", clock_white="right")
    assert isinstance(codec, DgtCodec) and codec.clock_white == "right"
    with pytest.raises(BoardSpecError, match="millennium"):
        codec_for("millennium", colour="blue")


def test_certabo_calibration_file_is_loaded(tmp_path: Path) -> None:
    board = CertaboBoard()
    path = tmp_path / "cal.json"
    board.calibration().save(path)
    codec = codec_for("certabo", calibration=path)
    events = codec.feed(board.record(), 1.0)
    assert [e.to_dict()["board"] for e in events] == ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"]


def test_calibration_for_another_protocol_or_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(BoardSpecError, match="Certabo"):
        codec_for("dgt", calibration=tmp_path / "cal.json")
    with pytest.raises(CalibrationError, match=r"missing\.json"):
        codec_for("certabo", calibration=tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("dgt:/dev/ttyUSB0", ("dgt", "/dev/ttyUSB0")),
        ("auto:/dev/ttyACM0", ("auto", "/dev/ttyACM0")),
        ("millennium:loop://", ("millennium", "loop://")),
        ("certabo:socket://localhost:7000", ("certabo", "socket://localhost:7000")),
        ("Sentio:/dev/serial/by-id/usb-x:y", ("sentio", "/dev/serial/by-id/usb-x:y")),
    ],
)
def test_parse_board_spec(spec: str, expected: tuple[str, str]) -> None:
    assert parse_board_spec(spec) == expected


@pytest.mark.parametrize(
    ("spec", "error", "match"),
    [
        ("/dev/ttyUSB0", BoardSpecError, "PROTOCOL:DEVICE"),
        ("dgt:", BoardSpecError, "no device"),
        ("novag:/dev/ttyUSB0", UnknownProtocolError, "known: dgt"),
    ],
)
def test_bad_board_specs(spec: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        parse_board_spec(spec)


def test_probes_never_send_the_boot_loader_or_reset_commands() -> None:
    for probe in PROBES:
        request = probe.make_request(codec_for(probe.protocol))
        assert 0x4E not in request  # DGT boot loader
        assert b"T" not in bytes(b & 0x7F for b in request)  # Millennium reset
    assert [p.protocol for p in PROBES] == ["dgt", "millennium", "certabo", "sentio"]


def test_registry_imports_no_codec_and_no_pyserial_until_asked() -> None:
    code = (
        "import sys, firmware_bridge.registry as r; r.parse_board_spec('auto:/dev/x');"
        "print(sorted(m for m in sys.modules if m.startswith(('serial', "
        "'firmware_bridge.codecs.dgt', 'firmware_bridge.codecs.millennium'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
