"""Beyond one broker: a room's broker bridged to the station's (Mosquitto bridges), the
boards on one, the station on the other; resend requests and confirmations cross back."""

from __future__ import annotations

from pathlib import Path

from arbiter.hall.demo import SimulatedBoard, demo_streams, start_all
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress
from tests.hall.brokers import Mosquitto
from tests.hall.conftest import need_mosquitto


def test_boards_on_a_room_broker_bridged_to_the_stations(tmp_path: Path) -> None:
    need_mosquitto()
    room = Mosquitto(tmp_path).start()
    bridge = (
        "connection room-a\n"
        f"address 127.0.0.1:{room.port}\n"
        "topic arbiter/hall/# both 1\n"
        "cleansession true\n"
        "restart_timeout 1\n"
    )
    office = Mosquitto(tmp_path, extra=bridge).start()
    station = Station(BrokerAddress("127.0.0.1", office.port)).start()
    at_room = BrokerAddress("127.0.0.1", room.port)
    boards = [
        SimulatedBoard(str(n), events, at_room, tmp_path, speed=40, fsync=False)
        for n, events in enumerate(demo_streams(4), start=1)
    ]
    try:
        assert station.connected.wait(10)
        start_all(boards)
        for board in boards:
            board.join(30)
        assert all(b.publisher.close(linger_s=15) for b in boards)  # `have` crossed back
        for board in boards:
            assert station.pgn(board.name) == board.pgn()
    finally:
        station.close()
        office.stop()
        room.stop()
