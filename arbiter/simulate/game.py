"""`simulate_game`: the contract event stream of a PGN game played on a physical board.

A game score says which moves were played; a board with a clock says more: when each piece left
its square and came down, when each clock was pressed, and how the game ended. This module
writes that stream (events.md) for one of four sensor kinds (`arbiter.simulate.sensors`), so that
the rules core can be tested on real games as real hardware would report them:

- the clock times reproduce the PGN's `[%clk]` comments, or fit its time control
  (`arbiter.simulate.clock`);
- each move is a realistic sequence of lifts and places inside its think time, in an order the
  Laws allow (FIDE 4.3-4.7, `arbiter.simulate.hands`), followed by the mover's press (6.2.1);
- the stream ends with what makes the recorded result under the Laws: nothing after a mate or a
  dead position, a resignation, an agreed draw, a claim, or time passing the loser's flag
  (5, 6.9, 9.1-9.3; `arbiter.simulate.ending`).

Everything is drawn from a generator seeded with `seed`, so a game, a sensor and a seed always
give the same stream.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
import chess.pgn

from arbiter.errors import SimulateError
from arbiter.simulate.clock import (
    PlyClock,
    PlyName,
    Timeline,
    plan_times,
    side_name,
    time_control_of,
)
from arbiter.simulate.ending import Ending, choose_ending
from arbiter.simulate.hands import MovePlan, min_think_ms, plan_move
from arbiter.simulate.sensors import SensorKind, sensor_kind
from rules.events import (
    Accept,
    Claim,
    Event,
    Lift,
    Offer,
    Place,
    Press,
    Promote,
    Resign,
    Snapshot,
    Start,
    Tick,
)
from rules.i18n import N_
from rules.placement import board_fen_of

__all__ = ["simulate_game"]

#: after the last press: how long before a resignation, a claim, an acceptance (ms)
AFTERTHOUGHT_MS = (500, 4000)
#: how long after the flag falls the stream says that time passed (ms); a camera's flag is
#: ruled only once its `latency_s` has passed without a late still scene, so it waits that too
TICK_AFTER_FLAG_MS = 1000
#: a camera reports a still scene this long after the hand left, at most its latency (ms)
CAMERA_MIN_MS = 300


def _seconds(ms: int) -> float:
    return ms / 1000


#: every piece, and its letter as a sensor shows it: with its kind, or its colour only (X/x)
_PIECES = [chess.Piece(kind, color) for kind in chess.PIECE_TYPES for color in chess.COLORS]
_LETTER = {
    True: {piece: piece.symbol() for piece in _PIECES},
    False: {piece: "X" if piece.color else "x" for piece in _PIECES},
}


def _placement(pieces: dict[chess.Square, chess.Piece], knows_kind: bool) -> str:
    """The FEN piece placement of `pieces`; without kinds, every piece as X (white) or x.

    Written by `rules.placement.board_fen_of` (as `chess.BaseBoard.board_fen()` writes it),
    from 64 slots: no board is set up piece by piece for each report.
    """
    letter = _LETTER[knows_kind]
    slots: list[str | None] = [None] * 64
    for square, piece in pieces.items():
        slots[square] = letter[piece]
    return board_fen_of(slots)


@dataclass(slots=True)
class _Stream:
    """Events with their time in ms and the order they were made, sorted at the end."""

    items: list[tuple[int, int, Event]]

    def add(self, at_ms: int, make: type[Event], **fields: object) -> None:
        event = make(t=_seconds(at_ms), **fields)  # type: ignore[arg-type]
        self.items.append((at_ms, len(self.items), event))

    def events(self) -> list[Event]:
        return [event for _, _, event in sorted(self.items, key=lambda item: item[:2])]


def _start(game: chess.pgn.Game, board: chess.Board, control: str, kind: SensorKind) -> Start:
    headers = game.headers
    fen = None if board.fen() == chess.STARTING_FEN else board.fen()

    def tag(name: str) -> str | None:
        value = headers.get(name)
        return value if value not in (None, "", "?") else None

    return Start(
        t=0.0,
        fen=fen,
        time_control=control,
        max_plies=kind.max_plies,
        noise_s=kind.noise_s,
        slide_s=kind.slide_s,
        latency_s=kind.latency_s,
        white=tag("White"),
        black=tag("Black"),
        event=tag("Event"),
        round=tag("Round"),
        site=tag("Site"),
    )


def _emit_move(
    stream: _Stream,
    board: chess.Board,
    plan: MovePlan,
    started_ms: int,
    kind: SensorKind,
    camera_by_ms: int | None,
    rng: random.Random,
    offer: bool,
) -> None:
    """The events of one move from `board`, whose mover's clock started at `started_ms`."""
    side = side_name(board.turn)
    sensed = board.piece_map()
    final = max(i for i, a in enumerate(plan.actions) if a.kind == "place")
    last_place = started_ms + plan.actions[final].at_ms
    for index, action in enumerate(plan.actions):
        at = started_ms + action.at_ms
        if plan.promote is not None and index == final:  # named as the new piece comes down
            letter = chess.Piece(plan.promote, board.turn).symbol()
            stream.add(at, Promote, side=side, piece=letter)
        if action.kind == "lift":
            sensed.pop(action.square, None)
        else:
            sensed[action.square] = action.piece
        if kind.reports == "squares":
            make = Lift if action.kind == "lift" else Place
            piece = action.piece.symbol() if kind.knows_kind else None
            stream.add(at, make, square=chess.square_name(action.square), piece=piece)
        elif kind.reports == "changes":
            stream.add(at, Snapshot, board=_placement(sensed, kind.knows_kind))
    press_at = started_ms + plan.press_ms
    if offer:
        stream.add((last_place + press_at) // 2, Offer, side=side)
    stream.add(press_at, Press, side=side)
    if kind.reports == "still":
        latency = max(CAMERA_MIN_MS, int(kind.latency_s * 1000))
        seen = max(last_place, *(started_ms + a.at_ms for a in plan.actions))
        at = seen + rng.randint(CAMERA_MIN_MS, latency)
        if camera_by_ms is not None:
            at = max(seen, min(at, camera_by_ms))
        stream.add(at, Snapshot, board=_placement(sensed, False), seen_at=_seconds(seen))


def _ending_events(
    ending: Ending, timeline: Timeline, board: chess.Board, kind: SensorKind, rng: random.Random
) -> tuple[list[tuple[int, type[Event], dict[str, object]]], int | None]:
    """The events after the last press, and the time by which a camera must have reported the
    last move (ms; None when nothing follows)."""
    press = timeline.last_press_ms
    room = timeline.remaining_s(board.turn) * 1000 / 2
    later = press + int(min(rng.randint(*AFTERTHOUGHT_MS), room))
    side = None if ending.side is None else side_name(ending.side)
    if ending.kind == "resign":
        return [(later, Resign, {"side": side})], later
    if ending.kind == "claim":
        return [(later, Claim, {"side": side, "kind": ending.claim, "move": ending.move})], later
    if ending.kind == "agreement":
        assert ending.side is not None
        return [(later, Accept, {"side": side_name(not ending.side)})], later
    if ending.kind == "flag":
        flag = timeline.flag_ms()
        assert flag is not None
        wait = TICK_AFTER_FLAG_MS
        if kind.reports == "still":
            wait += int(kind.latency_s * 1000)
        return [(flag + wait, Tick, {})], (press + flag) // 2
    return [], None


def simulate_game(
    game: chess.pgn.Game, sensor: str, *, seed: int = 0, where: object = "the game"
) -> list[Event]:
    """The event stream of `game` as a board of kind `sensor` with a clock would report it.

    `where` names the game in error messages (e.g. "games.pgn, game 3").

    Raises:
        SimulateError: an unknown sensor, a non-standard variant, a game without moves, or a
        game whose result or clocks no stream can reproduce under the Laws.
    """
    kind = sensor_kind(sensor)
    variant = game.headers.get("Variant", "Standard").lower()
    if variant not in ("standard", "chess", "from position"):
        raise SimulateError.of(
            N_("{where}: variant {variant!r} is not standard chess"),
            where=where,
            variant=game.headers["Variant"],
        )
    board = game.board()
    moves = list(game.mainline_moves())
    if not moves:
        raise SimulateError.of(N_("{where}: the game has no moves"), where=where)
    plies: list[PlyClock] = []
    start = board.copy(stack=False)  # kept as it is: the plies' names are written from it
    final = board.copy(stack=False)
    for ply, node in enumerate(game.mainline(), start=1):
        if not node.move:
            raise SimulateError.of(
                N_(
                    "{where}: move {number}{dots} (ply {ply}) is a null move ('--' or 'Z0'): a"
                    " pass that cannot be made over a board, so no event stream can reproduce"
                    " the game"
                ),
                where=where,
                number=final.fullmove_number,
                dots="." if final.turn else "...",
                ply=ply,
            )
        least = min_think_ms(final, node.move, kind)
        plies.append(PlyClock(final.turn, node.clock(), PlyName(start, moves, ply - 1), least))
        final.push(node.move)
    ending = choose_ending(final, game.headers, where=where)
    control_text, control = time_control_of(game.headers.get("TimeControl"))
    if ending.kind == "flag" and control.untimed:
        raise SimulateError.of(
            N_("{where}: lost on time, but TimeControl {control!r} gives no clock to run out"),
            where=where,
            control=game.headers.get("TimeControl", ""),
        )
    flag_side = ending.side if ending.kind == "flag" else None
    timeline = plan_times(
        plies, control, random.Random(f"{seed}:clock"), flag_side=flag_side, where=where
    )
    hands = random.Random(f"{seed}:hands")
    plans = []
    started = 0
    position = board.copy(stack=False)
    for move, think in zip(moves, timeline.thinks_ms, strict=True):
        plans.append((started, plan_move(position, move, kind, hands, think)))
        position.push(move)
        started += think
    stream = _Stream([])
    stream.items.append((0, -1, _start(game, board, control_text, kind)))
    closing, first_after = _ending_events(
        ending, timeline, final, kind, random.Random(f"{seed}:end")
    )
    for i, (move, (started, plan)) in enumerate(zip(moves, plans, strict=True)):
        last = i + 1 == len(moves)
        if last:
            camera_by = first_after
        else:
            nxt_started, nxt_plan = plans[i + 1]
            camera_by = nxt_started + nxt_plan.actions[0].at_ms
        _emit_move(
            stream,
            board,
            plan,
            started,
            kind,
            camera_by,
            hands,
            offer=last and ending.kind == "agreement",
        )
        board.push(move)
    for at, make, fields in closing:
        stream.add(at, make, **fields)
    return stream.events()
