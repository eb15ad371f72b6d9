"""The rules core: physical events in, rulings out (events.md), under the FIDE Laws 2023.

`Game(start)` takes the stream's `start`; `handle(event)` takes each later event and returns
the rulings it (and the time that passed before it) decided; `finish()` decides what is still
pending at the end of a stream. No I/O, no threads, no clock: time comes only from events.

How a move is recognised: the core keeps the board as sensed (`rules.sensed`) and, each time
the mover's last piece is released (it stood `slide_s`, or the clock was pressed) with no own
piece left in the hand, asks which legal move (or, for late sensors, which sequence of up to
`max_plies`) explains it. What no legal move explains is an illegal move in progress (Art. 4.7,
7.5) or a displaced piece (`mismatch`, Art. 7.4). Touches are tracked for Article 4.

`Game` holds the state of one game and the timing of what time decides (releases, presses
waiting for a report, flags); each job is a module of its own, taking the game explicitly:
`board_reports` (lifts, places, snapshots), `hands` (whose hand, touches, Art. 4 duties),
`moves` (4.7: when a move is made), `presses` (6.2.1, 7.5.3), `illegal` (7.5), `claims`
(4.8, 9.1 to 9.5), `ending` (5, 6.9, 9.6), `arbiter_actions` (the arbiter's interventions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import chess

from rules import arbiter_actions, board_reports, claims, ending, hands, moves, presses
from rules.clock import GameClock
from rules.errors import EventError, EventOrderError, PositionError
from rules.events import (
    ARBITER_ACTION_TYPES,
    Accept,
    Adjust,
    ArbiterAction,
    Claim,
    Decline,
    Event,
    Lift,
    Offer,
    Place,
    Press,
    Promote,
    Resign,
    Restart,
    Sensor,
    Snapshot,
    Start,
    Tick,
    Touch,
)
from rules.profiles import get_profile
from rules.rulings import ClockState, Mismatch, PieceOn, Reason, Reinstate, ReinstateReason, Ruling
from rules.sensed import (
    LegalMoves,
    Match,
    Sensed,
    differing,
    fen_of,
    find_match,
    letter_color,
    own_in_hand_by_count,
    rank_fen,
    sensed_from_board,
)
from rules.sides import SIDE
from rules.timecontrol import TimeControl
from rules.turn import MoveRecord, Turn
from rules.types import Result, Side


class Game:
    """One game under the Laws, driven by the contract's physical events."""

    def __init__(self, start: Start) -> None:
        if not isinstance(start, Start):
            raise EventError("a stream must begin with a 'start' event")
        self.start = start
        self.profile = get_profile(start.rules)
        control_text = start.time_control
        if control_text is None:
            control_text = self.profile.default_time_control
        self.control = TimeControl.parse(control_text)
        self.mode = start.mode or self.control.game_class()
        try:
            self.board = chess.Board(start.fen) if start.fen else chess.Board()
        except ValueError as exc:
            raise PositionError(f"start: the FEN {start.fen!r} cannot be read ({exc})") from None
        if not self.board.is_valid():
            raise PositionError(f"start: the FEN {start.fen!r} is not a legal chess position")
        self.strict = start.strict
        self.timed = not self.control.untimed
        self.clock = GameClock(self.control, t=start.t, running=SIDE[self.board.turn])
        self.sensed: Sensed = sensed_from_board(self.board)
        self._expected: Sensed = list(self.sensed)  # the position's letters, kept in step
        self._ranks = [rank_fen(self._expected, rank) for rank in range(8)]  # and their FEN
        # the sensed board last compared, its differing squares, whether it shows a '?'
        self._diff_cache: tuple[tuple[str | None, ...], set[int], bool] | None = None
        self._matches: dict[tuple[object, ...], Match | None] = {}
        self.legal = LegalMoves(self.board)  # the position's legal moves, kept in step
        self.t = start.t
        self.over = False
        self.result: Result | None = None
        self.reason: Reason | None = None
        self.turn = Turn(SIDE[self.board.turn])
        self.records: list[MoveRecord] = []
        self.illegal_count: dict[Side, int] = {"white": 0, "black": 0}
        self.pending: dict[int, tuple[float, Side]] = {}  # square -> (place time, hand side)
        self.recent_lift: dict[int, tuple[float, str | None, Side]] = {}  # blink detection
        # presses waiting for the sensor's report of their move
        self.waiting_presses: list[tuple[Side, float]] = []
        self.flag_wait: tuple[Side, float] | None = None
        self.offer: Side | None = None
        self.promotion: dict[Side, int] = {}
        self.disconnected = False
        self.reconciling = False
        self.snapshots_seen = False
        self.repetitions: dict[object, int] = {}
        self.count_position()
        self.start_ply = 0
        self.flags_down: set[Side] = set()
        #: a flag fell and whether the opponent can still mate is undecided (6.9): the game
        #: holds, board events are ignored, until the arbiter's `declare` ends it
        self.held = False
        self.mismatch_key: tuple[object, ...] | None = None
        self._clock_t = start.t

    # ------------------------------------------------------------------ public API

    @property
    def ply(self) -> int:
        """The number of plies that stand (the position's move stack)."""
        return len(self.board.move_stack)

    def handle(self, event: Event) -> list[Ruling]:
        """Rule on one physical event (and on what time decided before it)."""
        if isinstance(event, Start):
            raise EventError("a second 'start' event in the same stream")
        if event.t < self.t:
            raise EventOrderError(
                f"the {event.type!r} event at t={event.t} comes before the previous one"
                f" (t={self.t}): times must not run backwards"
            )
        out: list[Ruling] = []
        # a tick says that time reached t: what falls due at t itself is decided too
        self._advance(event.t, out, strict_before=not isinstance(event, Tick))
        self.t = event.t
        if self.over or self.held:
            if isinstance(event, ArbiterAction):
                arbiter_actions.arbiter_action(self, event, out)
            return self._ordered(out)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event, out)
        return self._ordered(out)

    def advance(self, t: float) -> list[Ruling]:
        """Take every decision that falls due up to `t` (live sessions call this on timers)."""
        out: list[Ruling] = []
        if t >= self.t:
            self._advance(t, out, strict_before=False)
            self.t = t
        return self._ordered(out)

    def next_deadline(self) -> float | None:
        """The next moment time alone decides something (a release, a flag, a press window)."""
        if self.over:
            return None
        times = [self.release_due(sq) for sq in self.pending]
        for _, t in self.waiting_presses:
            due = self.press_due(t)
            if due is not None:
                times.append(due)
        flag = self.flag_due()
        if flag is not None:
            times.append(flag[1] + self.flag_grace())
        return min(times) if times else None

    def finish(self) -> list[Ruling]:
        """End of a stream: pending placements are released as though time had passed."""
        out: list[Ruling] = []
        if self.over:
            return out
        while self.pending and not self.over:
            sq = min(self.pending, key=self.release_due)
            due = max(self.t, self.release_due(sq))
            moves.release(self, sq, due, out)
        for side, t in list(self.waiting_presses):
            if self.over:
                break
            window = self.press_due(t)
            presses.resolve(
                self,
                side,
                t,
                max(self.t, window if window is not None else self.t),
                out,
                final=True,
            )
        self.waiting_presses.clear()
        return self._ordered(out)

    # ------------------------------------------------------------------ timing

    def release_due(self, sq: int) -> float:
        """When the piece put down on `sq` is released: it stood `slide_s` (4.7)."""
        t, _ = self.pending[sq]
        return t + self.start.slide_s

    def press_due(self, t: float) -> float | None:
        """When a press at `t` is matched with its move: `latency_s` later, or by a report."""
        if self.still_scene_source() or self.disconnected:
            return None  # resolved by the next still scene, however late
        return t + self.start.latency_s

    def still_scene_source(self) -> bool:
        """A camera: it reports only still scenes, late (events.md: slide_s 0, latency_s > 0)."""
        return self.start.slide_s == 0 and self.start.latency_s > 0

    def _advance(self, until: float, out: list[Ruling], *, strict_before: bool) -> None:
        """Decide, in time order, what fell due before `until` (releases, presses, flags)."""

        def due(x: float) -> bool:
            return x < until if strict_before else x <= until

        while not self.over:
            if not self.pending and not self.waiting_presses:
                # the usual case between moves: only a flag can fall due
                flag = self.flag_due()
                if flag is None:
                    return
                when = flag[1] + self.flag_grace()
                if not due(when):
                    return
                ending.flag(self, flag[0], flag[1], when, out)
                continue
            # the earliest due: releases (in the order put down), then a press, then the flag
            best: tuple[float, int, int] | None = None  # (when, 0 release/1 press/2 flag, which)
            slide = self.start.slide_s
            for sq, (placed, _hand) in self.pending.items():
                when = placed + slide  # `release_due`
                if due(when) and (best is None or when < best[0]):
                    best = (when, 0, sq)
            for i, (_side, t) in enumerate(self.waiting_presses):
                d = self.press_due(t)
                if d is not None:
                    if due(d) and (best is None or d < best[0]):
                        best = (d, 1, i)
                    break  # presses resolve in order
            flag = self.flag_due()
            if flag is not None:
                when = flag[1] + self.flag_grace()
                if due(when) and (best is None or when < best[0]):
                    best = (when, 2, 0)
            if best is None:
                return
            when, kind, which = best
            if kind == 0:
                moves.release(self, which, when, out)
            elif kind == 1:
                side, t = self.waiting_presses.pop(which)
                presses.resolve(self, side, t, when, out)
            else:
                assert flag is not None
                ending.flag(self, flag[0], flag[1], when, out)

    def flag_grace(self) -> float:
        """How long a flag waits for a late report of a move made before it.

        A camera reports still scenes up to `latency_s` late, so a mate released just in time
        may not be known yet; boards that report every change need no wait (a placement
        still within `slide_s` holds the flag by itself, see `_flag`).
        """
        return self.start.latency_s if self.still_scene_source() else 0.0

    def flag_due(self) -> tuple[Side, float] | None:
        """The running side's flag (6.9), unless the press that stopped it waits for its report."""
        if not self.timed or self.flag_wait is not None:
            return None
        flag = self.clock.flag_at()
        if flag is None:
            return None
        side, at = flag
        if any(s == side and t <= at for s, t in self.waiting_presses):
            return None  # the press that stopped this clock is only waiting for its report
        return flag

    # ------------------------------------------------------------------ rulings

    @staticmethod
    def _ordered(out: list[Ruling]) -> list[Ruling]:
        """Non-decreasing t, and at one t the clock comes last (events.md)."""
        if len(out) < 2:
            return out
        return sorted(out, key=lambda r: (r.t, isinstance(r, ClockState)))

    def clock_ruling(self, out: list[Ruling], t: float) -> None:
        """A `clock` ruling with the times left at `t` (timed games only)."""
        if not self.timed:
            return
        t = max(t, self._clock_t)
        white, black, running, paused = self.clock.reading(t)
        out.append(ClockState(t=t, white=white, black=black, running=running, paused=paused))

    def clock_time(self, t: float) -> float:
        """Clock operations never run backwards, even when a report comes late."""
        self._clock_t = max(t, self._clock_t)
        return self._clock_t

    # ------------------------------------------------------------------ releases and moves

    def promo(self) -> int | None:
        """The piece type the mover named with `promote` (for piece-blind sensors), if any."""
        return self.promotion.get(SIDE[self.board.turn])

    def board_changed(self, squares: Iterable[int] | None = None) -> None:
        """The position changed: the letters a perfect sensor would show follow it.

        `squares`: the only squares that changed (those of one move), else all of them.
        """
        board = self.board
        if squares is None:
            self._expected = sensed_from_board(board)
            self._ranks = [rank_fen(self._expected, rank) for rank in range(8)]
        else:
            expected = self._expected
            for sq in squares:
                piece = board.piece_at(sq)
                expected[sq] = piece.symbol() if piece is not None else None
            for rank in {sq >> 3 for sq in squares}:
                self._ranks[rank] = rank_fen(expected, rank)
        self._diff_cache = None
        self._matches.clear()
        self.legal = LegalMoves(board)

    def fen(self) -> str:
        """The position's FEN, as `chess.Board.fen()` gives it (from the letters at hand)."""
        return fen_of(self.board, self._expected, "/".join(reversed(self._ranks)))

    def diff(self) -> set[int]:
        """Squares where the board as sensed differs from the game's position.

        Asked several times for one board report (release, press, settle): the answer for
        the last sensed board is kept until the board or the position changes.
        """
        return set(self._diff_state()[1])

    def _diff_state(self) -> tuple[tuple[str | None, ...], set[int], bool]:
        """(the sensed board, `diff()` of it, whether it shows a piece of unknown colour)."""
        sensed = tuple(self.sensed)
        cached = self._diff_cache
        if cached is None or cached[0] != sensed:
            diff = differing(self.board, self.sensed, self._expected)
            cached = self._diff_cache = (sensed, diff, "?" in sensed)
        return cached

    def own_in_hand(self) -> int:
        """How many of the mover's pieces are off the board (captures aside): see `hands`.

        Where no slot is of unknown colour, a slot that agrees with the position shows a
        piece of the colour the position has there, so only the differing squares count.
        """
        _, diff, unknown = self._diff_state()
        if unknown:
            return own_in_hand_by_count(self.sensed, self.board, self.turn.moved_squares)
        us = self.board.turn
        color_at = self.board.color_at
        sensed = self.sensed
        count = 0
        for sq in diff:
            if color_at(sq) == us:
                count += 1
            if letter_color(sensed[sq]) == us:
                count -= 1
        return count

    def match(self, max_plies: int | None = None) -> Match | None:
        """The legal move (or sequence, up to `max_plies`, default the start's) the board shows.

        `find_match` on the sensed board and the game's position, kept per sensed board
        until the position changes: a press asks whether the board shows a move, and the
        release it causes asks again.
        """
        plies = self.start.max_plies if max_plies is None else max_plies
        promotion = self.promo()
        key = (tuple(self.sensed), promotion, plies)
        if key in self._matches:
            return self._matches[key]
        if len(self._matches) > 64:
            self._matches.clear()
        diff = self.diff()
        found = None
        if diff:
            found = find_match(
                self.board,
                self.sensed,
                max_plies=plies,
                promotion=promotion,
                diff=diff,
                legal=self.legal,
            )
        self._matches[key] = found
        return found

    def arrangement(self, diff: set[int]) -> frozenset[tuple[int, str | None]]:
        """What stands on the differing squares: the identity of one illegal arrangement."""
        return frozenset((sq, self.sensed[sq]) for sq in diff)

    def reinstate(
        self,
        t: float,
        reason: ReinstateReason,
        article: str | None,
        out: list[Ruling],
        *,
        clock: bool = True,
    ) -> None:
        """The position goes back; the board must be made to show it (`mismatch`)."""
        out.append(Reinstate(t=t, article=article, fen=self.fen(), ply=self.ply, reason=reason))
        if self.turn.obligation is not None:
            hands.emit_obligation(self, self.turn.obligation, t, out)
        self.turn.reported_illegal = None
        self.mismatch_key = None
        self.mismatch(t, out)
        if clock:
            self.clock_ruling(out, t)

    def mismatch(self, t: float, out: list[Ruling], diff: set[int] | None = None) -> None:
        """7.4, 7.6: what to put back where, once per distinct difference."""
        if diff is None:
            diff = self.diff()
        if not diff:
            return
        squares = sorted(diff)
        key = (tuple(squares), tuple(self.sensed[sq] for sq in squares), self.ply)
        if key == self.mismatch_key:
            return
        self.mismatch_key = key
        missing: list[PieceOn] = []
        extra: list[PieceOn] = []
        for sq in squares:
            want = self.board.piece_at(sq)
            have = self.sensed[sq]
            if want is not None:
                missing.append(PieceOn(sq, want.symbol()))
            if have is not None:
                extra.append(PieceOn(sq, have))
        out.append(Mismatch(t=t, missing=tuple(missing), extra=tuple(extra)))

    def clear_mismatch(self) -> None:
        """The board showed the game again: the next difference is ruled anew (7.4)."""
        self.mismatch_key = None

    def count_position(self) -> None:
        """One more occurrence of the current position (9.2, 9.6.1)."""
        key = self.board._transposition_key()
        self.repetitions[key] = self.repetitions.get(key, 0) + 1

    def uncount_position(self) -> None:
        """The current position is taken back: one occurrence less (9.2, 9.6.1)."""
        key = self.board._transposition_key()
        if self.repetitions.get(key, 0) > 0:
            self.repetitions[key] -= 1

    def take_back(self, plies: int) -> list[MoveRecord]:
        """Undo `plies` moves (claim upheld 4.8, 7.5.4, the arbiter 7.1); returns them."""
        undone = []
        for _ in range(min(plies, len(self.records))):
            record = self.records.pop()
            self.uncount_position()
            self.board.pop()
            self.board_changed()
            if record.counted:
                self.clock.uncount_move(record.side)
            undone.append(record)
        self.turn = Turn(SIDE[self.board.turn])
        return undone

    # ------------------------------------------------------------------ other events

    def _restart(self, ev: Restart, out: list[Ruling]) -> None:
        """A crash or power loss: the clocks stand as they were unless the gap is counted."""

    def _tick(self, ev: Tick, out: list[Ruling]) -> None:
        """Time passed; `_advance` already decided what fell due."""


_HANDLERS: dict[type, Any] = {
    Lift: board_reports.lift,
    Place: board_reports.place,
    Snapshot: board_reports.snapshot,
    Press: presses.press,
    Touch: hands.touch,
    Adjust: hands.adjust,
    Promote: board_reports.promote,
    Claim: claims.claim,
    Offer: claims.offer,
    Accept: claims.accept,
    Decline: claims.decline,
    Resign: ending.resign,
    Sensor: board_reports.sensor,
    Restart: Game._restart,
    Tick: Game._tick,
    **{cls: arbiter_actions.arbiter_action for cls in ARBITER_ACTION_TYPES.values()},
}
