"""How long a ruling waits for the winnability analysis in the live session (issue 19: no
ruling delayed by more than 50 ms; FIDE 6.9, 5.1.2, 7.5.5, 5.2.2).

Two waits, each timed cold (nothing worked out ahead between moves, the worst case):

(a) a flag, a resignation or a second illegal move: `rules.ending.mate_verdict`'s search, for
    every (position, side) where it searches (locked pawns, or a few minor pieces and no
    pawns, and no static proof), with the budgets `--budgets` in positions: the CPU time to
    reach each budget (or the answer, if sooner) and how many pairs each budget decides;
(b) the dead-position check after a move in a locked position (`rules.ending.dead_position`:
    the screen, then both sides' analysis within `DEAD_POSITION_BUDGET`);
(c) the live session's flag and resignation (`Game.defer_verdicts`), cold: the `flag` ruled
    before the search (a resignation has nothing before its verdict), the verdict's slices
    (`Game.settle`, `AHEAD_NODES` positions each), and a lift meanwhile, ruled at once.

Positions: bench/position.py's game positions (every `--step`-th, at most `--limit`),
bench/winnability_same.py's random game positions (`--random`), and `--kinds` positions of
each kind where the ruling searches (seeded): walls with a gap and a white bishop behind a
closed wall (bench/position.py), blocked chains with or without bishops and stalemate traps
(bench/winnability_kinds.py), kings with one to three knights or bishops and no pawns.
Times are CPU seconds of this process on a shared machine: the figures to compare are those
of one run (alternate the trees with `--tree`).

Run: .venv/bin/python bench/ruling_wait.py [--tree DIR] [--budgets 300,500,1000,2500]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tree", default=str(HERE.parent), help="checkout whose rules to run")
    parser.add_argument("--budgets", default="300,500,1000,2500")
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--limit", type=int, default=3000)
    parser.add_argument("--random", type=int, default=3000)
    parser.add_argument("--kinds", type=int, default=100, help="positions of each kind")
    args = parser.parse_args(argv)
    tree = Path(args.tree).resolve()
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(tree))
    import chess

    import rules.winnability

    where = Path(rules.winnability.__file__).resolve()
    if not where.is_relative_to(tree):
        raise SystemExit(f"rules was imported from {where}, not from {tree}")
    from position import bishop_behind_enemy_lines, game_positions, wall_with_gap
    from positions import sparse_position
    from winnability_kinds import chain_with_bishops, partial_chain, stalemate_trap
    from winnability_same import _random_positions

    from rules import ending
    from rules.winnability import ahead
    from rules.winnability.explain import static_reason
    from rules.winnability.search import HelpmateSearch
    from rules.winnability.static import cannot_mate, rams

    budgets = sorted(int(b) for b in args.budgets.split(","))
    fens = game_positions(args.step, args.limit) + _random_positions(args.random, 19)
    rng = random.Random(2026)
    minor = (chess.KNIGHT, chess.BISHOP)
    for make in (
        wall_with_gap,
        bishop_behind_enemy_lines,
        partial_chain,
        chain_with_bishops,
        stalemate_trap,
        lambda r: sparse_position(r, minor, (1, 4)),
    ):
        fens += [make(rng).fen() for _ in range(args.kinds)]
    fens = list(dict.fromkeys(fens))

    # (a) the ruling's search, cold, timed up to each budget
    reach: dict[int, list[float]] = {b: [] for b in budgets}
    decided = dict.fromkeys(budgets, 0)
    per_node: list[float] = []
    pairs = 0
    for fen in fens:
        board = chess.Board(fen)
        for color in chess.COLORS:
            if not ending.searched(board, color) or board.has_insufficient_material(color):
                continue
            if board.is_checkmate() or static_reason(board, color) is not None:
                continue
            if rams(board) and cannot_mate(board, color):
                continue
            pairs += 1
            ahead.forget()
            c0 = time.process_time()
            search = HelpmateSearch(board, color)
            done_at = None
            for budget in budgets:
                if done_at is None and search.run(budget - search.expanded):
                    done_at = search.expanded
                spent = time.process_time() - c0
                reach[budget].append(spent)
                if done_at is not None and done_at <= budget:
                    decided[budget] += 1
            if search.expanded >= 50:
                per_node.append((time.process_time() - c0) / search.expanded)
    print(
        f"(a) flag / resignation / second illegal move: {pairs} searched (position, side)"
        f" pairs of {len(fens)} positions, cold"
    )
    for budget in budgets:
        times = reach[budget]
        if not times:
            continue
        print(
            f"    budget {budget:5d}: wait median {statistics.median(times) * 1e3:.1f} ms, "
            f"p99 {_pct(times, 0.99) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms CPU; "
            f"decided {decided[budget]} of {pairs}"
        )
    if per_node:
        print(
            f"    CPU per expanded position (searches of 50 or more): median "
            f"{statistics.median(per_node) * 1e6:.0f} us, max {max(per_node) * 1e6:.0f} us"
        )

    # (c) the live session's flag and resignation, cold: the `flag` ruled at once (a
    # resignation has nothing before its verdict), the verdict from `Game.settle` a slice of
    # AHEAD_NODES positions at a time between inputs; and an input that comes meanwhile
    from arbiter.live.session import AHEAD_NODES
    from rules.events import Lift, Resign, Start, Tick
    from rules.game import Game

    for ending_kind in ("flag", "resignation"):
        first_waits: list[float] = []
        slice_waits: list[float] = []
        verdict_waits: list[float] = []
        input_waits: list[float] = []
        for fen in fens:
            board = chess.Board(fen)
            color = not board.turn  # the side that may win: the side to move flags or resigns
            if not ending.searched(board, color) or board.has_insufficient_material(color):
                continue
            if board.is_checkmate() or static_reason(board, color) is not None:
                continue
            ahead.forget()
            game = Game(Start(t=0.0, fen=fen, time_control="60"))
            game.defer_verdicts = True
            loser = "white" if board.turn == chess.WHITE else "black"
            event = Tick(t=61.0) if ending_kind == "flag" else Resign(t=5.0, side=loser)
            c0 = time.process_time()
            game.handle(event)
            first_waits.append(time.process_time() - c0)
            sliced = 0
            while True:
                s0 = time.process_time()
                rest = game.settle(AHEAD_NODES)
                slice_waits.append(time.process_time() - s0)
                sliced += 1
                if rest is not None:
                    break
                if sliced == 1:  # a piece lifted meanwhile: ruled without waiting
                    king = board.king(board.turn)
                    assert king is not None
                    lift = Lift(t=70.0, square=chess.square_name(king), piece=None)
                    i0 = time.process_time()
                    game.handle(lift)
                    input_waits.append(time.process_time() - i0)
            verdict_waits.append(time.process_time() - c0)
        if not first_waits:
            continue
        what = "the flag ruled" if ending_kind == "flag" else "the resignation taken"
        print(
            f"(c) live {ending_kind}, cold, {len(first_waits)} searched positions: {what} in"
            f" median {statistics.median(first_waits) * 1e3:.2f} ms, max"
            f" {max(first_waits) * 1e3:.2f} ms CPU; its verdict in slices of {AHEAD_NODES}"
            f" positions between inputs: slice p99 {_pct(slice_waits, 0.99) * 1e3:.1f} ms,"
            f" max {max(slice_waits) * 1e3:.1f} ms; the verdict after median"
            f" {statistics.median(verdict_waits) * 1e3:.1f} ms, max"
            f" {max(verdict_waits) * 1e3:.1f} ms CPU; an input meanwhile ("
            f"{len(input_waits)}) ruled in max"
            f" {max(input_waits, default=0.0) * 1e3:.2f} ms"
        )

    # (b) the dead-position check after a move, where it runs (every pawn locked, no queen)
    waits: list[float] = []
    dead = 0
    for fen in fens:
        board = chess.Board(fen)
        if board.queens or not board.pawns:
            continue
        ahead.forget()
        c0 = time.process_time()
        why = ending.dead_position(SimpleNamespace(board=board))  # type: ignore[arg-type]
        waits.append(time.process_time() - c0)
        dead += why is not None
    if waits:
        print(
            f"(b) dead-position check after a move, budget {ending.DEAD_POSITION_BUDGET} a "
            f"side, {len(waits)} positions with pawns and no queen (cold, no move stack): "
            f"median {statistics.median(waits) * 1e3:.2f} ms, p99 "
            f"{_pct(waits, 0.99) * 1e3:.1f} ms, max {max(waits) * 1e3:.1f} ms CPU; dead {dead}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
