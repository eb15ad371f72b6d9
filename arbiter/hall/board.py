"""A board's game run on a thread of the station's process and published to the hall like any
other board: the one way `--demo` (scripted games, `arbiter.hall.demo`) and `--board`
(boards attached to this computer, `arbiter.hall.local`) start, run and stop their boards.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

from arbiter.hall.publisher import HEARTBEAT_S, BoardPublisher
from arbiter.hall.topics import BrokerAddress


class HallBoard:
    """One board's `Session` on its own thread, with its publisher.

    Args:
        name: the board's name in the hall (its topic level).
        session: the board's session, already journaling to `journal_path`.
        address: the broker.
        journal_path: the session's journal (it names the game in the hall).
        heartbeat_s, keepalive: the publisher's sign of life and MQTT keep-alive.
    """

    def __init__(
        self,
        name: str,
        session: Any,
        address: BrokerAddress,
        journal_path: Path,
        *,
        heartbeat_s: float = HEARTBEAT_S,
        keepalive: int = 15,
    ) -> None:
        self.name = name
        self.session = session
        self.journal_path = journal_path
        self.publisher = BoardPublisher(
            session,
            dataclasses.replace(address, board=name),
            journal_path=journal_path,
            heartbeat_s=heartbeat_s,
            keepalive=keepalive,
        )
        #: what ended the game's thread, kept for the caller: a board must not die silently
        self.error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> HallBoard:
        """Start playing (and publishing, if `publisher.start` was not called yet)."""
        if not self.publisher.started:
            self.publisher.start()
        self._thread = threading.Thread(target=self._run, name=f"board-{self.name}", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.session.run()
        except BaseException as exc:  # told by the station's command, not lost in a thread
            self.error = exc

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self, linger_s: float = 0.0) -> bool:
        """Stop the game (if it goes on: its journal stays resumable) and the publisher,
        which first waits up to `linger_s` for the station to confirm a finished game (see
        `BoardPublisher.close`). True if the station confirmed it."""
        self.session.stop()
        self.join(5)
        return self.publisher.close(linger_s if self.session.game.over else 0.0)

    def pgn(self) -> str:
        """The board's own record (what `arbiter play --pgn` writes), dated `????.??.??`."""
        from arbiter.records.pgn import pgn_from_rulings

        return pgn_from_rulings(self.session.game.start, self.session.rulings)
