"""The state of one game, and the named operations that change its position and its phase.

`GameState` is the one owner of what the rules core remembers: the position (a
`chess.Board`, its move records and repetitions, the letters a perfect sensor would show),
the board as sensed, the hands at work (`Turn`, pieces put down and lifted), the clock, and
the phase (`rules.phases`). The engine modules (`board_reports`, `hands`, `moves`, `presses`,
`clocking`, `illegal`, `claims`, `ending`, `arbiter_actions`) receive it and never import
`rules.game`, so the rules core's imports point one way.

The position and the phase change only here:
- `stand(...)`: a move becomes standing (4.7; 7.5.2 for a pawn made a queen), the one place
  that pushes a move, counts its position (9.2) and makes its `move` ruling;
- `take_back(n)` (4.8, 7.5.4, 7.1) and `set_position(board)` (7.1);
- `end(...)` (the game is over) and `source_lost`/`source_back`/`full_report`, each through
  the phase table (`rules.phases.next_phase`).

The hands' work changes only here too: the board as sensed (`sense`, `report`; read only as
`sensed`, its differences from the position kept square by square), pieces put down and
lifted (`put_down`, `take_up`, `unplace`, `lifted_before`, `release_piece`,
`release_pieces`, `forget_hands`) and the turn's touches and duties (`touch`, `untouch`,
`order_touches`, `forgive_touch`, `restore_touches`, `set_obligation`, `declare`,
`announce_adjust`, `used_two_hands`, `report_illegal`, `refuse`), and the draw offer
(`offer_draw`, `close_offer`).

So do the presses waiting for a report (`wait_for_report`, `take_waiting_press`,
`press_matched`, `take_presses_before`, `forget_presses`), the flags (`flag_fell`,
`flag_waits`, `take_flag_wait`, `hold_for_verdict`), the clock (`start_clock`, `stop_clock`,
`pause_clock`, `resume_clock`, `give_time`, `set_clocks`, `uncount_clock_move`,
`press_for_move`, `record_press`, each through `clock_time`), the board put back
(`seen_while_restoring`, `pieces_put_back`, `put_back_settled`), the counts and names
(`count_illegal`, `name_promotion`), time and the claim on record (`time_reaches`,
`keep_claim`, `go_back_to`). No other module assigns, deletes or mutates a part of the
state: tests/rules/test_one_owner.py walks their syntax trees to keep it so.

Queries (`diff`, `match`, `own_in_hand`, `fen`, the deadlines) never move the live board.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import chess

from rules.clock import GameClock
from rules.errors import EventError, PositionError
from rules.events import Start
from rules.i18n import N_
from rules.phases import PRESS_WAITS_FOR_REPORT, RULES_EVENTS, Phase, Trigger, next_phase
from rules.profiles import get_profile
from rules.rulings import (
    ClockState,
    Mismatch,
    MoveStands,
    PieceOn,
    Reason,
    Reinstate,
    ReinstateReason,
    Ruling,
    Violation,
)
from rules.sensed import (
    BeyondBudget,
    LegalMoves,
    Match,
    Sensed,
    changed_squares,
    compatible,
    differing,
    fen_of,
    find_match,
    letter_color,
    letters_compatible,
    own_in_hand_by_count,
    rank_fen,
    sensed_from_board,
)
from rules.timecontrol import TimeControl
from rules.touch import Duty
from rules.turn import Arrangement, MoveRecord, Turn
from rules.types import SIDE, Result, Side

if TYPE_CHECKING:
    from rules.verdicts import ClaimOnRecord

__all__ = ["AwaitedVerdict", "GameState", "VerdictEnding"]

#: python-chess's SAN without its check suffix (private, so checked: `board.san` serves
#: without it); `san` itself pushes and pops the move to look for check
_ALGEBRAIC = hasattr(chess.Board, "_algebraic_without_suffix")

#: a piece's letter by its type (0: an empty square), for each colour
_WHITE_LETTERS = (None, "P", "N", "B", "R", "Q", "K")
_BLACK_LETTERS = (None, "p", "n", "b", "r", "q", "k")

_BLIND = frozenset(("?", "X", "x"))  # the letters of a piece of unknown kind or colour

#: `sensed.letter_color` of every sensed letter (None: empty or unknown colour)
_LETTER_COLOR: dict[str | None, bool | None] = {
    letter: letter_color(letter) for letter in (None, *"PNBRQKpnbrqkXx?")
}


#: the endings whose verdict asks whether the opponent can still mate: a flag (6.9), a
#: resignation (5.1.2), the illegal move that loses the game (7.5.5)
VerdictEnding = Literal["flag", "resignation", "illegal_moves"]


@dataclass(frozen=True, slots=True)
class AwaitedVerdict:
    """An ending ruled while `defer_verdicts` is on whose verdict, whether the opponent can
    still mate (6.9, 5.1.2, 7.5.5), `Game.settle` has still to give: `side` is the player
    whose flag fell, who resigned, or whose illegal move loses; `t` the moment it was ruled,
    the verdict's own."""

    ending: VerdictEnding
    side: Side
    t: float


class GameState:
    """Everything the rules remember of one game, changed through the named operations."""

    def __init__(self, start: Start) -> None:
        if not isinstance(start, Start):
            raise EventError.of(N_("a stream must begin with a 'start' event"))
        self.start = start
        #: a camera: it reports only still scenes, late (`still_scene_source`)
        self._still_scene = start.slide_s == 0 and start.latency_s > 0
        self.profile = get_profile(start.rules)
        control_text = start.time_control
        if control_text is None:
            control_text = self.profile.default_time_control
        self.control = TimeControl.parse(control_text)
        self.mode = start.mode or self.control.game_class()
        try:
            self.board = chess.Board(start.fen) if start.fen else chess.Board()
        except ValueError as exc:
            raise PositionError.of(
                N_("start: the FEN {fen!r} cannot be read ({reason})"), fen=start.fen, reason=exc
            ) from None
        if not self.board.is_valid():
            raise PositionError.of(
                N_("start: the FEN {fen!r} is not a legal chess position"), fen=start.fen
            )
        self.strict = start.strict
        self.timed = not self.control.untimed
        self.clock = GameClock(self.control, t=start.t, running=SIDE[self.board.turn])
        self._sensed: Sensed = sensed_from_board(self.board)  # changed only by `sense`
        self._expected: Sensed = list(self._sensed)  # the position's letters, kept in step
        self._ranks = [rank_fen(self._expected, rank) for rank in range(8)]  # and their FEN
        # kept in step with every change of either board, so that no query compares all 64
        self._diff: set[int] = set()  # squares where the two cannot agree (`diff`)
        self._unknown = 0  # slots showing a piece of unknown colour ('?')
        self._blind = 0  # slots showing a piece of unknown kind or colour ('X', 'x', '?')
        self._sensed_version = 0  # one more at every change of the sensed board
        #: `own_in_hand` where no slot is of unknown colour, until either board changes
        self._own_in_hand: int | None = None
        self._matches: dict[tuple[object, ...], Match | BeyondBudget | None] = {}
        self.legal = LegalMoves(self.board)  # the position's legal moves, kept in step
        self._has_moves: bool | None = None  # whether the side to move has one (None: not known)
        self.t = start.t
        self.phase = Phase.PLAYING
        #: the game has ended, nothing more is ruled: `phase is Phase.OVER`, kept with the
        #: phase by `_go` (a plain attribute: every event and helper asks it)
        self.over = False
        #: whether events are ruled now (`phases.RULES_EVENTS` of the phase, kept by `_go`)
        self.rules_events = RULES_EVENTS[self.phase]
        #: a reconciled report was a `mismatch`: the pieces are being put back (7.4): `phase
        #: is Phase.RESTORING`, kept with the phase by `_go` (asked at every lift, place, press)
        self.restoring = False
        self.result: Result | None = None
        self.reason: Reason | None = None
        self.turn = Turn(SIDE[self.board.turn])
        self.records: list[MoveRecord] = []
        #: the clocks were stopped before anything happened, to be started (6.5): the next
        #: restart starts them (`pause_clock`, `resume_clock`)
        self._held_at_start = False
        self._illegal_count: dict[Side, int] = {"white": 0, "black": 0}  # `illegal_count`
        self.pending: dict[int, tuple[float, Side]] = {}  # square -> (place time, hand side)
        self.recent_lift: dict[int, tuple[float, str | None, Side]] = {}  # blink detection
        # presses waiting for the sensor's report of their move (`waiting_presses`)
        self._waiting: list[tuple[Side, float]] = []
        self.flag_wait: tuple[Side, float] | None = None
        self.offer: Side | None = None
        self._promotion: dict[Side, int] = {}  # `promotion`
        self.repetitions: dict[object, int] = {}
        #: the position's `_transposition_key()` once asked (9.2); None after every change
        self._position_key: Hashable | None = None
        self.count_position()
        self._flags_down: set[Side] = set()  # `flags_down`
        self.mismatch_key: tuple[object, ...] | None = None
        #: a flag fell and whether the opponent can still mate is undecided (6.9): the game
        #: holds, board events are ignored, until the arbiter's `declare` ends it
        self.held = False
        #: the live session's choice (`Game.settle`): a flag, resignation or losing illegal
        #: move whose verdict needs more search than was worked out ahead is ruled at once
        #: (what does not depend on the verdict) and its verdict left to `settle`, so that no
        #: input waits for the analysis; off (replays), the verdict follows at once
        self.defer_verdicts = False
        #: the ending whose verdict (6.9, 5.1.2, 7.5.5) `settle` has still to give
        self.awaiting_verdict: AwaitedVerdict | None = None
        #: while the board is being restored (`restoring`): when its last change was reported
        self.restore_seen_at = start.t
        #: while the board is restored, with `auto_press`: the squares a piece was put down
        #: on last and when (`restoring.released`); None when none waits
        self.restore_put_down: tuple[frozenset[int], float] | None = None
        #: the last claim and the game as it stood before it, for the arbiter's verdict
        #: (`rules.verdicts`, `claim_verdict`); None when there is none to rule on
        self.claim_on_record: ClaimOnRecord | None = None
        self._clock_t = start.t

    # ------------------------------------------------------------------ phase

    @property
    def disconnected(self) -> bool:
        """The source's reports may be missing (lost, or back but not yet reconciled)."""
        return self.phase in PRESS_WAITS_FOR_REPORT

    @property
    def reconciling(self) -> bool:
        """The next full report is compared with the game as a whole (events.md)."""
        return self.phase is Phase.RECONCILING

    def _go(self, trigger: Trigger) -> None:
        self.phase = next_phase(self.phase, trigger)
        self.over = self.phase is Phase.OVER
        self.rules_events = RULES_EVENTS[self.phase]
        self.restoring = self.phase is Phase.RESTORING

    def source_lost(self) -> None:
        """The source said `disconnected`: its reports may be missing from now on."""
        self._go(Trigger.SOURCE_LOST)

    def source_back(self) -> None:
        """The source said `reconnected`: the next full report is reconciled."""
        self._go(Trigger.SOURCE_BACK)

    def full_report(self) -> None:
        """A whole-board report arrived: the source reports again."""
        self._go(Trigger.FULL_REPORT)

    def put_back(self) -> None:
        """The reconciled report was a `mismatch`: the board is being restored from now on."""
        self._go(Trigger.MISMATCH)

    def restored(self) -> None:
        """The board shows the game again (or plies taken at a press): play goes on.

        A blind sensor's pieces are then the position's (as after a move that stands).
        """
        self._go(Trigger.RESTORED)
        self._name_sensed_pieces()
        self.clear_mismatch()

    def end(self, result: Result, reason: Reason) -> None:
        """The game is over with `result` (5, 6.9, 7.5.5, 9.6, a claim, the arbiter); a
        game held for the arbiter's verdict is held no more."""
        self._go(Trigger.GAME_OVER)
        self.result = result
        self.reason = reason
        self.held = False
        self.pending.clear()

    # ------------------------------------------------------------------ time and claims

    def time_reaches(self, t: float) -> None:
        """Time reached `t` (an event's, or the live session's timer): what fell due before
        it has been decided."""
        self.t = t

    def keep_claim(self, on_record: ClaimOnRecord | None) -> None:
        """The last claim and the game before it, for the arbiter's verdict (9.5, 4.8;
        `rules.verdicts`); None: there is none to rule on (any more)."""
        self.claim_on_record = on_record

    def go_back_to(self, before: GameState) -> None:
        """The game as it stood in `before` (a copy made at a claim, `rules.verdicts`), at
        this moment: the time and the board as sensed stay what they are now."""
        sensed = list(self._sensed)
        now = self.t
        vars(self).clear()
        vars(self).update(vars(before))
        self.t = now
        self.report(sensed)

    # ------------------------------------------------------------------ restoring

    def seen_while_restoring(self, t: float) -> None:
        """While the board is restored (7.4): its last change was reported at `t`."""
        self.restore_seen_at = t

    def pieces_put_back(self, squares: frozenset[int], t: float) -> None:
        """While the board is restored, with `auto_press`: pieces were put down on
        `squares` at `t`; once they stood `slide_s` they may have made a move
        (`restoring.released`)."""
        self.restore_put_down = (squares, t)

    def put_back_settled(self) -> None:
        """No piece put down while the board is restored waits to be released any more."""
        self.restore_put_down = None

    # ------------------------------------------------------------------ timing

    @property
    def ply(self) -> int:
        """The number of plies that stand (the position's move stack)."""
        return len(self.board.move_stack)

    def release_due(self, sq: int) -> float:
        """When the piece put down on `sq` is released: it stood `slide_s` (4.7)."""
        t, _ = self.pending[sq]
        return t + self.start.slide_s

    def press_due(self, t: float) -> float | None:
        """When a press at `t` is matched with its move: `latency_s` later, or by a report."""
        if self._still_scene or self.disconnected:
            return None  # resolved by the next still scene, however late
        return t + self.start.latency_s

    def still_scene_source(self) -> bool:
        """A camera: it reports only still scenes, late (events.md: slide_s 0, latency_s > 0)."""
        return self._still_scene

    def flag_grace(self) -> float:
        """How long a flag waits for a late report of a move made before it.

        A camera reports still scenes up to `latency_s` late, so a mate released just in time
        may not be known yet; boards that report every change need no wait (a placement
        still within `slide_s` holds the flag by itself, see `ending.flag`).
        """
        return self.start.latency_s if self._still_scene else 0.0

    def flag_due(self) -> tuple[Side, float] | None:
        """The running side's flag (6.9), unless the press that stopped it waits for its report."""
        if not self.timed or self.flag_wait is not None:
            return None
        flag = self.clock.flag_at()
        if flag is None:
            return None
        if self._waiting:
            side, at = flag
            if any(s == side and t <= at for s, t in self._waiting):
                return None  # the press that stopped this clock is only waiting for its report
        return flag

    # ------------------------------------------------------------------ flags

    @property
    def flags_down(self) -> AbstractSet[Side]:
        """The sides whose flag fell (6.9); read only, changed by `flag_fell`."""
        return self._flags_down

    def flag_fell(self, side: Side) -> None:
        """`side`'s flag fell (6.9): the flag is shown down from now on."""
        self._flags_down.add(side)

    def flag_waits(self, side: Side, at: float) -> None:
        """`side`'s flag fell at `at`, but a placement of his still pending may make a move
        that ends the game first (events.md): the flag is ruled once it is released."""
        self.flag_wait = (side, at)

    def take_flag_wait(self) -> tuple[Side, float] | None:
        """The flag that waited for a release (`flag_waits`), ruled now; None if none did."""
        waited, self.flag_wait = self.flag_wait, None
        return waited

    def await_verdict(self, ending: VerdictEnding, side: Side, t: float) -> None:
        """`side`'s flag, resignation or losing illegal move was ruled at `t`; whether the
        opponent can still mate (6.9, 5.1.2, 7.5.5) is left to `Game.settle` (the live
        session, between inputs: `defer_verdicts`). Meanwhile the game takes no board event,
        as once it is over (`Game.handle`)."""
        self.awaiting_verdict = AwaitedVerdict(ending, side, t)

    def verdict_given(self) -> None:
        """The verdict `await_verdict` left is ruled now."""
        self.awaiting_verdict = None

    def hold_for_verdict(self) -> None:
        """Whether the side that would win can still mate is undecided (6.9, 5.1.2, 7.5.5):
        the game holds, board events ignored, until the arbiter's `declare` (`end`)."""
        self.held = True

    # ------------------------------------------------------------------ presses

    @property
    def waiting_presses(self) -> Sequence[tuple[Side, float]]:
        """Presses waiting for the sensor's report of their move (side, time), oldest
        first; read only, changed by `wait_for_report`, `take_waiting_press`,
        `press_matched`, `take_presses_before` and `forget_presses`."""
        return self._waiting

    def wait_for_report(self, side: Side, t: float) -> None:
        """`side` pressed at `t`; the press is matched with its move once the sensor
        reports it (`press_due`; a camera's next still scene, a source back)."""
        self._waiting.append((side, t))

    def take_waiting_press(self) -> tuple[Side, float]:
        """The oldest waiting press is ruled now: it waits no more."""
        return self._waiting.pop(0)

    def press_matched(self, index: int) -> None:
        """The waiting press at `index` completed the move just released (6.2.1)."""
        del self._waiting[index]

    def take_presses_before(self, t: float) -> list[tuple[Side, float]]:
        """The presses made before `t`, oldest first, which wait no more; later ones wait on."""
        earlier = [p for p in self._waiting if p[1] < t]
        self._waiting = [p for p in self._waiting if p[1] >= t]
        return earlier

    def keep_reinstated_scene(self) -> None:
        """Remember what the board shows just after an illegal move was reinstated (7.5.1):
        a press on that board unchanged is a press without a move (7.5.3), not a second
        illegal arrangement (`rules.presses`)."""
        self.turn.reinstated_scene = self.arrangement(self.diff())

    def forget_presses(self) -> None:
        """No press waits any more: the moves they made are unknown or ruled otherwise (a
        source reconciled, the board restored, the game held or the stream's end)."""
        self._waiting.clear()

    # ------------------------------------------------------------------ clock

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

    def start_clock(self, side: Side, t: float) -> None:
        """`side`'s clock runs from `t` (6.2: the opponent pressed; 7.1, 7.5, 4.8: a move
        taken back)."""
        self.clock.start(side, self.clock_time(t))

    def stop_clock(self, t: float) -> None:
        """Both clocks stop at `t` (6.9, 6.10: the game ended or holds for the arbiter)."""
        self.clock.stop(self.clock_time(t))

    def pause_clock(self, t: float) -> None:
        """The arbiter stops the clocks at `t` (6.11.1); at t = 0, before anything happened,
        they are held to be started (6.5: `--clock-start`; `clocks_held_at_start`)."""
        self._held_at_start = t == 0 and self.ply == 0 and not self.records
        self.clock.pause(self.clock_time(t))

    def resume_clock(self, t: float) -> None:
        """The clocks run again from `t` (6.11.1), or start (6.5) if they were held so."""
        self._held_at_start = False
        self.clock.resume(self.clock_time(t))

    @property
    def clocks_held_at_start(self) -> bool:
        """Were the clocks stopped before anything happened, waiting to be started (6.5)?"""
        return self._held_at_start

    def give_time(self, side: Side, seconds: float, t: float) -> None:
        """`seconds` more on `side`'s clock at `t` (negative: taken off; 7.5.5, 9.5, 12.9)."""
        self.clock.add(side, seconds, self.clock_time(t))

    def set_clocks(self, white: float, black: float, t: float) -> None:
        """The arbiter sets both clocks at `t` (6.10.2, 7.4)."""
        self.clock.set(white, black, self.clock_time(t))

    def uncount_clock_move(self, side: Side) -> None:
        """A move of `side`'s counted by the clock is taken back (7.5, 4.8): the clock's
        move count (and a period that move reached) goes back with it."""
        self.clock.uncount_move(side)

    def press_for_move(self, side: Side, t: float) -> tuple[float, bool]:
        """`side` presses his clock at `t` for a completed move (6.2.1): (the credit it gave,
        whether it counted a move)."""
        clock = self.clock
        # the press counts a move exactly when it stops `side`'s running clock (`GameClock.press`)
        counted = clock.running == side and not clock.paused
        return clock.press(side, t, completed_move=True), counted

    def record_press(self, record: MoveRecord, t: float) -> None:
        """6.2.1: the mover's press at `t` completes `record`'s move. On a stopped clock (the
        arbiter paused it) it completes nothing: the player presses again once it runs."""
        if self.timed:
            record.credit, record.counted = self.press_for_move(record.side, t)
            record.pressed = record.counted
        else:
            record.pressed = True

    # ------------------------------------------------------------------ the position

    @property
    def promotion(self) -> Mapping[Side, int]:
        """The piece type each side named with `promote` for its next promotion (4.4.4, for
        piece-blind sensors); read only, changed by `name_promotion` and `stand`."""
        return self._promotion

    def name_promotion(self, side: Side, piece_type: int) -> None:
        """`side` names the piece his pawn becomes (4.4.4), for a sensor that cannot tell."""
        self._promotion[side] = piece_type

    @property
    def illegal_count(self) -> Mapping[Side, int]:
        """How many illegal moves each side completed (7.5.5); read only (`count_illegal`)."""
        return self._illegal_count

    def count_illegal(self, side: Side) -> int:
        """`side` completed one more illegal move (7.5.1 to 7.5.5): how many now."""
        self._illegal_count[side] += 1
        return self._illegal_count[side]

    def promo(self) -> int | None:
        """The piece type the mover named with `promote` (for piece-blind sensors), if any."""
        return self._promotion.get(SIDE[self.board.turn])

    def stand(
        self,
        move: chess.Move,
        side: Side,
        t: float,
        made_at: float,
        *,
        touches: list[int],
        violation: Violation | None = None,
        inferred: bool = False,
        pressed: bool = False,
        credit: float = 0.0,
        counted: bool = False,
    ) -> tuple[MoveRecord, MoveStands]:
        """A legal move becomes standing (4.7; 7.5.2 a pawn made a queen): the one place.

        Pushes it, counts its position (9.2, 9.6.1), names the pieces a blind sensor showed,
        records it with the touches and breach a claim may need (4.8), and starts the
        opponent's turn. Returns its record and its `move` ruling (the caller rules it).
        """
        board = self.board
        changed = changed_squares(board, move)
        san = san_without_check(board, move)
        whole = False  # the SAN has its check suffix already
        if san is None:  # another piece of the kind may go there: python-chess disambiguates
            if _ALGEBRAIC and type(board) is chess.Board:
                san = board._algebraic_without_suffix(move)  # no push and pop to look ahead
            else:
                san, whole = board.san(move), True
        board.push(move)
        self.board_changed(changed)
        # the automatic endings need this anyway (5.1.1, 5.2.1); SAN's "#" reads it too
        legal = self.legal
        has_moves = self._has_moves = legal.any()
        if not whole and legal.in_check():
            san += "+" if has_moves else "#"
        self.count_position()
        if self._blind:
            self._name_sensed_pieces()
        ply = len(board.move_stack)  # `ply`
        record = MoveRecord(ply, side, move, made_at, touches, violation, pressed, credit, counted)
        self.records.append(record)
        ruling = MoveStands(
            t=t,
            side=side,
            ply=ply,
            move=move,
            san=san,
            fen=self.fen(),
            made_at=round(made_at, 6),
            inferred=inferred,
        )
        if self._promotion:
            self._promotion.pop(side, None)
        self.turn = Turn(SIDE[board.turn])
        self.recent_lift.clear()
        self.mismatch_key = None  # `clear_mismatch` (the new turn has no reinstated scene)
        return record, ruling

    def _name_sensed_pieces(self) -> None:
        """Once a move stands, pieces a blind sensor showed as X, x or ? are known."""
        if not self._blind:
            return
        sensed = self._sensed
        board = self.board
        for sq in range(64):
            letter = sensed[sq]
            if letter in _BLIND:
                piece = board.piece_at(sq)
                if piece is not None and compatible(letter, piece):
                    self.sense(sq, piece.symbol())

    def take_back(self, plies: int) -> list[MoveRecord]:
        """Undo `plies` moves (claim upheld 4.8, 7.5.4, the arbiter 7.1); returns them."""
        undone = []
        for _ in range(min(plies, len(self.records))):
            record = self.records.pop()
            self._uncount_position()
            self.board.pop()
            self.board_changed()
            if record.counted:
                self.clock.uncount_move(record.side)
            undone.append(record)
        self.turn = Turn(SIDE[self.board.turn])
        return undone

    def set_position(self, board: chess.Board) -> None:
        """7.1: the arbiter sets up a position; the record and the repetitions start again."""
        self.board = board
        self.board_changed()
        self.records.clear()
        self.repetitions.clear()
        self.count_position()
        self.turn = Turn(SIDE[board.turn])

    def board_changed(self, squares: Iterable[int] | None = None) -> None:
        """The position changed: the letters a perfect sensor would show follow it.

        `squares`: the only squares that changed (those of one move), else all of them.
        """
        board = self.board
        if squares is None:
            self._expected = sensed_from_board(board)
            self._ranks = [rank_fen(self._expected, rank) for rank in range(8)]
            self._diff = differing(board, self._sensed, self._expected)
        else:
            expected = self._expected
            sensed = self._sensed
            diff = self._diff
            white = board.occupied_co[chess.WHITE]
            piece_type_at = board.piece_type_at
            ranks = 0  # a bit per rank changed
            for sq in squares:
                # the piece's letter from the bitboards (no `Piece` made for it)
                letters = _WHITE_LETTERS if white >> sq & 1 else _BLACK_LETTERS
                want = expected[sq] = letters[piece_type_at(sq) or 0]
                have = sensed[sq]
                if have == want or letters_compatible(have, want):
                    diff.discard(sq)
                else:
                    diff.add(sq)
                ranks |= 1 << (sq >> 3)
            rank_of = self._ranks
            while ranks:
                rank = ranks.bit_length() - 1
                rank_of[rank] = rank_fen(expected, rank)
                ranks ^= 1 << rank
        self._matches.clear()
        self._own_in_hand = None
        self.legal = LegalMoves(board)
        self._has_moves = None
        self._position_key = None  # `_transposition_key()` once asked (9.2)

    def has_legal_moves(self) -> bool:
        """Whether the side to move has a legal move (5.1.1, 5.2.1), kept for the position."""
        if self._has_moves is None:
            self._has_moves = self.legal.any()
        return self._has_moves

    def count_position(self) -> None:
        """One more occurrence of the current position (9.2, 9.6.1)."""
        key = self._position_key = self.board._transposition_key()
        self.repetitions[key] = self.repetitions.get(key, 0) + 1

    def _uncount_position(self) -> None:
        """The current position is taken back: one occurrence less (9.2, 9.6.1)."""
        key = self.board._transposition_key()
        if self.repetitions.get(key, 0) > 0:
            self.repetitions[key] -= 1

    def repetitions_of_current(self) -> int:
        """How often the current position has stood (9.2, 9.6.1)."""
        key = self._position_key
        if key is None:
            key = self._position_key = self.board._transposition_key()
        return self.repetitions.get(key, 0)

    def fen(self) -> str:
        """The position's FEN, as `chess.Board.fen()` gives it (from the letters at hand)."""
        return fen_of(self.board, self._expected, "/".join(reversed(self._ranks)))

    # ------------------------------------------------------------------ the board as sensed

    @property
    def sensed(self) -> Sequence[str | None]:
        """The board as sensed: 64 slots, a1 first (`rules.sensed`); read only, changed by
        `sense` and the operations of the hands below."""
        return self._sensed

    def sense(self, sq: int, letter: str | None) -> None:
        """The sensors show `letter` (None: empty) on `sq`; `diff` follows at once."""
        old = self._sensed[sq]
        if old == letter:
            return
        self._sensed[sq] = letter
        self._sensed_version += 1
        self._own_in_hand = None
        if old in _BLIND:
            self._blind -= 1
            if old == "?":
                self._unknown -= 1
        if letter in _BLIND:
            self._blind += 1
            if letter == "?":
                self._unknown += 1
        if letters_compatible(letter, self._expected[sq]):
            self._diff.discard(sq)
        else:
            self._diff.add(sq)

    def report(self, seen: Sequence[str | None]) -> None:
        """A whole-board report replaces the board as sensed, slot by slot; a slot whose
        letter the report only confirms less precisely (a colour for a known piece, `?`)
        keeps what was known."""
        sensed = self._sensed
        for sq in range(64):
            have, new = sensed[sq], seen[sq]
            if have == new:
                continue
            if have is not None and new is not None and compatible(new, _piece_of(have)):
                continue
            self.sense(sq, new)

    # ------------------------------------------------------------------ the hands

    def put_down(self, sq: int, letter: str | None, t: float, hand: Side) -> None:
        """`hand` put `letter` down on `sq` at `t`: pending until released (4.7); the
        mover's squares of this turn count it."""
        self.sense(sq, letter)
        self.pending[sq] = (t, hand)
        if hand == SIDE[self.board.turn]:
            self.turn.moved_squares.add(sq)

    def first_promotion_piece(self, sq: int, letter: str) -> None:
        """The mover put `letter` on the promotion square `sq`: the first piece there (4.4.4)."""
        self.turn.promo_first.setdefault(sq, letter)

    def take_up(self, sq: int, t: float, hand: Side) -> None:
        """`hand` lifted what stood on `sq` at `t` (kept a moment: a blink, `noise_s`)."""
        self.recent_lift[sq] = (t, self._sensed[sq], hand)
        self.sense(sq, None)

    def unplace(self, sq: int) -> float | None:
        """The piece put down on `sq` comes off again: when it was put down (None: it had
        been released, or none was)."""
        placed = self.pending.pop(sq, None)
        return None if placed is None else placed[0]

    def lifted_before(self, sq: int) -> tuple[float, str | None, Side] | None:
        """The last lift from `sq` not yet followed by a placement there (time, letter,
        hand), taken from the record: a placement now answers it."""
        return self.recent_lift.pop(sq, None)

    def release_piece(self, sq: int) -> float:
        """The piece put down on `sq` is released (4.7): when it was put down."""
        placed_t, _hand = self.pending.pop(sq)
        return placed_t

    def release_pieces(self) -> float | None:
        """Every piece put down is released at once (a press, 4.7): the last placement's
        time (None: nothing was down)."""
        last = max((t for t, _ in self.pending.values()), default=None)
        self.pending.clear()
        return last

    def forget_hands(self) -> None:
        """Nothing in anyone's hand any more: no piece pending, no lift remembered (a
        reconnection's first report starts the board over)."""
        self.pending.clear()
        self.recent_lift.clear()

    def touch(self, sq: int, t: float) -> bool:
        """The mover touched the piece on `sq` at `t` to move it (4.3); False if already."""
        turn = self.turn
        turn.touched_any = True
        if sq in turn.touches:
            return False
        turn.touches.append(sq)
        turn.touch_times[sq] = t
        return True

    def order_touches(self, order: list[int]) -> None:
        """The mover's touches in the order the Laws count them (4.3.3: own pieces first)."""
        assert sorted(order) == sorted(self.turn.touches), "the same touches, reordered"
        self.turn.touches = order

    def untouch(self, sq: int) -> bool:
        """A touch of the mover's that was none (a blink, 4.2.2 an accident); False if the
        square was not among his touches."""
        turn = self.turn
        if sq not in turn.touches:
            return False
        turn.touches.remove(sq)
        turn.touched_any = bool(turn.touches)
        return True

    def forgive_touch(self, sq: int) -> None:
        """4.2.2: the arbiter judged the touch of `sq` accidental: it obliges to nothing (the
        player did touch, so `touched_any` stands)."""
        self.turn.touches.remove(sq)

    def restore_touches(self, touches: list[int], duty: Duty | None) -> None:
        """A move taken back (4.8, 7.5.4): its touches and their duty stand again."""
        self.turn.touches = list(touches)
        self.turn.touched_any = True
        self.turn.obligation = duty

    def set_obligation(self, duty: Duty | None) -> None:
        """The duty the mover's touches create now (4.3 to 4.5)."""
        self.turn.obligation = duty

    def declare(self, duty: Duty) -> None:
        """9.5.3: the move the mover declared with an incorrect claim binds him, whatever he
        touches from now on (`Turn.forced`)."""
        self.turn.forced = duty

    def offer_draw(self, side: Side) -> None:
        """9.1.2: `side` offers a draw (9.1.2.3: an incorrect claim stands as one)."""
        self.offer = side

    def close_offer(self) -> None:
        """The standing draw offer is declined (9.1.2.1), lapses, or cannot be accepted
        yet (5.2.3)."""
        self.offer = None

    def announce_adjust(self) -> None:
        """The mover said "j'adoube" (4.2.1): his touches from now on are adjustments."""
        self.turn.adjusting = True

    def used_two_hands(self) -> None:
        """The mover used two hands for this move (4.1): an illegal move if completed."""
        self.turn.two_hands = True

    def report_illegal(self, arrangement: Arrangement) -> bool:
        """The arrangement was ruled illegal (7.5.1); False if it already was this turn."""
        if self.turn.reported_illegal == arrangement:
            return False
        self.turn.reported_illegal = arrangement
        return True

    def refuse(self, arrangement: Arrangement, scene: Arrangement | None = None) -> None:
        """Strict mode: the board shows a move that is refused (`refused` until it changes);
        `scene` adds the squares the refused move changed, with what they showed then, so the
        board on its way back from it is no new attempt (`moves.putting_back`)."""
        self.turn.refused = arrangement
        if scene is not None:
            self.turn.refused_scene = scene

    def diff(self) -> set[int]:
        """Squares where the board as sensed differs from the game's position (a copy: it is
        kept in step by `sense` and `board_changed`)."""
        return set(self._diff)

    def own_in_hand(self) -> int:
        """How many of the mover's pieces are off the board (captures aside).

        A slot of unknown colour is the mover's where he put a piece down this turn, else
        whatever the game's position has there (`sensed.own_on_board`). Where no slot is of
        unknown colour, a slot that agrees with the position shows a piece of the colour
        the position has there, so only the differing squares count.
        """
        if self._unknown:
            return own_in_hand_by_count(self._sensed, self.board, self.turn.moved_squares)
        if self._own_in_hand is not None:
            return self._own_in_hand  # a press asks, and the release it causes asks again
        board = self.board
        us = board.turn
        own = board.occupied_co[us]  # `color_at(sq) == us`, from the bitboard
        sensed = self._sensed
        count = 0
        for sq in self._diff:
            if own >> sq & 1:
                count += 1
            if _LETTER_COLOR[sensed[sq]] == us:  # `letter_color`
                count -= 1
        self._own_in_hand = count
        return count

    def match(self, max_plies: int | None = None) -> Match | BeyondBudget | None:
        """The legal move (or sequence, up to `max_plies`, default the start's) the board shows.

        `BeyondBudget` when the report is too far off to tell within the search's budget
        (`sensed.SEARCH_NODES`): the callers rule it a `mismatch`, never a move.

        `find_match` on the sensed board and the game's position, kept per sensed board
        until the position changes: a press asks whether the board shows a move, and the
        release it causes asks again.
        """
        plies = self.start.max_plies if max_plies is None else max_plies
        promotion = self.promo()
        key = (self._sensed_version, promotion, plies)
        if key in self._matches:
            return self._matches[key]
        if len(self._matches) > 64:
            self._matches.clear()
        found: Match | BeyondBudget | None = None
        if self._diff:
            found = find_match(
                self.board,
                self._sensed,
                max_plies=plies,
                promotion=promotion,
                diff=self._diff,  # read only: no sensed slot changes while it searches
                legal=self.legal,
            )
        self._matches[key] = found
        return found

    def arrangement(self, diff: set[int]) -> Arrangement:
        """What stands on the differing squares: the identity of one illegal arrangement."""
        return frozenset((sq, self.sensed[sq]) for sq in diff)

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
        out.append(self.difference(t, squares))

    def difference(self, t: float, squares: list[int]) -> Mismatch:
        """The `mismatch` ruling for `squares` (sorted): what the game has there that the
        board lacks, and what the board shows there that the game does not. Read only."""
        missing: list[PieceOn] = []
        extra: list[PieceOn] = []
        for sq in squares:
            want = self.board.piece_at(sq)
            have = self.sensed[sq]
            if want is not None:
                missing.append(PieceOn(sq, want.symbol()))
            if have is not None:
                extra.append(PieceOn(sq, have))
        return Mismatch(t=t, missing=tuple(missing), extra=tuple(extra))

    def clear_mismatch(self) -> None:
        """The board showed the game again: the next difference is ruled anew (7.4), and a
        reinstated illegal move was put right, so the same arrangement made again is a new
        attempt (7.5.1), no longer a press without a move (7.5.3, `rules.presses`)."""
        self.mismatch_key = None
        self.turn.reinstated_scene = None

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
            out.append(self.turn.obligation.ruling(t, self.turn.side))
        self.turn.reported_illegal = None
        self.mismatch_key = None
        self.mismatch(t, out)
        if clock:
            self.clock_ruling(out, t)


def san_without_check(board: chess.Board, move: chess.Move) -> str | None:
    """The legal `move`'s SAN as `board.san(move)` writes it, but for the check suffix (`+`,
    `#`: the caller adds it once the move is pushed); None where another piece of the kind
    attacks the square, and python-chess must tell them apart (Nbd2).

    python-chess's `san` generates the legal moves of the moving piece's kind towards its
    square, to disambiguate, and again after the move, to tell mate from check; the second
    is the one the automatic endings need anyway (5.1.1, 5.2.1), and the first is needed only
    where another piece of that kind attacks the square.
    """
    from_sq, to_sq = move.from_square, move.to_square
    if board.kings & chess.BB_SQUARES[from_sq] and board.is_castling(move):
        return "O-O-O" if chess.square_file(to_sq) < chess.square_file(from_sq) else "O-O"
    piece_type = board.piece_type_at(from_sq)
    assert piece_type is not None, "san_without_check expects a legal move"
    # `board.is_capture(move)`, as python-chess asks it (en passant only onto its square)
    touched = chess.BB_SQUARES[from_sq] ^ chess.BB_SQUARES[to_sq]
    capture = bool(touched & board.occupied_co[not board.turn]) or (
        to_sq == board.ep_square and board.is_en_passant(move)
    )
    if piece_type != chess.PAWN:
        rivals = board.pieces_mask(piece_type, board.turn) & ~chess.BB_SQUARES[from_sq]
        if rivals and rivals & _reach(piece_type, to_sq, board.occupied):
            return None
        san = chess.piece_symbol(piece_type).upper()
    else:
        san = chess.FILE_NAMES[chess.square_file(from_sq)] if capture else ""
    if capture:
        san += "x"
    san += chess.SQUARE_NAMES[to_sq]
    if move.promotion:
        san += "=" + chess.piece_symbol(move.promotion).upper()
    return san


def _reach(piece_type: chess.PieceType, square: chess.Square, occupied: int) -> int:
    """The squares a piece of `piece_type` (not a pawn) on `square` attacks: those from which
    one of that kind attacks `square` (attacks are symmetric for these pieces)."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    reach = 0
    if piece_type in (chess.BISHOP, chess.QUEEN):
        reach |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if piece_type in (chess.ROOK, chess.QUEEN):
        reach |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        reach |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return reach


def _piece_of(letter: str) -> chess.Piece | None:
    """The piece a sensed letter names, None for an unknown kind (`X`, `x`, `?`)."""
    return None if letter in _BLIND else chess.Piece.from_symbol(letter)
