"""Benchmark: the rules core replaying real games, against python-chess alone, in one run.

For every game of ../shared/data/games/*.pgn (or --limit N of them) the event stream of
`arbiter simulate` is built first (not timed). Then, `--repeat` times and interleaved so that
the machine's noise falls on both alike: python-chess alone pushes the same moves
(`Board.push` and `Board.outcome()` per ply: the baseline), and every event goes through
`Game.handle`. The figure is the ratio of the best CPU times (this thread only) of the two:
on a loaded machine a run can only be slowed down, never sped up, so the best of several
is the closest to the code's own cost. Per-event latencies come from one more pass of the
rules core, timed event by event (apart, so that the timers do not weigh on the ratio).

`--against DIR` runs the same rounds with the rules core of another checkout (e.g. one made
with `git worktree add /tmp/before main`) in a second process, the two alternating round by
round, and prints both ratios and their quotient: before/after figures from one run.

    python bench/replay.py [--sensor identity] [--limit 200] [--repeat 5] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.pgn

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "games"
SENSORS = ["identity", "occupancy", "snapshot", "snapshot-colour"]


def load_games(limit: int | None) -> list[chess.pgn.Game]:
    games = []
    for path in sorted(SHARED.glob("*.pgn")):
        with path.open(encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games.append(game)
                if limit and len(games) >= limit:
                    return games
    return games


@dataclass
class Workload:
    """The games and their event streams, built once (not timed)."""

    games: list[chess.pgn.Game]
    streams: list[list[Any]]

    @classmethod
    def build(cls, limit: int | None, sensor: str) -> Workload:
        from arbiter.simulate.game import simulate_game

        games = load_games(limit)
        return cls(games, [simulate_game(g, sensor) for g in games])

    @property
    def plies(self) -> int:
        return sum(1 for g in self.games for _ in g.mainline_moves())

    @property
    def events(self) -> int:
        return sum(len(s) - 1 for s in self.streams)


def baseline_cpu(work: Workload) -> float:
    """CPU seconds of python-chess alone on the same moves."""
    c0 = time.thread_time()
    for game in work.games:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            board.outcome()
    return time.thread_time() - c0


def rules_cpu(work: Workload) -> float:
    """CPU seconds of the rules core on every event of every stream (and `finish`)."""
    from rules.game import Game

    c0 = time.thread_time()
    for stream in work.streams:
        game = Game(stream[0])
        for ev in stream[1:]:
            game.handle(ev)
        game.finish()
    return time.thread_time() - c0


def latencies(work: Workload) -> tuple[list[int], list[int]]:
    """Wall-clock and CPU nanoseconds of each `Game.handle`, sorted."""
    from rules.game import Game

    wall: list[int] = []
    cpu: list[int] = []
    for stream in work.streams:
        game = Game(stream[0])
        for ev in stream[1:]:
            c = time.thread_time_ns()
            a = time.perf_counter_ns()
            game.handle(ev)
            wall.append(time.perf_counter_ns() - a)
            cpu.append(time.thread_time_ns() - c)
        game.finish()
    return sorted(wall), sorted(cpu)


def one_round(work: Workload) -> tuple[float, float]:
    """(baseline CPU, rules core CPU) of one round, the baseline first."""
    return baseline_cpu(work), rules_cpu(work)


def worker(limit: int | None, sensor: str) -> None:
    """Answer `run` lines on stdin with one round's figures as JSON (for `--against`)."""
    work = Workload.build(limit, sensor)
    import rules

    print(json.dumps({"ready": str(Path(rules.__file__).parent.parent)}), flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        base, core = one_round(work)
        print(json.dumps({"base": base, "rules": core}), flush=True)


class Remote:
    """A worker process whose `rules` and `arbiter` packages come from `checkout`."""

    def __init__(self, checkout: Path, limit: int | None, sensor: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(checkout))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--sensor", sensor]
        if limit:
            cmd += ["--limit", str(limit)]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.where = self._read()["ready"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"bench worker failed (exit {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def round(self) -> tuple[float, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        answer = self._read()
        return answer["base"], answer["rules"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def summary(label: str, rounds: list[tuple[float, float]]) -> float:
    """Print best-of-N CPU times and the ratio; return the ratio."""
    base = min(b for b, _ in rounds)
    core = min(r for _, r in rounds)
    ratio = core / base
    spread = [r / b for b, r in rounds]
    print(
        f"{label}: rules core CPU best {core:.3f} s, python-chess best {base:.3f} s: "
        f"ratio {ratio:.2f}x (per round {min(spread):.2f}x to {max(spread):.2f}x, "
        f"median {statistics.median(spread):.2f}x)"
    )
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sensor", default="identity", choices=SENSORS)
    parser.add_argument("--limit", type=int, default=None, help="only the first N games")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (best counts)")
    parser.add_argument(
        "--against", type=Path, default=None, help="also time the rules core of this checkout"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.limit, args.sensor)
        return
    work = Workload.build(args.limit, args.sensor)
    print(
        f"games {len(work.games)}, plies {work.plies}, events {work.events}, sensor {args.sensor}"
    )
    remote = Remote(args.against, args.limit, args.sensor) if args.against else None
    here: list[tuple[float, float]] = []
    there: list[tuple[float, float]] = []
    for i in range(args.repeat):
        # alternate which goes first, so neither always meets the machine's same moment
        if remote is not None and i % 2:
            there.append(remote.round())
        here.append(one_round(work))
        if remote is not None and not i % 2:
            there.append(remote.round())
    wall, cpu = latencies(work)

    def pct(values: list[int], p: float) -> float:
        return values[min(len(values) - 1, int(p * len(values)))] / 1e6

    print(
        f"per event (one pass): wall median {statistics.median(wall) / 1e6:.3f} ms, "
        f"p99 {pct(wall, 0.99):.3f} ms, max {wall[-1] / 1e6:.3f} ms; CPU median "
        f"{statistics.median(cpu) / 1e6:.3f} ms, p99 {pct(cpu, 0.99):.3f} ms, "
        f"max {cpu[-1] / 1e6:.3f} ms"
    )
    ratio = summary("this checkout", here)
    if remote is not None:
        remote.close()
        other = summary(f"--against {remote.where}", there)
        print(f"this checkout / --against: {ratio / other:.3f} (below 1: this one is faster)")


if __name__ == "__main__":
    main()
