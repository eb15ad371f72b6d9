"""The LiveChess API's values without a broker or a server: a station fed by hand."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import chess

from arbiter.demo.game import demo_events
from arbiter.hall.livechess import LiveChessFeeds, _Connection, eboard_event, eboards
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress, encode


def _station(upto: int) -> Station:
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = SimpleNamespace(publish=lambda *a, **k: None)
    for seq, event in enumerate(demo_events(seed=31)[:upto], start=1):
        message = {"game": "g", "seq": seq, "event": event.to_dict()}
        station._on_message(
            None, None, SimpleNamespace(topic="arbiter/hall/4/events", payload=encode(message))
        )
    return station


def test_a_board_s_event_is_its_game_so_far() -> None:
    station = _station(60)
    game = station.boards["4"].replay.game
    assert game is not None
    event = eboard_event(station, "4", wall=lambda: 1_700_000_000.0)
    assert event is not None
    assert event["serialnr"] == "4" and event["start"] == chess.STARTING_FEN
    position = chess.Board()
    for san in event["san"]:
        position.push_san(san)
    assert position.fen() == game.board.fen() and len(event["san"]) == game.ply
    if event["match"]:
        assert event["board"] == game.board.board_fen()
    clock = event["clock"]
    assert clock["time"] == 1_700_000_000_000
    running = station.boards["4"].replay.last_clock
    assert running is not None
    assert clock["run"] == (None if running.paused or running.running is None
                            else running.running == "white")  # fmt: skip
    assert eboard_event(station, "9") is None
    (listed,) = eboards(station)
    assert listed["serialnr"] == "4" and listed["board"] == event["board"]


def test_a_connection_whose_server_stopped_is_dropped_not_raised_into_the_station() -> None:
    feeds = LiveChessFeeds(_station(3))
    loop = asyncio.new_event_loop()
    loop.close()
    gone: Any = _Connection(feeds, websocket=None, loop=loop)
    feeds._connections.append(gone)
    feeds.stepped("4", [])
    assert feeds._connections == []
