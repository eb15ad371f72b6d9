"""The publisher and the station without a broker: their messages are caught from a fake
client and handed to each other by hand (no threads, no network)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from arbiter.clock import FakeClock
from arbiter.demo.game import demo_events
from arbiter.hall.alarms import Wording
from arbiter.hall.publisher import RESEND_BATCH, BoardPublisher
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress, decode, encode
from arbiter.live.session import Session
from rules.events import Start


class FakeClient:
    """What the publisher and the station send, kept instead of sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.mids: list[int] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> Any:
        data = decode(payload)
        assert data is not None
        self.sent.append((topic, data))
        self.mids.append(len(self.mids) + 1)
        return SimpleNamespace(mid=self.mids[-1], wait_for_publish=lambda timeout=None: None)

    def through(self, publisher: BoardPublisher) -> None:
        """The broker acknowledged everything sent so far."""
        for mid in self.mids:
            publisher._on_publish(self, None, mid)

    def take(self, kind: str) -> list[dict[str, Any]]:
        found = [d for t, d in self.sent if t.endswith("/" + kind)]
        self.sent = [(t, d) for t, d in self.sent if not t.endswith("/" + kind)]
        return found


def _msg(topic: str, data: dict[str, Any]) -> Any:
    return SimpleNamespace(topic=topic, payload=encode(data))


def _board(name: str = "5", upto: int = 60) -> tuple[Session, BoardPublisher, FakeClient]:
    """A board whose game has gone `upto` events (the demo's game, still going on)."""
    events = demo_events(seed=31)[:upto]
    start = events[0]
    assert isinstance(start, Start)
    session = Session.new(start, None, FakeClock())
    publisher = BoardPublisher(session, BrokerAddress("broker", 1883, name))
    client = FakeClient()
    publisher.client = client
    session.sinks.append(publisher)
    for event in events[1:]:
        session.submit(event)
    return session, publisher, client


def test_every_journaled_event_is_published_with_its_seq_and_rulings() -> None:
    session, _, client = _board()
    sent = client.take("events")
    assert [m["seq"] for m in sent] == list(range(2, len(session.events) + 1))
    assert all(m["event"] == session.events[m["seq"] - 1].to_dict() for m in sent)
    assert all("rulings" in m and "wall" in m for m in sent)


def test_a_resend_answers_from_the_journal_in_batches() -> None:
    session, publisher, client = _board()
    client.take("events")
    publisher._resend({"game": publisher.game, "from": 3, "to": 7})
    again = client.take("events")
    assert [m["seq"] for m in again] == [3, 4, 5, 6, 7] and all(m["resent"] for m in again)
    client.through(publisher)
    publisher._resend({"game": "another-game", "from": 1, "to": 3})
    publisher._resend({"from": "x"})
    assert client.take("events") == []
    publisher._resend({"from": 1})  # to the end, at most a batch
    assert len(client.take("events")) == min(len(session.events), RESEND_BATCH)


def test_controls_are_checked_then_queued_then_acknowledged_with_their_seq() -> None:
    session, publisher, client = _board()
    publisher._control({"id": "a", "action": {"action": "add_time", "side": "x", "seconds": 1}})
    publisher._control({"id": "b"})
    publisher._control({"id": "c", "action": {"action": "pause"}})
    acks = client.take("ack")
    assert [a["id"] for a in acks] == ["a", "b"] and all("error" in a for a in acks)
    # each refusal in every language, for the station's page to say its own (issue 15)
    assert acks[1]["errors"]["en"] == acks[1]["error"] == "the message holds no action"
    assert acks[1]["errors"]["sr"] == "poruka ne sadrži radnju"
    assert "'side'" in acks[0]["errors"]["pl"] and acks[0]["errors"]["pl"] != acks[0]["error"]
    assert not session.game.over
    item = session.queue.get_nowait()
    session.take(item)
    (ack,) = client.take("ack")
    assert ack["id"] == "c" and session.events[ack["seq"] - 1].type == "arbiter"


def test_the_station_converges_through_lost_and_repeated_messages() -> None:
    session, publisher, client = _board()
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = FakeClient()
    start = {"game": publisher.game, "seq": 1, "event": session.events[0].to_dict()}
    live = client.take("events")
    delivered = [start] + [m for i, m in enumerate(live) if i % 3]  # every third one lost
    for m in delivered + delivered[:5]:  # and some twice
        station._on_message(None, None, _msg("arbiter/hall/5/events", m))
    assert not station.synced("5")
    for _ in range(10):  # the station asks; the board answers from its journal
        for ask in station.client.take("resend"):
            publisher._resend(ask)
        for m in client.take("events"):
            station._on_message(None, None, _msg("arbiter/hall/5/events", m))
        station.tick(100.0)
    assert station.synced("5")
    from arbiter.records.pgn import pgn_from_rulings

    assert station.pgn("5") == pgn_from_rulings(session.game.start, session.rulings)
    assert station.boards["5"].replay.disagreements == 0


def test_a_stranger_s_messages_are_ignored() -> None:
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = FakeClient()
    for topic, payload in [
        ("arbiter/hall/5/events", b"\xff not json"),
        ("arbiter/hall/5/events", json.dumps([1, 2]).encode()),
        ("arbiter/hall/5/events", encode({"game": "g", "seq": "1", "event": {}})),
        ("elsewhere/5/events", encode({"game": "g", "seq": 1, "event": {}})),
    ]:
        station._on_message(None, None, SimpleNamespace(topic=topic, payload=payload))
    station._on_message(
        None,
        None,
        _msg("arbiter/hall/5/events", {"game": "g", "seq": 1, "event": {"type": "nothing"}}),
    )
    station._on_message(
        None,
        None,
        _msg("arbiter/hall/5/events", {"game": "g", "seq": 2, "event": {"type": "nothing"}}),
    )
    kinds = [a.kind for a in station.alarms]
    assert kinds == ["mismatch"]  # the broken game told once, not at every later message


def test_the_terminal_grid_shows_boards_names_clocks_and_alarms() -> None:
    from arbiter.hall.view import render

    session, publisher, client = _board()
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = FakeClient()
    start = {"game": publisher.game, "seq": 1, "event": session.events[0].to_dict()}
    for m in [start, *client.take("events")]:
        station._on_message(None, None, _msg("arbiter/hall/5/events", m))
    station._raise("5", "flag", Wording("White's time ran out"), 12.0)
    text = render(station, {"5": ("Ann", "Bob")})
    assert "NOT CONNECTED" in text.splitlines()[0]
    row = next(line for line in text.splitlines() if line.strip().startswith("5 "))
    assert "Ann" in row and "Bob" in row and f"{session.game.ply:>4}" in row
    assert "board 5 t=12.0 flag: White's time ran out" in text


def test_two_boards_with_one_name_are_an_alarm() -> None:
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = FakeClient()
    events = demo_events(seed=61)
    for n in range(1, 4):  # two games, taking turns under the name 8
        for key in ("game-a", "game-b"):
            m = {"game": key, "seq": n, "event": events[n - 1].to_dict()}
            station._on_message(None, None, _msg("arbiter/hall/8/events", m))
    assert [a.kind for a in station.alarms] == ["mismatch"]
    assert "two games" in station.alarms[0].text
    link = station.boards["8"]
    assert link.replay.game_key == "game-b" and len(link.replay.events) == 3
    assert [len(r.events) for r in link.earlier] == [3]  # the other game is kept too


def test_a_resend_does_not_queue_again_what_the_broker_has_not_taken_yet() -> None:
    _session, publisher, client = _board()
    client.take("events")
    publisher._resend({"game": publisher.game, "from": 3, "to": 7})
    first = client.mids[-5:]
    assert [m["seq"] for m in client.take("events")] == [3, 4, 5, 6, 7]
    publisher._resend({"game": publisher.game, "from": 3, "to": 9})  # asked again: 8, 9 only
    assert [m["seq"] for m in client.take("events")] == [8, 9]
    for mid in first[:2]:  # the broker took 3 and 4
        publisher._on_publish(None, None, mid)
    publisher._resend({"game": publisher.game, "from": 3, "to": 9})
    assert [m["seq"] for m in client.take("events")] == [3, 4]
    assert publisher.resent == 9


def _gap_station(retry_s: float = 2.0) -> tuple[Station, BoardPublisher, FakeClient, list[Any]]:
    """A station that holds the board's start and its last event: a gap between."""
    session, publisher, client = _board()
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0, retry_s=retry_s)
    station.client = FakeClient()
    live = client.take("events")
    start = {"game": publisher.game, "seq": 1, "event": session.events[0].to_dict()}
    for m in (start, live[-1]):
        station._on_message(None, None, _msg("arbiter/hall/5/events", m))
    return station, publisher, client, live


def test_the_station_does_not_ask_again_while_the_answer_arrives() -> None:
    station, publisher, client, live = _gap_station()
    (ask,) = station.client.take("resend")
    assert (ask["from"], ask["to"]) == (2, live[-1]["seq"] - 1)
    publisher._resend(ask)
    answer = client.take("events")
    station.mono = lambda: 1.5
    station._on_message(None, None, _msg("arbiter/hall/5/events", answer[0]))
    station.tick(3.0)  # 2 s after the request, but the answer came 1.5 s ago
    assert station.client.take("resend") == []
    station.tick(3.5)  # 2 s since the last of the answer came: it stopped, ask for the rest
    (again,) = station.client.take("resend")
    assert again["from"] == answer[0]["seq"] + 1


def test_an_unanswered_request_is_repeated_ever_more_slowly_until_the_board_says_hello() -> None:
    station, publisher, _client, _live = _gap_station(retry_s=1.0)
    station.client.take("resend")
    times = []
    for tenth in range(1, 400):
        station.tick(tenth / 10)
        if station.client.take("resend"):
            times.append(tenth / 10)
    assert times == [1.0, 3.0, 7.0, 15.0, 31.0]  # waits 1, 2, 4, 8, 16 s (at most 30)
    state = {"game": publisher.game, "seq": 3, "over": False, "result": None, "hello": True}
    station._on_message(None, None, _msg("arbiter/hall/5/state", state))
    assert len(station.client.take("resend")) == 1  # the board is back: asked at once


def test_live_events_during_a_gap_do_not_hold_back_a_lost_request() -> None:
    session, publisher, client = _board(upto=40)
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0, retry_s=1.0)
    station.client = FakeClient()
    live = client.take("events")
    start = {"game": publisher.game, "seq": 1, "event": session.events[0].to_dict()}
    station._on_message(None, None, _msg("arbiter/hall/5/events", start))
    station._on_message(None, None, _msg("arbiter/hall/5/events", live[10]))  # 2..11 lost
    assert len(station.client.take("resend")) == 1  # its answer is lost too
    asked = []
    for n, message in enumerate(live[11:], start=1):  # the game goes on, live
        now = n * 0.25
        station.mono = lambda now=now: now  # type: ignore[misc]
        station._on_message(None, None, _msg("arbiter/hall/5/events", message))
        station.tick(now)
        asked += [now for _ in station.client.take("resend")]
    assert asked[:2] == [1.0, 3.0]  # asked again after 1 s, then 2 s: live events are no answer


def _alarms_of(lines: list[dict[str, Any]]) -> list[Any]:
    """The alarms a station raises for one board's journal lines (`lines`, start first)."""
    station = Station(BrokerAddress("broker", 1883), mono=lambda: 0.0)
    station.client = FakeClient()
    for seq, event in enumerate(lines, start=1):
        m = {"game": "g", "seq": seq, "event": event}
        station._on_message(None, None, _msg("arbiter/hall/3/events", m))
    return station.alarms


def test_an_illegal_first_move_is_not_a_wrong_start() -> None:
    """The colleague's stream (scratch/web/mq/b3.jsonl, as its board journaled it): the board
    set up right, White's e2 pawn put on e5 and the clock pressed. The illegal move is the
    alarm, and the board to put right after it a `mismatch`, not a start set up wrong."""
    lines = [
        {"t": 0.0, "type": "start", "time_control": "300", "white": "Zofia Wiśniewska",
         "black": "Goran Nikolovski"},
        {"t": 1.0, "type": "lift", "square": "e2", "piece": "P"},
        {"t": 1.4, "type": "place", "square": "e5", "piece": "P"},
        {"t": 1.65, "type": "tick"},
        {"t": 2.0, "type": "press", "side": "white"},
    ]  # fmt: skip
    alarms = _alarms_of(lines)
    assert [a.kind for a in alarms] == ["illegal", "mismatch"]
    assert alarms[1].text.startswith("The board differs from the game: put the white pawn on e2")


def test_a_position_set_up_wrong_is_a_wrong_start_in_one_sentence() -> None:
    """King and queen swapped as the board is set up (its first whole-board report): a wrong
    start, though the press after it is an illegal move too; the kind says it, the sentence
    is the ruling's own (no capital in the middle of a sentence)."""
    lines = [
        {"t": 0.0, "type": "start", "time_control": "300"},
        {"t": 1.0, "type": "snapshot", "board": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR"},
        {"t": 3.0, "type": "press", "side": "white"},
    ]
    alarms = _alarms_of(lines)
    assert [a.kind for a in alarms] == ["illegal", "wrong_start"]
    assert alarms[1].text == (
        "The board differs from the game: put the white queen on d1; put the white king on e1."
    )
    assert alarms[1].text_in("pl").startswith("Szachownica różni się")  # the ruling's, in Polish


def test_a_whole_board_report_that_moves_a_piece_is_a_hand() -> None:
    """A board that reports whole boards only: its first report is the set-up, and a square
    a later report changes is a hand's, so an illegal first move is no wrong start either."""
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    lines = [
        {"t": 0.0, "type": "start", "time_control": "300"},
        {"t": 0.5, "type": "snapshot", "board": start},
        {"t": 1.0, "type": "snapshot", "board": "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"},
        {"t": 1.5, "type": "snapshot", "board": "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR"},
        {"t": 2.0, "type": "press", "side": "white"},
    ]
    kinds = [a.kind for a in _alarms_of(lines)]
    assert "wrong_start" not in kinds and "illegal" in kinds
