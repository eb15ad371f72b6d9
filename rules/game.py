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

from dataclasses import dataclass, field
from typing import Any

import chess

from rules import winnability
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
from rules.material import few_minor_pieces, minor_pieces_only, pawns_locked
from rules.messages import REASONS, message
from rules.profiles import get_profile, penalty_article, penalty_seconds
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
from rules.timecontrol import TimeControl
from rules.touch import Obligation, castling_rook, declared, obligation_for

SIDE = {chess.WHITE: "white", chess.BLACK: "black"}
#: work allowed for the dead-position check after a move (winnability budget units)
DEAD_POSITION_BUDGET = 500
COLOR = {"white": chess.WHITE, "black": chess.BLACK}
PROMOTION_TYPES = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
DEFECT_ARTICLE = {
    "unreachable": "7.5.1",
    "in_check": "7.5.1",
    "other": "7.5.1",
    "not_promoted": "7.5.2",
    "no_move": "7.5.3",
    "two_hands": "7.5.4",
}


def other(side: str) -> str:
    return "black" if side == "white" else "white"


@dataclass
class _Turn:
    """What the player having the move has done with his hands since the last move."""

    side: str
    touches: list[int] = field(default_factory=list)
    touch_times: dict[int, float] = field(default_factory=dict)
    adjusting: bool = False
    touched_any: bool = False  # a piece touched to move it: no claim this move (4.8, 9.4)
    moved_squares: set[int] = field(default_factory=set)  # squares this turn placed pieces on
    promo_first: dict[int, str] = field(default_factory=dict)  # 4.4.4
    obligation: Obligation | None = None
    forced: Obligation | None = None  # a duty that stands whatever is touched (9.5.3, strict)
    reported_illegal: frozenset[tuple[int, str | None]] | None = None
    refused: frozenset[tuple[int, str | None]] | None = None  # strict: the board shows it
    two_hands: bool = False


@dataclass
class _MoveRecord:
    """A move that stands, with what the Laws may still need of it."""

    ply: int
    side: str
    move: chess.Move
    made_at: float
    touches: list[int]
    violation: dict[str, Any] | None = None
    pressed: bool = False
    credit: float = 0.0


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
        self.turn = _Turn(SIDE[self.board.turn])
        self.records: list[_MoveRecord] = []
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
        self._count_position()
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
                self._arbiter(event, out)
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
        times = [self._release_due(sq) for sq in self.pending]
        times += [self._press_due(t) for _, t in self.presses if self._press_due(t) is not None]
        flag = self._flag_due()
        if flag is not None:
            times.append(flag[1] + self._flag_grace())
        return min(times) if times else None  # type: ignore[type-var]

    def finish(self) -> list[Ruling]:
        """End of a stream: pending placements are released as though time had passed."""
        out: list[Ruling] = []
        if self.over:
            return out
        while self.pending and not self.over:
            sq = min(self.pending, key=self._release_due)
            due = max(self.t, self._release_due(sq))
            self._release(sq, due, out)
        for side, t in list(self.presses):
            if self.over:
                break
            due = self._press_due(t)
            self._resolve_press(
                side, t, max(self.t, due if due is not None else self.t), out, final=True
            )
        self.presses.clear()
        return self._ordered(out)

    # ------------------------------------------------------------------ timing

    def _release_due(self, sq: int) -> float:
        t, _ = self.pending[sq]
        return t + self.start.slide_s

    def _press_due(self, t: float) -> float | None:
        if self._still_scene_source() or self.disconnected:
            return None  # resolved by the next still scene, however late
        return t + self.start.latency_s

    def _still_scene_source(self) -> bool:
        """A camera: it reports only still scenes, late (events.md: slide_s 0, latency_s > 0)."""
        return self.start.slide_s == 0 and self.start.latency_s > 0

    def _advance(self, until: float, out: list[Ruling], *, strict_before: bool) -> None:
        """Decide, in time order, what fell due before `until` (releases, presses, flags)."""

        def due(x: float) -> bool:
            return x < until if strict_before else x <= until

        while not self.over:
            candidates: list[tuple[float, int, object]] = []
            for sq in self.pending:
                candidates.append((self._release_due(sq), 0, sq))
            for i, (_side, t) in enumerate(self.presses):
                d = self._press_due(t)
                if d is not None:
                    candidates.append((d, 1, i))
                    break  # presses resolve in order
            flag = self._flag_due()
            if flag is not None:
                candidates.append((flag[1] + self._flag_grace(), 2, flag))
            candidates = [c for c in candidates if due(c[0])]
            if not candidates:
                return
            when, kind, what = min(candidates, key=lambda c: (c[0], c[1]))
            if kind == 0:
                self._release(what, when, out)  # type: ignore[arg-type]
            elif kind == 1:
                side, t = self.presses.pop(what)  # type: ignore[call-overload]
                self._resolve_press(side, t, when, out)
            else:
                fside, at = what  # type: ignore[misc]
                self._flag(fside, at, when, out)

    def _flag_grace(self) -> float:
        """How long a flag waits for a late report of a move made before it.

        A camera reports still scenes up to `latency_s` late, so a mate released just in time
        may not be known yet; boards that report every change need no wait (a placement
        still within `slide_s` holds the flag by itself, see `_flag`).
        """
        return self.start.latency_s if self._still_scene_source() else 0.0

    def _flag_due(self) -> tuple[str, float] | None:
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

    def _rule(
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

    def _clock_ruling(self, out: list[Ruling], t: float) -> None:
        if not self.timed:
            return
        t = max(t, self._clock_t)
        state = self.clock.state(t)
        self._rule(out, t, "clock", **state)

    def _clock_time(self, t: float) -> float:
        """Clock operations never run backwards, even when a report comes late."""
        self._clock_t = max(t, self._clock_t)
        return self._clock_t

    # ------------------------------------------------------------------ sensing

    def _hand(self, side: str | None, square: int | None = None) -> str:
        """Whose hand: the event's `side`, else the player having the move (events.md).

        Exception: a piece of the player who just made his move, still unpressed, lifted from a
        square of that move, is taken to be in that player's hand (the likeliest reading of a
        board that cannot see hands; 4.7 then applies to him).
        """
        if side is not None:
            return side
        mover = SIDE[self.board.turn]
        if square is not None and self.records:
            last = self.records[-1]
            letter = self.sensed[square]
            if (
                not last.pressed
                and last.side != mover
                and square == last.move.to_square
                and letter_color(letter) == COLOR[last.side]
                and not self.turn.touched_any
            ):
                return last.side
        return mover

    def _holding_hand(self) -> str:
        """Whose hand puts a piece down: the other player's, if he still holds one he lifted."""
        mover = SIDE[self.board.turn]
        for sq, (_t, letter, hand) in reversed(list(self.recent_lift.items())):
            if hand != mover and letter is not None and self.sensed[sq] is None:
                return hand
        return mover

    def _own_in_hand(self) -> int:
        """How many of the mover's pieces are off the board (captures aside).

        A slot of unknown colour is the mover's where he put a piece down this turn, else
        whatever the game's position has there.
        """
        us = self.board.turn
        moved = self.turn.moved_squares
        on_board = 0
        for sq, letter in enumerate(self.sensed):
            if letter is None:
                continue
            color = letter_color(letter)
            if color is None:
                color = us if sq in moved else self.board.color_at(sq)
            if color is None or color == us:
                on_board += 1
        return chess.popcount(self.board.occupied_co[us]) - on_board

    def _lift(
        self, ev: Lift, out: list[Ruling], *, t: float | None = None, update: bool = True
    ) -> None:
        t = ev.t if t is None else t
        sq = chess.parse_square(ev.square)
        hand = self._hand(ev.side, sq)
        if hand != SIDE[self.board.turn] and self.pending:
            self._release_early(t, out)
            hand = self._hand(ev.side, sq)
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
        self._touched(sq, letter, hand, t, out, update=update)
        if hand == SIDE[self.board.turn] and self.turn.moved_squares and not self.pending:
            # the taken piece came off last: the capture is made now (4.7.1)
            self._settle_if_move(t, out)

    def _touched(
        self,
        sq: int,
        letter: str | None,
        hand: str,
        t: float,
        out: list[Ruling],
        *,
        update: bool = True,
    ) -> None:
        mover = SIDE[self.board.turn]
        if hand != mover:
            self._not_your_move(sq, hand, t, out)
            return
        turn = self.turn
        if turn.adjusting:
            return
        if sq in turn.moved_squares:
            return  # the piece on its way, already touched
        piece = self.board.piece_at(sq)
        if piece is None:
            return
        if self.offer is not None and self.offer != mover:
            self.offer = None  # 9.1.2.1: the offer lapses when the opponent touches a piece
        turn.touched_any = True
        if sq not in turn.touches:
            turn.touches.append(sq)
            turn.touch_times[sq] = t
            self._own_first_within_noise()
            if update:
                self._update_obligation(t, out)

    def _own_first_within_noise(self) -> None:
        """Touches within `noise_s` are simultaneous; own pieces count first (4.3.3)."""
        turn = self.turn
        us = self.board.turn
        noise = self.start.noise_s
        order = turn.touches
        for i in range(len(order) - 1, 0, -1):
            a, b = order[i - 1], order[i]
            close = abs(turn.touch_times[a] - turn.touch_times[b]) <= noise
            if close and self.board.color_at(a) != us and self.board.color_at(b) == us:
                order[i - 1], order[i] = b, a

    def _not_your_move(self, sq: int, hand: str, t: float, out: list[Ruling]) -> None:
        """4.2.1, 6.2.5: only the player having the move may handle the pieces."""
        last = self.records[-1] if self.records else None
        if last is not None and last.side == hand and sq == last.move.to_square:
            if last.violation is None or last.violation.get("kind") != "released":
                self._rule(
                    out,
                    t,
                    "violation",
                    side=hand,
                    article="4.7",
                    key="violation.released",
                    kind="released",
                    square=chess.square_name(sq),
                )
            return
        self._rule(
            out,
            t,
            "violation",
            side=hand,
            article="4.2.1",
            key="violation.not_your_move",
            kind="not_your_move",
            square=chess.square_name(sq),
        )

    def _place(self, ev: Place, out: list[Ruling], *, t: float | None = None) -> None:
        t = ev.t if t is None else t
        sq = chess.parse_square(ev.square)
        hand = ev.side or self._holding_hand()
        recent = self.recent_lift.pop(sq, None)
        letter = ev.piece
        if recent is not None:
            lift_t, before, lift_hand = recent
            same = letter is None or letter == before
            if t - lift_t <= self.start.noise_s and same and before is not None:
                # a sensor blink: the square never changed (events.md, noise_s)
                self.sensed[sq] = before
                self._undo_touch(sq, lift_hand, t, out)
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
        return up[0] if len(up) == 1 and self._own_in_hand() == 1 else "?"

    def _undo_touch(self, sq: int, hand: str, t: float, out: list[Ruling]) -> None:
        turn = self.turn
        if hand == turn.side and sq in turn.touches:
            turn.touches.remove(sq)
            turn.touched_any = bool(turn.touches)
            self._update_obligation(t, out, lapse_ok=True)

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
            self._update_obligation(ev.t, out)
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
                self._release_all(ev.t, out)
                if self._still_scene_source() and not self.over and not self.pending:
                    self._settle(ev.t, out, made_at=place_t)
            self._resolve_waiting_presses(ev.t, out)

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
        diff = self._diff()
        if diff:
            match = find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self._promo(),
                diff=diff,
            )
            if match is None:
                self._mismatch(t, out, diff)
            else:
                self._made_all(match, t, seen_at, out)
        self._resolve_waiting_presses(t, out)

    def _lift_order(self, lifts: list[int], seen: Sensed) -> list[int]:
        """Lifts in the order that explains a legal move: the moving piece (the king when
        castling, 4.4.1) first, then the rook or the taken piece; own pieces first otherwise."""
        if len(lifts) < 2:
            return lifts
        match = find_match(self.board, seen, max_plies=1, promotion=self._promo())
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

    def _release_early(self, t: float, out: list[Ruling]) -> None:
        """The other player's hand is at work: the mover has let go of what he put down."""
        if self._own_in_hand() > 0:
            return
        diff = self._diff()
        if diff and find_match(self.board, self.sensed, promotion=self._promo(), diff=diff):
            self._release_all(t, out)

    def _settle_if_move(self, t: float, out: list[Ruling], made_at: float | None = None) -> bool:
        """Make the move the board shows, if it shows one; rule nothing otherwise."""
        if self.over or self.pending or self._own_in_hand() > 0:
            return False
        diff = self._diff()
        if not diff or self._arrangement(diff) == self.turn.refused:
            return False
        if (
            find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self._promo(),
                diff=diff,
            )
            is None
        ):
            return False
        self._settle(t, out, made_at=t if made_at is None else made_at)
        return True

    def _release_all(self, t: float, out: list[Ruling]) -> None:
        for sq in sorted(self.pending, key=lambda s: self.pending[s][0]):
            if self.over:
                return
            if sq in self.pending:
                self._release(sq, t, out)

    def _release(self, sq: int, t: float, out: list[Ruling]) -> None:
        placed_t, _hand = self.pending.pop(sq)
        if self.pending:
            return  # the move is made when its last piece is released
        if self._own_in_hand() > 0:
            return  # the hand still holds a piece of this move (castling, a capture)
        self._settle(t, out, made_at=placed_t)

    def _promo(self) -> int | None:
        return self.promotion.get(SIDE[self.board.turn])

    def _settle(self, t: float, out: list[Ruling], *, made_at: float, pressed: bool = False) -> str:
        """Everything is down: which legal move (if any) does the board show?

        Returns 'none' (board = position), 'move', 'partial' (castling or promotion under way),
        'illegal' (the mover's pieces stand where no legal move puts them) or 'mismatch'.
        """
        diff = self._diff()
        if not diff:
            self._clear_mismatch()
            return "none"
        if self._arrangement(diff) == self.turn.refused:
            return "refused"
        match = find_match(
            self.board,
            self.sensed,
            max_plies=self.start.max_plies,
            promotion=self._promo(),
            diff=diff,
        )
        if match is not None:
            self._made_all(match, t, made_at, out)
            return "move"
        if self._made_with_displaced(diff, t, made_at, out):
            return "move"
        attempt = classify_attempt(self.board, self.sensed, diff)
        if attempt.kind in ("castling_partial", "capture_partial", "not_promoted") and not pressed:
            return "partial"
        if self.turn.touched_any or self.turn.moved_squares:
            if not pressed:
                self._illegal_open(attempt.kind, attempt.move, t, diff, out)
            return "illegal"
        self._mismatch(t, out, diff)
        return "mismatch"

    def _illegal_open(
        self, kind: str, move: chess.Move | None, t: float, diff: set[int], out: list[Ruling]
    ) -> None:
        """7.5.1 / 4.7: released where no legal move takes it; correctable until the press."""
        key = self._arrangement(diff)
        if self.turn.reported_illegal == key:
            return
        self.turn.reported_illegal = key
        defect = "in_check" if kind == "in_check" else "unreachable"
        data: dict[str, Any] = {
            "completed": False,
            "defect": defect,
            "count": self.illegal_count[self.turn.side],
        }
        if move is not None:
            data["move"] = move.uci()
        self._rule(
            out, t, "illegal", side=self.turn.side, article="4.7", key="illegal.open", **data
        )

    def _name_sensed_pieces(self) -> None:
        """Once a move stands, pieces a blind sensor showed as X, x or ? are known."""
        board = self.board
        sensed = self.sensed
        for sq in range(64):
            letter = sensed[sq]
            if letter in ("?", "X", "x"):
                piece = board.piece_at(sq)
                if piece is not None and compatible(letter, piece):
                    sensed[sq] = piece.symbol()

    def _board_changed(self) -> None:
        self._expected = sensed_from_board(self.board)

    def _diff(self) -> set[int]:
        """Squares where the board as sensed differs from the game's position."""
        return differing(self.board, self.sensed, self._expected)

    def _arrangement(self, diff: set[int]) -> frozenset[tuple[int, str | None]]:
        return frozenset((sq, self.sensed[sq]) for sq in diff)

    def _made_all(self, match: Match, t: float, made_at: float, out: list[Ruling]) -> None:
        """The plies of one report, in order (several when a late sensor saw them at once)."""
        for i, move in enumerate(match.moves):
            if self.over:
                break
            self._made(
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
        match = find_match(self.board, restored, max_plies=1, promotion=self._promo())
        if match is None:
            return False
        move = match.moves[0]
        if move.to_square in off or self.board.is_en_passant(move):
            return False
        self._made(move, t, made_at, out)
        if not self.over:
            self._mismatch(t, out)
        return True

    def _made(
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
        violation = None if (multi and not first) else self._article4(move)
        if violation is not None:
            self._rule(
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
                self.turn.refused = self._arrangement(self._diff())
                self._reinstate(t, "strict", violation["article"], out)
                return
        san = self.board.san(move)
        touches = list(turn.touches)
        self.board.push(move)
        self._board_changed()
        self._count_position()
        self._name_sensed_pieces()
        record = _MoveRecord(self.ply, side, move, made_at, touches, violation)
        self.records.append(record)
        self._rule(
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
        self.turn = _Turn(SIDE[self.board.turn])
        for sq in list(self.recent_lift):
            del self.recent_lift[sq]
        if self.offer == other(side):
            pass  # the opponent's offer stands until answered (9.1.2.1)
        self._clear_mismatch()
        if self.start.auto_press:
            self._complete(record, self._clock_time(max(made_at, self._clock_t)), out)
        self._endings(t, out, made_at)
        if not self.over:
            self._claimable_flag_check(t, out)

    def _claimable_flag_check(self, t: float, out: list[Ruling]) -> None:
        """A flag that waited for this release (events.md): the move did not end the game."""
        if self.flag_wait is not None and not self.pending:
            side, at = self.flag_wait
            self.flag_wait = None
            self._flag(side, at, t, out, waited=True)

    def _article4(self, move: chess.Move) -> dict[str, Any] | None:
        """The Article 4 breach this move commits, if any."""
        turn = self.turn
        board = self.board
        # 4.4.4: the promotion piece is fixed once it touched the promotion square
        if move.promotion is not None:
            first = turn.promo_first.get(move.to_square)
            if first is not None and first.upper() in "NBRQ":
                if chess.Piece.from_symbol(first).piece_type != move.promotion:
                    return {
                        "kind": "promotion_choice",
                        "article": "4.4.4",
                        "square": chess.square_name(move.to_square),
                    }
        duty = turn.forced or turn.obligation
        if duty is None:
            return None
        if duty.rook_first is not None and castling_rook(board, move) == duty.rook_first:
            return {
                "kind": "castling_rook_first",
                "article": "4.4.2",
                "square": chess.square_name(duty.rook_first),
            }
        if duty.allowed is not None and move not in duty.allowed:
            if move.promotion is not None and any(
                m.from_square == move.from_square and m.to_square == move.to_square
                for m in duty.allowed
            ):
                return None
            square = duty.square if duty.square is not None else move.from_square
            return {
                "kind": "touch_move",
                "article": duty.article,
                "square": chess.square_name(square),
            }
        return None

    def _update_obligation(self, t: float, out: list[Ruling], *, lapse_ok: bool = False) -> None:
        turn = self.turn
        if turn.forced is not None:
            return
        new = obligation_for(self.board, turn.touches)
        old = turn.obligation
        if new is None and old is None:
            return
        if new is not None and old is not None and new.key() == old.key():
            return
        turn.obligation = new
        if new is None:
            if lapse_ok and old is not None:
                self._rule(
                    out,
                    t,
                    "obligation",
                    side=turn.side,
                    article="4.2.2",
                    key="obligation.none",
                    kind="none",
                )
            return
        self._emit_obligation(new, t, out)

    def _emit_obligation(self, ob: Obligation, t: float, out: list[Ruling]) -> None:
        key = "obligation." + ob.kind
        if ob.kind == "capture_piece" and ob.with_square is not None:
            key = "obligation.capture_with"
        self._rule(
            out, t, "obligation", side=self.turn.side, article=ob.article, key=key, **ob.fields()
        )

    # ------------------------------------------------------------------ endings

    def _endings(self, t: float, out: list[Ruling], made_at: float) -> None:
        """Automatic endings after a move: 5.1.1, 5.2.1, 9.6, 5.2.2, and the profile's draws."""
        board = self.board
        mover = other(SIDE[board.turn])
        has_moves = any(True for _ in board.generate_legal_moves())
        if not has_moves:
            if board.is_check():
                self._game_over(t, "1-0" if mover == "white" else "0-1", "checkmate", "5.1.1", out)
            else:
                self._game_over(t, "1/2-1/2", "stalemate", "5.2.1", out)
            return
        key = board._transposition_key()
        if self.repetitions.get(key, 0) >= 5:
            self._game_over(t, "1/2-1/2", "fivefold_repetition", "9.6.1", out)
            return
        if board.halfmove_clock >= 150:
            self._game_over(t, "1/2-1/2", "seventyfive_moves", "9.6.2", out)
            return
        if self._dead_position():
            self._game_over(t, "1/2-1/2", "dead_position", "5.2.2", out)
            return
        if self.profile.automatic_draws and (
            self.repetitions.get(key, 0) >= 3
            or board.halfmove_clock >= 100
            or board.is_insufficient_material()
        ):
            self._game_over(t, "1/2-1/2", "profile", "9.2, 9.3, 5.2.2", out)
            return
        if self.profile.minor_pieces_drawn and minor_pieces_only(board):
            self._game_over(t, "1/2-1/2", "profile", "5.2.2", out)

    def _dead_position(self) -> bool:
        """5.2.2: no series of legal moves can end in mate (proven, never guessed).

        Checked after every move, so it must be cheap: python-chess's insufficient material
        first, then the full analysis only where every pawn is locked (a position where some
        pawn can still move is left to play on: at worst a dead position goes undetected,
        never a live one declared dead). Queens are left out: a queen locked behind a wall
        is a curiosity, and positions with queens and locked pawns are common in play.
        """
        board = self.board
        if board.is_insufficient_material():
            return True
        if board.queens or not pawns_locked(board):
            return False
        return winnability.analyse(board, budget=DEAD_POSITION_BUDGET).dead is True

    def _cannot_mate(self, side: str) -> bool:
        """6.9, 5.1.2, 7.5.5: `side` cannot mate by any series of legal moves (proven).

        python-chess's insufficient material first; the full analysis where unwinnability is
        possible beyond it (locked pawns, or a few minor pieces and no pawns). Elsewhere the
        answer is "not proven", as a search out of budget would give: the flag or the
        resignation then counts as a loss, which is right whenever a mate exists.
        """
        board = self.board
        color = COLOR[side]
        if board.has_insufficient_material(color):
            return True
        if not (pawns_locked(board) or few_minor_pieces(board, color)):
            return False
        return winnability.can_mate(board, color) is False

    def _game_over(
        self, t: float, result: str, reason: str, article: str | None, out: list[Ruling]
    ) -> None:
        if self.over:
            return
        self.over = True
        self.result = result
        self.reason = reason
        self.pending.clear()
        self._rule(out, t, "game_over", article=article, result=result, reason=reason)
        if self.timed:
            self.clock.stop(self._clock_time(t))
            self._clock_ruling(out, t)

    def _flag(
        self, side: str, at: float, t: float, out: list[Ruling], *, waited: bool = False
    ) -> None:
        """6.9: the time ran out. A placement still pending may yet end the game first."""
        if self.over:
            return
        mover_pending = any(h == side for _, (pt, h) in self.pending.items() if pt <= at)
        if mover_pending and not waited:
            self.flag_wait = (side, at)
            return
        self._rule(out, t, "flag", side=side, article="6.9", at=round(at, 6))
        self.flags_down.add(side)
        self.clock.stop(self._clock_time(at))
        winner = other(side)
        if self._cannot_mate(winner):
            self._game_over(t, "1/2-1/2", "time_dead_position", "6.9", out)
        else:
            self._game_over(t, "1-0" if winner == "white" else "0-1", "time", "6.9", out)

    # ------------------------------------------------------------------ presses

    def _press(self, ev: Press, out: list[Ruling]) -> None:
        side = ev.side
        if self.pending and (self.start.latency_s == 0 or self._pending_makes_move()):
            # the press releases what is down (4.7); with a late sensor, only when it already
            # shows a move: the rest of the move may still be on its way (latency_s)
            self._release_all(ev.t, out)
            if self.over:
                return
        if self.flag_wait is not None:
            fside, at = self.flag_wait
            self.flag_wait = None
            self._flag(fside, at, ev.t, out, waited=True)
            if self.over:
                return
        last = self.records[-1] if self.records else None
        if last is not None and last.side == side and not last.pressed:
            self._complete(last, self._clock_time(ev.t), out)
            return
        if side == SIDE[self.board.turn] and not self.presses and self._settle_if_move(ev.t, out):
            last = self.records[-1] if self.records else None
            if last is not None and last.side == side and not last.pressed:
                self._complete(last, self._clock_time(ev.t), out)
            return
        if side == SIDE[self.board.turn] or self.presses:
            self.presses.append((side, ev.t))
            due = self._press_due(ev.t)
            if due is not None and due <= ev.t:
                self.presses.pop()
                self._resolve_press(side, ev.t, ev.t, out)

    def _pending_makes_move(self) -> bool:
        if self._own_in_hand() > 0:
            return False
        diff = self._diff()
        return bool(diff) and (
            find_match(
                self.board,
                self.sensed,
                max_plies=self.start.max_plies,
                promotion=self._promo(),
                diff=diff,
            )
            is not None
        )

    def _resolve_waiting_presses(self, t: float, out: list[Ruling]) -> None:
        """A still scene arrived: presses that waited for it are matched now."""
        while self.presses and not self.over:
            side, pt = self.presses.pop(0)
            self._resolve_press(side, pt, t, out)

    def _resolve_press(
        self, side: str, press_t: float, t: float, out: list[Ruling], *, final: bool = False
    ) -> None:
        """Match a press with its move, or rule it a press without a move (7.5.3)."""
        if self.over:
            return
        for record in reversed(self.records):
            if record.side == side and not record.pressed:
                self._complete(record, self._clock_time(press_t), out, ruling_t=t)
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
        state = self._settle(t, out, made_at=made_at, pressed=True)
        if state == "refused":
            return  # strict: the refused move is no move; the player's clock runs on
        if state == "move":
            last = self.records[-1]
            if last.side == side and not last.pressed:
                self._complete(last, self._clock_time(press_t), out, ruling_t=t)
            return
        diff = self._diff()
        if state == "none" and not diff:
            self._illegal_completed(side, "no_move", None, t, out, press_t=press_t)
            return
        attempt = classify_attempt(self.board, self.sensed, diff)
        if attempt.kind == "not_promoted" and attempt.move is not None:
            self._illegal_completed(side, "not_promoted", attempt.move, t, out, press_t=press_t)
            return
        if attempt.kind == "castling_partial":
            defect = "unreachable"
        else:
            defect = "in_check" if attempt.kind == "in_check" else "unreachable"
        if self.turn.touched_any or self.turn.moved_squares:
            defect = "two_hands" if self.turn.two_hands else defect
            self._illegal_completed(side, defect, attempt.move, t, out, press_t=press_t)
        else:
            self._mismatch(t, out, diff)
            self._illegal_completed(side, "no_move", None, t, out, press_t=press_t)

    def _complete(
        self,
        record: _MoveRecord,
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
        self._clock_ruling(out, t)

    def _illegal_completed(
        self,
        side: str,
        defect: str,
        move: chess.Move | None,
        t: float,
        out: list[Ruling],
        *,
        press_t: float,
    ) -> None:
        """7.5: an illegal move completed at the press, ruled at once in every mode."""
        self.illegal_count[side] += 1
        count = self.illegal_count[side]
        article = DEFECT_ARTICLE[defect]
        data: dict[str, Any] = {"completed": True, "defect": defect, "count": count}
        if move is not None:
            data["move"] = move.uci()
        self._rule(out, t, "illegal", side=side, article=article, key="illegal.completed", **data)
        credit = 0.0
        if defect != "no_move" and self.timed:
            credit = self.clock.press(side, self._clock_time(press_t), completed_move=True)
        if defect == "not_promoted" and move is not None:
            # 7.5.2: the pawn becomes a queen of its colour; the move stands
            queen = chess.Move(move.from_square, move.to_square, chess.QUEEN)
            self.board.push(queen)
            self._board_changed()
            self._count_position()
            record = _MoveRecord(
                self.ply, side, queen, press_t, list(self.turn.touches), pressed=True, credit=credit
            )
            self.records.append(record)
            self._rule(
                out,
                t,
                "move",
                side=side,
                ply=self.ply,
                uci=queen.uci(),
                san=self._san_of_last(),
                fen=self.board.fen(),
                made_at=round(press_t, 6),
                inferred=False,
            )
            self.turn = _Turn(SIDE[self.board.turn])
        elif defect != "no_move" and self.timed:
            self.clock.uncount_move(side)
            self.clock.start(side, self._clock_time(press_t))
        if not self._illegal_penalties(side, count, credit, t, out):
            return
        if defect not in ("no_move", "not_promoted"):
            self._reinstate(t, "illegal_move", "7.5.1", out, clock=False)
        elif defect == "not_promoted":
            self._mismatch(t, out)
        self._clock_ruling(out, t)
        if defect == "not_promoted":
            self._endings(t, out, press_t)

    def _illegal_penalties(
        self, side: str, count: int, credit: float, t: float, out: list[Ruling]
    ) -> bool:
        """7.5.5: the press's increment back, then time to the opponent or the game lost.

        Returns False when the game is over (a second illegal move, or the Czech text's
        fast-play rule), True when play goes on.
        """
        opponent = other(side)
        if credit > 0:
            if self.timed:
                self.clock.add(side, -credit, self._clock_time(t))
            self._rule(
                out,
                t,
                "penalty",
                side=side,
                article="7.5.5",
                key="penalty.increment_removed",
                kind="increment_removed",
                seconds=round(credit, 6),
            )
        if count >= 2 or self._illegal_loses_at_once():
            if self._cannot_mate(opponent):
                self._game_over(t, "1/2-1/2", "illegal_moves_dead_position", "7.5.5", out)
            else:
                self._rule(
                    out,
                    t,
                    "penalty",
                    side=side,
                    article="7.5.5",
                    key="penalty.game_lost",
                    kind="game_lost",
                )
                result = "1-0" if opponent == "white" else "0-1"
                self._game_over(t, result, "illegal_moves", "7.5.5", out)
            return False
        seconds = penalty_seconds(self.mode)
        if self.timed:
            self.clock.add(opponent, seconds, self._clock_time(t))
        self._rule(
            out,
            t,
            "penalty",
            side=side,
            article=penalty_article(self.mode, "7.5.5"),
            key="penalty.time_added",
            kind="time_added",
            seconds=seconds,
        )
        return True

    def _illegal_loses_at_once(self) -> bool:
        """Czech text: in games under 15 minutes a completed illegal move loses at once."""
        limit = self.profile.illegal_loses_under_s
        if limit is None or not self.timed:
            return False
        periods = self.control.periods
        total = sum(p.seconds for p in periods) + 60 * (periods[0].increment if periods else 0)
        return total < limit

    def _san_of_last(self) -> str:
        move = self.board.pop()
        san = self.board.san(move)
        self.board.push(move)
        return san

    # ------------------------------------------------------------------ reinstatement

    def _reinstate(
        self, t: float, reason: str, article: str, out: list[Ruling], *, clock: bool = True
    ) -> None:
        """The position goes back; the board must be made to show it (`mismatch`)."""
        self._rule(
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
            self._emit_obligation(self.turn.obligation, t, out)
        self.turn.reported_illegal = None
        self.mismatch_key = None
        self._mismatch(t, out)
        if clock:
            self._clock_ruling(out, t)

    def _mismatch(self, t: float, out: list[Ruling], diff: set[int] | None = None) -> None:
        """7.4, 7.6: what to put back where, once per distinct difference."""
        if diff is None:
            diff = self._diff()
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
        self._rule(out, t, "mismatch", missing=missing, extra=extra, what=what)
        out[-1].data.pop("what", None)

    def _clear_mismatch(self) -> None:
        self.mismatch_key = None

    def _count_position(self) -> None:
        key = self.board._transposition_key()
        self.repetitions[key] = self.repetitions.get(key, 0) + 1

    def _uncount_position(self) -> None:
        key = self.board._transposition_key()
        if self.repetitions.get(key, 0) > 0:
            self.repetitions[key] -= 1

    def _take_back(self, plies: int) -> list[_MoveRecord]:
        undone = []
        for _ in range(min(plies, len(self.records))):
            record = self.records.pop()
            self._uncount_position()
            self.board.pop()
            self._board_changed()
            if record.pressed and self.timed:
                self.clock.uncount_move(record.side)
            undone.append(record)
        self.turn = _Turn(SIDE[self.board.turn])
        return undone

    # ------------------------------------------------------------------ other events

    def _touch(self, ev: Touch, out: list[Ruling]) -> None:
        sq = chess.parse_square(ev.square)
        if ev.side != SIDE[self.board.turn] and self.pending:
            self._release_early(ev.t, out)
        self._touched(sq, self.sensed[sq], ev.side, ev.t, out)

    def _adjust(self, ev: Adjust, out: list[Ruling]) -> None:
        """4.2.1: only the player having the move adjusts, announcing it first."""
        if ev.side == SIDE[self.board.turn]:
            self.turn.adjusting = True

    def _promote(self, ev: Promote, out: list[Ruling]) -> None:
        self.promotion[ev.side] = PROMOTION_TYPES[ev.piece.lower()]

    def _claim(self, ev: Claim, out: list[Ruling]) -> None:
        side = ev.side
        if ev.kind == "touch_move":
            self._claim_touch_move(side, ev.t, out)
            return
        mover = SIDE[self.board.turn]
        if side == mover and self.turn.touched_any:
            # 9.4: a piece touched under 4.3 forfeits the claim for this move
            self._rule(
                out,
                ev.t,
                "claim",
                side=side,
                article="9.4",
                key="claim.inadmissible",
                kind=ev.kind,
                valid=False,
            )
            return
        # an intended move that is not legal cannot make the claim correct (9.2.1, 9.3.1)
        intended = chess.Move.from_uci(ev.move) if ev.move is not None else None
        if intended is not None and intended not in self.board.legal_moves:
            intended = None
        valid_kind = None
        if side == mover:
            valid_kind = self._draw_claim_valid(ev.kind, intended)
        if valid_kind is not None:
            reason, article = valid_kind
            self._rule(
                out,
                ev.t,
                "claim",
                side=side,
                article=article,
                key="claim.valid",
                kind=ev.kind,
                valid=True,
            )
            self._game_over(ev.t, "1/2-1/2", reason, article, out)
            return
        article = "9.5.3"
        self._rule(
            out,
            ev.t,
            "claim",
            side=side,
            article=article,
            key="claim.invalid",
            kind=ev.kind,
            valid=False,
        )
        seconds = penalty_seconds(self.mode)
        opponent = other(side)
        if self.timed:
            self.clock.add(opponent, seconds, self._clock_time(ev.t))
        self._rule(
            out,
            ev.t,
            "penalty",
            side=side,
            article=penalty_article(self.mode, "9.5.3"),
            key="penalty.time_added",
            kind="time_added",
            seconds=seconds,
        )
        self.offer = side
        self._rule(out, ev.t, "draw_offer", side=side, article="9.1.2.3")
        if intended is not None and side == mover:
            self.turn.forced = declared(intended)
            self._emit_obligation(self.turn.forced, ev.t, out)
        self._clock_ruling(out, ev.t)

    def _draw_claim_valid(self, kind: str, intended: chess.Move | None) -> tuple[str, str] | None:
        """9.2 / 9.3: correct claims, with an intended move (9.2.1, 9.3.1) or without."""
        board = self.board
        want_threefold = kind in ("threefold", "any")
        want_fifty = kind in ("fifty", "any")
        if intended is not None:
            board.push(intended)
            key = board._transposition_key()
            count = self.repetitions.get(key, 0) + 1
            halfmoves = board.halfmove_clock
            board.pop()
            if want_threefold and count >= 3:
                return "threefold_repetition", "9.2.1"
            if want_fifty and halfmoves >= 100:
                return "fifty_moves", "9.3.1"
        if want_threefold and self.repetitions.get(board._transposition_key(), 0) >= 3:
            return "threefold_repetition", "9.2.2"
        if want_fifty and board.halfmove_clock >= 100:
            return "fifty_moves", "9.3.2"
        return None

    def _claim_touch_move(self, side: str, t: float, out: list[Ruling]) -> None:
        """4.8: the opponent's Article 4 breach, claimed before touching a piece."""
        last = self.records[-1] if self.records else None
        mover = SIDE[self.board.turn]
        valid = (
            last is not None
            and last.side != side
            and last.violation is not None
            and side == mover
            and not self.turn.touched_any
        )
        if not valid or last is None:
            self._rule(
                out,
                t,
                "claim",
                side=side,
                article="4.8",
                key="claim.invalid",
                kind="touch_move",
                valid=False,
            )
            return
        assert last.violation is not None
        self._rule(
            out,
            t,
            "claim",
            side=side,
            article=last.violation["article"],
            key="claim.valid",
            kind="touch_move",
            valid=True,
        )
        self._take_back(1)
        self.turn.touches = list(last.touches)
        self.turn.touched_any = True
        self.turn.obligation = obligation_for(self.board, self.turn.touches)
        if self.timed:
            if last.credit:
                self.clock.add(last.side, -last.credit, self._clock_time(t))
            self.clock.start(last.side, self._clock_time(t))
        self._reinstate(t, "claim_upheld", last.violation["article"], out)

    def _offer(self, ev: Offer, out: list[Ruling]) -> None:
        self.offer = ev.side
        self._rule(out, ev.t, "draw_offer", side=ev.side, article="9.1.2")

    def _accept(self, ev: Accept, out: list[Ruling]) -> None:
        if self.offer != other(ev.side):
            return
        both_moved = {r.side for r in self.records} == {"white", "black"}
        if not both_moved:
            self._rule(
                out,
                ev.t,
                "note",
                article="5.2.3",
                key="note",
                text="A draw cannot be agreed before both players have made a move (Art. 5.2.3).",
            )
            self.offer = None
            return
        self._game_over(ev.t, "1/2-1/2", "agreement", "5.2.3", out)

    def _decline(self, ev: Decline, out: list[Ruling]) -> None:
        if self.offer == other(ev.side):
            self.offer = None

    def _resign(self, ev: Resign, out: list[Ruling]) -> None:
        """5.1.2: resignation loses, unless the opponent cannot mate by any legal series."""
        winner = other(ev.side)
        if self._cannot_mate(winner):
            self._game_over(ev.t, "1/2-1/2", "resignation_dead_position", "5.1.2", out)
        else:
            self._game_over(
                ev.t, "1-0" if winner == "white" else "0-1", "resignation", "5.1.2", out
            )

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

    def _arbiter(self, ev: ArbiterAction, out: list[Ruling]) -> None:
        a = ev.action
        t = ev.t
        if a == "declare":
            if not self.over:
                reason = ev.reason if ev.reason in _REASONS else "arbiter_decision"
                self._game_over(t, ev.result or "1/2-1/2", reason, None, out)
            return
        if self.over:
            return
        if a == "pause" and self.timed:
            self.clock.pause(self._clock_time(t))
            self._clock_ruling(out, t)
        elif a == "resume" and self.timed:
            self.clock.resume(self._clock_time(t))
            self._clock_ruling(out, t)
        elif a == "add_time" and self.timed:
            self.clock.add(ev.side or "white", float(ev.seconds or 0), self._clock_time(t))
            self._clock_ruling(out, t)
        elif a == "set_clock" and self.timed:
            self.clock.set(float(ev.white or 0), float(ev.black or 0), self._clock_time(t))
            self._clock_ruling(out, t)
        elif a == "set_position":
            try:
                board = chess.Board(ev.fen)
            except ValueError as exc:
                raise EventError(
                    f"set_position: the FEN {ev.fen!r} cannot be read ({exc})"
                ) from None
            self.board = board
            self._board_changed()
            self.records.clear()
            self.repetitions.clear()
            self._count_position()
            self.turn = _Turn(SIDE[board.turn])
            if self.timed and self.clock.running not in (None, SIDE[board.turn]):
                self.clock.start(SIDE[board.turn], self._clock_time(t))
            self._reinstate(t, "arbiter", "7.1", out)
        elif a == "takeback":
            self._take_back(ev.plies or 1)
            if self.timed:
                self.clock.start(SIDE[self.board.turn], self._clock_time(t))
            self._reinstate(t, "arbiter", "7.1", out)
        elif a == "penalty":
            self._arbiter_penalty(ev, out)
        elif a == "warning":
            self._rule(
                out,
                t,
                "penalty",
                side=ev.side,
                article="12.9.1",
                key="penalty.warning",
                kind="warning",
            )
        elif a == "two_hands":
            self._two_hands(ev.side or SIDE[self.board.turn], t, out)
        elif a == "accident":
            self._accident(ev.side or SIDE[self.board.turn], ev.square or "a1", t, out)

    def _arbiter_penalty(self, ev: ArbiterAction, out: list[Ruling]) -> None:
        side = ev.side or "white"
        kind = ev.kind or "time_added"
        seconds = float(ev.seconds or 0)
        t = ev.t
        if kind == "game_lost":
            self._rule(
                out,
                t,
                "penalty",
                side=side,
                article="12.9.6",
                key="penalty.game_lost",
                kind="game_lost",
            )
            winner = other(side)
            self._game_over(
                t, "1-0" if winner == "white" else "0-1", "arbiter_decision", "12.9", out
            )
            return
        if kind == "warning":
            self._rule(
                out,
                t,
                "penalty",
                side=side,
                article="12.9.1",
                key="penalty.warning",
                kind="warning",
            )
            return
        if kind == "time_deducted":
            if self.timed:
                self.clock.add(side, -seconds, self._clock_time(t))
            self._rule(
                out,
                t,
                "penalty",
                side=side,
                article="12.9.3",
                key="penalty.time_deducted",
                kind="time_deducted",
                seconds=seconds,
            )
        else:
            if self.timed:
                self.clock.add(other(side), seconds, self._clock_time(t))
            self._rule(
                out,
                t,
                "penalty",
                side=side,
                article="12.9.2",
                key="penalty.time_added",
                kind="time_added",
                seconds=seconds,
            )
        self._clock_ruling(out, t)

    def _two_hands(self, side: str, t: float, out: list[Ruling]) -> None:
        """4.1 before the press (a warning); 7.5.4 once the move was completed."""
        last = self.records[-1] if self.records else None
        if (
            last is not None
            and last.side == side
            and last.pressed
            and self.board.turn != COLOR[side]
        ):
            self._take_back(1)
            self.turn.touches = list(last.touches)
            self.turn.touched_any = True
            self.turn.obligation = obligation_for(self.board, self.turn.touches)
            if self.timed:
                self.clock.start(side, self._clock_time(t))
            self.illegal_count[side] += 1
            count = self.illegal_count[side]
            self._rule(
                out,
                t,
                "illegal",
                side=side,
                article="7.5.4",
                key="illegal.completed",
                completed=True,
                defect="two_hands",
                count=count,
                move=last.move.uci(),
            )
            if self._illegal_penalties(side, count, last.credit, t, out):
                self._reinstate(t, "illegal_move", "7.5.4", out)
            return
        if side == SIDE[self.board.turn]:
            self.turn.two_hands = True
        self._rule(
            out, t, "penalty", side=side, article="4.1", key="penalty.warning", kind="warning"
        )

    def _accident(self, side: str, square: str, t: float, out: list[Ruling]) -> None:
        """4.2.2: the arbiter judged a touch accidental; its duty lapses."""
        sq = chess.parse_square(square)
        turn = self.turn
        if turn.side != side or sq not in turn.touches:
            return
        turn.touches.remove(sq)
        new = obligation_for(self.board, turn.touches)
        turn.obligation = new
        if new is None:
            self._rule(
                out, t, "obligation", side=side, article="4.2.2", key="obligation.none", kind="none"
            )
        else:
            self._emit_obligation(new, t, out)


_REASONS = frozenset(REASONS)

_HANDLERS: dict[type, Any] = {
    Lift: Game._lift,
    Place: Game._place,
    Snapshot: Game._snapshot,
    Press: Game._press,
    Touch: Game._touch,
    Adjust: Game._adjust,
    Promote: Game._promote,
    Claim: Game._claim,
    Offer: Game._offer,
    Accept: Game._accept,
    Decline: Game._decline,
    Resign: Game._resign,
    ArbiterAction: Game._arbiter,
    Sensor: Game._sensor,
    Restart: Game._restart,
    Tick: Game._tick,
}
