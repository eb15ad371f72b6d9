"""A DGT Revelation II is named, never guessed (`eboard-protocols.md` 1.1, 1.9, 8): the
`revelation` protocol, or a `dgt:` device path naming its Bluetooth name `PCS-REVII…`, makes
a DGT codec that may light its LEDs; every other DGT board is never sent `60`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_bridge.codecs.dgt import DgtCodec, RevelationCodec
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.registry import PROTOCOLS, codec_for, parse_board_spec
from firmware_bridge.sim.dgt_board import DgtBoardModel


def test_the_revelation_protocol_makes_a_dgt_codec_with_leds() -> None:
    codec = codec_for("revelation")
    assert isinstance(codec, RevelationCodec) and isinstance(codec, DgtCodec)
    assert codec.name == "dgt" and codec.revelation
    assert codec.encode_leds(["e2", "e4"]) == bytes.fromhex("60 04 01 34 24 00")  # D15
    assert codec.sensor_settings == DgtCodec.sensor_settings
    assert "revelation" in PROTOCOLS


def test_a_plain_dgt_codec_never_encodes_leds() -> None:
    codec = codec_for("dgt")
    assert not codec.revelation  # type: ignore[attr-defined]
    with pytest.raises(CodecUsageError):
        codec.encode_leds(["e2"])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "protocol"),
    [
        ("revelation:/dev/rfcomm0", "revelation"),
        ("REVELATION:/dev/rfcomm1", "revelation"),
        ("dgt:/dev/PCS-REVII-081500", "revelation"),
        ("dgt:/dev/bluetooth/pcs-revii-081500", "revelation"),
        ("dgt:/dev/rfcomm0", "dgt"),
        ("dgt:/dev/ttyACM0", "dgt"),
        ("dgt:/dev/DGT_BT_12345", "dgt"),
        ("dgt:/dev/serial/by-id/usb-Digital_Game_Technology_DGT_Board-if00", "dgt"),
    ],
)
def test_board_specs(spec: str, protocol: str) -> None:
    assert parse_board_spec(spec)[0] == protocol


def test_a_symlink_named_for_the_board_identifies_it(tmp_path: Path) -> None:
    """`rfcomm` devices have no by-id name: a udev rule or the user links one."""
    (tmp_path / "rfcomm0").write_bytes(b"")
    (tmp_path / "PCS-REVII-081500").symlink_to(tmp_path / "rfcomm0")
    (tmp_path / "chessboard").symlink_to("PCS-REVII-081500")  # relative, two hops
    (tmp_path / "other").symlink_to(tmp_path / "rfcomm0")
    assert parse_board_spec(f"dgt:{tmp_path / 'chessboard'}")[0] == "revelation"
    assert parse_board_spec(f"dgt:{tmp_path / 'other'}")[0] == "dgt"
    (tmp_path / "loop").symlink_to("loop")  # a loop ends the walk
    assert parse_board_spec(f"dgt:{tmp_path / 'loop'}")[0] == "dgt"
    assert os.path.islink(tmp_path / "loop")


@pytest.mark.parametrize("protocol", ["dgt", "revelation"])
def test_start_up_never_sends_60(protocol: str) -> None:
    codec = codec_for(protocol)
    board = DgtBoardModel()
    out = codec.encode_startup() + codec.poll(0.0) + codec.poll(5.0)
    assert 0x60 not in out
    board.receive(out)
    assert board.leds == ()
