"""The station's replay of one board without a broker: order, duplicates, gaps, new games;
the topic tree and broker addresses."""

from __future__ import annotations

import pytest

from arbiter.demo.game import demo_events
from arbiter.hall.errors import HallError
from arbiter.hall.replay import BoardReplay
from arbiter.hall.topics import parse_address, split_topic, topic
from arbiter.live.session import rebuild
from arbiter.records.pgn import pgn_from_rulings


def _board_pgn(events: list) -> str:  # type: ignore[type-arg]
    _, rulings = rebuild(events)
    return pgn_from_rulings(events[0], rulings)


def test_events_in_any_order_and_twice_give_the_boards_game() -> None:
    events = demo_events(seed=3)
    dicts = [e.to_dict() for e in events]
    replay = BoardReplay("1", "g")
    order = list(range(1, len(dicts) + 1))
    shuffled = order[::-1][: len(order) // 2] + order  # half of them late, all twice
    for seq in shuffled:
        replay.offer(seq, dicts[seq - 1], None)
    assert replay.complete and replay.next_seq == len(events) + 1
    assert pgn_from_rulings(events[0], replay.rulings) == _board_pgn(events)


def test_a_gap_is_named_until_it_is_filled() -> None:
    events = [e.to_dict() for e in demo_events(seed=4)[:30]]
    replay = BoardReplay("1", "g")
    for seq in (1, 2, 3, 7, 8, 12):
        replay.offer(seq, events[seq - 1], None)
    assert replay.missing() == (4, 11)  # from the first missing to the last missing
    for seq in (4, 5, 6):
        replay.offer(seq, events[seq - 1], None)
    assert replay.next_seq == 9 and replay.missing() == (9, 11)
    replay.known_last = 30  # the board's `state` says it holds 30
    for seq in (9, 10, 11):
        replay.offer(seq, events[seq - 1], None)
    assert replay.missing() == (13, 30)
    assert not replay.complete
    for seq in range(1, 31):  # the board's answer: all of it again
        replay.offer(seq, events[seq - 1], None)
    assert replay.complete and replay.missing() is None


def test_the_boards_rulings_are_checked_against_the_stations() -> None:
    events = demo_events(seed=5)
    _game, rulings = rebuild(events[:2])
    replay = BoardReplay("1", "g")
    replay.offer(1, events[0].to_dict(), None)
    step = replay.offer(2, events[1].to_dict(), [r.to_dict() for r in rulings])
    assert step[0].agrees is True
    wrong = [{"t": 0.0, "type": "flag", "side": "white"}]
    step = replay.offer(3, events[2].to_dict(), wrong)
    assert step[0].agrees is False and replay.disagreements == 1


def test_a_stream_that_does_not_begin_with_start_is_broken_not_a_crash() -> None:
    events = demo_events(seed=6)
    replay = BoardReplay("1", "g")
    assert replay.offer(1, events[3].to_dict(), None) == []
    assert replay.broken is not None and "start" in str(replay.broken)
    assert replay.missing() is None


@pytest.mark.parametrize(
    ("url", "host", "port", "board"),
    [
        ("mqtt://hall.local", "hall.local", 1883, None),
        ("mqtt://10.0.0.2:1884/12", "10.0.0.2", 1884, "12"),
        ("localhost:1999/board-a", "localhost", 1999, "board-a"),
        ("mqtt://h/arbiter/hall/room-a/7", "h", 1883, "7"),
    ],
)
def test_broker_addresses(url: str, host: str, port: int, board: str | None) -> None:
    a = parse_address(url)
    assert (a.host, a.port, a.board) == (host, port, board)


@pytest.mark.parametrize(
    "url",
    ["http://x", "mqtt://", "mqtt://h:99999", "mqtt://h/a/b c", "mqtt://h/#", "mqtt://h/a+/b"],
)
def test_bad_broker_addresses_are_told(url: str) -> None:
    with pytest.raises(HallError):
        parse_address(url)


def test_a_prefix_in_the_address() -> None:
    assert parse_address("mqtt://h/arbiter/hall/room-a/7").prefix == "arbiter/hall/room-a"
    assert parse_address("mqtt://h/7").prefix == "arbiter/hall"


def test_topics_round_trip() -> None:
    name = topic("arbiter/hall", "7", "events")
    assert split_topic("arbiter/hall", name) == ("7", "events")
    assert split_topic("arbiter/hall", "arbiter/hall/7/other") is None
    assert split_topic("arbiter/hall", "elsewhere/7/events") is None
