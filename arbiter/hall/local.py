"""Boards attached to the station's own computer (`arbiter hall --board ...`), for a small
club with one computer: each is a full live game (its source, journal, rules core), run on a
thread without a terminal display, and published to the hall's broker like any other board,
so the station treats it the same way.
"""

from __future__ import annotations

from pathlib import Path

from arbiter.clock import MonotonicClock
from arbiter.hall.board import HallBoard
from arbiter.hall.errors import HallError
from arbiter.hall.topics import BrokerAddress, check_board_name
from arbiter.live.config import Settings, merge
from arbiter.live.session import Session
from arbiter.records.journal import JournalWriter
from rules.i18n import N_


def parse_board(spec: str, default_name: str) -> tuple[str, str]:
    """`[NAME=]PROTOCOL:DEVICE` as (name, `PROTOCOL:DEVICE`)."""
    name, sep, device = spec.partition("=")
    if not sep:
        name, device = default_name, spec
    if ":" not in device:
        raise HallError.of(
            N_("--board {spec!r}: write [NAME=]PROTOCOL:DEVICE, e.g. 3=dgt:/dev/ttyACM0"), spec=spec
        )
    return check_board_name(name), device


class LocalBoard(HallBoard):
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

        settings = merge(Settings(), {"board": device, "keyboard": False, **(options or {})}, [])
        clock = MonotonicClock()
        sources, _ = open_sources(settings, clock)
        start = start_of(settings, sources, None)
        journal_path = folder / f"board-{name}.jsonl"
        if journal_path.exists() and journal_path.stat().st_size > 0:
            raise HallError.of(
                N_(
                    "board {name}: its journal {journal} already holds a game; give"
                    " another --journals folder (or `arbiter resume` it)"
                ),
                name=name,
                journal=journal_path,
            )
        session = Session.new(start, JournalWriter(journal_path), clock, sources=sources)
        super().__init__(name, session, address, journal_path)
