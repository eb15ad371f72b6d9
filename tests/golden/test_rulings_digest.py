"""The golden behaviour test: every ruling of the rules core on a fixed corpus, hashed.

`bench/rulings_digest.py` rules every game of ../shared/data/games under each sensor kind,
the streams of the rules tests (the 58 FIDE scenarios among them) and seeded random streams,
and hashes every ruling as the contract's JSON (message included), the deadlines and the
final state. The digests are committed in `rulings_digest.json`: a change that alters any
ruling fails here. When a ruling changes on purpose, make the file anew
(`python bench/rulings_digest.py --write tests/golden/rulings_digest.json`) and say in the
commit message, ruling by ruling, why.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("rulings_digest.json")


def _bench() -> ModuleType:
    path = ROOT / "bench" / "rulings_digest.py"
    spec = importlib.util.spec_from_file_location("rulings_digest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_file_has_every_part() -> None:
    assert list(golden()) == list(BENCH.GOLDEN_PARTS)


@pytest.mark.slow
@pytest.mark.golden
@pytest.mark.parametrize("name", BENCH.GOLDEN_PARTS)
def test_the_rulings_are_those_of_the_golden_digest(shared: Path, name: str) -> None:
    got = BENCH.summary(BENCH.part(name))
    want = golden()[name]
    assert got["errors"] == 0 or got["errors"] == want["errors"], got
    assert got == want, (
        f"the rulings of part {name!r} changed: {want} -> {got}. If on purpose, write the file"
        " anew (bench/rulings_digest.py --write) and explain each changed ruling in the commit"
    )
