"""Do two versions of `rules.winnability` give the same answers? (issue 19: faster, not different)

Speed work on the winnability analysis (FIDE 5.2.2, 6.9, 7.5.5) must not change one answer.
This script records, for a fixed set of positions, every answer the analysis gives: for each
side `decide`'s verdict (True / False / None) and its helpmate line, `why_cannot_mate`'s reason,
and `may_be_dead` after every move of replayed games; then it compares two such records.

The set: bench/position.py's game positions (every `--step`-th position, at most `--limit`),
`--random` positions drawn at random plies of the games in ../shared/data/games (seeded), and
the constructed unwinnable set of bench/position.py (`unwinnable_pairs`, small counts by
default since its oracle is slow), plus any FENs listed in `--fens FILE` (one a line).

Run the old tree and the new one on the same set, then compare:
  .venv/bin/python bench/winnability_same.py --tree /work/main --out /tmp/old.json
  .venv/bin/python bench/winnability_same.py --tree . --out /tmp/new.json
  .venv/bin/python bench/winnability_same.py --compare /tmp/old.json /tmp/new.json
`--tree` is the checkout whose `rules` package is imported (this script's own by default).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _import_tree(tree: Path) -> None:
    """Import `rules` from `tree` before anything else can: bench/position.py puts its own
    checkout first on the path when it is imported, which used to make `--tree` import this
    script's `rules` whatever the tree asked."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(tree.resolve()))
    import rules.winnability

    where = Path(rules.winnability.__file__).resolve()
    if not where.is_relative_to(tree.resolve()):
        raise SystemExit(f"rules was imported from {where}, not from {tree}")


def _random_positions(count: int, seed: int) -> list[str]:
    """`count` positions at random plies of random games of ../shared/data/games."""
    import chess
    import chess.pgn

    games: list[list[chess.Move]] = []
    root = HERE.parent.parent / "shared" / "data" / "games"
    for path in sorted(glob.glob(str(root / "*.pgn"))):
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games.append(list(game.mainline_moves()))
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        moves = rng.choice(games)
        if not moves:
            continue
        board = chess.Board()
        for move in moves[: rng.randrange(1, len(moves) + 1)]:
            board.push(move)
        fens.append(board.fen())
    return fens


def dump(args: argparse.Namespace) -> int:
    _import_tree(Path(args.tree))
    import chess
    import chess.pgn
    from position import GAMES, game_positions, unwinnable_pairs

    from rules.winnability import ahead, decide, may_be_dead, why_cannot_mate
    from rules.winnability.screen import _certified

    fens = game_positions(args.step, args.limit)
    fens += _random_positions(args.random, args.seed)
    fens += sorted({fen for _, fen, _ in unwinnable_pairs(args.walls, args.searched)})
    if args.fens:
        text = Path(args.fens).read_text(encoding="utf-8")
        fens += [line.strip() for line in text.splitlines() if line.strip()]
    record: dict[str, object] = {}
    for n, fen in enumerate(fens):
        row = []
        for color in chess.COLORS:
            ahead.forget()
            found, line = decide(chess.Board(fen), color, args.budget)
            reason = why_cannot_mate(chess.Board(fen), color, args.budget)
            row.append([found, [m.uci() for m in line or []], reason])
        record[f"{n} {fen}"] = row
    screens: list[bool] = []
    _certified.clear()
    ahead.forget()
    played = 0
    for path in sorted(glob.glob(str(GAMES / "*.pgn"))):
        with open(path, encoding="utf-8") as handle:
            while played < args.games and (game := chess.pgn.read_game(handle)) is not None:
                played += 1
                board = game.board()
                for move in game.mainline_moves():
                    board.push(move)
                    screens.append(may_be_dead(board))
    record["may_be_dead"] = screens
    Path(args.out).write_text(json.dumps(record))
    print(f"{len(fens)} positions, {len(screens)} screened positions -> {args.out}")
    return 0


def compare(old_path: str, new_path: str) -> int:
    """Count the differences between two records, on the positions both hold (a record of a
    smaller set, made with smaller counts, is compared on what it shares with a larger one)."""
    old = _by_fen(json.loads(Path(old_path).read_text()))
    new = _by_fen(json.loads(Path(new_path).read_text()))
    shared = [fen for fen in old if fen in new and fen != "may_be_dead"]
    verdicts = lines = reasons = 0
    for fen in shared:
        for color, (a, b) in enumerate(zip(old[fen], new[fen], strict=True)):
            side = "white" if color == 0 else "black"
            if a[0] != b[0]:
                verdicts += 1
                print(f"  verdict {a[0]} -> {b[0]}: {fen} ({side})")
            elif a[1] != b[1]:
                lines += 1
            if a[2] != b[2]:
                reasons += 1
                print(f"  reason {a[2]!r} -> {b[2]!r}: {fen} ({side})")
    old_screens, new_screens = old["may_be_dead"], new["may_be_dead"]
    screened = min(len(old_screens), len(new_screens))
    differing = sum(a != b for a, b in zip(old_screens, new_screens, strict=False))
    print(
        f"{len(shared)} positions in both records, {2 * len(shared)} (side, position) pairs:"
        f" verdicts differing {verdicts}, helpmate lines differing {lines}, reasons differing"
        f" {reasons}; may_be_dead differing on {differing} of {screened} replayed positions"
    )
    return 1 if verdicts or lines or reasons or differing or not shared else 0


def _by_fen(record: dict[str, Any]) -> dict[str, Any]:
    """The record keyed by FEN alone (its keys are "index FEN")."""
    return {key.split(" ", 1)[-1]: value for key, value in record.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    parser.add_argument("--tree", default=str(HERE.parent), help="checkout whose rules to run")
    parser.add_argument("--out", help="where to write the record (JSON)")
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--limit", type=int, default=3000)
    parser.add_argument("--random", type=int, default=3000, help="random game positions")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--walls", type=int, default=100)
    parser.add_argument("--searched", type=int, default=8)
    parser.add_argument("--games", type=int, default=100, help="games replayed for may_be_dead")
    parser.add_argument("--fens", help="a file of further FENs, one a line")
    parser.add_argument("--budget", type=int, default=2500)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("--out is needed unless --compare")
    return dump(args)


if __name__ == "__main__":
    sys.exit(main())
