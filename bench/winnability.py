"""Speed and completeness of `rules.winnability`, as ratios against python-chess in the same run.

Speed (issue 19: median <= 5 ms, p99 <= 100 ms per position for `arbiter position`): every
`--step`-th position of the games in ../shared/data/games, `analyse` (both sides), timed in
CPU seconds; in the same run and on the same positions, python-chess's legal move generation
(`list(board.legal_moves)`) and `has_insufficient_material` (both sides) as baselines, so the
figures can be compared across runs on a machine whose load changes: the ratio of the medians
is what to compare.

Completeness and soundness, on (side, position) pairs built so that the answer is known
without the code under test (see bench/position.py for the generators and why each is
unwinnable):
- `pawn wall`: a closed wall of rammed pawns, kings on their own sides, bishops only of a
  colour no pawn of the wall can be taken on;
  (rooks behind such a wall are no family: a first version of this bench had one, and the
  analysis answered True with helpmates that replay: a rook can always step onto a square an
  enemy pawn attacks, be taken, and open the wall);
- `bishops of one colour`: bare kings and bishops all on one colour;
- oracle families (a plain python-chess enumeration of every reachable position, no code
  under test): walls with a gap, a bishop behind enemy lines, forced small positions, forced
  captures into bare kings, and the kinds of bench/winnability_kinds.py (blocked chains over
  part of the board with kings anywhere, the same with bishops, a king with at most one move
  against a queen, rook or pawns, a side to move with a single legal move).
A True answer on any of them is unsound; answers False are "found".

Run: .venv/bin/python bench/winnability.py [--step 20] [--limit 400] [--walls 150]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from position import game_positions, unwinnable_pairs  # noqa: E402

from rules.winnability import DEFAULT_BUDGET, analyse  # noqa: E402


def _stats(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    n = len(ordered)
    return statistics.median(ordered), ordered[min(n - 1, int(n * 0.99))], ordered[-1]


def speed(fens: list[str], budget: int) -> None:
    """Time `analyse` and the two python-chess baselines on the same positions."""
    ours: list[float] = []
    movegen: list[float] = []
    material: list[float] = []
    decided = 0
    for fen in fens:
        board = chess.Board(fen)
        t0 = time.process_time()
        list(board.legal_moves)
        movegen.append(time.process_time() - t0)
        t0 = time.process_time()
        board.has_insufficient_material(chess.WHITE)
        board.has_insufficient_material(chess.BLACK)
        material.append(time.process_time() - t0)
        t0 = time.process_time()
        result = analyse(board, budget=budget)
        ours.append(time.process_time() - t0)
        decided += (result.white is not None) + (result.black is not None)
    med, p99, top = _stats(ours)
    gen_med, gen_p99, _ = _stats(movegen)
    mat_med, _, _ = _stats(material)
    print(
        f"speed, {len(fens)} game positions (budget {budget}): analyse median {med * 1e3:.1f} ms,"
        f" p99 {p99 * 1e3:.1f} ms, max {top * 1e3:.1f} ms CPU; decided {decided} of"
        f" {2 * len(fens)} (side, position) pairs"
    )
    print(
        f"  baselines in the same run: legal move generation median {gen_med * 1e6:.0f} us"
        f" (p99 {gen_p99 * 1e6:.0f} us), has_insufficient_material x2 median"
        f" {mat_med * 1e6:.1f} us"
    )
    print(
        f"  ratios: analyse / legal move generation: median {med / gen_med:.0f}x,"
        f" p99 {p99 / gen_p99:.0f}x"
    )


def completeness(walls: int, searched: int, seed: int, budget: int) -> None:
    """Found share and unsound answers on the constructed pairs, per family."""
    pairs = list(unwinnable_pairs(walls, searched, seed))
    answers: dict[str, tuple[bool | None, bool | None]] = {}
    times: list[float] = []
    for fen in sorted({fen for _, fen, _ in pairs}):
        t0 = time.process_time()
        result = analyse(chess.Board(fen), budget=budget)
        times.append(time.process_time() - t0)
        answers[fen] = (result.white, result.black)
    tally: dict[str, list[int]] = {}
    found = unsound = baseline = 0
    for family, fen, color in pairs:
        row = tally.setdefault(family, [0, 0, 0])
        value = answers[fen][0 if color == chess.WHITE else 1]
        row[0] += 1
        if value is False:
            row[1] += 1
            found += 1
        elif value is True:
            row[2] += 1
            unsound += 1
            print(f"  UNSOUND: {fen} {chess.COLOR_NAMES[color]} answered True")
        baseline += chess.Board(fen).has_insufficient_material(color)
    med, p99, top = _stats(times)
    total = len(pairs)
    print(
        f"completeness, {total} unwinnable (side, position) pairs: found {found}"
        f" ({100 * found / total:.1f} %), unsound {unsound}; has_insufficient_material finds"
        f" {baseline} ({100 * baseline / total:.1f} %); analyse median {med * 1e3:.1f} ms,"
        f" p99 {p99 * 1e3:.1f} ms, max {top * 1e3:.1f} ms CPU per position"
    )
    for family, (n, ok, bad) in tally.items():
        print(f"  {family}: {ok}/{n} found, {bad} unsound")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--step", type=int, default=20, help="take every N-th game position")
    parser.add_argument("--limit", type=int, default=400, help="at most this many of them")
    parser.add_argument("--walls", type=int, default=150, help="positions per built family")
    parser.add_argument("--searched", type=int, default=20, help="candidates per oracle family")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    args = parser.parse_args(argv)
    speed(game_positions(args.step, args.limit), args.budget)
    completeness(args.walls, args.searched, args.seed, args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
