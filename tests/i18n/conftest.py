"""What every catalogue test starts from: no language chosen by the environment, and the
program's language (and argparse's words) back to English after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arbiter import i18n
from arbiter.cli.localize import use_language


@pytest.fixture(autouse=True)
def no_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.request(None)
    use_language("en")
