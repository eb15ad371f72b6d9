"""Benchmark: a hall of boards through a real Mosquitto, the station measured.

Two kinds of hall:

- `--kind sessions` (default 200 boards at 10x): every board is a real `Session` (journal,
  rules core, publisher) playing a corpus game, in a child process; the station (this
  process) replays them all. Figures: the station's CPU (share of one core) and peak memory,
  the latency from a board's ruling (its publication) to the station's replay (p50, p99),
  and nothing lost: every station PGN equal to its board's own.
- `--kind light` (500 boards): light simulated publishers (the board's journal events,
  precomputed, published at their times by one scheduler thread, through the real
  publisher and protocol, no rules core on the board side), for a hall larger than the
  boards' side of this machine can run as sessions.

The baseline, measured in the same run: the rules core replaying the same events in this
process without a broker (`rebuild`), so the station's CPU is given as a ratio of it.

    python bench/hall_load.py --kind sessions --boards 200 --speed 10 --game-s 900
    python bench/hall_load.py --kind light --boards 500 --speed 10 --game-s 900

Needs `mosquitto` (Debian's package) and ../shared/data/games.
"""

from __future__ import annotations

import argparse
import heapq
import json
import queue
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter.hall.publisher import BoardPublisher  # noqa: E402
from arbiter.hall.station import Station  # noqa: E402
from arbiter.hall.topics import BrokerAddress  # noqa: E402
from arbiter.live.session import rebuild  # noqa: E402
from rules.events import Event, parse_event  # noqa: E402
from tests.hall.brokers import Mosquitto  # noqa: E402
from tests.hall.games import corpus_streams  # noqa: E402

#: boards a child process plays at most
PER_PROCESS = 200
GAMES = ROOT.parent / "shared" / "data" / "games" / "clocked-games.pgn"


def streams(first: int, count: int, game_s: float) -> list[list[Event]]:
    """Board `first`'s and the next boards' games, `count` in all: corpus games (150 distinct
    ones, then again), each cut at `game_s` seconds of its time (a round's first part)."""
    distinct = corpus_streams(GAMES, min(first - 1 + count, 150), max_s=1e9)
    out = []
    for n in range(first - 1, first - 1 + count):
        events = distinct[n % len(distinct)]
        out.append([e for e in events if e.t <= game_s])
    return out


# ---------------------------------------------------------------------------- the boards' side


def run_sessions(
    port: int, first: int, boards: int, speed: float, game_s: float, folder: Path
) -> None:
    """The child process: `boards` real sessions; each writes its own PGN when done."""
    from arbiter.hall.demo import SimulatedBoard

    address = BrokerAddress("127.0.0.1", port)
    played = [
        SimulatedBoard(str(n), events, address, folder, speed=speed, fsync=False)
        for n, events in enumerate(streams(first, boards, game_s), start=first)
    ]
    for board in played:
        board.publisher.start()
    for board in played:
        board.publisher.connected.wait(5)
    for board in played:
        board.start()
    deadline = time.monotonic() + game_s / speed + 120
    while time.monotonic() < deadline and not all(
        b.session.game.over or b.session.done or not b.running for b in played
    ):
        time.sleep(0.1)  # a game cut short goes on (its clock runs): stop it at its script's end
    for board in played:
        board.session.stop()
        board.join(5)
        (folder / f"board-{board.name}.pgn").write_text(board.pgn(), encoding="utf-8")
        (folder / f"board-{board.name}.count").write_text(str(len(board.session.events)))
    for board in played:
        board.publisher._publish_state()  # the station checks it holds everything
    wait_for_the_station(folder)
    for board in played:
        board.publisher.close()


def wait_for_the_station(folder: Path, limit_s: float = 900.0) -> None:
    """Keep answering resend requests until the station says it is done (its `done` file)."""
    deadline = time.monotonic() + limit_s
    while not (folder / "done").exists() and time.monotonic() < deadline:
        time.sleep(0.2)


class LightSession:
    """What a publisher needs of a session, for a board that only replays its journal."""

    def __init__(self, events: list[Event]) -> None:
        self.script = events
        self.events: list[Event] = [events[0]]
        self.sinks: list[Any] = []
        self.queue: queue.Queue[Any] = queue.Queue()
        self.game = SimpleNamespace(over=False, result=None)
        self.last_t = 0.0
        self.clock = SimpleNamespace(now=lambda: self.last_t)

    def step(self) -> None:
        event = self.script[len(self.events)]
        self.events.append(event)
        self.last_t = event.t
        for sink in self.sinks:
            sink([], event.t)


def run_light(
    port: int, first: int, boards: int, speed: float, game_s: float, folder: Path
) -> None:
    """The child process: `boards` light publishers, one scheduler thread."""
    address = BrokerAddress("127.0.0.1", port)
    sessions = [LightSession(events) for events in streams(first, boards, game_s)]
    publishers = []
    for n, s in enumerate(sessions, start=first):
        p = BoardPublisher(s, BrokerAddress(address.host, address.port, str(n)), with_rulings=False)
        publishers.append(p.start())
    for p in publishers:
        p.connected.wait(5)
    began = time.monotonic()
    heap = [(s.script[1].t, n) for n, s in enumerate(sessions) if len(s.script) > 1]
    heapq.heapify(heap)
    while heap:
        due, n = heapq.heappop(heap)
        wait = began + due / speed - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        s = sessions[n]
        s.step()
        if len(s.events) < len(s.script):
            heapq.heappush(heap, (s.script[len(s.events)].t, n))
    for n, s in enumerate(sessions, start=first):
        (folder / f"board-{n}.json").write_text(
            json.dumps([e.to_dict() for e in s.events]), encoding="utf-8"
        )
        (folder / f"board-{n}.count").write_text(str(len(s.events)))
    for p in publishers:
        p._publish_state()
    wait_for_the_station(folder)
    for p in publishers:
        p.close()


# ---------------------------------------------------------------------------- the station's side


def measure(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="hall-bench-"))
    broker = Mosquitto(folder).start()
    station = Station(BrokerAddress("127.0.0.1", broker.port), retry_s=2.0).start()
    station.connected.wait(10)
    page = reader = None
    if args.page:
        from arbiter.hall.web import HallPage

        page = HallPage(station).start("127.0.0.1", 0)
        reader = SseReader(*page.server.address)
    cpu0, wall0 = time.process_time(), time.monotonic()
    # paho's network loop uses select(), which takes file descriptors below 1024: about 300
    # clients a process; the boards are spread over processes of at most PER_PROCESS
    children = []
    for first in range(1, args.boards + 1, PER_PROCESS):
        count = min(PER_PROCESS, args.boards - first + 1)
        children.append(subprocess.Popen(
            [sys.executable, __file__, "--role", "boards", "--kind", args.kind, "--port",
             str(broker.port), "--boards", str(count), "--first", str(first), "--speed",
             str(args.speed), "--game-s", str(args.game_s), "--folder", str(folder)],
            cwd=ROOT,
        ))  # fmt: skip
    names = [str(n) for n in range(1, args.boards + 1)]
    counts = [folder / f"board-{n}.count" for n in names]
    while any(c.poll() is None for c in children) and not all(f.exists() for f in counts):
        time.sleep(0.2)
    played_s = time.monotonic() - wall0  # every board has played its game (or a child died)
    deadline = time.monotonic() + args.catch_up_s

    def held(name: str, path: Path) -> bool:
        link = station.boards.get(name)
        with station.lock:
            return link is not None and len(link.replay.events) >= int(path.read_text() or 0)

    while time.monotonic() < deadline and not all(
        f.exists() and held(n, f) for n, f in zip(names, counts, strict=True)
    ):
        time.sleep(0.2)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    (folder / "done").write_text("")
    for child in children:
        child.wait()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if page is not None:
        page.stop()
    station.close()
    broker.stop()
    synced = sum(1 for n in names if station.synced(n))
    events_total = sum(len(station.boards[n].replay.events) for n in names if n in station.boards)
    same = lost = 0
    histories: list[list[Event]] = []
    for n in names:
        link = station.boards.get(n)
        if args.kind == "sessions":
            own = (folder / f"board-{n}.pgn").read_text(encoding="utf-8")
            same += link is not None and link.replay.start is not None and station.pgn(n) == own
            count = int((folder / f"board-{n}.count").read_text() or 0)
            lost += count - (len(link.replay.events) if link is not None else 0)
            if link is not None:
                histories.append(list(link.replay.events))
        else:
            sent = [parse_event(d) for d in json.loads((folder / f"board-{n}.json").read_text())]
            got = link.replay.events if link is not None else []
            same += [e.to_dict() for e in got] == [e.to_dict() for e in sent]
            lost += len(sent) - len(got)
            histories.append(sent)
    c0 = time.process_time()
    for events in histories:
        rebuild(events)
    baseline_cpu = time.process_time() - c0
    lat = sorted(station.latencies)
    return {
        "kind": args.kind,
        "boards": args.boards,
        "speed": args.speed,
        "game_s": args.game_s,
        "wall_s": round(wall, 1),
        "played_s": round(played_s, 1),
        "caught_up_s_after": round(wall - played_s, 1),
        "events": events_total,
        "boards_synced": synced,
        "boards_identical": same,
        "events_lost": lost,
        "station_cpu_s": round(cpu, 2),
        "station_cpu_share_of_a_core": round(cpu / wall, 3),
        "station_peak_rss_mb": round(rss_mb, 1),
        "baseline_rules_cpu_s": round(baseline_cpu, 2),
        "station_cpu_over_baseline": round(cpu / baseline_cpu, 2) if baseline_cpu else None,
        "latency_ms_p50": round(1000 * statistics.median(lat), 1) if lat else None,
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 1) if lat else None,
        "gaps_asked": station.asked,
        **page_figures(page, reader),
    }


class SseReader:
    """One browser's worth of the hall's page: reads `/events`, counts the `hall` messages."""

    def __init__(self, host: str, port: int) -> None:
        import http.client

        self.messages = 0
        self.conn = http.client.HTTPConnection(host, port, timeout=600)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response:
                if line.startswith(b"event: hall"):
                    self.messages += 1
        except (OSError, ValueError):
            return


def page_figures(page: Any, reader: SseReader | None) -> dict[str, Any]:
    """The page's share of the latency: from a replayed step to the state that shows it."""
    if page is None or reader is None:
        return {}
    delays = sorted(page.delays)
    return {
        "page_states_sent": len(delays),
        "page_states_read_by_a_browser": reader.messages,
        "page_delay_ms_p50": round(1000 * statistics.median(delays), 1) if delays else None,
        "page_delay_ms_p99": round(1000 * delays[int(0.99 * (len(delays) - 1))], 1)
        if delays
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("sessions", "light"), default="sessions")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--speed", type=float, default=10.0)
    parser.add_argument("--game-s", type=float, default=900.0, help="each game's first S seconds")
    parser.add_argument("--role", choices=("station", "boards"), default="station")
    parser.add_argument("--port", type=int)
    parser.add_argument(
        "--catch-up-s",
        type=float,
        default=300.0,
        help="seconds the station is given, after the boards' games, to hold everything",
    )
    parser.add_argument(
        "--page", action="store_true",
        help="serve the hall's page with one SSE reader, and measure the page's delay",
    )  # fmt: skip
    parser.add_argument("--first", type=int, default=1, help="the first board's number")
    parser.add_argument("--folder")
    args = parser.parse_args()
    if args.role == "boards":
        run = run_sessions if args.kind == "sessions" else run_light
        run(args.port, args.first, args.boards, args.speed, args.game_s, Path(args.folder))
        return
    print(json.dumps(measure(args), indent=1))


if __name__ == "__main__":
    main()
