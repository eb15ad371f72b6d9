"""`arbiter hall --demo` with its embedded broker (amqtt), as a new user runs it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.hall.relay import Relay

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_hall_runs_with_no_setup_and_a_relay_follows_it(tmp_path: Path) -> None:
    live = tmp_path / "live"
    command = [
        sys.executable, "-m", "arbiter.cli", "hall", "--demo", "3", "--speed", "40",
        "--display", "plain", "--journals", str(tmp_path / "j"), "--export", str(live),
        "--results", str(tmp_path / "results.csv"),
    ]  # fmt: skip
    relay = Relay(live, 1)
    seen: list[int] = []
    with subprocess.Popen(
        command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ) as hall:  # fmt: skip
        while hall.poll() is None:
            if (live / "tournament.json").exists():  # written last
                seen.append(sum(len(moves) for moves in relay.poll().values()))
            time.sleep(0.2)
        out, err = hall.communicate(timeout=60)
    assert hall.returncode == 0, err
    assert "embedded broker (amqtt)" in out and "3 boards" in out
    assert "Traceback" not in err
    seen.append(sum(len(moves) for moves in relay.poll().values()))
    assert seen == sorted(seen) and len(set(seen)) >= 3, seen  # it followed the round live
    results = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()
    assert len(results) == 4 and all(not r.endswith(",*") for r in results[1:])
    assert sorted(p.name for p in (live / "round-1").iterdir()) == [
        "game-1.json", "game-1.pgn", "game-2.json", "game-2.pgn", "game-3.json", "game-3.pgn",
        "games.pgn", "index.json",
    ]  # fmt: skip
    assert len(list((tmp_path / "j").glob("board-*.jsonl"))) == 3


def test_a_bad_broker_address_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "hall", "--broker", "http://x", "--duration", "1"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("arbiter hall: broker address") and "Traceback" not in done.stderr


def test_a_board_attached_to_the_station_is_in_the_hall(tmp_path: Path) -> None:
    import chess

    from firmware_bridge.virtual import VirtualBoard, moves_to_events

    moves = [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")]
    virtual = VirtualBoard("dgt", moves_to_events(moves, first_t=3.0), speed=1.0)
    pairings = tmp_path / "r.csv"
    pairings.write_text("board,white,black\n1,Ann,Bob\n", encoding="utf-8")
    try:
        virtual.start()
        done = subprocess.run(
            [sys.executable, "-m", "arbiter.cli", "hall", "--board", f"1=dgt:{virtual.path}",
             "--duration", "9", "--display", "plain", "--journals", str(tmp_path / "j"),
             "--pairings", str(pairings), "--export", str(tmp_path / "live")],
            capture_output=True, text=True, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    finally:
        virtual.close()
    assert done.returncode == 0, done.stderr
    pgn = (tmp_path / "live/round-1/game-1.pgn").read_text(encoding="utf-8")
    assert '[White "Ann"]' in pgn and "1. e4 e5 2. Nf3" in pgn
    journal = (tmp_path / "j/board-1.jsonl").read_text(encoding="utf-8")
    assert '"type": "start"' in journal.splitlines()[0]


def test_a_bad_publish_address_stops_play_before_anything_is_journaled(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "play", "--events", "-", "--journal",
         str(journal), "--display", "plain", "--publish", "mqtt://host/a+b"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, input="",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "arbiter play: " in done.stderr and "Traceback" not in done.stderr
    assert not journal.exists()


def test_trf_results_without_trf_pairings_are_refused_at_once(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "hall", "--demo", "2", "--results",
         str(tmp_path / "out.trf")],
        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2 and "TRF results need TRF pairings" in done.stderr
    assert "embedded broker" not in done.stdout  # refused before anything started


def test_the_demo_station_and_its_page_stay_up_until_the_duration(tmp_path: Path) -> None:
    """`--duration` is how long the station runs: the demo's game ends long before, and the
    page still shows its result until then (it used to stop with the last game)."""
    import json
    import re
    import urllib.request

    duration = 12.0
    command = [
        sys.executable, "-m", "arbiter.cli", "hall", "--demo", "1", "--speed", "200",
        "--duration", str(duration), "--display", "plain", "--web", "127.0.0.1:0",
        "--journals", str(tmp_path / "j"),
    ]  # fmt: skip
    began = time.monotonic()
    with subprocess.Popen(
        command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ) as hall:  # fmt: skip
        assert hall.stdout is not None
        url = None
        while url is None:
            line = hall.stdout.readline()
            assert line, hall.stderr.read() if hall.stderr else "no page address"
            found = re.search(r"(http://\S+/)", line)
            url = found.group(1) if found else None

        def result() -> str:
            with urllib.request.urlopen(url + "api/hall", timeout=5) as answer:
                boards = json.loads(answer.read())["boards"]
            return str(boards[0]["result"]) if boards else "*"  # the board not started yet

        deadline = time.monotonic() + duration - 4
        while result() == "*":
            assert time.monotonic() < deadline, "the demo's game did not end in time"
            time.sleep(0.2)
        time.sleep(2.5)  # the old station stopped within a second of the last result
        assert hall.poll() is None and result() != "*"
        out, err = hall.communicate(timeout=60)
    assert hall.returncode == 0, err
    assert time.monotonic() - began >= duration
    assert "1 boards" in out and "Traceback" not in err
