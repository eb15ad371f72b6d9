"""The hall behind Mosquitto's password file and the ACL of docs/hall/mosquitto-acl.conf:
a board publishes only under its own tree, only the station sends arbiter actions."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from arbiter.demo.game import demo_events
from arbiter.hall import mqtt
from arbiter.hall.demo import SimulatedBoard
from arbiter.hall.station import Station
from arbiter.hall.topics import encode, parse_address, topic
from tests.hall.brokers import Mosquitto, free_port
from tests.hall.conftest import need_mosquitto

ROOT = Path(__file__).resolve().parents[2]


def _until(condition, timeout: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_the_acl_keeps_each_board_in_its_own_tree(tmp_path: Path) -> None:
    need_mosquitto()
    passwords = tmp_path / "passwords"
    for user, word in (("station", "s3cret"), ("b1", "pw1"), ("b2", "pw2")):
        flag = ["-c"] if not passwords.exists() else []
        subprocess.run(["mosquitto_passwd", *flag, "-b", str(passwords), user, word], check=True)
    acl = ROOT / "docs/hall/mosquitto-acl.conf"
    port = free_port()
    broker = Mosquitto(tmp_path, port=port)
    broker.config.write_text(
        f"listener {port} 127.0.0.1\nallow_anonymous false\npersistence false\n"
        f"password_file {passwords}\nacl_file {acl}\n"
        # as root, Mosquitto drops to the user 'mosquitto', who cannot read a test's folder
        + ("user root\n" if os.geteuid() == 0 else ""),
        encoding="utf-8",
    )
    broker.start()
    station = Station(parse_address(f"mqtt://station:s3cret@127.0.0.1:{port}")).start()
    board = SimulatedBoard(
        "b1", demo_events(seed=2), parse_address(f"mqtt://b1:pw1@127.0.0.1:{port}/b1"),
        tmp_path, speed=50, fsync=False,
    )  # fmt: skip
    rogue = mqtt.make_client("rogue", parse_address(f"mqtt://b1:pw1@127.0.0.1:{port}"))
    try:
        assert station.connected.wait(10)
        board.start()
        board.join(30)
        assert board.publisher.close(linger_s=10)
        assert station.pgn("b1") == board.pgn()
        # board b1 writing into b2's tree, and sending an arbiter action: the broker drops both
        mqtt.start(rogue, parse_address(f"mqtt://b1:pw1@127.0.0.1:{port}"))
        assert _until(rogue.is_connected)
        fake = {"game": "x", "seq": 1, "event": {"t": 0.0, "type": "start"}}
        rogue.publish(topic("arbiter/hall", "b2", "events"), encode(fake), qos=1).wait_for_publish(
            5
        )
        rogue.publish(topic("arbiter/hall", "b1", "control"), encode({"id": "x"}), qos=1)
        time.sleep(1.0)
        assert "b2" not in station.boards
        # a wrong password: no connection at all
        outsider = Station(parse_address(f"mqtt://station:wrong@127.0.0.1:{port}")).start()
        assert not outsider.connected.wait(2)
        outsider.close()
    finally:
        mqtt.stop(rogue)
        station.close()
        broker.stop()
