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


class _Socket:
    """A WebSocket that keeps what was sent to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        import json

        self.sent.append(json.loads(text))


def test_a_board_known_before_its_game_arrives_can_be_subscribed_and_is_fed_later() -> None:
    station = _station(0)
    status = SimpleNamespace(topic="arbiter/hall/4/status", payload=encode({"online": True}))
    station._on_message(None, None, status)
    assert "4" in station.boards and station.boards["4"].replay.game is None
    feeds = LiveChessFeeds(station, wall=lambda: 1_700_000_000.0)

    async def session() -> list[dict[str, Any]]:
        socket = _Socket()
        connection = _Connection(feeds, socket, asyncio.get_running_loop())
        subscribe = {"feed": "eboardevent", "id": 8, "param": {"serialnr": "4"}}
        await connection.answer(f'{{"id": 9, "call": "subscribe", "param": {_json(subscribe)}}}')
        unknown = {"feed": "eboardevent", "id": 3, "param": {"serialnr": "5"}}
        await connection.answer(f'{{"id": 2, "call": "subscribe", "param": {_json(unknown)}}}')
        for seq, event in enumerate(demo_events(seed=31)[:5], start=1):
            message = {"game": "g", "seq": seq, "event": event.to_dict()}
            topic = "arbiter/hall/4/events"
            station._on_message(None, None, SimpleNamespace(topic=topic, payload=encode(message)))
        connection.changed("4")
        sender = asyncio.create_task(connection.send_changes())
        for _ in range(100):
            await asyncio.sleep(0)
            if any(m["response"] == "feed" for m in socket.sent):
                break
        sender.cancel()
        return socket.sent

    sent = asyncio.run(session())
    assert sent[0] == {"response": "call", "id": 9, "param": None, "time": 1_700_000_000_000}
    assert sent[1]["response"] == "error" and sent[1]["id"] == 2  # a board the hall never heard
    feed = [m for m in sent if m["response"] == "feed"]
    assert feed and feed[0]["id"] == 8 and feed[0]["param"]["serialnr"] == "4"


def _json(value: Any) -> str:
    import json

    return json.dumps(value)
