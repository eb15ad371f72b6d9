"""The hand's work for one move: which pieces are lifted and put down, in what order, and when.

A move over the board is a few physical actions (FIDE 4.7): lift the moving piece, put it down;
a capture also takes the captured piece off, before the capturing piece comes down or by
putting it down on the occupied square (4.7.1: either order; a board that scans slowly reports
the latter as one `place`, events.md); castling touches the king first (4.4.1, 4.4.2) and is made
when the rook stands on the square the king crossed (4.7.2); a promotion takes the pawn off and
puts the new piece on the last rank, the pawn set down there first or not (4.6.1, 4.6.2, 4.7.3).
The order is drawn from the seeded generator, among the orders the Laws allow.

The actions are then timed inside the move's think time: the player thinks, then acts, and
presses the clock last (6.2.1). When the think time is short the actions are squeezed, but a
square emptied and filled again is kept apart by more than the sensor's `noise_s` (else the
change is taken for noise), and a pawn set on the last rank is lifted again within `slide_s`
(else it would be released there, 4.7.3). A shape that cannot keep these in the time there is
gives way to a simpler one that needs no gap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from arbiter.simulate.sensors import SensorKind

__all__ = ["HandAction", "MovePlan", "min_think_ms", "plan_move"]

#: how long the hand takes to carry a piece to its square, and between other actions (ms)
CARRY_MS = (300, 900)
REACH_MS = (200, 600)
#: from the last piece put down to the press (ms)
PRESS_MS = (100, 500)


@dataclass(frozen=True, slots=True)
class HandAction:
    """A piece lifted from or put on `square`, `at_ms` after the mover's clock started."""

    at_ms: int
    kind: str  # "lift" or "place"
    square: chess.Square
    piece: chess.Piece


@dataclass(frozen=True, slots=True)
class MovePlan:
    """The timed actions of one move; the press comes at `press_ms`; `promote` is the piece
    a `promote` event must name (a sensor that cannot tell it, and not a queen), else None."""

    actions: tuple[HandAction, ...]
    press_ms: int
    promote: chess.PieceType | None
    shape: str


@dataclass(frozen=True, slots=True)
class _Step:
    kind: str
    square: chess.Square
    piece: chess.Piece
    natural_ms: int
    min_ms: int = 0
    max_ms: int | None = None


class _Shaper:
    """Builds the untimed steps of a move for one sensor kind and seeded generator."""

    def __init__(self, sensor: SensorKind, rng: random.Random) -> None:
        self.rng = rng
        self.apart_ms = apart_ms(sensor)
        self.onto_seen = sensor.sees_replacement
        self.slide_ms = int(sensor.slide_s * 1000)

    def step(
        self,
        kind: str,
        square: chess.Square,
        piece: chess.Piece,
        gap: tuple[int, int],
        *,
        min_ms: int = 0,
        max_ms: int | None = None,
    ) -> _Step:
        natural = self.rng.randint(*gap)
        if max_ms is not None:
            natural = min(natural, max_ms)
        natural = max(natural, min_ms)
        return _Step(kind, square, piece, natural, min_ms, max_ms)

    def shapes(self, board: chess.Board, move: chess.Move) -> list[tuple[str, list[_Step]]]:
        """Candidate step lists, the seeded choice first and a gap-free fallback last."""
        mover = board.piece_at(move.from_square)
        assert mover is not None
        lift = self.step("lift", move.from_square, mover, REACH_MS)
        if board.is_castling(move):
            return self._castling(board, move, mover, lift)
        if board.is_en_passant(move):
            return self._en_passant(board, move, mover, lift)
        captured = board.piece_at(move.to_square)
        if move.promotion is not None:
            return self._promotion(move, mover, captured, lift)
        place = self.step("place", move.to_square, mover, CARRY_MS)
        if captured is None:
            return [("move", [lift, place])]
        return self._capture(move, captured, lift, [place], "capture")

    def _capture(
        self, move: chess.Move, captured: chess.Piece, lift: _Step, puts: list[_Step], name: str
    ) -> list[tuple[str, list[_Step]]]:
        """4.7.1: the captured piece off before the capturing piece comes down (the hand takes
        it first, or the own piece first), or the capturing piece put on the occupied square."""
        to = move.to_square
        off = self.step("lift", to, captured, REACH_MS)
        first_put = puts[0]
        kept_apart = _Step(
            first_put.kind,
            first_put.square,
            first_put.piece,
            max(first_put.natural_ms, self.apart_ms),
            self.apart_ms,
            first_put.max_ms,
        )
        before = [lift, off, kept_apart, *puts[1:]]
        first = [off, lift, kept_apart, *puts[1:]]
        onto = [lift, *puts]
        options = [(f"{name}-off-first", before), (f"{name}-taken-first", first)]
        self.rng.shuffle(options)
        if not self.onto_seen:  # the square must be seen empty; `onto` only as a last resort
            return [*options[:1], (f"{name}-onto", onto)]
        if self.rng.random() < 1 / 3:
            return [(f"{name}-onto", onto)]
        return [*options[:1], (f"{name}-onto", onto)]

    def _castling(
        self, board: chess.Board, move: chess.Move, king: chess.Piece, lift_king: _Step
    ) -> list[tuple[str, list[_Step]]]:
        """4.4.1, 4.7.2: the king touched first; the rook lifted after the king is down, or
        with the king still in the hand (both come down, king first)."""
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rook_from = chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        rook = board.piece_at(rook_from)
        assert rook is not None
        king_down = self.step("place", move.to_square, king, CARRY_MS)
        rook_up = self.step("lift", rook_from, rook, REACH_MS)
        rook_down = self.step("place", rook_to, rook, CARRY_MS)
        if self.rng.random() < 0.5:
            return [("castling-king-then-rook", [lift_king, king_down, rook_up, rook_down])]
        return [("castling-both-in-hand", [lift_king, rook_up, king_down, rook_down])]

    def _en_passant(
        self, board: chess.Board, move: chess.Move, pawn: chess.Piece, lift: _Step
    ) -> list[tuple[str, list[_Step]]]:
        """3.7.3.1, 4.7.1: the captured pawn (beside the arrival square) off before or after."""
        victim_sq = chess.square(
            chess.square_file(move.to_square), chess.square_rank(move.from_square)
        )
        victim = board.piece_at(victim_sq)
        assert victim is not None
        off = self.step("lift", victim_sq, victim, REACH_MS)
        place = self.step("place", move.to_square, pawn, CARRY_MS)
        options = [
            ("en-passant-off-first", [lift, off, place]),
            ("en-passant-taken-first", [off, lift, place]),
            ("en-passant-off-after", [lift, place, off]),
        ]
        return [self.rng.choice(options)]

    def _promotion(
        self, move: chess.Move, pawn: chess.Piece, captured: chess.Piece | None, lift: _Step
    ) -> list[tuple[str, list[_Step]]]:
        """4.6, 4.7.3: the pawn set on the last rank and taken off again within `slide_s`, or
        never set there; then the new piece put on the promotion square."""
        assert move.promotion is not None
        new = chess.Piece(move.promotion, pawn.color)
        to = move.to_square
        put_new = self.step("place", to, new, CARRY_MS)
        limit = self.slide_ms * 3 // 5 if self.slide_ms else None
        pawn_down = self.step("place", to, pawn, CARRY_MS)
        pawn_up = self.step("lift", to, pawn, (50, 300), max_ms=limit)
        new_after = self.step("place", to, new, REACH_MS, min_ms=self.apart_ms)
        variants = [
            ("promotion-direct", [put_new]),
            ("promotion-pawn-set-first", [pawn_down, pawn_up, new_after]),
        ]
        name, puts = self.rng.choice(variants)
        if captured is None:
            return [(name, [lift, *puts]), ("promotion-direct", [lift, put_new])]
        return [
            *self._capture(move, captured, lift, puts, name),
            ("promotion-direct-onto", [lift, put_new]),
        ]


def apart_ms(sensor: SensorKind) -> int:
    """How far apart (ms) a square's emptying and filling again must be to count (`noise_s`)."""
    return int(sensor.noise_s * 1000) + 10


def min_think_ms(board: chess.Board, move: chess.Move, sensor: SensorKind) -> int:
    """The least think time in which `move` can be shown on `sensor`: a capture on a board
    that cannot see a piece put onto another needs the square seen empty first (4.7.1)."""
    if sensor.sees_replacement or board.is_en_passant(move) or not board.is_capture(move):
        return 0
    return apart_ms(sensor)


def _schedule(steps: list[_Step], press_gap: int, think_ms: int) -> list[int] | None:
    """Offsets (ms) of the steps so that the press falls at `think_ms`; None if they cannot fit.

    The player thinks first; when the natural gaps do not fit, the part of each gap above its
    minimum is squeezed in proportion.
    """
    floor = sum(s.min_ms for s in steps)
    if floor > think_ms:
        return None
    gaps = [s.natural_ms for s in steps] + [press_gap]
    mins = [s.min_ms for s in steps] + [0]
    total = sum(gaps)
    if total > think_ms:
        spare = think_ms - floor
        flexible = total - floor
        gaps = [m + (g - m) * spare // flexible for g, m in zip(gaps, mins, strict=True)]
    start = think_ms - sum(gaps)
    offsets = []
    at = start
    for gap in gaps[:-1]:
        at += gap
        offsets.append(at)
    return offsets


def plan_move(
    board: chess.Board, move: chess.Move, sensor: SensorKind, rng: random.Random, think_ms: int
) -> MovePlan:
    """The timed physical actions of `move` from `board`, pressed `think_ms` after the clock
    started; the first step comes at the earliest when the clock started (offset 0)."""
    press_gap = rng.randint(*PRESS_MS)
    chosen = None
    for shape, steps in _Shaper(sensor, rng).shapes(board, move):
        offsets = _schedule(steps, press_gap, think_ms)
        if offsets is not None:
            chosen = shape, steps, offsets
            break
    if chosen is None:  # pragma: no cover - the last shape of every move needs no gap
        raise AssertionError(f"no shape of {move.uci()} fits {think_ms} ms")
    shape, steps, offsets = chosen
    actions = tuple(
        HandAction(at, s.kind, s.square, s.piece) for at, s in zip(offsets, steps, strict=True)
    )
    promote = None
    if move.promotion is not None and move.promotion != chess.QUEEN and not sensor.knows_kind:
        promote = move.promotion
    return MovePlan(actions, think_ms, promote, shape)
