"""The arbiter's station: every board of the hall, its game, its alarms, its controls.

It subscribes to the hall's tree (`arbiter.hall.topics`), keeps each board's game by
replaying the board's events through the rules core (`arbiter.hall.replay`), asks a board
for what it missed (a gap in `seq`, or a `state` ahead of what the station holds: after the
broker or the network was away), raises alarms (`arbiter.hall.alarms`), and sends arbiter
actions to a board (`send`), which journals them and acknowledges them.

The station's own clocks are injected (`mono` for silence and retries, `wall` for latency
figures); `tick(now)` does what time decides, and a thread calls it twice a second.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from arbiter.hall import alarms as said
from arbiter.hall import mqtt
from arbiter.hall.alarms import Alarm, Wording, ruling_alarms
from arbiter.hall.replay import BoardReplay, Step
from arbiter.hall.topics import BrokerAddress, decode, encode, split_topic, topic, whole
from rules.events import Start

#: seconds (monotonic) without any message from a board whose game goes on: it is silent
SILENT_S = 45.0
#: seconds before a gap already asked for is asked for again, if no answer came meanwhile
RETRY_S = 2.0
#: the longest wait between two requests for a gap that gets no answer (the wait doubles)
RETRY_MAX_S = 30.0
#: seconds between two runs of `tick` by the station's thread
TICK_S = 0.5

Listener = Callable[[str, list[Step]], None]


@dataclasses.dataclass
class BoardLink:
    """What the station knows of one board: its current game, earlier games, its link."""

    name: str
    replay: BoardReplay
    earlier: list[BoardReplay] = dataclasses.field(default_factory=list)
    online: bool | None = None
    last_heard: float = 0.0
    asked_at: float | None = None
    #: when an event filling the current game's gap last arrived (a resent one, or one the
    #: board's client kept while the broker was away): an answer is flowing
    answered_at: float | None = None
    #: seconds to wait, after the last request or answer, before asking again
    retry_wait: float = RETRY_S
    silent: bool = False
    have_sent: int = 0
    told_broken: bool = False
    told_twice: bool = False


class Station:
    """The hall's station (see the module docstring).

    Args:
        address: the broker (`address.prefix` is the hall's topic prefix).
        silent_s: seconds without a message after which a board is silent.
        retry_s: seconds before a gap is asked for again when no answer came; the wait
            doubles at each request left unanswered, up to `retry_max_s`.
        mono, wall: the monotonic and the wall clock (injected in tests).
    """

    def __init__(
        self,
        address: BrokerAddress,
        *,
        silent_s: float = SILENT_S,
        retry_s: float = RETRY_S,
        retry_max_s: float = RETRY_MAX_S,
        tick_s: float = TICK_S,
        mono: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        keepalive: int = mqtt.KEEPALIVE_S,
    ) -> None:
        self.address = address
        self.prefix = address.prefix
        self.silent_s = silent_s
        self.retry_s = retry_s
        self.retry_max_s = max(retry_s, retry_max_s)
        self.tick_s = tick_s
        self.mono = mono
        self.wall = wall
        self.boards: dict[str, BoardLink] = {}
        self.alarms: list[Alarm] = []
        self.acks: dict[str, dict[str, Any]] = {}
        #: seconds from a board's publication of a live event to its replay here
        self.latencies: collections.deque[float] = collections.deque(maxlen=200_000)
        self.listeners: list[Listener] = []
        #: how many times the station asked a board to resend a gap
        self.asked = 0
        self.lock = threading.RLock()
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()
        self.keepalive = keepalive
        self.client = mqtt.make_client("station", address)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # ------------------------------------------------------------------ life

    def start(self) -> Station:
        """Connect in the background; the thread that runs `tick`."""
        mqtt.start(self.client, self.address, self.keepalive)
        self._thread = threading.Thread(target=self._ticking, name="hall-station", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        mqtt.stop(self.client)
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _ticking(self) -> None:
        while not self._stop.wait(self.tick_s):
            self.tick(self.mono())

    # ------------------------------------------------------------------ what it shows

    def pgn(self, board: str, **kw: Any) -> str:
        """The PGN of the board's current game, as the board's own `pgn_from_rulings`."""
        from arbiter.records.pgn import pgn_from_rulings

        with self.lock:
            replay = self.boards[board].replay
            start = replay.start
            if start is None:
                raise KeyError(board)
            return pgn_from_rulings(start, list(replay.rulings), **kw)

    def synced(self, board: str) -> bool:
        """Does the station hold every event the board said it has?"""
        with self.lock:
            link = self.boards.get(board)
            return link is not None and link.replay.complete and link.replay.start is not None

    def clear(self, ident: int) -> None:
        """The arbiter dealt with alarm `ident`."""
        with self.lock:
            self.alarms = [a for a in self.alarms if a.ident != ident]

    def send(self, board: str, action: dict[str, Any]) -> str:
        """Send an arbiter action (events.md `arbiter` fields, without `t`) to `board`; its
        id, under which `acks` gets the board's answer ({"seq"} or {"error"})."""
        ident = uuid.uuid4().hex[:16]
        with self.lock:
            self.acks[ident] = {"board": board, "pending": True}
        self.client.publish(
            topic(self.prefix, board, "control"), encode({"id": ident, "action": action}), qos=1
        )
        return ident

    # ------------------------------------------------------------------ time

    def tick(self, now: float) -> None:
        """Ask again for gaps asked for long ago; mark boards silent."""
        with self.lock:
            for link in self.boards.values():
                gap = link.replay.missing()
                if gap is not None and self._may_ask(link, now):
                    self._ask(link, gap, now)
                quiet = now - link.last_heard >= self.silent_s
                if quiet and not link.silent and not link.replay.over and link.online is not False:
                    link.silent = True
                    self._raise(
                        link.name, "silent", Wording(said.SILENT, {"seconds": self.silent_s})
                    )
                elif not quiet:
                    link.silent = False

    # ------------------------------------------------------------------ the broker

    def _on_connect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if getattr(reason, "is_failure", False):
            return
        p = self.prefix
        client.subscribe(
            [(f"{p}/+/events", 1), (f"{p}/+/state", 1), (f"{p}/+/status", 1), (f"{p}/+/ack", 1)]
        )
        with self.lock:  # requests and answers in flight were lost with the connection
            for link in self.boards.values():
                self._forget_requests(link)
        self.connected.set()

    def _on_disconnect(self, *args: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        where = split_topic(self.prefix, msg.topic)
        data = decode(msg.payload)
        if where is None or data is None:
            return
        board, kind = where
        arrived = self.wall()
        with self.lock:
            if kind == "ack":
                self._ack(data)
                return
            link = self.boards.get(board)
            now = self.mono()
            if link is None:
                link = self.boards[board] = BoardLink(
                    board, BoardReplay(board, ""), last_heard=now, retry_wait=self.retry_s
                )
            link.last_heard = now
            link.silent = False
            if kind == "status":
                self._status(link, data)
            elif kind == "state":
                self._state(link, data, now)
            elif kind == "events":
                self._event(link, data, arrived, now)

    def _status(self, link: BoardLink, data: dict[str, Any]) -> None:
        online = data.get("online") is True
        if link.online and not online and not link.replay.over:
            self._raise(link.name, "disconnected", Wording(said.DROPPED))
        link.online = online

    def _replay_for(self, link: BoardLink, game: object, live: bool = False) -> BoardReplay | None:
        """The replay of the game `game` names: the current one, an earlier one (its late
        events still complete it), or a new one. `live`: the message is a live event, not
        a resent one or a `state`."""
        if not isinstance(game, str) or not game:
            return None
        if link.replay.game_key == game:
            return link.replay
        earlier = next((r for r in link.earlier if r.game_key == game), None)
        if earlier is not None:
            if live and not earlier.over and not link.told_twice:
                # an earlier game, not finished, is played on: two boards share the name
                link.told_twice = True
                self._raise(link.name, "mismatch", Wording(said.TWO_GAMES))
            return earlier
        if link.replay.game_key:
            link.earlier.append(link.replay)
        link.replay = BoardReplay(link.name, game)
        self._forget_requests(link)
        link.have_sent = 0
        link.told_broken = False
        return link.replay

    def _state(self, link: BoardLink, data: dict[str, Any], now: float) -> None:
        replay = self._replay_for(link, data.get("game"))
        seq = whole(data.get("seq"))
        if replay is None or seq is None:
            return
        replay.known_last = max(replay.known_last, seq)
        if data.get("hello") is True and replay is link.replay:
            # the board has just (re)connected: what was asked of it, or on its way from
            # it, may have been lost with its connection or with the broker
            self._forget_requests(link)
        gap = replay.missing()
        if gap is not None and (replay is not link.replay or self._may_ask(link, now)):
            self._ask(link, gap, now, replay)
        self._confirm(link, again=True, replay=replay)  # it may have missed an earlier `have`

    def _event(self, link: BoardLink, data: dict[str, Any], arrived: float, now: float) -> None:
        replay = self._replay_for(link, data.get("game"), live=not data.get("resent"))
        seq, event = whole(data.get("seq")), data.get("event")
        if replay is None or seq is None or seq < 1 or not isinstance(event, dict):
            return
        board_rulings = data.get("rulings")
        # an event the board said it holds, new here: it fills a gap (what the board's
        # client kept while the broker was away, or an answer)
        fills = seq <= replay.known_last and seq >= replay.next_seq and seq not in replay.pending
        steps = replay.offer(seq, event, board_rulings if isinstance(board_rulings, list) else None)
        if replay is link.replay and (data.get("resent") or fills):
            # the gap is being filled: asking again now would only repeat the answer
            link.answered_at = now
            link.retry_wait = self.retry_s
        sent = data.get("wall")
        if steps and isinstance(sent, int | float) and not data.get("resent"):
            self.latencies.append(arrived - float(sent))
        if replay.broken is not None and not link.told_broken:
            link.told_broken = True  # once: every later event of the game stops there too
            self._raise(
                link.name, "mismatch", Wording(said.CANNOT_FOLLOW, {"reason": replay.broken})
            )
        gap = replay.missing()
        if gap is not None and (replay is not link.replay or self._may_ask(link, now)):
            self._ask(link, gap, now, replay)
        if steps:
            self._ruled(link, steps)
            self._confirm(link, replay=replay)

    def _ruled(self, link: BoardLink, steps: list[Step]) -> None:
        for step in steps:
            if isinstance(step.event, Start):
                continue
            for kind, wording, t in ruling_alarms(step.rulings, step.handled):
                self._raise(link.name, kind, wording, t)
            if step.agrees is False:
                self._raise(link.name, "mismatch", Wording(said.DIFFER, {"seq": step.seq}))
        for listener in self.listeners:
            listener(link.name, steps)

    def _confirm(
        self, link: BoardLink, *, again: bool = False, replay: BoardReplay | None = None
    ) -> None:
        """Tell a board whose game is over that the station holds all of it (it may stop);
        `again`: even if it was told so before (it asks by sending its `state`)."""
        replay = replay or link.replay
        if replay is not link.replay:
            again = True  # an earlier game: its board is told whenever it asks
        if replay.over and replay.complete and (again or link.have_sent < replay.known_last):
            if replay is link.replay:
                link.have_sent = replay.known_last
            self.client.publish(
                topic(self.prefix, link.name, "have"),
                encode({"game": replay.game_key, "seq": replay.known_last}),
                qos=1,
            )

    def _may_ask(self, link: BoardLink, now: float) -> bool:
        """May the station ask the board for its current game's gap now?

        Not while an answer to the last request is still arriving: a board answers a request
        of hundreds of events at its link's pace, and a request repeated before the answer is
        through queues the same events again ahead of its live ones (after a broker restart
        this delayed a finished board's last `state` past its wait for the station's `have`).
        """
        if link.asked_at is None:
            return True
        since = max(link.asked_at, link.answered_at or link.asked_at)
        return now - since >= link.retry_wait

    def _forget_requests(self, link: BoardLink) -> None:
        link.asked_at = None
        link.answered_at = None
        link.retry_wait = self.retry_s

    def _ask(
        self, link: BoardLink, gap: tuple[int, int], now: float, replay: BoardReplay | None = None
    ) -> None:
        if replay is None or replay is link.replay:
            if link.asked_at is not None and (
                link.answered_at is None or link.answered_at < link.asked_at
            ):  # the last request got no answer: the board or its link is slow, or away
                link.retry_wait = min(link.retry_wait * 2, self.retry_max_s)
            link.asked_at = now
        self.asked += 1
        game = (replay or link.replay).game_key
        self.client.publish(
            topic(self.prefix, link.name, "resend"),
            encode({"game": game, "from": gap[0], "to": gap[1]}),
            qos=1,
        )

    def _ack(self, data: dict[str, Any]) -> None:
        ident = data.get("id")
        if isinstance(ident, str) and ident in self.acks:
            entry = self.acks[ident]
            entry.pop("pending", None)
            if "error" in data:
                entry["error"] = str(data["error"])
                errors = data.get("errors")  # the same in every language (a board of ours)
                if isinstance(errors, dict):
                    entry["errors"] = {str(k)[:16]: str(v) for k, v in list(errors.items())[:16]}
            else:
                entry["seq"] = whole(data.get("seq"))

    def _raise(self, board: str, kind: str, wording: Wording, t: float | None = None) -> None:
        self.alarms.append(Alarm(next(self._ids), board, kind, wording, t))
