"""The hall's tests: a real Mosquitto per test that needs one (tests/hall/brokers.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hall.brokers import Mosquitto, mosquitto_path


def need_mosquitto() -> None:
    """Fail under CI (`.ci/run` installs mosquitto), skip with the reason elsewhere."""
    if mosquitto_path() is not None:
        return
    reason = "mosquitto is not installed (apt-get install -y mosquitto; .ci/run does it)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    need_mosquitto()
    b = Mosquitto(tmp_path).start()
    try:
        yield b
    finally:
        b.stop()
