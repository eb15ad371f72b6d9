"""Benchmark: the rules core replaying real games, against python-chess alone.

For every game of ../shared/data/games/*.pgn (or --limit N of them), the event stream of
`arbiter simulate` is built first (not timed); then each event goes through `Game.handle`
and its latency is measured. The baseline, in the same run, pushes the same moves through
python-chess alone (`Board.push` and `Board.outcome()` per ply).

    python bench/replay.py [--sensor identity] [--limit 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import chess
import chess.pgn

from arbiter.simulate.game import simulate_game
from rules.game import Game

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "games"


def load_games(limit: int | None) -> list[chess.pgn.Game]:
    games = []
    for path in sorted(SHARED.glob("*.pgn")):
        with path.open(encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games.append(game)
                if limit and len(games) >= limit:
                    return games
    return games


def baseline(games: list[chess.pgn.Game]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of python-chess alone on the same moves."""
    t0, c0 = time.perf_counter(), time.thread_time()
    for game in games:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            board.outcome()
    return time.perf_counter() - t0, time.thread_time() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sensor",
        default="identity",
        choices=["identity", "occupancy", "snapshot", "snapshot-colour"],
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N games")
    args = parser.parse_args()
    games = load_games(args.limit)
    streams = [simulate_game(g, args.sensor) for g in games]
    n_events = sum(len(s) - 1 for s in streams)
    plies = sum(1 for g in games for _ in g.mainline_moves())

    base = baseline(games)
    latencies: list[int] = []
    cpu: list[int] = []
    t0, c0 = time.perf_counter(), time.thread_time()
    for stream in streams:
        game = Game(stream[0])  # type: ignore[arg-type]
        for ev in stream[1:]:
            c = time.thread_time_ns()
            a = time.perf_counter_ns()
            game.handle(ev)
            latencies.append(time.perf_counter_ns() - a)
            cpu.append(time.thread_time_ns() - c)
        game.finish()
    total, total_cpu = time.perf_counter() - t0, time.thread_time() - c0
    base2 = baseline(games)  # again, to see the machine's noise
    latencies.sort()
    cpu.sort()

    def pct(p: float, values: list[int] = latencies) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] / 1e6

    print(f"games {len(games)}, plies {plies}, events {n_events}, sensor {args.sensor}")
    print(f"rules core: {total:.2f} s, {n_events / total:,.0f} events/s")
    print(
        f"per event: median {statistics.median(latencies) / 1e6:.3f} ms, "
        f"p99 {pct(0.99):.3f} ms, max {latencies[-1] / 1e6:.3f} ms (wall clock)"
    )
    print(
        f"per event CPU time: median {statistics.median(cpu) / 1e6:.3f} ms, "
        f"p99 {pct(0.99, cpu):.3f} ms, max {cpu[-1] / 1e6:.3f} ms (this thread only)"
    )
    print(
        f"python-chess baseline (push + outcome per ply): wall {base[0]:.2f} s and "
        f"{base2[0]:.2f} s, CPU {base[1]:.2f} s and {base2[1]:.2f} s"
    )
    print(
        f"ratio rules core / baseline: wall {total / min(base[0], base2[0]):.2f}x, "
        f"CPU {total_cpu / min(base[1], base2[1]):.2f}x (rules core CPU {total_cpu:.2f} s)"
    )


if __name__ == "__main__":
    main()
