"""Debian's Chromium driven by Playwright, for the page's browser tests (a live game to
show in it: `web_game.py`).

The browser is the system's (`/usr/bin/chromium`, installed by `.ci/run`); nothing downloads
one. Without it the browser tests skip with the reason, except in CI (`CI` set), where they
fail. One browser per test module (it takes a second or two to start on this machine).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the browser tests: .ci/run installs chromium)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A fresh Chromium context (its own user-data-dir), closed after the module."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the Python package playwright is missing (pip install -e '.[dev]')")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 860},
        )  # fmt: skip
        try:
            yield context
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)
