"""Static proofs that a side can never give check, hence never mate (FIDE 5.2.2, 6.9, 7.5.5).

Why: helpmate search alone can never prove "cannot mate" in a locked position (the kings and
bishops shuffle forever). Following the Chess Unwinnability Analyzer (Ambrona, 2022), we look
for a set S of *fixed* pawns, pawns that never leave their file nor are captured in any line,
then over-approximate where every other unit can ever stand or attack given that S stays.

Soundness argument (induction on the moves of any continuation): a pawn of S never leaves
its file and is never captured. It then only ever walks its *lane*: the squares of its file
between it and the pawn ahead of it (an enemy pawn only comes closer, so the lane ends just
short of where that pawn stands now; an own pawn of S ahead can get at most to the end of
its own lane). A pawn whose lane is its own square blocks for good ("stuck"). As long as
every pawn of S keeps to its lane, each unit only moves through squares of its region (flood
fills through squares not held by stuck pawns; a king also never steps on a square attacked
by an enemy stuck pawn, which would be check). A pawn stays in S while (a) the pawn ahead of
it is in S (so it never promotes), (b) no enemy unit but the king can ever stand on a
square its lane attacks (nor on the e.p. square), and (c) no enemy unit can ever attack a
square of its lane. S is the greatest set satisfying (a)-(c) against its own regions, so
the first pawn to leave S can never exist. If, moreover, no unit of colour C can ever attack
a square of the enemy king's region, C never gives check, so C cannot mate; and if every
square where that king could be checked keeps a flight square that nothing can ever block
or attack, C cannot mate either (`cannot_mate`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import chess

FULL = chess.BB_ALL
NOT_A = ~chess.BB_FILE_A & FULL
NOT_H = ~chess.BB_FILE_H & FULL
NOT_AB = ~(chess.BB_FILE_A | chess.BB_FILE_B) & FULL
NOT_GH = ~(chess.BB_FILE_G | chess.BB_FILE_H) & FULL

Step = Callable[[int], int]


def orth_step(bb: int) -> int:
    """Squares one rook step away from any square of `bb`."""
    return ((bb << 8) & FULL) | (bb >> 8) | (((bb & NOT_H) << 1) & FULL) | ((bb & NOT_A) >> 1)


def diag_step(bb: int) -> int:
    """Squares one bishop step away from any square of `bb`."""
    return (
        (((bb & NOT_H) << 9) & FULL)
        | (((bb & NOT_A) << 7) & FULL)
        | ((bb & NOT_H) >> 7)
        | ((bb & NOT_A) >> 9)
    )


def king_step(bb: int) -> int:
    """Squares one king step away from any square of `bb`."""
    return orth_step(bb) | diag_step(bb)


def knight_step(bb: int) -> int:
    """Squares one knight jump away from any square of `bb`."""
    return (
        (((bb & NOT_H) << 17) & FULL)
        | (((bb & NOT_A) << 15) & FULL)
        | (((bb & NOT_GH) << 10) & FULL)
        | (((bb & NOT_AB) << 6) & FULL)
        | ((bb & NOT_A) >> 17)
        | ((bb & NOT_H) >> 15)
        | ((bb & NOT_AB) >> 10)
        | ((bb & NOT_GH) >> 6)
    )


def queen_knight_step(bb: int) -> int:
    """One step of any piece a pawn may promote to."""
    return king_step(bb) | knight_step(bb)


def pawn_push(bb: int, color: chess.Color) -> int:
    """Squares one pawn step ahead of `bb` for `color`."""
    return ((bb << 8) & FULL) if color == chess.WHITE else bb >> 8


def pawn_attacks(bb: int, color: chess.Color) -> int:
    """Squares attacked by pawns of `color` standing on `bb`."""
    if color == chess.WHITE:
        return (((bb & NOT_H) << 9) & FULL) | (((bb & NOT_A) << 7) & FULL)
    return ((bb & NOT_H) >> 7) | ((bb & NOT_A) >> 9)


def flood(start: int, allowed: int, step: Step) -> int:
    """Every square reachable from `start` by repeated `step`s through `allowed` squares."""
    region = start
    while True:
        grown = region | (step(region) & allowed)
        if grown == region:
            return region
        region = grown


@dataclass(frozen=True, slots=True)
class Reach:
    """Where the units of one colour may ever stand (`king`, `others`) and what they may ever
    attack or move to (`king_hits`, `others_hits`), given the fixed pawns stay."""

    king: int
    king_hits: int
    others: int
    others_hits: int


def _reach(board: chess.Board, color: chess.Color, fixed: int, lanes: dict[int, int]) -> Reach:
    """Over-approximate the squares `color`'s units can ever occupy and attack, `fixed` staying.

    A pawn of `fixed` only ever walks its lane (`lanes`: the squares of its file it can reach
    before the pawn ahead stops it); pawns whose lane is their own square block for good.
    """
    own = board.occupied_co[color]
    stuck = 0
    for sq, lane in lanes.items():
        if lane == chess.BB_SQUARES[sq]:
            stuck |= lane
    enemy_stuck = stuck & ~own
    free = FULL & ~stuck
    king_ban = pawn_attacks(enemy_stuck, not color)
    king_sq = board.king(color)
    king_start = chess.BB_SQUARES[king_sq] if king_sq is not None else 0
    king = flood(king_start, free & ~king_ban, king_step) if king_start else 0
    king_hits = king_step(king) & ~king_ban

    others = 0
    hits = 0
    for pieces, step in (
        (board.knights & own, knight_step),
        (board.bishops & own, diag_step),
        (board.rooks & own, orth_step),
        (board.queens & own, king_step),
    ):
        if pieces:
            region = flood(pieces, free, step)
            others |= region
            hits |= step(region)

    for sq in chess.scan_forward(fixed & own):
        lane = lanes[sq]
        others |= lane
        hits |= pawn_attacks(lane, color)

    pawns = board.pawns & own & ~fixed
    if pawns:
        cone = flood(pawns, free, lambda bb: pawn_push(bb, color) | pawn_attacks(bb, color))
        others |= cone
        hits |= pawn_attacks(cone, color)
        last = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
        promoted = cone & last
        if promoted:
            region = flood(promoted, free, queen_knight_step)
            others |= region
            hits |= queen_knight_step(region)
    return Reach(king, king_hits, others, hits)


def _forward(sq: chess.Square, color: chess.Color) -> int:
    return pawn_push(chess.BB_SQUARES[sq], color)


def _ahead(board: chess.Board, sq: chess.Square, color: chess.Color) -> chess.Square | None:
    """The nearest pawn (of either colour) in front of the pawn on `sq`, on its file."""
    step = 8 if color == chess.WHITE else -8
    nxt = sq + step
    while 0 <= nxt < 64:
        if board.pawns & chess.BB_SQUARES[nxt]:
            return nxt
        nxt += step
    return None


def _lanes(board: chess.Board, fixed: int) -> dict[int, int]:
    """For each pawn of `fixed`, the squares of its file it may ever stand on: up to (not
    including) the furthest square the pawn ahead of it may reach towards it. Opposing pawns
    on one file never pass each other while neither leaves the file (captures are excluded for
    `fixed` pawns by `fixed_pawns`)."""
    lanes: dict[int, int] = {}
    limit: dict[int, int] = {}  # square -> the nearest square its pawn ahead leaves free

    def reach_limit(sq: int) -> int:
        color = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq])
        step = 8 if color == chess.WHITE else -8
        ahead = _ahead(board, sq, color)
        assert ahead is not None
        ahead_white = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[ahead])
        if ahead_white != color:
            return ahead - step  # the enemy pawn may only come closer
        if ahead not in limit:
            limit[ahead] = reach_limit(ahead)
        return limit[ahead] - step  # our own pawn ahead may only get as far as its own end

    for sq in chess.scan_forward(fixed):
        end = limit[sq] if sq in limit else reach_limit(sq)
        limit[sq] = end
        lo, hi = min(sq, end), max(sq, end)
        lanes[sq] = sum(1 << s for s in range(lo, hi + 1, 8)) if lo <= hi else 0
    return lanes


def fixed_pawns(board: chess.Board) -> tuple[int, Reach, Reach]:
    """The greatest self-sustaining set of pawns that never leave their file nor are captured,
    with the reach of White and Black computed against it (module docstring gives the proof).

    A pawn qualifies while the pawn ahead of it on its file qualifies (so it can never
    promote or pass), no enemy unit but the king can ever stand on a square its lane attacks
    (nor the e.p. square), and no enemy unit can ever attack a square of its lane.
    """
    pawns = board.pawns
    fixed = 0
    for sq in chess.scan_forward(pawns):
        color = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq])
        if _ahead(board, sq, color) is not None:
            fixed |= chess.BB_SQUARES[sq]
    ep = chess.BB_SQUARES[board.ep_square] if board.ep_square is not None else 0
    while True:
        # a pawn whose pawn ahead left the set loses its guarantee: drop it first
        while True:
            keep = 0
            for sq in chess.scan_forward(fixed):
                color = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq])
                ahead = _ahead(board, sq, color)
                if ahead is not None and fixed & chess.BB_SQUARES[ahead]:
                    keep |= chess.BB_SQUARES[sq]
            if keep == fixed:
                break
            fixed = keep
        lanes = _lanes(board, fixed)
        white = _reach(board, chess.WHITE, fixed, lanes)
        black = _reach(board, chess.BLACK, fixed, lanes)
        keep = 0
        for sq in chess.scan_forward(fixed):
            bb = chess.BB_SQUARES[sq]
            lane = lanes[sq]
            color = bool(board.occupied_co[chess.WHITE] & bb)
            enemy = black if color == chess.WHITE else white
            if pawn_attacks(lane, color) & (enemy.others | ep):
                continue
            if lane & (enemy.king_hits | enemy.others_hits):
                continue
            keep |= bb
        if keep == fixed:
            return fixed, white, black
        fixed = keep


def cannot_check(board: chess.Board, color: chess.Color) -> bool:
    """True when `color` provably can never give check (hence never mate) in any continuation.

    Proof: see the module docstring. False means "not proven", never "can check".
    """
    _, white, black = fixed_pawns(board)
    mine, theirs = (white, black) if color == chess.WHITE else (black, white)
    return not (mine.others_hits & theirs.king)


def cannot_mate(board: chess.Board, color: chess.Color) -> bool:
    """True when `color` provably can never mate: no check is possible (`cannot_check`), or
    every square where the enemy king could ever be checked keeps a flight square for sure.

    A neighbour f of such a square is a sure flight when the enemy king may stand on f (it is
    in its region: not a fixed pawn, not attacked by a fixed pawn of ours), no enemy unit can
    ever stand on f to block it, and no unit of ours can ever attack f (a unit of ours on f
    unprotected is simply taken). Fixed pawns never move nor fall, so they block for good;
    everything else is over-approximated by the regions. False means "not proven".
    """
    _, white, black = fixed_pawns(board)
    mine, theirs = (white, black) if color == chess.WHITE else (black, white)
    checks = mine.others_hits & theirs.king
    if not checks:
        return True
    sure_flights = theirs.king & ~theirs.others & ~mine.others_hits & ~mine.king_hits
    return all(king_step(chess.BB_SQUARES[sq]) & sure_flights for sq in chess.scan_forward(checks))


def rams(board: chess.Board) -> int:
    """How many black pawns stand somewhere in front of a white pawn on the same file (the
    pairs that can never pass each other). With none, no pawn is fixed and `cannot_check` can
    prove nothing that the material does not already show."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    north = 0
    bb = white
    for _ in range(6):
        bb = (bb << 8) & FULL
        north |= bb
    return chess.popcount(north & black)


def rammed(board: chess.Board) -> int:
    """How many pawns stand right in front of an enemy pawn (a cheap gate inside the search,
    where the static proof is only worth its cost behind a wall of rammed pawns)."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    return chess.popcount((white << 8) & black)
