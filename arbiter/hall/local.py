"""Boards attached to the station's own computer (`arbiter hall --board ...`), for a small
club with one computer: each is a full live game (its source, journal, rules core), run on a
thread without a terminal display, and published to the hall's broker like any other board,
so the station treats it the same way.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from arbiter.clock import MonotonicClock
from arbiter.hall.errors import HallError
from arbiter.hall.publisher import BoardPublisher
from arbiter.hall.topics import BrokerAddress, check_board_name
from arbiter.live.config import Settings, merge
from arbiter.live.session import Session
from arbiter.records.journal import JournalWriter


def parse_board(spec: str, default_name: str) -> tuple[str, str]:
    """`[NAME=]PROTOCOL:DEVICE` as (name, `PROTOCOL:DEVICE`)."""
    name, sep, device = spec.partition("=")
    if not sep:
        name, device = default_name, spec
    if ":" not in device:
        raise HallError(f"--board {spec!r}: write [NAME=]PROTOCOL:DEVICE, e.g. 3=dgt:/dev/ttyACM0")
    return check_board_name(name), device


class LocalBoard:
    """One attached board's game (see the module docstring)."""

    def __init__(
        self,
        name: str,
        device: str,
        address: BrokerAddress,
        folder: Path,
        options: dict[str, object] | None = None,
    ) -> None:
        from arbiter.live.setup import open_sources, start_of

        self.name = name
        settings = merge(Settings(), {"board": device, "keyboard": False, **(options or {})}, [])
        clock = MonotonicClock()
        sources, _ = open_sources(settings, clock)
        start = start_of(settings, sources, None)
        self.journal_path = folder / f"board-{name}.jsonl"
        if self.journal_path.exists() and self.journal_path.stat().st_size > 0:
            raise HallError(
                f"board {name}: its journal {self.journal_path} already holds a game; give"
                " another --journals folder (or `arbiter resume` it)"
            )
        self.session = Session.new(start, JournalWriter(self.journal_path), clock, sources=sources)
        self.publisher = BoardPublisher(
            self.session, dataclasses.replace(address, board=name), journal_path=self.journal_path
        )
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> LocalBoard:
        self.publisher.start()
        self._thread = threading.Thread(target=self._run, name=f"board-{self.name}", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.session.run()
        except BaseException as exc:  # told by the station's command, not lost on a thread
            self.error = exc

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, linger_s: float = 0.0) -> bool:
        """Stop the game (its journal stays resumable) and its publisher."""
        self.session.stop()
        if self._thread is not None:
            self._thread.join(5)
        return self.publisher.close(linger_s if self.session.game.over else 0.0)
