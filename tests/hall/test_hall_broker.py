"""The hall through a real Mosquitto: arbiter actions from the station journaled and
acknowledged by the board, `arbiter play --publish`, link alarms, a wrong start."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from arbiter.demo.game import demo_events
from arbiter.hall.demo import SimulatedBoard
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress
from rules.events import Press, Snapshot, Start
from tests.hall.brokers import Mosquitto

ROOT = Path(__file__).resolve().parents[2]


def _until(condition, timeout: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_an_arbiter_action_is_journaled_ruled_and_acknowledged(
    broker: Mosquitto, tmp_path: Path
) -> None:
    address = BrokerAddress("127.0.0.1", broker.port)
    station = Station(address).start()
    board = SimulatedBoard("3", demo_events(seed=9), address, tmp_path, speed=2, fsync=False)
    try:
        assert station.connected.wait(10)
        board.start()
        assert _until(lambda: station.synced("3") and station.boards["3"].replay.game is not None)
        ident = station.send("3", {"action": "add_time", "side": "black", "seconds": 30})
        bad = station.send("3", {"action": "add_time", "side": "nobody", "seconds": 30})
        assert _until(lambda: "seq" in station.acks[ident] and "error" in station.acks[bad])
        seq = station.acks[ident]["seq"]
        assert "side" in station.acks[bad]["error"]
        line = board.journal_path.read_text(encoding="utf-8").splitlines()[seq - 1]
        journaled = json.loads(line)
        assert journaled["type"] == "arbiter" and journaled["action"] == "add_time"
        assert _until(lambda: station.boards["3"].replay.next_seq > seq)
        replay = station.boards["3"].replay
        assert replay.events[seq - 1].to_dict() == journaled  # the station ruled it too
    finally:
        board.stop()
        station.close()


def test_play_publish_sends_the_game_and_the_station_holds_it(
    broker: Mosquitto, tmp_path: Path
) -> None:
    events = demo_events(seed=11)
    stream = tmp_path / "game.jsonl"
    # a quick game: the demo's stream at a fortieth of its times
    lines = [events[0].to_dict()] + [{**e.to_dict(), "t": round(e.t / 40, 4)} for e in events[1:]]
    stream.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    station = Station(BrokerAddress("127.0.0.1", broker.port)).start()
    try:
        assert station.connected.wait(10)
        journal = tmp_path / "j.jsonl"
        pgn = tmp_path / "g.pgn"
        done = subprocess.run(
            [sys.executable, "-m", "arbiter.cli", "play", "--events", str(stream),
             "--journal", str(journal), "--pgn", str(pgn), "--display", "plain",
             "--publish", f"mqtt://127.0.0.1:{broker.port}/b7"],
            capture_output=True, text=True, cwd=ROOT, timeout=90, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "did not confirm" not in done.stderr
        assert station.synced("b7")
        own = pgn.read_text(encoding="utf-8")
        # the board's file is dated; the station's record is the same game
        held = station.pgn("b7", date=own.split('[Date "')[1].split('"')[0])
        assert held == own
    finally:
        station.close()


def test_a_dropped_board_and_a_silent_board_are_alarms(broker: Mosquitto, tmp_path: Path) -> None:
    now = [0.0]
    address = BrokerAddress("127.0.0.1", broker.port)
    station = Station(address, silent_s=30, tick_s=3600, mono=lambda: now[0]).start()
    board = SimulatedBoard("4", demo_events(seed=12), address, tmp_path, speed=1, fsync=False)
    try:
        assert station.connected.wait(10)
        board.start()
        assert _until(lambda: station.synced("4") and station.boards["4"].online)
        now[0] = 31.0
        station.tick(now[0])
        assert [a.kind for a in station.alarms if a.board == "4"] == ["silent"]
        board.publisher.client.socket().close()  # the cable: no DISCONNECT, the will fires
        assert _until(lambda: any(a.kind == "disconnected" for a in station.alarms))
    finally:
        board.stop()
        station.close()


def test_a_position_set_up_wrong_is_an_alarm(broker: Mosquitto, tmp_path: Path) -> None:
    start = Start(t=0.0, time_control="300")
    swapped = Snapshot(t=1.0, board="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR")
    events = [start, swapped, Press(t=3.0, side="white")]
    address = BrokerAddress("127.0.0.1", broker.port)
    station = Station(address).start()
    board = SimulatedBoard("9", events, address, tmp_path, speed=1, fsync=False)
    try:
        assert station.connected.wait(10)
        board.start()
        assert _until(lambda: any(a.kind == "wrong_start" for a in station.alarms), 10)
    finally:
        board.stop()
        station.close()


def test_a_station_started_late_gets_every_game_from_the_boards_journals(
    broker: Mosquitto, tmp_path: Path
) -> None:
    address = BrokerAddress("127.0.0.1", broker.port)
    boards = [
        SimulatedBoard(str(n), demo_events(seed=40 + n), address, tmp_path, speed=60, fsync=False)
        for n in (1, 2)
    ]
    for board in boards:
        board.start()
    for board in boards:
        board.join(30)
        assert board.session.game.over
    station = Station(address).start()  # nobody listened while the games were played
    try:
        assert _until(lambda: all(station.synced(b.name) for b in boards), 20)
        for board in boards:
            assert station.pgn(board.name) == board.pgn()
        assert all(b.publisher.close(linger_s=10) for b in boards)
    finally:
        station.close()


def test_a_board_that_crashed_and_resumed_its_journal_goes_on_as_the_same_game(
    broker: Mosquitto, tmp_path: Path
) -> None:
    from arbiter.clock import FakeClock
    from arbiter.hall.publisher import BoardPublisher
    from arbiter.live.session import Session
    from arbiter.records.journal import JournalWriter, read_journal
    from arbiter.records.pgn import pgn_from_rulings

    events = demo_events(seed=51)
    half = len(events) // 2
    address = BrokerAddress("127.0.0.1", broker.port, "7")
    journal = tmp_path / "board-7.jsonl"
    station = Station(BrokerAddress("127.0.0.1", broker.port)).start()
    try:
        assert station.connected.wait(10)
        start = events[0]
        assert isinstance(start, Start)
        first = Session.new(start, JournalWriter(journal), FakeClock())
        before = BoardPublisher(first, address, journal_path=journal).start()
        assert before.connected.wait(10)
        for event in events[1:half]:
            first.submit(event)
        key = before.game
        before.client.socket().close()  # the power cut: no goodbye, the will fires
        before.client.loop_stop()
        history, _ = read_journal(journal)
        resumed = Session.resume(history, JournalWriter(journal), lambda t: FakeClock(t))
        after = BoardPublisher(resumed, address, journal_path=journal).start()
        assert after.game == key  # the same game: its journal's path and file
        for event in events[half:]:
            resumed.submit(event)
        assert _until(lambda: station.synced("7") and station.boards["7"].replay.over)
        assert len(station.boards["7"].replay.events) == len(resumed.events)
        assert station.pgn("7") == pgn_from_rulings(start, resumed.rulings)
        assert any(e.type == "restart" for e in station.boards["7"].replay.events)
        assert after.close(linger_s=10)
    finally:
        station.close()
