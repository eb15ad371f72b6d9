"""Benchmark: the search for the plies that explain a board report far from the game (issue 17,
D4), on the reports of tests/rules/test_far_report.py (worst case first), then on seeded
random reports.

Each report is a position of the test's game and a board as a sensor would show a later (or
earlier) one; `find_match` is asked which plies, up to `max_plies`, explain it. Its work is
bounded by a count (`rules.sensed.SEARCH_NODES` plies tried, so that replays rule exactly as
the game did); this prints the CPU time of each report (best of --repeat runs) and the plies
it tried. A Raspberry Pi 4 is some 3-4 times slower per core than the development machine.

The random reports (`--random`, seeded): a game of 0 to 70 random plies, and a board 1 to 9
random plies further on, shown with kinds, colours only or occupancy only (a third of them
with one piece moved off its square as well), asked with `max_plies` 2 to 8: how many are
explained, proven unexplained, or beyond the budget, and the worst CPU time of one search.

    python bench/far_report.py [--repeat 20] [--random 300]
    PYTHONPATH=/tmp/before python bench/far_report.py   # another checkout's rules core
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "rules"))

from test_far_report import GAME, placements

from rules.sensed import SEARCH_NODES, BeyondBudget, Match, SearchBudget, find_match


def report(played: int, shown: int, max_plies: int) -> tuple[chess.Board, list[str | None]]:
    """The game after `played` plies, and the board after `shown` plies as a sensor shows it."""
    board = chess.Board()
    for san in GAME[:played]:
        board.push_san(san)
    sensed: list[str | None] = [None] * 64
    for square, piece in chess.Board(placements()[shown] + " w - - 0 1").piece_map().items():
        sensed[square] = piece.symbol()
    return board, sensed


#: (label, plies played, plies the board shows, max_plies): the test's reports
REPORTS = [
    *((f"30 plies, board of ply 1, max_plies {n}", 30, 1, n) for n in (2, 4, 6, 8)),
    *((f"15 plies, board of ply 30, max_plies {n}", 15, 30, n) for n in (6, 7, 8)),
    ("10 plies, board of ply 12 (an outage), max_plies 8", 10, 12, 8),
]


def random_reports(count: int, seed: int = 17) -> list[tuple[chess.Board, list[str | None], int]]:
    """Seeded far reports (see the module's docstring): (position, board as sensed, max_plies)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = chess.Board()
        for _ in range(rng.randint(0, 70)):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        later = board.copy(stack=False)
        for _ in range(rng.randint(1, 9)):
            legal = list(later.legal_moves)
            if not legal:
                break
            later.push(rng.choice(legal))
        shows = rng.choice(("kinds", "colours", "occupancy"))
        sensed: list[str | None] = [None] * 64
        for square, piece in later.piece_map().items():
            letter = piece.symbol()
            if shows == "colours":
                letter = "X" if piece.color else "x"
            elif shows == "occupancy":
                letter = "?"
            sensed[square] = letter
        if rng.random() < 1 / 3:  # a piece moved off its square as well
            full = [sq for sq in range(64) if sensed[sq] is not None]
            empty = [sq for sq in range(64) if sensed[sq] is None]
            frm, to = rng.choice(full), rng.choice(empty)
            sensed[to], sensed[frm] = sensed[frm], None
        out.append((board, sensed, rng.randint(2, 8)))
    return out


def random_summary(count: int, repeat: int) -> None:
    """The random reports: answers, plies tried and the worst CPU time of one search."""
    answers = {"explained": 0, "nothing": 0, "beyond the budget": 0}
    times = []
    tried_most = 0
    for board, sensed, max_plies in random_reports(count):
        best = float("inf")
        for _ in range(repeat):
            budget = SearchBudget()
            c0 = time.thread_time()
            found = find_match(board, sensed, max_plies=max_plies, budget=budget)
            best = min(best, time.thread_time() - c0)
        tried_most = max(tried_most, SEARCH_NODES - budget.left)
        times.append(best)
        if isinstance(found, BeyondBudget):
            answers["beyond the budget"] += 1
        elif isinstance(found, Match):
            answers["explained"] += 1
        else:
            answers["nothing"] += 1
    times.sort()
    print(
        f"{count} random reports (best of {repeat}): "
        + ", ".join(f"{n} {what}" for what, n in answers.items())
        + f"; CPU time worst {times[-1] * 1e3:.2f} ms, 99th percentile"
        f" {times[int(0.99 * (len(times) - 1))] * 1e3:.2f} ms, total {sum(times) * 1e3:.0f} ms;"
        f" most plies tried {tried_most}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of each report (best)")
    parser.add_argument("--random", type=int, default=300, help="seeded random reports")
    args = parser.parse_args()
    rows = []
    for label, played, shown, max_plies in REPORTS:
        board, sensed = report(played, shown, max_plies)
        best = float("inf")
        tried = 0
        answer = ""
        for _ in range(args.repeat):
            budget = SearchBudget()
            c0 = time.thread_time()
            found = find_match(board, sensed, max_plies=max_plies, budget=budget)
            best = min(best, time.thread_time() - c0)
            tried = SEARCH_NODES - budget.left
            if isinstance(found, BeyondBudget):
                answer = "beyond the budget"
            elif isinstance(found, Match):
                answer = " ".join(m.uci() for m in found.moves)
            else:
                answer = "nothing"
        rows.append((best, label, tried, answer))
    print(f"SEARCH_NODES {SEARCH_NODES}; CPU time, best of {args.repeat}:")
    for best, label, tried, answer in sorted(rows, reverse=True):
        print(f"{best * 1e3:8.2f} ms  {tried:4d} plies tried  {label}: {answer}")
    if args.random:
        random_summary(args.random, max(1, args.repeat // 5))


if __name__ == "__main__":
    main()
