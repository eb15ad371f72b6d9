"""The wiring pages and drawings say what the code does: default pins, header positions."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware_bridge.gpio.base import BCM_RANGE
from firmware_bridge.gpio.pins import DEFAULT_PINS, HEADER_PINS, SINGLE_PINS

DOCS = Path(__file__).resolve().parents[2] / "hardware_docs"


def test_header_map_covers_every_header_gpio_once() -> None:
    assert sorted(HEADER_PINS) == list(BCM_RANGE)
    assert len(set(HEADER_PINS.values())) == len(HEADER_PINS)
    assert all(1 <= p <= 40 for p in HEADER_PINS.values())


def test_wiring_table_matches_the_default_pins() -> None:
    text = (DOCS / "wiring.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| [^|]+ \| `(\w+)` \| GPIO (\d+) \| (\d+) \|", text, re.M)
    table = {key: (int(bcm), int(header)) for key, bcm, header in rows}
    assert set(table) == set(SINGLE_PINS)
    for key, (bcm, header) in table.items():
        assert getattr(DEFAULT_PINS, key) == bcm, key
        assert HEADER_PINS[bcm] == header, key
    for key in ("matrix_rows", "matrix_cols"):
        match = re.search(rf"`{key}` \| ([\d ]+) \| ([\d ]+) \|", text)
        assert match, key
        bcms = tuple(int(n) for n in match.group(1).split())
        headers = [int(n) for n in match.group(2).split()]
        assert bcms == getattr(DEFAULT_PINS, key)
        assert headers == [HEADER_PINS[n] for n in bcms]


ROW = r"\| row (\d) \| (\d) \| (\d+) \((\d+)\) \| "
COL = r"\| col (\d) \| ([a-h]) \| (\d+) \((\d+)\) \|"


def test_reed_matrix_table_matches_the_default_pins() -> None:
    text = (DOCS / "reed-matrix.md").read_text(encoding="utf-8")
    rows = re.findall("^" + ROW + COL, text, re.M)
    assert len(rows) == 8
    for r, rank, rbcm, rhead, c, file, cbcm, chead in rows:
        assert int(rank) == int(r) + 1 and "abcdefgh".index(file) == int(c)
        assert DEFAULT_PINS.matrix_rows[int(r)] == int(rbcm)
        assert HEADER_PINS[int(rbcm)] == int(rhead)
        assert DEFAULT_PINS.matrix_cols[int(c)] == int(cbcm)
        assert HEADER_PINS[int(cbcm)] == int(chead)


def _svg_text(name: str) -> str:
    root = ET.parse(DOCS / name).getroot()  # well-formed XML, or this raises
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return " ".join("".join(el.itertext()) for el in root.iter("{http://www.w3.org/2000/svg}text"))


def test_wiring_drawing_labels_each_pin_where_the_code_puts_it() -> None:
    svg = (DOCS / "wiring.svg").read_text(encoding="utf-8")
    labels = _svg_text("wiring.svg")
    for key in SINGLE_PINS:
        bcm = getattr(DEFAULT_PINS, key)
        assert f"GPIO {bcm} · {key}" in labels, key
        # the pin's number is drawn in the header at the physical position of that GPIO
        assert re.search(rf">{HEADER_PINS[bcm]}</text>", svg), key
    for i, bcm in enumerate(DEFAULT_PINS.matrix_rows):
        assert f"GPIO {bcm} · row {i} (rank {i + 1})" in labels
    for i, bcm in enumerate(DEFAULT_PINS.matrix_cols):
        assert f"GPIO {bcm} · col {i} (file {'abcdefgh'[i]})" in labels


@pytest.mark.parametrize("name", ["wiring.svg", "reed-matrix.svg"])
def test_drawings_are_svg(name: str) -> None:
    assert _svg_text(name)


def test_reed_drawing_names_each_line() -> None:
    labels = _svg_text("reed-matrix.svg")
    for bcm in DEFAULT_PINS.matrix_rows + DEFAULT_PINS.matrix_cols:
        assert f"GPIO {bcm}" in labels
        assert f"pin {HEADER_PINS[bcm]}" in labels


def test_service_unit_runs_the_documented_command() -> None:
    unit = (DOCS / "arbiter.service").read_text(encoding="utf-8")
    assert re.search(
        r"^ExecStart=\S+/arbiter play --gpio rpi --journal /var/lib/otb-arbiter/current.jsonl "
        r"--config /etc/otb-arbiter/config.toml$",
        unit,
        re.M,
    )
    assert re.search(r"^Restart=on-failure$", unit, re.M)
    assert re.search(r"^WantedBy=multi-user.target$", unit, re.M)
