"""Drills on a board (`arbiter teach --board SPEC`): each situation set up on the pieces, the
pupil's hands read from the board, and the rules core judging them.

The board is an e-board read as `arbiter play --board` reads it (`BoardAdapter`: the real
transport and codec), or a virtual one (`dgt-sim`, `millennium-sim`, `certabo-sim`) behind a
pseudo-terminal, whose hands are typed (`lift e2`, `place f3 N`, `e2e4`), each movement made
on the virtual board and waited for until the board has reported it through the same path.

A drill on a board goes in three steps:

1. **Set-up.** The pupil is told what to put where (the pieces where the board differs from
   the drill's position, in the words of a mismatch ruling) until the board shows it. On a
   virtual board `setup` puts the pieces there at once (a teacher's shortcut; the board
   still reports them through its protocol).
2. **The situation.** The pupil is asked for the hand movements of the situation (an
   e-board senses no touch: a touch is a lift and a put-back on the same square, which the
   rules rule as a touch, 4.2.1); the movements the board reports are checked against them.
   From here on, every event the board reports goes to a `rules.game.Game` in strict mode.
3. **The answer.** The pupil moves on the board and presses the clock (types `press`, the
   clock beside the board); the drill is passed when the move stands with no violation, no
   illegal move and no refusal, exactly as the keyboard drills (`drills.judge`).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import chess

from arbiter.errors import SourceError
from arbiter.inputs.base import SourceFailed
from arbiter.live.commands import CommandError
from arbiter.teach.drills import (
    DRILLS,
    PRESS,
    Drill,
    DrillResult,
    Session,
    passed,
)
from arbiter.teach.runner import DrillsEnded, SensedDrills
from rules.events import Event, Lift, Place, Press, Snapshot
from rules.game import Game
from rules.i18n import N_
from rules.messages import format_ruling
from rules.rulings import Mismatch, PieceOn, Ruling
from rules.types import Side

if TYPE_CHECKING:
    from arbiter.clock import Clock
    from arbiter.inputs.board import BoardAdapter

__all__ = ["BoardDrills", "VirtualHands", "run_board_drills"]

#: real seconds to wait for the board's first full report, and for a movement's report
REPORT_TIMEOUT_S = 10.0
#: real seconds the board is given to report what a pupil did by hand before it is looked at
SETTLE_S = 0.3

SET_UP = N_("Set up the position on the board:")
SET_UP_DONE = N_("The position stands on the board.")
DO_THIS = N_("Now do this on the board:")
TOUCH_ON_BOARD = N_("lift the piece on {square} and put it back on {square}")
MOVE_ON_BOARD = N_("lift the piece on {origin} and put it down on {target}, then let go")
WHEN_DONE = N_("Type {ready} when it is done.")
READY = N_("ready")
NOT_AS_ASKED = N_("That is not what was asked; the drill starts again.")
ANSWER_ON_BOARD = N_("Make your move on the board, then press the clock (type {press}).")
SETUP_WORD = N_("setup")
HANDS_HELP = N_(
    "Type hand movements: lift e2, place e4 (place f3 N: a piece from the box), e2e4,"
    " {setup}, {press}."
)
NO_REPORT = N_("the board did not report its pieces")


class VirtualHands:
    """The pupil's hands on a virtual board: each typed movement made on the board and
    waited for until the board has reported it (the real serial and codec path)."""

    def __init__(self, board: Any, clock: Clock) -> None:
        self.board = board  # a VirtualBoardAdapter
        self.clock = clock
        settings = board.start_settings()
        #: stream seconds between two movements, so that no two are read as one
        self.step_s = max(settings.get("noise_s", 0.0), settings.get("slide_s", 0.0)) + 0.15
        #: the pieces lifted and not put down yet (FEN letters)
        self.held: list[str] = []

    def perform(self, line: str, target: str | None, setup_words: set[str]) -> bool:
        """Make the movements `line` types; False if it types none. `target`: the placement
        that `setup` (or a word of `setup_words`) puts on the board at once.

        Raises:
            CommandError: the movement cannot be made (no piece there, ...).
        """
        from arbiter.live.virtual_play import hand_steps

        words = line.split()
        if not words:
            return False
        head = words[0].lower()
        if head in setup_words and len(words) == 1 and target is not None:
            self._movement(Snapshot(t=0, board=target), None)
            self.held.clear()
            return True
        if head == "lift" and len(words) == 2:
            square = words[1].lower()
            piece = chess.BaseBoard(self.board.virtual.placement()).piece_at(
                chess.parse_square(square)
            )
            if piece is None:
                raise CommandError.of(
                    N_("lift {square}: there is no piece on {square}"), square=square
                )
            self._movement(Lift(t=0, square=square, piece=piece.symbol()), square)
            self.held.append(piece.symbol())
            return True
        if head == "place" and len(words) in (2, 3):
            square = words[1].lower()
            if len(words) == 3 and words[2] in "KQRBNPkqrbnp" and len(words[2]) == 1:
                letter = words[2]
            elif self.held:
                letter = self.held[-1]
            else:
                raise CommandError.of(
                    N_("place {square}: no piece is in the hand (lift one first)"), square=square
                )
            self._movement(Place(t=0, square=square, piece=letter), square)
            if letter in self.held:
                self.held.remove(letter)
            return True
        if len(words) == 1 and len(head) in (4, 5):
            try:
                chess.Move.from_uci(head)
            except ValueError:
                return False
            for step in hand_steps(self.board.virtual.placement(), head):
                self._movement(step, step.square)
            return True
        return False

    def _movement(self, event: Event, square: str | None) -> None:
        before, skipped = len(self.board.delivered), len(self.board.virtual.skipped)
        self.board.virtual.act(event)
        if len(self.board.virtual.skipped) > skipped:
            raise CommandError.of(N_("the board could not do that on {square}"), square=square)
        placed = isinstance(event, Place)
        if not self.board.wait_report(square, before, REPORT_TIMEOUT_S, occupied=placed):
            raise CommandError.of(
                N_("the board did not report the movement on {square}"), square=square
            )
        time.sleep(self.clock.real_delay(self.step_s))


class BoardDrills(SensedDrills):
    """The drills of one pupil on one board; see the module docstring.

    Args:
        board: the board's adapter (started here).
        clock: the session's clock (stamps the board's events and the presses).
        read: the pupil's next typed line (None: no more input).
        out: where the drills are said.
        language: the pupil's language.
        hands: a virtual board's hands (None: a real board, moved by hand).
    """

    def __init__(
        self,
        board: BoardAdapter,
        clock: Clock,
        read: Callable[[], str | None],
        out: TextIO,
        language: str,
        hands: VirtualHands | None = None,
    ) -> None:
        super().__init__(read, out, language, board.start_settings)
        self.board = board
        self.clock = clock
        self.hands = hands
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.sensed = chess.BaseBoard(None)
        #: the hand movements the board showed (lift/place, square), in order
        self.moved: list[tuple[str, str]] = []
        self._reported = False

    def now(self) -> float:
        return self.clock.now()

    # ----------------------------------------------------------------- the board's events

    def start(self) -> None:
        """Start reading the board and wait for its first full report."""
        self.board.start(self.inbox.put, self.clock)
        deadline = time.monotonic() + REPORT_TIMEOUT_S
        while not self._reported and time.monotonic() < deadline:
            self._take(self._next(deadline - time.monotonic()))
        if not self._reported:
            raise SourceError.of(NO_REPORT)

    def _next(self, timeout: float) -> Any:
        try:
            return self.inbox.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def _take(self, item: Any) -> Event | None:
        """Follow the sensed pieces with one item the board sent; the event, if one. The
        movements it shows are added to `moved` (a whole-board report: the squares emptied,
        then those filled, since the last report)."""
        if isinstance(item, SourceFailed):
            if item.error is not None:  # said in the user's language
                raise SourceError.of("{error}", error=item.error)
            raise SourceError(item.message)
        if isinstance(item, Snapshot):
            now = chess.BaseBoard(item.board)
            if self._reported:
                for square in chess.SQUARES:
                    if self.sensed.piece_at(square) is not None and now.piece_at(square) is None:
                        self.moved.append(("lift", chess.square_name(square)))
                for square in chess.SQUARES:
                    if now.piece_at(square) is not None and self.sensed.piece_at(square) is None:
                        self.moved.append(("place", chess.square_name(square)))
            self.sensed = now
            self._reported = True
        elif isinstance(item, Lift):
            self.sensed.remove_piece_at(chess.parse_square(item.square))
            self.moved.append(("lift", item.square))
        elif isinstance(item, Place):
            if item.piece:
                square = chess.parse_square(item.square)
                self.sensed.set_piece_at(square, chess.Piece.from_symbol(item.piece))
            self.moved.append(("place", item.square))
        return item if isinstance(item, Event) else None

    def drain(self) -> list[Event]:
        """The events the board has reported since the last call (after a short settle when
        a pupil's hands, not typed movements, moved the pieces)."""
        if self.hands is None:
            time.sleep(SETTLE_S)
        events: list[Event] = []
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                return events
            event = self._take(item)
            if event is not None:
                events.append(event)

    def _line(self) -> str:
        """The pupil's next line ("" after a virtual board's movements, made on it).

        Raises:
            DrillsEnded: no more input.
        """
        line = self.read()
        if line is None:
            raise DrillsEnded
        if self.hands is None:
            return line.strip()
        setup_words = {SETUP_WORD, self._(SETUP_WORD).lower()}
        try:
            if not self.hands.perform(line, self._target, setup_words):
                return line.strip()
        except CommandError as exc:
            from arbiter.i18n import error_text

            self._say(error_text(exc, self.language))
        return ""

    # ----------------------------------------------------------------- one drill

    _target: str | None = None

    def set_up(self, drill: Drill) -> None:
        """Step 1: until the board shows the drill's position."""
        self._target = (chess.Board(drill.fen) if drill.fen else chess.Board()).board_fen()
        target = chess.BaseBoard(self._target)
        said = False
        while True:
            self.drain()
            missing, extra = _differences(target, self.sensed)
            if not missing and not extra:
                self._say(self._(SET_UP_DONE))
                return
            if not said:
                self._say(self._(SET_UP))
                said = True
            t = self.clock.now()
            text = format_ruling(Mismatch(t=t, missing=missing, extra=extra), self.language)
            self._say("  " + text)
            if self.hands is not None:
                words = {"setup": self._(SETUP_WORD), "press": self._(PRESS)}
                self._say(self._(HANDS_HELP).format(**words))
            else:
                self._say(self._(WHEN_DONE).format(ready=self._(READY)))
            self._line()

    def situation(self, drill: Drill, game: Game) -> list[Ruling] | None:
        """Step 2: the situation's movements asked for, checked and ruled on by `game` (their
        rulings: a piece let go on its square makes the move, 4.7); None if the board
        reported other movements than those asked for."""
        wanted = wanted_movements(drill)
        if wanted:
            self._say(self._(DO_THIS))
            for kind, origin, target in movement_steps(drill):
                text = TOUCH_ON_BOARD if kind == "touch" else MOVE_ON_BOARD
                self._say("  - " + self._(text).format(square=origin, origin=origin, target=target))
        self.moved.clear()
        rulings: list[Ruling] = []
        while len(self.moved) < len(wanted):
            if self.hands is None:
                self._say(self._(WHEN_DONE).format(ready=self._(READY)))
            self._line()
            for event in self.drain():
                rulings += game.handle(event)
            if self.moved != wanted[: len(self.moved)]:
                self._say(self._(NOT_AS_ASKED))
                return None
        return rulings

    def answer(self, drill: Drill, game: Game, side: Side, before: list[Ruling]) -> DrillResult:
        """Step 3: the pupil's move and press, judged by the rules core with the rulings the
        situation brought (`before`)."""
        press_words = {PRESS, self._(PRESS).lower()}
        self._say(self._(ANSWER_ON_BOARD).format(press=self._(PRESS)))
        rulings: list[Ruling] = list(before)
        self.moved.clear()
        while True:
            line = self._line()
            for event in self.drain():
                rulings += game.handle(event)
            if line.lower() in press_words:
                rulings += game.handle(Press(t=self.clock.now(), side=side))
                # a press waits up to the board's latency_s for the report of its move
                latency = game.start.latency_s
                if latency > 0:
                    time.sleep(self.clock.real_delay(latency + 0.15))
                    for event in self.drain():
                        rulings += game.handle(event)
                    rulings += game.advance(self.clock.now())
                answer = ", ".join(f"{what} {square}" for what, square in self.moved) or line
                return DrillResult(drill.name, answer, passed(rulings), tuple(rulings))


def movement_steps(drill: Drill) -> list[tuple[str, str, str]]:
    """The situation's hand movements: (touch, square, square) or (move, from, to)."""
    steps: list[tuple[str, str, str]] = []
    lifted: str | None = None
    for what, square in drill.setup:
        if what == "touch":
            steps.append(("touch", square, square))
        elif what == "lift":
            lifted = square
        elif lifted is not None:
            steps.append(("touch" if lifted == square else "move", lifted, square))
            lifted = None
    return steps


def wanted_movements(drill: Drill) -> list[tuple[str, str]]:
    """The lifts and places the board must report for the situation, in order."""
    out: list[tuple[str, str]] = []
    for _kind, origin, target in movement_steps(drill):
        out += [("lift", origin), ("place", target)]
    return out


def _differences(
    target: chess.BaseBoard, sensed: chess.BaseBoard
) -> tuple[tuple[PieceOn, ...], tuple[PieceOn, ...]]:
    """What the board lacks of `target` (missing) and what it has too much (extra)."""
    missing, extra = [], []
    for square in chess.SQUARES:
        want, have = target.piece_at(square), sensed.piece_at(square)
        if want == have:
            continue
        if want is not None:
            missing.append(PieceOn(square, want.symbol()))
        if have is not None:
            extra.append(PieceOn(square, have.symbol()))
    return tuple(missing), tuple(extra)


def run_board_drills(
    spec: str,
    pupil: str,
    language: str,
    read: Callable[[], str | None],
    out: TextIO,
    *,
    speed: float = 1.0,
    drills: tuple[Drill, ...] = DRILLS,
) -> Session:
    """Open the board `spec` (`dgt-sim`, `dgt:/dev/ttyUSB0`, ...), run the drills on it and
    close it; the session's results."""
    from arbiter.clock import MonotonicClock

    clock = MonotonicClock(speed=speed)
    board: Any
    if spec.endswith("-sim"):
        from arbiter.live.virtual_play import open_virtual_board

        board = open_virtual_board(spec, clock)
    else:
        from arbiter.inputs.board import BoardAdapter

        board = BoardAdapter(spec, clock)
    try:
        hands = VirtualHands(board, clock) if spec.endswith("-sim") else None
        teacher = BoardDrills(board, clock, read, out, language, hands)
        teacher.start()
        return teacher.run_drills(Session(pupil, language), drills)
    finally:
        board.close()
