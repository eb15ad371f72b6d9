"""Simulated boards of a hall: each a real `Session` (journal, rules, publisher) fed by a
scripted stream (a game as a board would report it, `arbiter.simulate`), on a sped-up clock.

`arbiter hall --demo N` plays N of them against its embedded broker; the tests and the
benches play them against a real Mosquitto.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from arbiter.clock import MonotonicClock
from arbiter.hall.board import HallBoard
from arbiter.hall.publisher import HEARTBEAT_S
from arbiter.hall.topics import BrokerAddress
from arbiter.inputs.stream import StreamSource
from arbiter.live.session import Session
from arbiter.records.journal import JournalWriter
from rules.events import Event, Start


class SimulatedBoard(HallBoard):
    """One board of the hall: a scripted game played by a `Session` on its own thread.

    Args:
        name: the board's name in the hall (its topic level).
        events: the game's stream (`start` first).
        address: the broker.
        folder: where its journal goes (`board-NAME.jsonl`).
        speed: how much faster than real time it plays.
        fsync: whether the journal is fsynced per event (a demo on a laptop need not).
    """

    def __init__(
        self,
        name: str,
        events: Sequence[Event],
        address: BrokerAddress,
        folder: Path,
        *,
        speed: float = 1.0,
        fsync: bool = True,
        heartbeat_s: float = HEARTBEAT_S,
        keepalive: int = 15,
    ) -> None:
        start = events[0]
        if not isinstance(start, Start):
            raise ValueError("a board's stream begins with 'start'")
        journal_path = folder / f"board-{name}.jsonl"
        self.clock = MonotonicClock(speed=speed)
        session = Session.new(
            start,
            JournalWriter(journal_path, fsync=fsync),
            self.clock,
            sources=[StreamSource(list(events[1:]), name=f"events:hall-{name}")],
        )
        super().__init__(
            name, session, address, journal_path, heartbeat_s=heartbeat_s, keepalive=keepalive
        )


def demo_streams(count: int) -> list[list[Event]]:
    """`count` games for a demo hall: the bundled game with a different seed each (its
    timing, hands and incidents differ), with names for the pairings."""
    from arbiter.demo.game import demo_events

    streams: list[list[Event]] = []
    for n in range(count):
        events = demo_events(seed=100 + n)
        start = events[0]
        assert isinstance(start, Start)
        named = dataclasses.replace(
            start,
            white=f"White {n + 1}",
            black=f"Black {n + 1}",
            event="Demo hall",
            round="1",
            sources=None,
        )
        streams.append([named, *events[1:]])
    return streams


def start_all(boards: Sequence[SimulatedBoard], connect_s: float = 2.0) -> None:
    """Start the boards one after another, each given up to `connect_s` to connect first
    (as a hall's boards are switched on; amqtt 0.12 can fail connections that come at
    once, and a board that failed reconnects anyway)."""
    for board in boards:
        board.publisher.start()
        board.publisher.connected.wait(connect_s)
    for board in boards:
        board.start()
