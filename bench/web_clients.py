"""Benchmark: the game's web page with many browsers connected (issue 13, item 6).

Three figures, each beside a baseline measured in the same run:

1. **start-up**: `arbiter play --web 127.0.0.1:0` from the command to the page answering
   `/api/state`, beside the same command without `--web` from the command to the journal's
   first line (what the game needs anyway).
2. **idle**: the CPU (share of one core) and memory (RSS) of the process that plays a game and
   serves its page, with no move being made and the clock running, over `--idle-s` seconds:
   with 0 and with 10 Server-Sent-Events clients connected (the `now` message every 5 s to
   each is all they get), and the RSS without any page.
3. **latency**: 100 SSE clients connected; a game's moves are given to the live session
   (`Session.queue`, as a board source gives them) every `--gap` s; for every move, the time
   from putting its last event (the press) on the queue to each client's receipt of the
   `rulings` message that holds the move: the rules, the journal (fsynced), the feed, the
   hub and the network, p50/p99/max over clients × moves. Baseline: the same with 1 client.

The clients run in a child process (asyncio, raw sockets), so they do not share the
server's interpreter; both read `time.monotonic()`, one clock for the whole machine.

    .venv/bin/python bench/web_clients.py [--idle-s 10] [--moves 40] [--gap 0.15]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# ---------------------------------------------------------------------- the clients (child)


async def _client(port: int, out: dict[int, float], ready: asyncio.Event, count: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    event = None
    while True:
        line = await reader.readline()
        if not line:
            return
        text = line.decode().strip()
        if text.startswith("event:"):
            event = text[6:].strip()
        elif text.startswith("data:"):
            now = time.monotonic()
            if event == "state":
                count[0] += 1
                if count[0] == count[1]:
                    ready.set()
            elif event == "rulings" and '"type":"move"' in text:  # parse only what counts
                data = json.loads(text[5:])
                for ruling in data["rulings"]:
                    if ruling["type"] == "move":
                        out.setdefault(ruling["ply"], now)


async def _clients_main(port: int, n: int, seconds: float, expect: int) -> dict[str, Any]:
    ready = asyncio.Event()
    count = [0, n]
    received: list[dict[int, float]] = [{} for _ in range(n)]
    tasks = [asyncio.create_task(_client(port, received[i], ready, count)) for i in range(n)]
    await asyncio.wait_for(ready.wait(), 30)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    deadline = time.monotonic() + seconds
    # until the time is up (`seconds`), or every client has every move (`expect`, if given)
    while time.monotonic() < deadline and not (expect and all(len(r) >= expect for r in received)):
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    return {"received": [{str(k): v for k, v in r.items()} for r in received]}


def clients(port: int, n: int, seconds: float, expect: int) -> None:
    result = asyncio.run(_clients_main(port, n, seconds, expect))
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


def spawn_clients(port: int, n: int, seconds: float, expect: int = 0) -> subprocess.Popen[str]:
    """`n` SSE clients in a child process, for `seconds` at most (less once each has
    received `expect` moves)."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--clients", str(port), str(n), str(seconds), str(expect)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        raise SystemExit(f"the clients did not connect: {line!r}")
    return proc


# ---------------------------------------------------------------------- the server (this process)


def cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def live_game(tc: str, journal: Path | None) -> Any:
    from arbiter.clock import MonotonicClock
    from arbiter.live.session import Session
    from rules.events import Start

    session = Session.new(Start(t=0.0, time_control=tc), journal, MonotonicClock())
    thread = threading.Thread(target=session.run, daemon=True)
    thread.start()
    return session, thread


def idle(seconds: float) -> dict[str, float]:
    from arbiter.web.live import start_page

    rss_before = rss_mb()
    session, thread = live_game("3600", None)
    time.sleep(0.5)
    rss_game = rss_mb()
    page = start_page(session, "127.0.0.1:0", controls=False)
    port = page.server.address[1]
    out: dict[str, float] = {"rss_no_page_mb": rss_game, "rss_python_mb": rss_before}
    # 0 clients
    began, cpu0 = time.monotonic(), cpu_seconds()
    time.sleep(seconds)
    out["cpu_0_clients_pct"] = 100 * (cpu_seconds() - cpu0) / (time.monotonic() - began)
    # 10 clients
    proc = spawn_clients(port, 10, seconds + 2)
    time.sleep(0.5)
    began, cpu0 = time.monotonic(), cpu_seconds()
    time.sleep(seconds)
    out["cpu_10_clients_pct"] = 100 * (cpu_seconds() - cpu0) / (time.monotonic() - began)
    out["rss_10_clients_mb"] = rss_mb()
    proc.communicate(timeout=30)
    session.stop()
    thread.join(5)
    page.stop()
    return out


def latency(n_clients: int, moves: int, gap: float) -> tuple[list[float], list[float]]:
    """(press -> move at each client, press -> move published by the session) in seconds."""
    import chess

    from arbiter.demo.game import demo_game
    from arbiter.web.live import start_page
    from rules.events import Lift, Place, Press

    with tempfile.TemporaryDirectory() as tmp:
        session, thread = live_game("3600+2", Path(tmp) / "j.jsonl")
        page = start_page(session, "127.0.0.1:0", controls=False)
        published: dict[int, float] = {}

        def probe(rulings: list[Any], t: float) -> None:
            """After the feed: the session thread has published the move, free again."""
            for ruling in rulings:
                if ruling.type == "move":
                    published.setdefault(ruling.ply, time.monotonic())

        session.sinks.append(probe)
        port = page.server.address[1]
        plies = list(demo_game().mainline_moves())[:moves]
        proc = spawn_clients(port, n_clients, len(plies) * gap + 60, expect=len(plies))
        board = chess.Board()
        sent: dict[int, float] = {}
        clock = session.clock
        for ply, move in enumerate(plies, start=1):
            side: Literal["white", "black"] = "white" if board.turn else "black"
            piece = board.piece_at(move.from_square)
            assert piece is not None
            frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
            letter = piece.symbol()
            if board.is_capture(move) and not board.is_en_passant(move):
                captured = board.piece_at(move.to_square)
                assert captured is not None
                session.queue.put(Lift(t=clock.now(), square=to, piece=captured.symbol()))
            session.queue.put(Lift(t=clock.now(), square=frm, piece=letter))
            for extra in _extra_pieces(board, move):
                session.queue.put(extra(clock.now()))
            session.queue.put(Place(t=clock.now(), square=to, piece=_placed(board, move)))
            sent[ply] = time.monotonic()
            session.queue.put(Press(t=clock.now(), side=side))
            board.push(move)
            time.sleep(gap)
        out, _ = proc.communicate(timeout=120)
        session.stop()
        thread.join(5)
        page.stop()
    received = json.loads(out.splitlines()[-1])["received"]
    lags = []
    for per_client in received:
        for ply, at in per_client.items():
            lags.append(at - sent[int(ply)])
    missing = n_clients * len(plies) - len(lags)
    if missing:
        raise SystemExit(f"{missing} moves never reached a client")
    session_lags = [published[ply] - sent[ply] for ply in sent]
    return lags, session_lags


def _placed(board: Any, move: Any) -> str:
    import chess

    piece = board.piece_at(move.from_square)
    if move.promotion:
        return chess.Piece(move.promotion, piece.color).symbol()
    return str(piece.symbol())


def _extra_pieces(board: Any, move: Any) -> list[Any]:
    """The rook of a castling and the pawn taken en passant, as a board reports them."""
    import chess

    from rules.events import Lift, Place

    out: list[Any] = []
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rook_from = chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        letter = "R" if board.turn else "r"
        out.append(lambda t: Lift(t=t, square=chess.square_name(rook_from), piece=letter))
        out.append(lambda t: Place(t=t, square=chess.square_name(rook_to), piece=letter))
    if board.is_en_passant(move):
        taken = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
        letter = "p" if board.turn else "P"
        out.append(lambda t: Lift(t=t, square=chess.square_name(taken), piece=letter))
    return out


def startup(runs: int) -> dict[str, float]:
    stream = {"t": 0, "type": "start", "time_control": "600"}
    with tempfile.TemporaryDirectory() as tmp:
        events = Path(tmp) / "start.jsonl"
        events.write_text(json.dumps(stream) + "\n")
        with_web, without = [], []
        for i in range(runs):
            for web in (True, False):
                journal = Path(tmp) / f"j{i}{web}.jsonl"
                command = [
                    sys.executable, "-m", "arbiter.cli", "play", "--events", str(events),
                    "--no-keyboard", "--display", "plain", "--journal", str(journal),
                ]  # fmt: skip
                if web:
                    command += ["--web", "127.0.0.1:0"]
                began = time.monotonic()
                proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=tmp)
                assert proc.stdout is not None
                if web:
                    line = proc.stdout.readline()
                    while "web page:" not in line:
                        line = proc.stdout.readline()
                    url = line.split()[2]
                    urllib.request.urlopen(url + "api/state", timeout=10).read()
                    with_web.append(time.monotonic() - began)
                else:
                    while not (journal.exists() and journal.stat().st_size > 0):
                        time.sleep(0.005)
                    without.append(time.monotonic() - began)
                proc.terminate()
                proc.communicate(timeout=10)
    return {"with_web_s": statistics.median(with_web), "without_web_s": statistics.median(without)}


def session_cost(repeats: int) -> dict[str, float]:
    """Seconds to rule the demo game's events through a `Session` (no journal, no display),
    with and without the page's feed attached (no client connected)."""
    from arbiter.clock import FakeClock
    from arbiter.demo.game import demo_events
    from arbiter.live.session import Session
    from arbiter.web.feed import GameFeed
    from rules.events import Start

    events = demo_events()
    start = events[0]
    assert isinstance(start, Start)

    def run(feed: bool) -> float:
        clock = FakeClock(0.0)
        session = Session.new(start, None, clock)
        if feed:
            GameFeed().attach(session)
        began = time.perf_counter()
        for event in events[1:]:
            clock.set(event.t)
            session.submit(event)
        return time.perf_counter() - began

    best = {True: float("inf"), False: float("inf")}
    for _ in range(repeats):
        for feed in (False, True):
            best[feed] = min(best[feed], run(feed))
    return {"without_s": best[False], "with_s": best[True], "events": len(events) - 1}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-s", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.15)
    parser.add_argument("--runs", type=int, default=3, help="start-ups of each kind")
    parser.add_argument("--clients", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients:
        port, n, seconds, expect = args.clients
        clients(int(port), int(n), float(seconds), int(expect))
        return
    load = os.getloadavg()
    print(f"machine   {os.cpu_count()} cores, load average {load[0]:.1f} (1 min) at the start")
    cost = session_cost(5)
    print(
        f"session   the demo's {cost['events']} events ruled in {cost['with_s'] * 1e3:.1f} ms"
        f" with the page's feed attached (no client), {cost['without_s'] * 1e3:.1f} ms without"
        f" (ratio {cost['with_s'] / cost['without_s']:.2f}; best of 5)"
    )
    started = startup(args.runs)
    print(
        f"start-up  arbiter play --web: {started['with_web_s']:.2f} s to the page answering;"
        f" without --web: {started['without_web_s']:.2f} s to the journal's first line"
        f" (ratio {started['with_web_s'] / started['without_web_s']:.2f})"
    )
    figures = idle(args.idle_s)
    print(
        f"idle      CPU {figures['cpu_10_clients_pct']:.2f} % of a core with 10 SSE clients,"
        f" {figures['cpu_0_clients_pct']:.2f} % with none;"
        f" RSS {figures['rss_10_clients_mb']:.1f} MB with the page and 10 clients,"
        f" {figures['rss_no_page_mb']:.1f} MB for the game without a page"
    )
    for n in (1, 100):
        lags, session_lags = latency(n, args.moves, args.gap)
        print(
            f"session   {n:3d} client(s): press -> move ruled, journaled and published by the"
            f" session: p50 {quantile(session_lags, 0.5) * 1e3:.1f} ms,"
            f" p99 {quantile(session_lags, 0.99) * 1e3:.1f} ms"
        )
        p50 = quantile(lags, 0.5) * 1e3
        print(
            f"latency   {n:3d} client(s), {len(lags)} deliveries: p50 {p50:.1f} ms,"
            f" p99 {quantile(lags, 0.99) * 1e3:.1f} ms, max {max(lags) * 1e3:.1f} ms"
            " (press on the queue -> move ruling at the client)"
        )
    print(f"machine   load average {os.getloadavg()[0]:.1f} (1 min) at the end")


if __name__ == "__main__":
    main()
