"""Which BCM GPIO does what: the default pin map and the `[gpio.pins]` table of a config.

The defaults fit everything (8 panel lines and the 16 lines of a reed matrix) into the 24
header GPIOs BCM 2–13 and 16–27, leaving BCM 14/15 (the UART: serial console, or a
microcontroller board) free. Physical header pins are given in brackets; see
`hardware_docs/wiring.md` for the drawing.

| name | BCM | header | wiring |
|---|---|---|---|
| clock_white | 2 | 3 | button to GND (this pin also has a 1.8 kΩ pull-up on the board) |
| pause | 3 | 5 | button to GND; a press also wakes a halted Pi |
| clock_black | 4 | 7 | button to GND |
| claim_white | 17 | 11 | button to GND |
| claim_black | 27 | 13 | button to GND |
| led_white | 22 | 15 | 330 Ω and LED to GND |
| led_black | 23 | 16 | 330 Ω and LED to GND |
| buzzer | 24 | 18 | NPN transistor base through 1 kΩ; active buzzer on 5 V |
| matrix_rows (ranks 1–8) | 10 9 11 25 8 7 5 6 | 19 21 23 22 24 26 29 31 | row lines |
| matrix_cols (files a–h) | 12 13 19 16 26 20 21 18 | 32 33 35 36 37 38 40 12 | columns, pull-ups |

A config file may change any of them:

    [gpio.pins]
    clock_white = 5
    matrix_rows = []      # no reed matrix: its 16 lines are free

Every key is checked: an unknown name, a number outside BCM 2–27, a GPIO given twice, or a
matrix that is not 8 × 8 raises `PinConfigError` naming the key and the file.

The reed matrix's own settings sit in `[gpio.matrix]` (`MatrixSettings`): which corner holds
a1, the scan rate, the identical scans needed, and what idle rows do.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from firmware_bridge.errors import PinConfigError
from firmware_bridge.gpio import messages as said
from firmware_bridge.gpio.base import BCM_RANGE, Pins
from firmware_bridge.gpio.reed_matrix import (
    A1_CORNERS,
    MAX_PERIOD_S,
    ReedMatrix,
    ReedMatrixSource,
)
from rules.library_reasons import reason_of

#: the single-line uses, in the order a panel sets them up
SINGLE_PINS = (
    "clock_white",
    "clock_black",
    "pause",
    "claim_white",
    "claim_black",
    "led_white",
    "led_black",
    "buzzer",
)
MATRIX_KEYS = ("matrix_rows", "matrix_cols")


#: BCM number -> physical pin of the 40-pin header (the same on every 40-pin Pi)
HEADER_PINS: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18,
    25: 22, 26: 37, 27: 13,
}  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class PinMap:
    """BCM numbers for the clock panel and the reed matrix (empty tuples: no matrix)."""

    clock_white: int = 2
    clock_black: int = 4
    pause: int = 3
    claim_white: int = 17
    claim_black: int = 27
    led_white: int = 22
    led_black: int = 23
    buzzer: int = 24
    matrix_rows: tuple[int, ...] = field(default=(10, 9, 11, 25, 8, 7, 5, 6))
    matrix_cols: tuple[int, ...] = field(default=(12, 13, 19, 16, 26, 20, 21, 18))

    def __post_init__(self) -> None:
        check_pin_map(self)

    def uses(self) -> dict[str, int]:
        """Every GPIO in the map by its use, e.g. `{"clock_white": 2, "matrix_rows[0]": 10}`."""
        return _uses({f.name: getattr(self, f.name) for f in fields(self)})

    @property
    def has_matrix(self) -> bool:
        return bool(self.matrix_rows)


def _uses(values: dict[str, Any]) -> dict[str, Any]:
    out = {name: values[name] for name in SINGLE_PINS}
    for key in MATRIX_KEYS:
        for i, number in enumerate(values[key]):
            out[f"{key}[{i}]"] = number
    return out


def check_pin_map(pins: PinMap, where: str = "the pin map") -> None:
    """Raise `PinConfigError` for a number out of range, a GPIO used twice, a bad matrix."""
    _check({f.name: getattr(pins, f.name) for f in fields(pins)}, where)


def _check(values: dict[str, Any], where: str) -> None:
    for key in MATRIX_KEYS:
        if len(values[key]) not in (0, 8):
            raise PinConfigError.of(
                said.MATRIX_LENGTH, where=where, key=key, count=len(values[key])
            )
    if len(values["matrix_rows"]) != len(values["matrix_cols"]):
        raise PinConfigError.of(said.MATRIX_BOTH, where=where)
    owners: dict[int, str] = {}
    for use, number in _uses(values).items():
        if isinstance(number, bool) or not isinstance(number, int):
            raise PinConfigError.of(said.NOT_BCM, where=where, use=use, number=number)
        if number not in BCM_RANGE:
            raise PinConfigError.of(
                said.NO_SUCH_GPIO,
                where=where,
                use=use,
                number=number,
                first=BCM_RANGE.start,
                last=BCM_RANGE.stop - 1,
            )
        if number in owners:
            raise PinConfigError.of(
                said.GPIO_TWICE, where=where, number=number, first=owners[number], second=use
            )
        owners[number] = use


DEFAULT_PINS = PinMap()


def pin_map_from_table(table: dict[str, Any], where: str = "[gpio.pins]") -> PinMap:
    """Build a `PinMap` from a `[gpio.pins]` table: defaults, overridden key by key."""
    if not isinstance(table, dict):
        raise PinConfigError.of(said.PINS_NOT_TABLE, where=where, kind=type(table).__name__)
    known = {f.name for f in fields(PinMap)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            raise PinConfigError.of(
                said.UNKNOWN_PIN, where=where, key=key, known=", ".join(sorted(known))
            )
        if key in MATRIX_KEYS:
            if not isinstance(value, list):
                raise PinConfigError.of(said.MATRIX_NOT_LIST, where=where, key=key)
            value = tuple(value)
        values[key] = value
    merged = {f.name: values.get(f.name, getattr(DEFAULT_PINS, f.name)) for f in fields(PinMap)}
    _check(merged, where)
    return PinMap(**merged)


def load_pin_map(path: str | Path) -> PinMap:
    """The pin map of a TOML config file's `[gpio.pins]` table (defaults when it has none)."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise PinConfigError.of(said.NOT_TOML, path=path, reason=reason_of(exc)) from exc
    return pin_map_from_config(data, str(path))


def pin_map_from_config(data: dict[str, Any], source: str = "the config") -> PinMap:
    """The pin map of an already-parsed config (`data["gpio"]["pins"]`, if present)."""
    gpio = data.get("gpio", {})
    if not isinstance(gpio, dict):
        raise PinConfigError.of(said.GPIO_NOT_TABLE, where=source)
    return pin_map_from_table(gpio.get("pins", {}), f"{source} [gpio.pins]")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatrixSettings:
    """The `[gpio.matrix]` table: how the reed matrix is read (see `reed_matrix.py`).

    `a1_corner`: the matrix cell of a1 ("r0c0", or "r7c7" for a board turned round);
    `scan_hz`: scans a second, 50 or more; `stable_scans`: identical scans before a square
    changes; `idle_rows`: "float" (safe default) or "high" (fewer calls; diodes required).
    """

    a1_corner: str = "r0c0"
    scan_hz: float = 50.0
    stable_scans: int = 2
    idle_rows: str = "float"

    @property
    def period_s(self) -> float:
        return 1.0 / self.scan_hz


def matrix_settings_from_config(data: dict[str, Any], source: str = "the config") -> MatrixSettings:
    """The reed matrix settings of a parsed config (`data["gpio"]["matrix"]`, if present)."""
    where = f"{source} [gpio.matrix]"
    gpio = data.get("gpio", {})
    table = gpio.get("matrix", {}) if isinstance(gpio, dict) else None
    if not isinstance(table, dict):
        raise PinConfigError.of(said.NOT_TABLE, where=where)
    known = {f.name for f in fields(MatrixSettings)}
    for key in table:
        if key not in known:
            raise PinConfigError.of(
                said.UNKNOWN_SETTING, where=where, key=key, known=", ".join(sorted(known))
            )
    made = MatrixSettings(**table)
    if made.a1_corner not in A1_CORNERS:
        raise PinConfigError.of(
            said.BAD_A1_CORNER, where=where, value=made.a1_corner, choices=", ".join(A1_CORNERS)
        )
    rate = made.scan_hz
    if (
        isinstance(rate, bool)
        or not isinstance(rate, int | float)
        or not math.isfinite(rate)  # TOML has inf and nan: no scan period
        or rate < 1 / MAX_PERIOD_S
    ):
        raise PinConfigError.of(said.BAD_SCAN_HZ, where=where, value=rate)
    scans = made.stable_scans
    if isinstance(scans, bool) or not isinstance(scans, int) or not 1 <= scans <= 10:
        raise PinConfigError.of(said.BAD_STABLE_SCANS, where=where, value=scans)
    if made.idle_rows not in ("float", "high"):
        raise PinConfigError.of(said.BAD_IDLE_ROWS, where=where, value=made.idle_rows)
    return made


def open_matrix_source(
    pins: Pins,
    pin_map: PinMap = DEFAULT_PINS,
    settings: MatrixSettings | None = None,
    *,
    origin: float = 0.0,
) -> ReedMatrixSource:
    """The reed-switch board of the pin map and `[gpio.matrix]` settings, ready to `step`."""
    if not pin_map.has_matrix:
        raise PinConfigError.of(said.NO_MATRIX)
    s = settings if settings is not None else MatrixSettings()
    matrix = ReedMatrix(
        pins,
        pin_map.matrix_rows,
        pin_map.matrix_cols,
        a1_corner=s.a1_corner,
        idle_rows="high" if s.idle_rows == "high" else "float",
    )
    return ReedMatrixSource(matrix, period_s=s.period_s, stable_scans=s.stable_scans, origin=origin)


__all__ = [
    "DEFAULT_PINS",
    "HEADER_PINS",
    "MATRIX_KEYS",
    "SINGLE_PINS",
    "MatrixSettings",
    "PinMap",
    "check_pin_map",
    "load_pin_map",
    "matrix_settings_from_config",
    "open_matrix_source",
    "pin_map_from_config",
    "pin_map_from_table",
]
