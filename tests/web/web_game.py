"""A live game on its own thread with its page served on a free port, for the browser
tests; its events are given as a board source gives them."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbiter.clock import MonotonicClock
from arbiter.live.session import Session
from arbiter.web.live import LivePage, start_page
from rules.events import Event, Start

TOKEN = "test-token-1234"
ROOT = Path(__file__).resolve().parents[2]
#: the screenshots of the three views (gitignored), looked at by hand
SCREENSHOTS = ROOT / "out" / "screenshots"


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


def live_game(
    tmp: Path, start: Start, *, display: Any = None, token: str | None = TOKEN
) -> Iterator[LiveGame]:
    """A live game on its thread with its page served (`display`: the session's, e.g. one
    in another language; `token`: None for a read-only page)."""
    journal = tmp / "game.jsonl"
    session = Session.new(start, journal, MonotonicClock(), display=display)
    page = start_page(session, "127.0.0.1:0", token=token, journal=journal)
    thread = threading.Thread(target=session.run, name="session", daemon=True)
    thread.start()
    try:
        yield LiveGame(session, page, journal, thread)
    finally:
        session.stop()
        thread.join(5)
        page.stop()
