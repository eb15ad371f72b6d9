"""The read side of DGT LiveChess's local API, served from the hall's page, so that tools
written for LiveChess (relays, viewers, trainers) see the hall's boards.

What open clients of LiveChess document (docs/hall.md says what could not be confirmed):

- `GET /api/v1.0/eboards`: the boards (`eboards`).
- A WebSocket at `/api/v1.0`. The client sends calls `{"id": N, "call": NAME, "param": ...}`;
  the server answers `{"response": "call", "id": N, "param": RESULT, "time": MS}` or
  `{"response": "error", "id": N, "param": {"message": TEXT}, "time": MS}`.
  `eboards` answers the list; `subscribe` with `{"feed": "eboardevent", "id": F, "param":
  {"serialnr": S}}` answers `null` for any board the hall knows (an error for one it does not),
  then sends board S's state at once (once its game reached the station) and at every change
  as `{"response": "feed", "id": F, "param": EVENT, "time": MS}` (`eboard_event`).

A board's serial number here is its name in the hall. The station's boards are ruled by
their own games: LiveChess's `setup` and `flip` (a `call` on a feed) are refused.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import chess

from arbiter.hall.station import BoardLink, Station
from arbiter.hall.view import natural

#: the WebSocket's path, beside `/api/v1.0/eboards`
PATH = "/api/v1.0"
#: the one feed served
EBOARD_EVENT = "eboardevent"
#: seconds between two looks at a subscribed board when no step wakes the connection
IDLE_S = 1.0


def _clock(link: BoardLink, wall: Callable[[], float]) -> dict[str, Any] | None:
    """LiveChess's clock: whole seconds left, `run` true while White's clock runs, false while
    Black's does, null when stopped; `time` the wall clock (ms) the values were taken at."""
    clock = link.replay.last_clock
    if clock is None:
        return None
    run = None if clock.paused or clock.running is None else clock.running == "white"
    return {
        "white": round(clock.white),
        "black": round(clock.black),
        "run": run,
        "time": int(wall() * 1000),
    }


def _sensed_fen(link: BoardLink) -> str | None:
    """The board part of a FEN of the pieces as the board senses them (a piece whose colour
    the board cannot tell is shown as the game's piece on that square)."""
    game = link.replay.game
    if game is None:
        return None
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            sq = chess.square(file, rank)
            letter = game.sensed[sq]
            if letter == "?":
                piece = game.board.piece_at(sq)
                letter = piece.symbol() if piece is not None else None
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def eboards(station: Station, wall: Callable[[], float] = time.time) -> list[dict[str, Any]]:
    """The boards as LiveChess's `eboards` lists them."""
    out = []
    with station.lock:
        for name in sorted(station.boards, key=natural):
            link = station.boards[name]
            out.append({
                "serialnr": name,
                "source": "mqtt",
                "state": "ACTIVE" if link.online else "INACTIVE",
                "battery": None,
                "comment": None,
                "board": _sensed_fen(link),
                "flipped": False,
                "clock": _clock(link, wall),
            })  # fmt: skip
    return out


def eboard_event(
    station: Station, name: str, wall: Callable[[], float] = time.time
) -> dict[str, Any] | None:
    """Board `name`'s `eboardevent`: the pieces sensed (`board`), the clock, the position the
    moves start from (`start`, a FEN), the moves as SAN (`san`), and whether the sensed board
    is the game's position (`match`). None if the station holds no game of it."""
    with station.lock:
        link = station.boards.get(name)
        game = link.replay.game if link is not None else None
        if link is None or game is None:
            return None
        root = game.board.root()
        board = root.copy(stack=False)
        san = []
        for move in game.board.move_stack:
            san.append(board.san(move))
            board.push(move)
        return {
            "serialnr": name,
            "flipped": False,
            "board": _sensed_fen(link),
            "clock": _clock(link, wall),
            "start": root.fen(),
            "san": san,
            "match": not game.diff(),
        }


class LiveChessFeeds:
    """The WebSocket side: every open connection, woken by the station's steps.

    `stepped` is a station listener (the station's MQTT thread): it marks the board changed
    for every connection, on that connection's event loop, and never waits on a client.
    """

    def __init__(self, station: Station, wall: Callable[[], float] = time.time) -> None:
        self.station = station
        self.wall = wall
        self._lock = threading.Lock()
        self._connections: list[_Connection] = []
        station.listeners.append(self.stepped)

    def stepped(self, board: str, steps: list[Any]) -> None:
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            try:
                connection.loop.call_soon_threadsafe(connection.changed, board)
            except RuntimeError:  # its server stopped: the connection is gone
                with self._lock:
                    if connection in self._connections:
                        self._connections.remove(connection)

    async def serve(self, websocket: Any) -> None:
        """One client's session (a Starlette `WebSocket`), until it goes."""
        from starlette.websockets import WebSocketDisconnect

        await websocket.accept()
        connection = _Connection(self, websocket, asyncio.get_running_loop())
        with self._lock:
            self._connections.append(connection)
        sender = asyncio.create_task(connection.send_changes())
        try:
            while True:
                text = await websocket.receive_text()
                await connection.answer(text)
        except (WebSocketDisconnect, RuntimeError):
            pass  # the client went (RuntimeError: it went while a message was read)
        finally:
            sender.cancel()
            with self._lock:
                if connection in self._connections:
                    self._connections.remove(connection)


class _Connection:
    """One client: its subscriptions (feed id -> board) and what it was last sent."""

    def __init__(self, feeds: LiveChessFeeds, websocket: Any, loop: Any) -> None:
        self.feeds = feeds
        self.websocket = websocket
        self.loop = loop
        self.feeds_of: dict[Any, str] = {}
        self.last: dict[Any, dict[str, Any]] = {}
        self.dirty: set[str] = set()
        self.wake = asyncio.Event()

    def changed(self, board: str) -> None:
        if board in self.feeds_of.values():
            self.dirty.add(board)
            self.wake.set()

    async def _send(self, response: str, ident: Any, param: Any) -> None:
        message = {"response": response, "id": ident, "param": param}
        await self.websocket.send_text(
            json.dumps({**message, "time": int(self.feeds.wall() * 1000)})
        )

    async def answer(self, text: str) -> None:
        """Answer one call (see the module docstring)."""
        try:
            call = json.loads(text)
        except ValueError:
            await self._send("error", None, {"message": "the message is not JSON"})
            return
        if not isinstance(call, dict):
            await self._send("error", None, {"message": 'a call is {"id", "call", "param"}'})
            return
        ident, name, param = call.get("id"), call.get("call"), call.get("param")
        if name == "eboards":
            await self._send("call", ident, eboards(self.feeds.station, self.feeds.wall))
        elif name == "subscribe":
            await self._subscribe(ident, param)
        elif name == "unsubscribe":
            feed = param.get("id") if isinstance(param, dict) else None
            self.feeds_of.pop(feed, None)
            self.last.pop(feed, None)
            await self._send("call", ident, None)
        elif name == "call":
            await self._send(
                "error",
                ident,
                {"message": "the hall's boards follow their own games: setup and flip are"
                 " not served"},
            )  # fmt: skip
        else:
            await self._send("error", ident, {"message": f"unknown call {name!r}"})

    async def _subscribe(self, ident: Any, param: Any) -> None:
        feed = param.get("feed") if isinstance(param, dict) else None
        inner = param.get("param") if isinstance(param, dict) else None
        serial = inner.get("serialnr") if isinstance(inner, dict) else None
        if feed != EBOARD_EVENT or not isinstance(param, dict) or "id" not in param:
            message = f'only the "{EBOARD_EVENT}" feed is served, with a feed "id"'
            await self._send("error", ident, {"message": message})
            return
        with self.feeds.station.lock:
            known = str(serial) in self.feeds.station.boards
        if not known:
            await self._send("error", ident, {"message": f"no eboard {serial!r} in the hall"})
            return
        self.feeds_of[param["id"]] = str(serial)
        await self._send("call", ident, None)
        # A board the hall knows whose game has not reached the station yet is fed when it does.
        event = eboard_event(self.feeds.station, str(serial), self.feeds.wall)
        if event is not None:
            await self._feed(param["id"], event)

    async def _feed(self, feed: Any, event: dict[str, Any]) -> None:
        self.last[feed] = event
        await self._send("feed", feed, event)

    async def send_changes(self) -> None:
        """Send each subscribed board's event when it changed (a step woke it, or the
        idle look found it changed: an earlier game replaced by a new one)."""
        while True:
            try:
                await asyncio.wait_for(self.wake.wait(), IDLE_S)
            except TimeoutError:
                self.dirty.update(self.feeds_of.values())
            self.wake.clear()
            boards, self.dirty = self.dirty, set()
            for feed, board in list(self.feeds_of.items()):
                if board not in boards:
                    continue
                event = eboard_event(self.feeds.station, board, self.feeds.wall)
                if event is None:
                    continue
                before = self.last.get(feed)
                if before is not None and _same(before, event):
                    continue
                await self._feed(feed, event)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same event but for the clock's `time` stamp."""

    def untimed(event: dict[str, Any]) -> dict[str, Any]:
        clock = event.get("clock")
        if clock is None:
            return event
        return {**event, "clock": {k: v for k, v in clock.items() if k != "time"}}

    return untimed(a) == untimed(b)
