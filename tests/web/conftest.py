"""A live game served on a free port, and Debian's Chromium driven by Playwright.

The browser is the system's (`/usr/bin/chromium`, installed by `.ci/run`); nothing downloads
one. Without it the browser tests skip with the reason, except in CI (`CI` set), where they
fail. One browser per test module (it takes a second or two to start on this machine).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arbiter.clock import MonotonicClock
from arbiter.live.session import Session
from arbiter.web.live import LivePage, start_page
from rules.events import Event, Start

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TOKEN = "test-token-1234"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "out" / "screenshots"


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


@dataclass
class LiveGame:
    """A live session on its thread, its page served; `play` feeds it events as a board
    source would (stamped with the session's clock)."""

    session: Session
    page: LivePage
    journal: Path
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.page.url

    def put(self, make: Any, **fields: Any) -> Event:
        event: Event = make(t=self.session.clock.now(), **fields)
        self.session.queue.put(event)
        return event

    def settle(self, timeout: float = 5.0) -> None:
        """Wait until the session took every event given so far."""
        end = time.monotonic() + timeout
        while not self.session.queue.empty() and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.05)

    def journal_lines(self) -> list[str]:
        return self.journal.read_text(encoding="utf-8").splitlines()


def live_game(tmp: Path, start: Start) -> Iterator[LiveGame]:
    journal = tmp / "game.jsonl"
    session = Session.new(start, journal, MonotonicClock())
    page = start_page(session, "127.0.0.1:0", token=TOKEN, journal=journal)
    thread = threading.Thread(target=session.run, name="session", daemon=True)
    thread.start()
    try:
        yield LiveGame(session, page, journal, thread)
    finally:
        session.stop()
        thread.join(5)
        page.stop()
