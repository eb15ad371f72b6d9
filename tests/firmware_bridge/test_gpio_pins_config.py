"""The pin map: documented defaults, the `[gpio.pins]` table, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.gpio import PinConfigError
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.panel import ClockPanel
from firmware_bridge.gpio.pins import (
    DEFAULT_PINS,
    MatrixSettings,
    PinMap,
    load_pin_map,
    matrix_settings_from_config,
    open_matrix_source,
    pin_map_from_table,
)
from firmware_bridge.gpio.reed_matrix import ReedMatrix


def test_defaults_fit_the_header_without_clashes_and_leave_the_uart_free() -> None:
    numbers = list(DEFAULT_PINS.uses().values())
    assert len(numbers) == 24 == len(set(numbers))
    assert all(2 <= n <= 27 for n in numbers)
    assert 14 not in numbers and 15 not in numbers
    # everything can be claimed on one back-end at once
    pins = FakePins()
    ClockPanel(pins, lambda e: None)
    ReedMatrix(pins, DEFAULT_PINS.matrix_rows, DEFAULT_PINS.matrix_cols)
    assert len(pins.claimed) == 24


def test_config_overrides_key_by_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[gpio.pins]\nbuzzer = 14\nled_white = 15\n\n[gpio]\nbackend = "rpi"\n', encoding="utf-8"
    )
    pins = load_pin_map(path)
    assert pins == PinMap(buzzer=14, led_white=15)
    assert pins.clock_white == DEFAULT_PINS.clock_white


def test_a_config_without_the_table_gives_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[game]\ntc = "300+2"\n', encoding="utf-8")
    assert load_pin_map(path) == DEFAULT_PINS


def test_no_matrix() -> None:
    pins = pin_map_from_table({"matrix_rows": [], "matrix_cols": [], "buzzer": 10})
    assert not pins.has_matrix and pins.buzzer == 10


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"led_whit": 5}, r"\[gpio.pins\]: unknown pin name 'led_whit'; known names: buzzer"),
        ({"buzzer": 30}, r"'buzzer' = 30: header GPIOs are BCM 2–27"),
        ({"buzzer": 1}, r"'buzzer' = 1: header GPIOs are BCM 2–27"),
        ({"buzzer": "18"}, r"'buzzer' must be a BCM number, not '18'"),
        ({"buzzer": True}, r"'buzzer' must be a BCM number, not True"),
        ({"led_black": 22}, r"GPIO 22 is given to both 'led_white' and 'led_black'"),
        ({"buzzer": 10}, r"GPIO 10 is given to both 'buzzer' and 'matrix_rows\[0\]'"),
        ({"matrix_rows": [2, 3]}, r"'matrix_rows' needs 8 GPIOs \(or none\), not 2"),
        ({"matrix_rows": 5}, r"'matrix_rows' must be a list of 8 BCM numbers"),
        ({"matrix_rows": []}, r"'matrix_rows' and 'matrix_cols' must both be set or empty"),
    ],
)
def test_bad_tables_name_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(PinConfigError, match=message):
        pin_map_from_table(table)


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text("[gpio.pins]\nclock_black = 99\n", encoding="utf-8")
    with pytest.raises(PinConfigError, match=r"club.toml \[gpio.pins\]: 'clock_black' = 99"):
        load_pin_map(path)
    path.write_text("[gpio.pins\n", encoding="utf-8")
    with pytest.raises(PinConfigError, match=r"club.toml: not valid TOML"):
        load_pin_map(path)
    path.write_text("gpio = 3\n", encoding="utf-8")
    with pytest.raises(PinConfigError, match=r"club.toml: \[gpio\] must be a table"):
        load_pin_map(path)


def test_pin_map_checks_itself_when_built_in_code() -> None:
    with pytest.raises(PinConfigError, match="GPIO 2 is given to both 'clock_white' and 'pause'"):
        PinMap(pause=2)


def test_matrix_settings_from_config() -> None:
    assert matrix_settings_from_config({}) == MatrixSettings()
    made = matrix_settings_from_config(
        {"gpio": {"matrix": {"a1_corner": "r7c7", "scan_hz": 100, "stable_scans": 3}}}
    )
    assert made.a1_corner == "r7c7" and made.period_s == 0.01 and made.stable_scans == 3


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"a1": "r0c0"}, r"unknown setting 'a1'; known settings: a1_corner"),
        ({"a1_corner": "h1"}, r"'a1_corner' = 'h1'; choose one of r0c0"),
        ({"scan_hz": 20}, r"'scan_hz' = 20; it must be a number, 50 or more"),
        ({"scan_hz": "fast"}, r"'scan_hz' = 'fast'"),
        ({"stable_scans": 0}, r"'stable_scans' = 0; it must be 1 to 10"),
        ({"idle_rows": "low"}, r"'idle_rows' = 'low'"),
    ],
)
def test_bad_matrix_settings_name_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(PinConfigError, match=r"club.toml \[gpio.matrix\]: " + message):
        matrix_settings_from_config({"gpio": {"matrix": table}}, "club.toml")


def test_open_matrix_source_from_config() -> None:
    settings = matrix_settings_from_config(
        {"gpio": {"matrix": {"a1_corner": "r7c7", "scan_hz": 100, "stable_scans": 3}}}
    )
    source = open_matrix_source(FakePins(), DEFAULT_PINS, settings, origin=5.0)
    assert source.matrix.a1_corner == "r7c7"
    assert (source.period_s, source.stable_scans, source.origin) == (0.01, 3, 5.0)
    assert [p.number for p in source.matrix.rows] == list(DEFAULT_PINS.matrix_rows)


def test_open_matrix_source_without_matrix_pins() -> None:
    no_matrix = pin_map_from_table({"matrix_rows": [], "matrix_cols": []})
    with pytest.raises(PinConfigError, match="needs 'matrix_rows' and 'matrix_cols'"):
        open_matrix_source(FakePins(), no_matrix)
