"""Benchmark of `rules.winnability` (FIDE 5.2.2, 6.9, 7.5.5): speed, completeness, soundness.

Two sets of positions:

(a) real games: every `--step`-th position of the games in ../shared/data/games/*.pgn;
(b) constructed unwinnable (side, position) pairs, none labelled by the code under test:
    by construction, bare kings and same-coloured bishops, and pawn walls (every file holds a
    white pawn blocked head-on by a black pawn, neighbouring files one rank apart) with each
    king on its own side and only bishops of a colour that can never reach a square where a
    pawn could capture it; by an independent exhaustive oracle (`enumerate_mates`, plain
    python-chess), walls with one gap and tiny positions with forced moves. A True answer on
    any of them is unsound.

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
sys.path.insert(0, str(ROOT / "tests"))  # tests/positions.py, shared with the tests

from positions import sparse_position  # noqa: E402
from winnability_kinds import (  # noqa: E402  (bench/ is the script's folder)
    chain_with_bishops,
    forced_replies,
    partial_chain,
    stalemate_trap,
)

from rules.winnability import (  # noqa: E402
    DEFAULT_BUDGET,
    analyse,
    find_helpmate,
    may_be_dead,
)
from rules.winnability.screen import _certified  # noqa: E402

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


def enumerate_mates(board: chess.Board, color: chess.Color, cap: int) -> bool | None:
    """Independent oracle (plain python-chess, no code under test): True if `color` mates in
    some line, False once every reachable position was seen without such a mate, None past
    `cap` positions. Only python-chess's `has_insufficient_material` prunes."""
    start = board.copy(stack=False)
    if start.is_checkmate():
        return start.turn != color
    seen = {start._transposition_key()}
    todo = [start]
    while todo:
        node = todo.pop()
        if node.has_insufficient_material(color):
            continue
        for move in list(node.legal_moves):
            node.push(move)
            key = node._transposition_key()
            if key not in seen:
                if node.is_checkmate():
                    if node.turn != color:
                        return True
                else:
                    seen.add(key)
                    if len(seen) > cap:
                        return None
                    todo.append(node.copy(stack=False))
            node.pop()
    return False


def wall_with_gap(rng: random.Random) -> chess.Board:
    """A wall with one file whose pawns do not touch yet, kings on their own sides, maybe a
    bishop each of any colour: some can be broken, some not (the oracle decides)."""
    while True:
        ranks = _wall_ranks(rng)
        gap = rng.randrange(8)
        board = chess.Board(None)
        white_side = black_side = 0
        for f, r in enumerate(ranks):
            wr, br = r, r + 1
            if f == gap:
                if rng.random() < 0.5 and r >= 2:
                    wr = r - 1
                elif r <= 4:
                    br = r + 2
            board.set_piece_at(chess.square(f, wr), chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(chess.square(f, br), chess.Piece(chess.PAWN, chess.BLACK))
            for rr in range(wr):
                white_side |= chess.BB_SQUARES[chess.square(f, rr)]
            for rr in range(br + 1, 8):
                black_side |= chess.BB_SQUARES[chess.square(f, rr)]
        white_pawns = board.pieces_mask(chess.PAWN, chess.WHITE)
        black_pawns = board.pieces_mask(chess.PAWN, chess.BLACK)
        white_ok = white_side & ~_pawn_attacks(black_pawns, chess.BLACK)
        black_ok = black_side & ~_pawn_attacks(white_pawns, chess.WHITE)
        if not white_ok or not black_ok:
            continue
        wk = rng.choice(list(chess.scan_forward(white_ok)))
        bk = rng.choice(list(chess.scan_forward(black_ok)))
        board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
        for color, side in ((chess.WHITE, white_side), (chess.BLACK, black_side)):
            free = [s for s in chess.scan_forward(side) if board.piece_at(s) is None]
            rng.shuffle(free)
            for sq in free[: rng.randrange(0, 2)]:
                board.set_piece_at(sq, chess.Piece(chess.BISHOP, color))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def bishop_behind_enemy_lines(rng: random.Random) -> chess.Board:
    """A closed wall, and a white bishop on Black's side of it: it can give check; whether it
    can ever mate is for the oracle to say."""
    while True:
        board = wall_position(rng)
        for sq in chess.scan_forward(board.bishops):
            board.remove_piece_at(sq)
        black_pawns = board.pieces_mask(chess.PAWN, chess.BLACK)
        black_king = board.king(chess.BLACK)
        assert black_king is not None
        top = max(chess.square_rank(sq) for sq in chess.scan_forward(black_pawns))
        free = [
            sq
            for sq in chess.SQUARES
            if board.piece_at(sq) is None
            and chess.square_rank(sq) > chess.square_rank(black_king) - 2
            and chess.square_rank(sq) >= top - 1
        ]
        board.set_piece_at(rng.choice(free), chess.Piece(chess.BISHOP, chess.WHITE))
        if board.is_valid():
            return board


def forced_capture(rng: random.Random) -> chess.Board:
    """A king whose only legal move takes the opponent's last unit (a queen, rook or pawn, so
    that the material alone proves nothing), leaving bare kings."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        lone = rng.random() < 0.5
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, lone))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, not lone))
        sq = squares.pop()
        kind = rng.choice((chess.QUEEN, chess.ROOK, chess.PAWN))
        if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
            continue
        board.set_piece_at(sq, chess.Piece(kind, not lone))
        board.turn = lone
        if not board.is_valid():
            continue
        moves = list(board.legal_moves)
        if len(moves) == 1 and board.is_capture(moves[0]):
            return board


def forced_small(rng: random.Random) -> chess.Board:
    """Kings and one to three units, the side to move having one or two legal moves."""
    kinds = [chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK]
    return sparse_position(rng, kinds, (1, 4), lambda b: 1 <= b.legal_moves.count() <= 2)


def unwinnable_pairs(
    walls: int, searched: int, seed: int = 2022
) -> Iterator[tuple[str, str, chess.Color]]:
    """(family, FEN, side) triples where the side provably cannot mate: by construction for
    walls and one-coloured bishops, by the independent oracle for the other families (only
    sides with more than insufficient material are kept there)."""
    rng = random.Random(seed)
    for _ in range(walls):
        fen = wall_position(rng).fen()
        yield "pawn wall (by construction)", fen, chess.WHITE
        yield "pawn wall (by construction)", fen, chess.BLACK
    for _ in range(max(1, walls // 5)):
        fen = material_position(rng).fen()
        yield "bishops of one colour", fen, chess.WHITE
        yield "bishops of one colour", fen, chess.BLACK
    for family, make, cap, count in (
        ("wall with a gap (oracle)", wall_with_gap, 20_000, searched),
        ("bishop behind enemy lines (oracle)", bishop_behind_enemy_lines, 30_000, searched),
        ("forced small (oracle)", forced_small, 3_000, searched * 4),
        ("forced capture into bare kings (oracle)", forced_capture, 3_000, searched),
        ("blocked chain, kings only (oracle)", partial_chain, 30_000, searched * 5),
        ("blocked chain with bishops (oracle)", chain_with_bishops, 30_000, searched * 5),
        ("stalemate trap (oracle)", stalemate_trap, 30_000, searched * 5),
        ("forced replies (oracle)", forced_replies, 30_000, searched * 5),
    ):
        for _ in range(count):
            board = make(rng)
            for color in chess.COLORS:
                if board.has_insufficient_material(color):
                    continue
                if enumerate_mates(board, color, cap) is False:
                    yield family, board.fen(), color


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


def _bench_screen(games: int) -> None:
    """may_be_dead as the rules core calls it: after every move of real games, in order, with
    nothing remembered beforehand, and analyse() run whenever it answers True."""
    _certified.clear()
    times: list[float] = []
    followups: list[float] = []
    flagged = dead = 0
    paths = sorted(glob.glob(str(GAMES / "*.pgn")))
    played = 0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while played < games and (game := chess.pgn.read_game(handle)) is not None:
                played += 1
                board = game.board()
                for move in game.mainline_moves():
                    board.push(move)
                    t0 = time.process_time()
                    maybe = may_be_dead(board)
                    times.append(time.process_time() - t0)
                    if maybe:
                        flagged += 1
                        t0 = time.process_time()
                        dead += analyse(board).dead is True
                        followups.append(time.process_time() - t0)
    times.sort()
    n = len(times)
    print(
        f"    may_be_dead after every move of {played} games ({n} calls, cold start): "
        f"median {statistics.median(times) * 1e6:.0f} us, mean {statistics.mean(times) * 1e6:.0f}"
        f" us, p90 {times[int(n * 0.9)] * 1e6:.0f} us, p99 {times[int(n * 0.99)] * 1e3:.1f} ms "
        f"CPU; True (run analyse) for {flagged} ({100 * flagged / n:.1f} %)"
    )
    if followups:
        print(
            f"      the analyse() calls that followed: median "
            f"{statistics.median(followups) * 1e3:.1f} ms CPU; dead positions found {dead}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=10, help="take every N-th game position")
    parser.add_argument("--limit", type=int, default=3000, help="at most this many of them")
    parser.add_argument("--walls", type=int, default=500, help="constructed wall positions")
    parser.add_argument(
        "--searched", type=int, default=30, help="candidates per oracle-labelled family"
    )
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--games", type=int, default=100, help="games replayed for the screen")
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
    base = sum(
        1 for fen in fens for c in chess.COLORS if chess.Board(fen).has_insufficient_material(c)
    )
    print(f"    has_insufficient_material proves {base} (side, position) pairs of (a)")
    print(
        f"    answers (side, position): can mate {counts[True]}, cannot {counts[False]}, "
        f"undecided {counts[None]}; dead positions {dead}; unsound lines {unsound}"
        + (" (not checked)" if args.no_verify else "")
    )

    _bench_screen(args.games)

    t0 = time.perf_counter()
    pairs = list(unwinnable_pairs(args.walls, args.searched))
    print(f"(b) unwinnable set built in {time.perf_counter() - t0:.0f} s")
    fens_b = sorted({fen for _, fen, _ in pairs})
    walls_b, cpus_b, answers_b = _timed(fens_b, args.budget)
    _report("(b) unwinnable set", walls_b, cpus_b)
    answer_of = dict(zip(fens_b, answers_b, strict=True))
    total = proven = wrong = 0
    by_family: dict[str, list[int]] = {}
    for family, fen, color in pairs:
        tally = by_family.setdefault(family, [0, 0])
        value = answer_of[fen].side(color)
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
    t0 = time.process_time()
    baseline = sum(
        1 for _, fen, color in pairs if chess.Board(fen).has_insufficient_material(color)
    )
    base_cpu = (time.process_time() - t0) / max(1, total)
    print(
        f"    baseline python-chess has_insufficient_material, same pairs: {baseline} of "
        f"{total} ({100 * baseline / total:.1f} %), {base_cpu * 1e6:.0f} us CPU per pair"
    )
    decided = sum(1 for r in answers_b for v in (r.white, r.black) if v is not None)
    print(f"    share decided on (b): {decided} of {2 * len(answers_b)} (side, position) answers")
    dead_b = [f for f in fens_b if answer_of[f].white is False and answer_of[f].black is False]
    flagged_b = sum(1 for f in dead_b if may_be_dead(chess.Board(f)))
    print(f"    may_be_dead True on {flagged_b} of {len(dead_b)} dead ones (must be all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
