"""The rules core: physical events in, rulings out (events.md), under the FIDE Laws 2023.

`Game(start)` takes the stream's `start`; `handle(event)` takes each later event and returns
the rulings it (and the time that passed before it) decided; `finish()` decides what is still
pending at the end of a stream. No I/O, no threads, no clock: time comes only from events.

How a move is recognised: the core keeps the board as sensed (`rules.sensed`) and, each time
the mover's last piece is released (it stood `slide_s`, or the clock was pressed) with no own
piece left in the hand, asks which legal move (or, for late sensors, which sequence of up to
`max_plies`) explains it. What no legal move explains is an illegal move in progress (Art. 4.7,
7.5) or a displaced piece (`mismatch`, Art. 7.4). Touches are tracked for Article 4.
"""

from __future__ import annotations

from typing import Any

import chess

from rules import arbiter_actions, claims, ending, hands, illegal
from rules.clock import GameClock
from rules.errors import EventError, EventOrderError, PositionError
from rules.events import (
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
from rules.messages import message
from rules.profiles import get_profile
from rules.rulings import Ruling
from rules.sensed import (
    Match,
    Sensed,
    classify_attempt,
    compatible,
    differing,
    find_match,
    letter_color,
    sensed_from_board,
    sensed_from_placement,
)
from rules.sides import SIDE, other
from rules.timecontrol import TimeControl
from rules.touch import castling_rook
from rules.turn import MoveRecord, Turn

PROMOTION_TYPES = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}


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
        self.t = start.t
        self.over = False
        self.result: str | None = None
        self.reason: str | None = None
        self.turn = Turn(SIDE[self.board.turn])
        self.records: list[MoveRecord] = []
        self.illegal_count = {"white": 0, "black": 0}
        self.pending: dict[int, tuple[float, str]] = {}  # square -> (place time, hand side)
        self.recent_lift: dict[int, tuple[float, str | None, str]] = {}  # blink detection
        self.presses: list[tuple[str, float]] = []  # presses waiting for the sensor's report
        self.flag_wait: tuple[str, float] | None = None
        self.offer: str | None = None
        self.promotion: dict[str, int] = {}
        self.disconnected = False
        self.reconciling = False
        self.snapshots_seen = False
        self.repetitions: dict[object, int] = {}
        self.count_position()
        self.start_ply = 0
        self.flags_down: set[str] = set()
        self.mismatch_key: tuple[object, ...] | None = None
        self._clock_t = start.t

    # ------------------------------------------------------------------ public API

    @property
    def ply(self) -> int:
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
        if self.over:
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
        times += [self.press_due(t) for _, t in self.presses if self.press_due(t) is not None]
        flag = self.flag_due()
        if flag is not None:
            times.append(flag[1] + self.flag_grace())
        return min(times) if times else None  # type: ignore[type-var]

    def finish(self) -> list[Ruling]:
        """End of a stream: pending placements are released as though time had passed."""
        out: list[Ruling] = []
        if self.over:
            return out
        while self.pending and not self.over:
            sq = min(self.pending, key=self.release_due)
            due = max(self.t, self.release_due(sq))
            self.release(sq, due, out)
        for side, t in list(self.presses):
            if self.over:
                break
            due = self.press_due(t)
            self.resolve_press(
                side, t, max(self.t, due if due is not None else self.t), out, final=True
            )
        self.presses.clear()
        return self._ordered(out)

    # ------------------------------------------------------------------ timing

    def release_due(self, sq: int) -> float:
        t, _ = self.pending[sq]
        return t + self.start.slide_s

    def press_due(self, t: float) -> float | None:
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
            candidates: list[tuple[float, int, object]] = []
            for sq in self.pending:
                candidates.append((self.release_due(sq), 0, sq))
            for i, (_side, t) in enumerate(self.presses):
                d = self.press_due(t)
                if d is not None:
                    candidates.append((d, 1, i))
                    break  # presses resolve in order
            flag = self.flag_due()
            if flag is not None:
                candidates.append((flag[1] + self.flag_grace(), 2, flag))
            candidates = [c for c in candidates if due(c[0])]
            if not candidates:
                return
            when, kind, what = min(candidates, key=lambda c: (c[0], c[1]))
            if kind == 0:
                self.release(what, when, out)  # type: ignore[arg-type]
            elif kind == 1:
                side, t = self.presses.pop(what)  # type: ignore[call-overload]
                self.resolve_press(side, t, when, out)
            else:
                fside, at = what  # type: ignore[misc]
                ending.flag(self, fside, at, when, out)

    def flag_grace(self) -> float:
        """How long a flag waits for a late report of a move made before it.

        A camera reports still scenes up to `latency_s` late, so a mate released just in time
        may not be known yet; boards that report every change need no wait (a placement
        still within `slide_s` holds the flag by itself, see `_flag`).
        """
        return self.start.latency_s if self.still_scene_source() else 0.0

    def flag_due(self) -> tuple[str, float] | None:
        if not self.timed or self.flag_wait is not None:
            return None
        flag = self.clock.flag_at()
        if flag is None:
            return None
        side, at = flag
        if any(s == side and t <= at for s, t in self.presses):
            return None  # the press that stopped this clock is only waiting for its report
        return flag

    # ------------------------------------------------------------------ rulings

    def rule(
        self,
        out: list[Ruling],
        t: float,
        rtype: str,
        /,
        *,
        side: str | None = None,
        article: str | None = None,
        key: str | None = None,
        **data: Any,
    ) -> Ruling:
        fields = dict(data)
        text = message(key or rtype, side=side, article=article, **fields)
        ruling = Ruling(t=t, type=rtype, side=side, article=article, message=text, data=fields)
        out.append(ruling)
        return ruling

    @staticmethod
    def _ordered(out: list[Ruling]) -> list[Ruling]:
        """Non-decreasing t, and at one t the clock comes last (events.md)."""
        if len(out) < 2:
            return out
        return sorted(out, key=lambda r: (r.t, r.type == "clock"))

    def clock_ruling(self, out: list[Ruling], t: float) -> None:
        if not self.timed:
            return
        t = max(t, self._clock_t)
        state = self.clock.state(t)
        self.rule(out, t, "clock", **state)

    def clock_time(self, t: float) -> float:
        """Clock operations never run backwards, even when a report comes late."""
        self._clock_t = max(t, self._clock_t)
        return self._clock_t

    # ------------------------------------------------------------------ sensing

    def _lift(
        self, ev: Lift, out: list[Ruling], *, t: float | None = None, update: bool = True
    ) -> None:
        t = ev.t if t is None else t
        sq = chess.parse_square(ev.square)
        hand = hands.whose_hand(self, ev.side, sq)
        if hand != SIDE[self.board.turn] and self.pending:
            self.release_early(t, out)
            hand = hands.whose_hand(self, ev.side, sq)
        letter = self.sensed[sq]
        if sq in self.pending:
            placed_t, _ = self.pending.pop(sq)
            if t - placed_t <= self.start.slide_s:
                # slid over the square, never released there (events.md, slide_s)
                self.sensed[sq] = None
                return
        self.recent_lift[sq] = (t, letter, hand)
        self.sensed[sq] = None
        if letter is None:
            return
        hands.touched(self, sq, letter, hand, t, out, update=update)
        if hand == SIDE[self.board.turn] and self.turn.moved_squares and not self.pending:
            # the taken piece came off last: the capture is made now (4.7.1)
            self.settle_if_move(t, out)

    def _place(self, ev: Place, out: list[Ruling], *, t: float | None = None) -> None:
        t = ev.t if t is None else t
        sq = chess.parse_square(ev.square)
        hand = ev.side or hands.holding_hand(self)
        recent = self.recent_lift.pop(sq, None)
        letter = ev.piece
        if recent is not None:
            lift_t, before, lift_hand = recent
            same = letter is None or letter == before
            if t - lift_t <= self.start.noise_s and same and before is not None:
                # a sensor blink: the square never changed (events.md, noise_s)
                self.sensed[sq] = before
                hands.undo_touch(self, sq, lift_hand, t, out)
                return
        if letter is None:
            letter = self._letter_in_hand(sq)
        self.sensed[sq] = letter
        self.pending[sq] = (t, hand)
        if hand == SIDE[self.board.turn]:
            self.turn.moved_squares.add(sq)
            us = self.board.turn
            last_rank = 7 if us == chess.WHITE else 0
            if (
                chess.square_rank(sq) == last_rank
                and letter is not None
                and letter.upper() in "NBRQ"
                and letter_color(letter) == us
            ):
                self.turn.promo_first.setdefault(sq, letter)

    def _letter_in_hand(self, sq: int) -> str:
        """The piece a piece-blind sensor put down: the one lifted piece, if only one is up.

        A pawn put on a last rank stays unknown: it may be the promotion's new piece.
        """
        if chess.square_rank(sq) in (0, 7):
            return "?"
        up = [
            letter
            for sq, (t, letter, hand) in self.recent_lift.items()
            if letter is not None
            and self.sensed[sq] is None
            and letter_color(letter) == self.board.turn
        ]
        return up[0] if len(up) == 1 and hands.own_in_hand(self) == 1 else "?"

    def _snapshot(self, ev: Snapshot, out: list[Ruling]) -> None:
        """A whole-board report: lifts first, then places, own pieces first (events.md)."""
        self.snapshots_seen = True
        seen = sensed_from_placement(ev.board)
        place_t = ev.seen_at if ev.seen_at is not None and ev.seen_at <= ev.t else ev.t
        us = self.board.turn
        changed = [sq for sq in range(64) if seen[sq] != self.sensed[sq]]
        if self.reconciling:
            self._reconcile(seen, place_t, ev.t, out)
            return
        if self.disconnected:
            self.disconnected = False
        lifts = [sq for sq in changed if self.sensed[sq] is not None]
        lifts.sort(key=lambda sq: letter_color(self.sensed[sq]) != us)
        lifts = self._lift_order(lifts, seen)
        for sq in lifts:
            if seen[sq] is not None and compatible(seen[sq], self._piece_of(self.sensed[sq])):
                # same colour/kind still there (a sensor that only knows colours)
                continue
            self._lift(Lift(t=ev.t, square=chess.square_name(sq)), out, update=False)
        if not self.over and self.turn.touches:
            hands.update_obligation(self, ev.t, out)
        for sq in changed:
            if seen[sq] is not None and self.sensed[sq] != seen[sq]:
                if self.sensed[sq] is not None and compatible(
                    seen[sq], self._piece_of(self.sensed[sq])
                ):
                    continue
                self._place(
                    Place(t=ev.t, square=chess.square_name(sq), piece=seen[sq]), out, t=place_t
                )
        if not self.over:
            self.sensed = [
                s
                if s is not None and seen[i] is not None and compatible(seen[i], self._piece_of(s))
                else seen[i]
                for i, s in enumerate(self.sensed)
            ]
            if self.start.slide_s == 0:
                self.release_all(ev.t, out)
                if self.still_scene_source() and not self.over and not self.pending:
                    self.settle(ev.t, out, made_at=place_t)
            self.resolve_waiting_presses(ev.t, out)

    def _reconcile(self, seen: Sensed, seen_at: float, t: float, out: list[Ruling]) -> None:
        """The first full report after a reconnection: a move (or up to `max_plies`) made
        while the cable was out is recognised; anything else is a `mismatch` (events.md)."""
        self.reconciling = False
        self.disconnected = False
        self.pending.clear()
        self.recent_lift.clear()
        self.sensed = [
            s
            if s is not None and seen[i] is not None and compatible(seen[i], self._piece_of(s))
            else seen[i]
            for i, s in enumerate(self.sensed)
        ]
        diff = self.diff()
        if diff:
            match = find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self.promo(),
                diff=diff,
            )
            if match is None:
                self.mismatch(t, out, diff)
            else:
                self.made_all(match, t, seen_at, out)
        self.resolve_waiting_presses(t, out)

    def _lift_order(self, lifts: list[int], seen: Sensed) -> list[int]:
        """Lifts in the order that explains a legal move: the moving piece (the king when
        castling, 4.4.1) first, then the rook or the taken piece; own pieces first otherwise."""
        if len(lifts) < 2:
            return lifts
        match = find_match(self.board, seen, max_plies=1, promotion=self.promo())
        if match is None:
            return lifts
        move = match.moves[0]
        first = [move.from_square]
        rook = castling_rook(self.board, move)
        if rook is not None:
            first.append(rook)
        return [sq for sq in first if sq in lifts] + [sq for sq in lifts if sq not in first]

    @staticmethod
    def _piece_of(letter: str | None) -> chess.Piece | None:
        if letter is None or letter in "Xx?":
            return None
        return chess.Piece.from_symbol(letter)

    # ------------------------------------------------------------------ releases and moves

    def release_early(self, t: float, out: list[Ruling]) -> None:
        """The other player's hand is at work: the mover has let go of what he put down."""
        if hands.own_in_hand(self) > 0:
            return
        diff = self.diff()
        if diff and find_match(self.board, self.sensed, promotion=self.promo(), diff=diff):
            self.release_all(t, out)

    def settle_if_move(self, t: float, out: list[Ruling], made_at: float | None = None) -> bool:
        """Make the move the board shows, if it shows one; rule nothing otherwise."""
        if self.over or self.pending or hands.own_in_hand(self) > 0:
            return False
        diff = self.diff()
        if not diff or self.arrangement(diff) == self.turn.refused:
            return False
        if (
            find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self.promo(),
                diff=diff,
            )
            is None
        ):
            return False
        self.settle(t, out, made_at=t if made_at is None else made_at)
        return True

    def release_all(self, t: float, out: list[Ruling]) -> None:
        for sq in sorted(self.pending, key=lambda s: self.pending[s][0]):
            if self.over:
                return
            if sq in self.pending:
                self.release(sq, t, out)

    def release(self, sq: int, t: float, out: list[Ruling]) -> None:
        placed_t, _hand = self.pending.pop(sq)
        if self.pending:
            return  # the move is made when its last piece is released
        if hands.own_in_hand(self) > 0:
            return  # the hand still holds a piece of this move (castling, a capture)
        self.settle(t, out, made_at=placed_t)

    def promo(self) -> int | None:
        return self.promotion.get(SIDE[self.board.turn])

    def settle(self, t: float, out: list[Ruling], *, made_at: float, pressed: bool = False) -> str:
        """Everything is down: which legal move (if any) does the board show?

        Returns 'none' (board = position), 'move', 'partial' (castling or promotion under way),
        'illegal' (the mover's pieces stand where no legal move puts them) or 'mismatch'.
        """
        diff = self.diff()
        if not diff:
            self.clear_mismatch()
            return "none"
        if self.arrangement(diff) == self.turn.refused:
            return "refused"
        match = find_match(
            self.board,
            self.sensed,
            max_plies=self.start.max_plies,
            promotion=self.promo(),
            diff=diff,
        )
        if match is not None:
            self.made_all(match, t, made_at, out)
            return "move"
        if self._made_with_displaced(diff, t, made_at, out):
            return "move"
        attempt = classify_attempt(self.board, self.sensed, diff)
        if attempt.kind in ("castling_partial", "capture_partial", "not_promoted") and not pressed:
            return "partial"
        if self.turn.touched_any or self.turn.moved_squares:
            if not pressed:
                illegal.released(self, attempt.kind, attempt.move, t, diff, out)
            return "illegal"
        self.mismatch(t, out, diff)
        return "mismatch"

    def name_sensed_pieces(self) -> None:
        """Once a move stands, pieces a blind sensor showed as X, x or ? are known."""
        board = self.board
        sensed = self.sensed
        for sq in range(64):
            letter = sensed[sq]
            if letter in ("?", "X", "x"):
                piece = board.piece_at(sq)
                if piece is not None and compatible(letter, piece):
                    sensed[sq] = piece.symbol()

    def board_changed(self) -> None:
        self._expected = sensed_from_board(self.board)

    def diff(self) -> set[int]:
        """Squares where the board as sensed differs from the game's position."""
        return differing(self.board, self.sensed, self._expected)

    def arrangement(self, diff: set[int]) -> frozenset[tuple[int, str | None]]:
        return frozenset((sq, self.sensed[sq]) for sq in diff)

    def made_all(self, match: Match, t: float, made_at: float, out: list[Ruling]) -> None:
        """The plies of one report, in order (several when a late sensor saw them at once)."""
        for i, move in enumerate(match.moves):
            if self.over:
                break
            self.made(
                move,
                t,
                made_at,
                out,
                inferred=match.inferred,
                multi=len(match.moves) > 1,
                first=i == 0,
            )

    def _made_with_displaced(
        self, diff: set[int], t: float, made_at: float, out: list[Ruling]
    ) -> bool:
        """A legal move, with opponent pieces the mover took off and did not capture.

        The move stands (4.7) and the pieces taken off are displaced (7.4): `mismatch`.
        """
        them = not self.board.turn
        off = {sq for sq in diff if self.sensed[sq] is None and self.board.color_at(sq) == them}
        if not off:
            return False
        restored = list(self.sensed)
        for sq in off:
            piece = self.board.piece_at(sq)
            restored[sq] = piece.symbol() if piece else None
        match = find_match(self.board, restored, max_plies=1, promotion=self.promo())
        if match is None:
            return False
        move = match.moves[0]
        if move.to_square in off or self.board.is_en_passant(move):
            return False
        self.made(move, t, made_at, out)
        if not self.over:
            self.mismatch(t, out)
        return True

    def made(
        self,
        move: chess.Move,
        t: float,
        made_at: float,
        out: list[Ruling],
        *,
        inferred: bool = False,
        multi: bool = False,
        first: bool = True,
    ) -> None:
        """A legal move was made (4.7): check Article 4, then let it stand (or refuse it)."""
        side = SIDE[self.board.turn]
        turn = self.turn
        violation = None if (multi and not first) else hands.article4_breach(self, move)
        if violation is not None:
            self.rule(
                out,
                t,
                "violation",
                side=side,
                article=violation["article"],
                key=f"violation.{violation['kind']}",
                kind=violation["kind"],
                square=violation["square"],
            )
            if self.strict:
                self.turn.refused = self.arrangement(self.diff())
                self.reinstate(t, "strict", violation["article"], out)
                return
        san = self.board.san(move)
        touches = list(turn.touches)
        self.board.push(move)
        self.board_changed()
        self.count_position()
        self.name_sensed_pieces()
        record = MoveRecord(self.ply, side, move, made_at, touches, violation)
        self.records.append(record)
        self.rule(
            out,
            t,
            "move",
            side=side,
            key="move.inferred" if inferred else "move",
            ply=self.ply,
            uci=move.uci(),
            san=san,
            fen=self.board.fen(),
            made_at=round(made_at, 6),
            inferred=inferred,
        )
        self.promotion.pop(side, None)
        self.turn = Turn(SIDE[self.board.turn])
        for sq in list(self.recent_lift):
            del self.recent_lift[sq]
        if self.offer == other(side):
            pass  # the opponent's offer stands until answered (9.1.2.1)
        self.clear_mismatch()
        if self.start.auto_press:
            self.complete(record, self.clock_time(max(made_at, self._clock_t)), out)
        ending.after_move(self, t, out, made_at)
        if not self.over:
            ending.flag_after_release(self, t, out)

    def _press(self, ev: Press, out: list[Ruling]) -> None:
        side = ev.side
        if self.pending and (self.start.latency_s == 0 or self._pending_makes_move()):
            # the press releases what is down (4.7); with a late sensor, only when it already
            # shows a move: the rest of the move may still be on its way (latency_s)
            self.release_all(ev.t, out)
            if self.over:
                return
        if self.flag_wait is not None:
            fside, at = self.flag_wait
            self.flag_wait = None
            ending.flag(self, fside, at, ev.t, out, waited=True)
            if self.over:
                return
        last = self.records[-1] if self.records else None
        if last is not None and last.side == side and not last.pressed:
            self.complete(last, self.clock_time(ev.t), out)
            return
        if side == SIDE[self.board.turn] and not self.presses and self.settle_if_move(ev.t, out):
            last = self.records[-1] if self.records else None
            if last is not None and last.side == side and not last.pressed:
                self.complete(last, self.clock_time(ev.t), out)
            return
        if side == SIDE[self.board.turn] or self.presses:
            self.presses.append((side, ev.t))
            due = self.press_due(ev.t)
            if due is not None and due <= ev.t:
                self.presses.pop()
                self.resolve_press(side, ev.t, ev.t, out)

    def _pending_makes_move(self) -> bool:
        if hands.own_in_hand(self) > 0:
            return False
        diff = self.diff()
        return bool(diff) and (
            find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self.promo(),
                diff=diff,
            )
            is not None
        )

    def resolve_waiting_presses(self, t: float, out: list[Ruling]) -> None:
        """A still scene arrived: presses that waited for it are matched now."""
        while self.presses and not self.over:
            side, pt = self.presses.pop(0)
            self.resolve_press(side, pt, t, out)

    def resolve_press(
        self, side: str, press_t: float, t: float, out: list[Ruling], *, final: bool = False
    ) -> None:
        """Match a press with its move, or rule it a press without a move (7.5.3)."""
        if self.over:
            return
        for record in reversed(self.records):
            if record.side == side and not record.pressed:
                self.complete(record, self.clock_time(press_t), out, ruling_t=t)
                return
            if record.pressed:
                break
        if side != SIDE[self.board.turn]:
            return  # pressing when one's clock is not running changes nothing
        if self.disconnected:
            return  # while a source is disconnected, never a press without a move
        made_at = press_t
        if self.pending:
            # the press released what still stood within slide_s
            made_at = max(pt for pt, _ in self.pending.values())
            self.pending.clear()
        state = self.settle(t, out, made_at=made_at, pressed=True)
        if state == "refused":
            return  # strict: the refused move is no move; the player's clock runs on
        if state == "move":
            last = self.records[-1]
            if last.side == side and not last.pressed:
                self.complete(last, self.clock_time(press_t), out, ruling_t=t)
            return
        diff = self.diff()
        if state == "none" and not diff:
            illegal.completed(self, side, "no_move", None, t, out, press_t=press_t)
            return
        attempt = classify_attempt(self.board, self.sensed, diff)
        if attempt.kind == "not_promoted" and attempt.move is not None:
            illegal.completed(self, side, "not_promoted", attempt.move, t, out, press_t=press_t)
            return
        if attempt.kind == "castling_partial":
            defect = "unreachable"
        else:
            defect = "in_check" if attempt.kind == "in_check" else "unreachable"
        if self.turn.touched_any or self.turn.moved_squares:
            defect = "two_hands" if self.turn.two_hands else defect
            illegal.completed(self, side, defect, attempt.move, t, out, press_t=press_t)
        else:
            self.mismatch(t, out, diff)
            illegal.completed(self, side, "no_move", None, t, out, press_t=press_t)

    def complete(
        self,
        record: MoveRecord,
        press_t: float,
        out: list[Ruling],
        *,
        ruling_t: float | None = None,
    ) -> None:
        """6.2.1: the press completes the move; the clock ruling follows."""
        record.pressed = True
        t = press_t if ruling_t is None else ruling_t
        if self.turn.side == record.side and self.turn.two_hands:
            pass
        if self.timed:
            record.credit = self.clock.press(record.side, press_t, completed_move=True)
        if getattr(record, "two_hands", False):
            return
        self.clock_ruling(out, t)

    def reinstate(
        self, t: float, reason: str, article: str, out: list[Ruling], *, clock: bool = True
    ) -> None:
        """The position goes back; the board must be made to show it (`mismatch`)."""
        self.rule(
            out,
            t,
            "reinstate",
            article=article,
            key=f"reinstate.{reason}",
            fen=self.board.fen(),
            ply=self.ply,
            reason=reason,
        )
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
        missing, extra = [], []
        for sq in sorted(diff):
            want = self.board.piece_at(sq)
            have = self.sensed[sq]
            if want is not None:
                missing.append({"square": chess.square_name(sq), "piece": want.symbol()})
            if have is not None:
                extra.append({"square": chess.square_name(sq), "piece": have})
        key = (tuple(sorted(diff)), tuple(self.sensed[sq] for sq in sorted(diff)), self.ply)
        if key == self.mismatch_key:
            return
        self.mismatch_key = key
        what = "; ".join(
            [f"put {m['piece']} on {m['square']}" for m in missing]
            + [
                f"take {e['piece']} off {e['square']}"
                for e in extra
                if not any(m["square"] == e["square"] for m in missing)
            ]
        )
        self.rule(out, t, "mismatch", missing=missing, extra=extra, what=what)
        out[-1].data.pop("what", None)

    def clear_mismatch(self) -> None:
        self.mismatch_key = None

    def count_position(self) -> None:
        key = self.board._transposition_key()
        self.repetitions[key] = self.repetitions.get(key, 0) + 1

    def uncount_position(self) -> None:
        key = self.board._transposition_key()
        if self.repetitions.get(key, 0) > 0:
            self.repetitions[key] -= 1

    def take_back(self, plies: int) -> list[MoveRecord]:
        undone = []
        for _ in range(min(plies, len(self.records))):
            record = self.records.pop()
            self.uncount_position()
            self.board.pop()
            self.board_changed()
            if record.pressed and self.timed:
                self.clock.uncount_move(record.side)
            undone.append(record)
        self.turn = Turn(SIDE[self.board.turn])
        return undone

    # ------------------------------------------------------------------ other events

    def _promote(self, ev: Promote, out: list[Ruling]) -> None:
        self.promotion[ev.side] = PROMOTION_TYPES[ev.piece.lower()]

    def _sensor(self, ev: Sensor, out: list[Ruling]) -> None:
        if ev.status == "disconnected":
            self.disconnected = True
        elif ev.status == "reconnected":
            self.disconnected = True  # until the next full report reconciles the board
            self.reconciling = True

    def _restart(self, ev: Restart, out: list[Ruling]) -> None:
        """A crash or power loss: the clocks stand as they were unless the gap is counted."""

    def _tick(self, ev: Tick, out: list[Ruling]) -> None:
        """Time passed; `_advance` already decided what fell due."""


_HANDLERS: dict[type, Any] = {
    Lift: Game._lift,
    Place: Game._place,
    Snapshot: Game._snapshot,
    Press: Game._press,
    Touch: hands.touch,
    Adjust: hands.adjust,
    Promote: Game._promote,
    Claim: claims.claim,
    Offer: claims.offer,
    Accept: claims.accept,
    Decline: claims.decline,
    Resign: ending.resign,
    ArbiterAction: arbiter_actions.arbiter_action,
    Sensor: Game._sensor,
    Restart: Game._restart,
    Tick: Game._tick,
}
