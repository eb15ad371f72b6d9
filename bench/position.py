"""Benchmark of `rules.winnability` (FIDE 5.2.2, 6.9, 7.5.5): speed, completeness, soundness.

Two sets of positions:

(a) real games: every `--step`-th position of the games in ../shared/data/games/*.pgn;
(b) constructed unwinnable positions, unwinnable *by construction* (no use of the code under
    test): bare kings and same-coloured bishops, and pawn walls (every file holds a white pawn
    blocked head-on by a black pawn, neighbouring files one rank apart) with each king on its
    own side and only bishops of a colour that can never reach a square where a pawn could
    capture it. Every (side, position) pair there is unwinnable; a True answer is unsound.

For (a) every True answer's helpmate line is replayed with python-chess; a line that is not a
legal series ending in that side's mate counts as unsound.

Run: .venv/bin/python bench/position.py [--step 10] [--limit 3000] [--walls 500]
"""

from __future__ import annotations

import argparse
import glob
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.winnability import (  # noqa: E402
    DEFAULT_BUDGET,
    analyse,
    find_helpmate,
    may_be_dead,
)

GAMES = ROOT.parent / "shared" / "data" / "games"


def game_positions(step: int, limit: int) -> list[str]:
    """Every `step`-th position of every game, then thinned evenly to at most `limit`."""
    fens: list[str] = []
    for path in sorted(glob.glob(str(GAMES / "*.pgn"))):
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                board = game.board()
                for ply, move in enumerate(game.mainline_moves(), start=1):
                    board.push(move)
                    if ply % step == 0:
                        fens.append(board.fen())
    if len(fens) > limit:
        stride = len(fens) / limit
        fens = [fens[int(i * stride)] for i in range(limit)]
    return fens


def _wall_ranks(rng: random.Random) -> list[int]:
    """White pawn rank (0-based, 1..5) on each file; neighbours differ by exactly one."""
    while True:
        ranks = [rng.randrange(1, 6)]
        for _ in range(7):
            ranks.append(ranks[-1] + rng.choice((-1, 1)))
        if all(1 <= r <= 5 for r in ranks):
            return ranks


def wall_position(rng: random.Random) -> chess.Board:
    """A pawn wall that no unit can cross or break (see the module docstring for why)."""
    while True:
        ranks = _wall_ranks(rng)
        board = chess.Board(None)
        white_side = black_side = 0
        for f, r in enumerate(ranks):
            board.set_piece_at(chess.square(f, r), chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(chess.square(f, r + 1), chess.Piece(chess.PAWN, chess.BLACK))
            for rr in range(r):
                white_side |= chess.BB_SQUARES[chess.square(f, rr)]
            for rr in range(r + 2, 8):
                black_side |= chess.BB_SQUARES[chess.square(f, rr)]
        white_pawns = board.pieces_mask(chess.PAWN, chess.WHITE)
        black_pawns = board.pieces_mask(chess.PAWN, chess.BLACK)
        # Squares where a pawn could capture a piece that stands there.
        white_holes = white_side & _pawn_attacks(black_pawns, chess.BLACK)
        black_holes = black_side & _pawn_attacks(white_pawns, chess.WHITE)
        white_king_ok = white_side & ~white_holes
        black_king_ok = black_side & ~black_holes
        wk = rng.choice(list(chess.scan_forward(white_king_ok)))
        bk = rng.choice(list(chess.scan_forward(black_king_ok)))
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        for color, side, holes in (
            (chess.WHITE, white_side, white_holes),
            (chess.BLACK, black_side, black_holes),
        ):
            safe = _safe_colour(holes)
            free = [s for s in chess.scan_forward(side & safe) if board.piece_at(s) is None]
            rng.shuffle(free)
            for sq in free[: rng.randrange(0, 3)]:
                board.set_piece_at(sq, chess.Piece(chess.BISHOP, color))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def _pawn_attacks(pawns: int, color: chess.Color) -> int:
    out = 0
    for sq in chess.scan_forward(pawns):
        out |= chess.BB_PAWN_ATTACKS[color][sq]
    return out


def _safe_colour(holes: int) -> int:
    """Squares of a colour on which no hole lies (no square if holes lie on both colours)."""
    if not holes & chess.BB_LIGHT_SQUARES:
        return chess.BB_LIGHT_SQUARES
    if not holes & chess.BB_DARK_SQUARES:
        return chess.BB_DARK_SQUARES
    return 0


def material_position(rng: random.Random) -> chess.Board:
    """Bare kings, or kings with bishops all on one colour: dead whatever the placement."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        colour = rng.choice((chess.BB_LIGHT_SQUARES, chess.BB_DARK_SQUARES))
        for _ in range(rng.randrange(0, 4)):
            sq = next(s for s in squares if chess.BB_SQUARES[s] & colour)
            squares.remove(sq)
            board.set_piece_at(sq, chess.Piece(chess.BISHOP, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def unwinnable_positions(walls: int, seed: int = 2022) -> Iterator[tuple[str, str]]:
    """(family, FEN) pairs; both sides unwinnable in every one."""
    rng = random.Random(seed)
    for _ in range(walls):
        yield "pawn wall", wall_position(rng).fen()
    for _ in range(max(1, walls // 5)):
        yield "bishops of one colour", material_position(rng).fen()


def _line_mates(fen: str, color: chess.Color, budget: int) -> bool:
    board = chess.Board(fen)
    line = find_helpmate(board, color, budget)
    if line is None:
        return False
    for move in line:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != color


def _timed(fens: list[str], budget: int) -> tuple[list[float], list[float], list]:
    walls, cpus, answers = [], [], []
    for fen in fens:
        board = chess.Board(fen)
        t0, c0 = time.perf_counter(), time.process_time()
        answers.append(analyse(board, budget=budget))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return walls, cpus, answers


def _report(name: str, walls: list[float], cpus: list[float]) -> None:
    cpus_sorted = sorted(cpus)
    walls_sorted = sorted(walls)
    n = len(cpus)
    p99 = cpus_sorted[min(n - 1, int(n * 0.99))]
    print(
        f"{name}: {n} positions, {n / sum(cpus):.1f} positions/s (CPU), "
        f"median {statistics.median(cpus) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"max {cpus_sorted[-1] * 1000:.1f} ms CPU per position "
        f"(wall: median {statistics.median(walls) * 1000:.1f} ms, "
        f"p99 {walls_sorted[min(n - 1, int(n * 0.99))] * 1000:.1f} ms)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=10, help="take every N-th game position")
    parser.add_argument("--limit", type=int, default=3000, help="at most this many of them")
    parser.add_argument("--walls", type=int, default=500, help="constructed wall positions")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--no-verify", action="store_true", help="skip replaying helpmates")
    args = parser.parse_args(argv)

    fens = game_positions(args.step, args.limit)
    walls, cpus, answers = _timed(fens, args.budget)
    _report("(a) game positions", walls, cpus)
    counts = {True: 0, False: 0, None: 0}
    unsound = 0
    for fen, result in zip(fens, answers, strict=True):
        for color in chess.COLORS:
            value = result.side(color)
            counts[value] += 1
            if value is True and not args.no_verify and not _line_mates(fen, color, args.budget):
                unsound += 1
                print(f"  UNSOUND line: {fen} side {chess.COLOR_NAMES[color]}")
    dead = sum(1 for r in answers if r.dead)
    print(
        f"    answers (side, position): can mate {counts[True]}, cannot {counts[False]}, "
        f"undecided {counts[None]}; dead positions {dead}; unsound lines {unsound}"
        + (" (not checked)" if args.no_verify else "")
    )

    screen = [chess.Board(f) for f in fens]
    t0 = time.perf_counter()
    repeats = 20
    for _ in range(repeats):
        flagged = sum(1 for b in screen if may_be_dead(b))
    per_call = (time.perf_counter() - t0) / (repeats * len(screen))
    print(
        f"    may_be_dead: {per_call * 1e6:.2f} us per call (wall), True for {flagged} of "
        f"{len(screen)} ({100 * flagged / len(screen):.1f} %)"
    )

    pairs = list(unwinnable_positions(args.walls))
    fens_b = [fen for _, fen in pairs]
    walls_b, cpus_b, answers_b = _timed(fens_b, args.budget)
    _report("(b) unwinnable set", walls_b, cpus_b)
    total = proven = wrong = 0
    by_family: dict[str, list[int]] = {}
    for (family, fen), result in zip(pairs, answers_b, strict=True):
        tally = by_family.setdefault(family, [0, 0])
        for color in chess.COLORS:
            value = result.side(color)
            total += 1
            tally[0] += 1
            if value is False:
                proven += 1
                tally[1] += 1
            elif value is True:
                wrong += 1
                print(f"  UNSOUND: {fen} side {chess.COLOR_NAMES[color]} answered True")
    print(
        f"    proven unwinnable: {proven} of {total} (side, position) pairs "
        f"({100 * proven / total:.1f} %); unsound answers {wrong}"
    )
    for family, (n, ok) in by_family.items():
        print(f"      {family}: {ok}/{n}")
    flagged_b = sum(1 for f in fens_b if may_be_dead(chess.Board(f)))
    print(f"    may_be_dead True on {flagged_b} of {len(fens_b)} (must be all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
