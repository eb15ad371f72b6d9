"""The golden behaviour test: every ruling of the rules core on a fixed corpus, hashed.

`bench/rulings_digest.py` rules every game of ../shared/data/games under each sensor kind,
the streams of the rules tests (the 58 FIDE scenarios among them) and seeded random streams,
and hashes every ruling as the contract's JSON (message included), the deadlines and the
final state. A sensor kind's games are simulated and ruled once per test session, for this
test and the game-score test of tests/arbiter/test_simulate.py, and kept in pytest's cache for
a later run of the same code and data (`tests/corpus_pass.py` says how the key is made).
The digests are committed in `rulings_digest.json`: a change that alters any ruling fails
here. When a ruling changes on purpose, make the file anew
(`python bench/rulings_digest.py --write tests/golden/rulings_digest.json`) and say in the
commit message, ruling by ruling, why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus_pass import corpus_pass, digest_bench, per_sensor

GOLDEN = Path(__file__).with_name("rulings_digest.json")
BENCH = digest_bench()


def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_file_has_every_part() -> None:
    assert list(golden()) == list(BENCH.GOLDEN_PARTS)


@pytest.mark.slow
@pytest.mark.golden
@pytest.mark.parametrize("name", per_sensor(BENCH.GOLDEN_PARTS))
def test_the_rulings_are_those_of_the_golden_digest(
    shared: Path, name: str, pytestconfig: pytest.Config
) -> None:
    # a sensor kind's pass over the corpus is shared with the game-score test, and kept for
    # later runs of the same code and data (corpus_pass)
    if name in BENCH.SENSORS:
        got = corpus_pass(name, getattr(pytestconfig, "cache", None)).summary
    else:
        got = BENCH.summary(BENCH.part(name))
    want = golden()[name]
    assert got["errors"] == 0 or got["errors"] == want["errors"], got
    assert got == want, (
        f"the rulings of part {name!r} changed: {want} -> {got}. If on purpose, write the file"
        " anew (bench/rulings_digest.py --write) and explain each changed ruling in the commit"
    )
