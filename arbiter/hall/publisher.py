"""A board's publisher: its session's journal, event by event, copied to the hall's broker.

It is a sink of the `Session` (`session.sinks`): after every step it publishes the events
the journal gained, numbered by their place in the journal (`seq`, 1 is `start`), with the
rulings they gave. The journal stays the truth: when the station asks for a gap (`resend`)
the board answers from its journal's events, so the station converges to exactly the
board's game whatever the broker or the network lost. Arbiter actions from the station
(`control`) go on the session's queue, are journaled and ruled there like any input, and are
acknowledged with the `seq` they were journaled at.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from arbiter.hall import mqtt
from arbiter.hall.topics import BrokerAddress, decode, encode, topic, whole
from rules.errors import ArbiterError, EventError
from rules.events import ArbiterAction, Event, parse_event
from rules.i18n import N_
from rules.rulings import Ruling

#: a board's refusals of an arbiter action from the station (the ack's `error`, `errors`)
NO_ACTION = N_("the message holds no action")
NOT_AN_ACTION = N_("not an arbiter action")
GAME_OVER = N_("the game is over")

#: at most this many events answer one resend request (the station asks again for more)
RESEND_BATCH = 1000
#: seconds between two `state` messages while nothing happens: the station's sign of life
HEARTBEAT_S = 10.0
#: seconds after which an event resent but not yet acknowledged by the broker may be
#: queued again (paho keeps and re-sends it across reconnections; this is a safety net)
RESEND_STALE_S = 60.0


def game_key(start: Event, journal_path: object = None) -> str:
    """The game's name in the hall: its `start`, and where its journal is (a new game on the
    same board gets a new journal file, hence a new key; a resumed one keeps it)."""
    ident = start.to_json()
    if journal_path is not None:
        try:
            ident += f"|{os.path.abspath(str(journal_path))}|{os.stat(str(journal_path)).st_ino}"
        except OSError:
            ident += f"|{journal_path}"
    return hashlib.sha1(ident.encode("utf-8")).hexdigest()[:12]


class ControlAction:
    """An arbiter action from the station, waiting on the session's queue.

    The session calls `to_action` when it takes the item (its own thread): the action is
    stamped with the session's time then, journaled and ruled, and the publisher
    acknowledges it with the `seq` it got.
    """

    def __init__(self, publisher: BoardPublisher, ident: str, action: ArbiterAction) -> None:
        self.publisher = publisher
        self.ident = ident
        self.action = action

    def to_action(self, paused: bool) -> Event:
        t = max(self.publisher.session.last_t, self.publisher.session.clock.now())
        event = parse_event({**self.action.to_dict(), "t": t})
        self.publisher.expect_ack(self.ident)
        return event


class BoardPublisher:
    """Publishes one board's session to the hall (see the module docstring).

    Args:
        session: the board's `Session` (anything with `events`, `last_t`, `clock`, `queue`,
            `game`, `sinks`).
        address: the broker, and the board's name (`address.board`).
        journal_path: the journal's file, which names the game (`game_key`).
        heartbeat_s: seconds between signs of life while nothing happens.
        wall: the wall clock stamped on live messages (for the hall's latency figures only).
        with_rulings: send each step's rulings, which the station checks against its own
            (a board that only replays a journal, in a benchmark, has none).
    """

    def __init__(
        self,
        session: Any,
        address: BrokerAddress,
        *,
        journal_path: object = None,
        heartbeat_s: float = HEARTBEAT_S,
        keepalive: int = mqtt.KEEPALIVE_S,
        wall: Callable[[], float] = time.time,
        with_rulings: bool = True,
        mono: Callable[[], float] = time.monotonic,
    ) -> None:
        if address.board is None:
            raise ValueError("a board's publisher needs the board's name")
        self.session = session
        self.address = address
        self.board = address.board
        self.game = game_key(session.events[0], journal_path)
        self.heartbeat_s = heartbeat_s
        self.with_rulings = with_rulings
        self.keepalive = keepalive
        self.wall = wall
        self.mono = mono
        self._lock = threading.Lock()
        self._sent = len(session.events)  # what a resumed game held is sent when asked
        self._acks: list[str] = []
        #: resent events the broker has not acknowledged yet: seq -> (message id, when)
        self._resending: dict[int, tuple[int, float]] = {}
        self._resend_mids: dict[int, int] = {}
        #: events resent, all told (a figure for the tests and benches)
        self.resent = 0
        self._have = threading.Event()
        self._stop = threading.Event()
        self._topics = {
            k: topic(address.prefix, self.board, k)
            for k in ("events", "state", "status", "resend", "control", "ack", "have")
        }
        self.client = mqtt.make_client(
            f"board-{self.board}",
            address,
            will=(self._topics["status"], encode({"online": False})),
        )
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self._beat: threading.Thread | None = None
        #: set while the board is connected to the broker
        self.connected = threading.Event()
        self.started = False

    # ------------------------------------------------------------------ life

    def start(self) -> BoardPublisher:
        """Join the session (as its sink) and connect in the background."""
        self.started = True
        self.session.sinks.append(self)
        mqtt.start(self.client, self.address, self.keepalive)
        self._beat = threading.Thread(
            target=self._heartbeat, name=f"hall-{self.board}", daemon=True
        )
        self._beat.start()
        return self

    def close(self, linger_s: float = 0.0) -> bool:
        """Stop publishing; first wait up to `linger_s` for the station to hold the whole
        game (its `have`), answering its resend requests meanwhile. True if it does."""
        self._publish_state()
        held = self._have.wait(linger_s) if linger_s > 0 else self._have.is_set()
        self._stop.set()
        self.client.publish(self._topics["status"], encode({"online": False}), qos=1, retain=True)
        mqtt.stop(self.client)
        return held

    # ------------------------------------------------------------------ the sink

    def __call__(self, rulings: Sequence[Ruling], t: float) -> None:
        """After every step of the session: publish the events the journal gained."""
        events = self.session.events
        with self._lock:
            first, self._sent = self._sent, len(events)
            acks, self._acks = self._acks, []
        for index in range(first, len(events)):
            last = index == len(events) - 1
            message: dict[str, Any] = {
                "game": self.game,
                "seq": index + 1,
                "event": events[index].to_dict(),
            }
            if last:
                if self.with_rulings:
                    message["rulings"] = [r.to_dict() for r in rulings]
                message["wall"] = self.wall()
            self.client.publish(self._topics["events"], encode(message), qos=1)
            if last and acks:
                for ident in acks:
                    self._publish("ack", {"id": ident, "seq": index + 1})
        if self.session.game.over:
            self._publish_state()

    def expect_ack(self, ident: str) -> None:
        """The next event journaled is the arbiter action `ident`: acknowledge it then."""
        with self._lock:
            self._acks.append(ident)

    # ------------------------------------------------------------------ the broker

    def _publish(self, kind: str, message: dict[str, Any], *, retain: bool = False) -> None:
        self.client.publish(self._topics[kind], encode(message), qos=1, retain=retain)

    def _publish_state(self, hello: bool = False) -> None:
        """The board's `state`; `hello` when it has just (re)connected, so the station
        knows that its requests may have been lost and asks again at once."""
        game = self.session.game
        with self._lock:
            seq = self._sent
        message: dict[str, Any] = {
            "game": self.game,
            "seq": seq,
            "over": bool(game.over),
            "result": game.result if game.over else None,
        }
        if hello:
            message["hello"] = True
        self._publish("state", message, retain=True)

    def _on_connect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if getattr(reason, "is_failure", False):
            return
        client.subscribe(
            [(self._topics["resend"], 1), (self._topics["control"], 1), (self._topics["have"], 1)]
        )
        self._publish("status", {"online": True}, retain=True)
        self._publish_state(hello=True)  # the station compares it with what it holds, and asks
        self.connected.set()

    def _on_disconnect(self, *args: Any) -> None:
        self.connected.clear()

    def _on_publish(self, client: Any, userdata: Any, mid: int, *args: Any) -> None:
        """The broker acknowledged message `mid`: a resent event is through."""
        seq = self._resend_mids.pop(mid, None)
        if seq is not None and self._resending.get(seq, (None,))[0] == mid:
            del self._resending[seq]

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        data = decode(msg.payload)
        if data is None:
            return
        if msg.topic == self._topics["resend"]:
            self._resend(data)
        elif msg.topic == self._topics["control"]:
            self._control(data)
        elif msg.topic == self._topics["have"]:
            if (
                data.get("game") == self.game
                and whole(data.get("seq")) == len(self.session.events)
                and self.session.game.over
            ):
                self._have.set()

    def _resend(self, data: dict[str, Any]) -> None:
        """Answer a gap from the journal's events (the session's copy of the journal).

        An event already resent and still in the client's queue (not yet acknowledged by the
        broker) is not queued again: on a slow link a repeated request would otherwise put
        the same events once more ahead of the live ones and of the final `state`. Runs on
        the client's network thread, as `_on_publish` does."""
        if data.get("game") not in (None, self.game):
            return  # a request about an earlier game of this board
        first, last = whole(data.get("from")), whole(data.get("to"))
        with self._lock:
            held = self._sent
        if first is None or first < 1:
            return
        last = held if last is None else min(last, held)
        last = min(last, first + RESEND_BATCH - 1)
        events = self.session.events
        now = self.mono()
        for seq in range(first, last + 1):
            queued = self._resending.get(seq)
            if queued is not None and now - queued[1] < RESEND_STALE_S:
                continue
            message = {
                "game": self.game,
                "seq": seq,
                "event": events[seq - 1].to_dict(),
                "resent": True,
            }
            info = self.client.publish(self._topics["events"], encode(message), qos=1)
            self.resent += 1
            mid = getattr(info, "mid", None)
            if isinstance(mid, int):
                self._resending[seq] = (mid, now)
                self._resend_mids[mid] = seq

    def _refuse(self, ident: str, error: ArbiterError) -> None:
        """Refuse an arbiter action in the ack: the reason in every language (`errors`,
        beside the English `error`), so that the station's page says its own."""
        from arbiter.i18n import error_text
        from rules.i18n import LANGUAGES

        said = {language: error_text(error, language) for language in LANGUAGES}
        self._publish("ack", {"id": ident, "error": said["en"], "errors": said})

    def _control(self, data: dict[str, Any]) -> None:
        """An arbiter action: checked here (a bad one is refused in the ack), ruled by the
        session."""
        ident = str(data.get("id", ""))[:64]
        fields = data.get("action")
        if not isinstance(fields, dict):
            self._refuse(ident, ArbiterError.of(NO_ACTION))
            return
        try:
            event = parse_event({**fields, "type": "arbiter", "t": 0.0})
        except EventError as exc:
            self._refuse(ident, exc)
            return
        if not isinstance(event, ArbiterAction):
            self._refuse(ident, ArbiterError.of(NOT_AN_ACTION))
            return
        if self.session.game.over:
            self._refuse(ident, ArbiterError.of(GAME_OVER))
            return
        self.session.queue.put(ControlAction(self, ident, event))

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.heartbeat_s):
            self._publish_state()


def publish_session(session: Any, url: str, journal_path: object = None) -> BoardPublisher:
    """Publish `session` to the broker of `url` (`mqtt://HOST[:PORT]/BOARD`; the board's
    name defaults to this computer's name), started.

    Raises:
        HallError: a bad address or board name, or paho-mqtt missing.
    """
    from arbiter.hall.topics import check_board_name, parse_address

    address = parse_address(url)
    if address.board is None:
        host = socket.gethostname().split(".")[0] or "board"
        address = dataclasses.replace(address, board=check_board_name(host))
    return BoardPublisher(session, address, journal_path=journal_path).start()
