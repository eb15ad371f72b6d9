"""The LiveChess WebSocket feed of the hall's page: a client lists the eboards, subscribes to
one board's `eboardevent` feed and follows its game live to the end (a demo board through a
real Mosquitto), as a tool written for DGT LiveChess would."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import chess
from websockets.sync.client import connect

from arbiter.hall.demo import SimulatedBoard, demo_streams
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress
from arbiter.hall.web import HallPage
from tests.hall.brokers import Mosquitto

#: the demo game (231 s of play) lasts about 4.6 s
SPEED = 50.0


def _call(ws: Any, ident: int, name: str, param: Any = None) -> dict[str, Any]:
    ws.send(json.dumps({"id": ident, "call": name, "param": param}))
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["response"] in ("call", "error") and message["id"] == ident:
            return message  # type: ignore[no-any-return]


def test_a_livechess_client_follows_a_live_board(broker: Mosquitto, tmp_path: Path) -> None:
    address = BrokerAddress("127.0.0.1", broker.port)
    station = Station(address).start()
    page = HallPage(station).start("127.0.0.1", 0)
    (events,) = demo_streams(1)
    board = SimulatedBoard("7", events, address, tmp_path, speed=SPEED, fsync=False)
    url = page.url.replace("http://", "ws://").rstrip("/") + "/api/v1.0"
    try:
        assert station.connected.wait(10)
        board.publisher.start()
        deadline = time.monotonic() + 10
        while "7" not in station.boards and time.monotonic() < deadline:
            time.sleep(0.02)  # the board's first state reaches the station
        board.start()
        feeds: list[dict[str, Any]] = []
        with connect(url) as ws:
            listed = _call(ws, 1, "eboards")
            assert [b["serialnr"] for b in listed["param"]] == ["7"]
            assert _call(ws, 2, "subscribe", {"feed": "nothing", "id": 3})["response"] == "error"
            unknown = {"feed": "eboardevent", "id": 4, "param": {"serialnr": "99"}}
            assert _call(ws, 5, "subscribe", unknown)["response"] == "error"
            setup = {"id": 6, "method": "setup", "param": {"fen": chess.STARTING_FEN}}
            assert _call(ws, 7, "call", setup)["response"] == "error"  # boards follow games
            subscribe = {"feed": "eboardevent", "id": 8, "param": {"serialnr": "7"}}
            assert _call(ws, 9, "subscribe", subscribe) == {
                "response": "call", "id": 9, "param": None, "time": AnyTime()
            }  # fmt: skip
            end = time.monotonic() + 30
            while time.monotonic() < end:
                message = json.loads(ws.recv(timeout=10))
                assert message["response"] == "feed" and message["id"] == 8
                feeds.append(message["param"])
                if station.boards["7"].replay.over and station.synced("7"):
                    last = feeds[-1]["san"]
                    if len(last) == board.session.game.ply:
                        break
        assert not board.running or board.join(10) is None
        final = board.session.game
        played = list(final.board.move_stack)
        sans = chess.Board().variation_san(played)
        assert len(feeds) >= 10  # it followed the game move by move, not only its end
        growing = [len(f["san"]) for f in feeds]
        assert growing == sorted(growing) and growing[-1] == len(played)
        replayed = chess.Board()
        for san in feeds[-1]["san"]:
            replayed.push_san(san)
        assert chess.Board().variation_san(replayed.move_stack) == sans
        for feed in feeds:
            assert feed["serialnr"] == "7" and feed["start"] == chess.STARTING_FEN
            position = chess.Board()
            for san in feed["san"]:
                position.push_san(san)
            if feed["match"]:  # the pieces sensed are the game's position
                assert feed["board"] == position.board_fen()
            clock = feed["clock"]
            assert clock is None or (
                clock["run"] in (True, False, None) and clock["white"] >= 0 <= clock["black"]
            )
    finally:
        board.stop()
        page.stop()
        station.close()


class AnyTime:
    """Equal to any wall-clock stamp in milliseconds."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int) and other > 1_600_000_000_000
