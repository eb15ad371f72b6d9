"""Drills with a camera above an ordinary board (`arbiter teach --camera N|picam` or
`--video FILE`, with `--calibration FILE`): the same six situations as at the keyboard or
on an e-board, set up on the pieces, the pupil's hands read from the camera, judged by the
rules core in strict mode.

The camera is read as `arbiter play --camera` reads it (`arbiter.inputs.camera.CameraSource`:
the tracker reports each still scene that differs from the last one as a `snapshot`, with
colours only: X a white piece, x a black one). What that means for a drill:

1. **Set-up.** The pupil is told what to put where until the camera shows the drill's
   position; the camera sees colours, not kinds, so the pupil is reminded to check that each
   piece is the right one (the rules core then takes the position as the drill's).
2. **The situation.** A camera cannot see a finger on a piece, only a piece gone from its
   square: a touch is asked for as lifting the piece off the board until the camera has seen
   the square empty (a second is enough) and putting it back. The movements the camera's
   snapshots show (squares emptied, then squares filled) are checked against those asked for.
3. **The answer.** The pupil moves on the board and presses the clock: types the press word
   and Enter (the keyboard stands in for the clock; no GPIO button is read by the drills).
   The press waits the camera's `latency_s` for the reports of the move, as in a game; then
   the drill is judged as every drill (`drills.passed`), except that an open illegal position
   is not a fault: a camera that sees a piece lifted (a still scene without it) reports a
   position no move leads to, which the pupil's next scene corrects.

Everything reaches the drills through one queue: the camera's events (from its thread) and
the pupil's typed lines (from a reader thread), so a drill waits for whichever comes first.
Events stamped after the press's window belong to the next step and are kept for it.
"""

from __future__ import annotations

import dataclasses
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import chess

from arbiter.errors import SourceError
from arbiter.inputs.base import SourceDone, SourceFailed
from arbiter.teach.drills import (
    DRILLS,
    PRESS,
    Drill,
    DrillResult,
    Session,
    passed,
)
from arbiter.teach.on_board import (
    DO_THIS,
    MOVE_ON_BOARD,
    NOT_AS_ASKED,
    SET_UP,
    SET_UP_DONE,
    movement_steps,
    wanted_movements,
)
from arbiter.teach.runner import DrillsEnded, SensedDrills
from rules.events import Event, Press, Snapshot
from rules.game import Game
from rules.i18n import N_
from rules.messages import format_ruling
from rules.rulings import Illegal, Mismatch, PieceOn, Ruling
from rules.types import Side

if TYPE_CHECKING:
    from arbiter.clock import Clock
    from arbiter.inputs.camera import CameraSource

__all__ = ["CameraDrills", "camera_passed", "run_camera_drills"]

#: stream seconds the camera is watched before the first set-up is judged: a still scene
#: is reported after the tracker's still_s, or its patience_s when many squares differ (1 s)
FIRST_LOOK_S = 2.0
#: real seconds a camera that stopped sending frames is waited for past the clock
STALL_S = 5.0
#: real seconds a camera is given to send its first frame
OPEN_S = 10.0

TOUCH_ON_CAMERA = N_(
    "lift the piece on {square} off the board, hold it up until the camera has seen the"
    " square empty (a second), and put it back on {square}"
)
COLOURS_ONLY = N_(
    "The camera sees only where the white and the black pieces stand: check that each piece"
    " is the right one."
)
ANSWER_WITH_CAMERA = N_(
    "Make your move on the board, then press the clock: type {press} and Enter."
)


@dataclass(frozen=True, slots=True)
class _Line:
    """A line the pupil typed, at stream time `t`."""

    t: float
    text: str


class _EndOfInput:
    """The pupil's input came to its end."""


def camera_passed(rulings: list[Ruling]) -> bool:
    """`drills.passed`, with the open illegal positions a camera reports while a piece is
    off the board left out (see the module docstring); a completed illegal move still fails.
    """
    return passed(r for r in rulings if not (isinstance(r, Illegal) and not r.completed))


class CameraDrills(SensedDrills):
    """The drills of one pupil under one camera; see the module docstring.

    Args:
        source: the camera (started here, with the inbox as its `emit`).
        clock: the session's clock (the camera's events and the presses are on it).
        read: the pupil's next typed line (None: no more input); read on a thread.
        out: where the drills are said.
        language: the pupil's language.
        seen: the placement the camera reports from (its calibration's: the tracker reports
            only scenes that differ from it).
    """

    def __init__(
        self,
        source: CameraSource,
        clock: Clock,
        read: Callable[[], str | None],
        out: TextIO,
        language: str,
        seen: str,
    ) -> None:
        super().__init__(read, out, language, source.start_settings)
        self.source = source
        self.clock = clock
        self.seen = _colours(seen)
        self.inbox: queue.Queue[Any] = queue.Queue()
        #: items taken from the inbox that belong to a later step (stamped after a window)
        self.pending: deque[Any] = deque()
        #: the movements the camera showed since `moved` was last cleared: (lift|place, square)
        self.moved: list[tuple[str, str]] = []
        self.latency_s = float(source.start_settings().get("latency_s", 0.0))

    # ----------------------------------------------------------------- the inputs

    def start(self) -> None:
        """Start the camera and the reader of the pupil's lines."""
        self.source.start(self.inbox.put, self.clock)
        threading.Thread(target=self._read_lines, name="pupil", daemon=True).start()

    def _read_lines(self) -> None:
        while True:
            line = self.read()
            if line is None:
                self.inbox.put(_EndOfInput())
                return
            self.inbox.put(_Line(self.now(), line.strip()))

    def now(self) -> float:
        """The stream time of what the drills do (a typed press, a drill's start): the
        clock's; under a video, the moment of the video the camera has shown (the video is
        the board: a press goes with the scene on the screen, however far the camera's
        reading of the file is behind the clock)."""
        now = self.clock.now()
        seen = self.source.seen_until
        return min(now, seen) if self.source.finite and math.isfinite(seen) else now

    def _next(self, timeout: float | None = None, *, input_end: bool = False) -> Any:
        """The next item (a kept one first); None when `timeout` (real seconds) passed.
        `input_end`: the end of the pupil's input is returned (to be kept for later), not
        raised: what the camera saw before it still counts.

        Raises:
            DrillsEnded: the camera's video or the pupil's input ended.
            SourceError: the camera failed.
        """
        if self.pending:
            item = self.pending.popleft()
        else:
            try:
                item = self.inbox.get(timeout=timeout)
            except queue.Empty:
                return None
        if isinstance(item, SourceFailed):
            if item.error is not None:  # said in the user's language
                raise SourceError.of("{error}", error=item.error)
            raise SourceError(item.message)
        if isinstance(item, _EndOfInput) and input_end:
            return item
        if isinstance(item, SourceDone | _EndOfInput):
            raise DrillsEnded
        return item

    def _see(self, snapshot: Snapshot) -> None:
        """Follow the camera's view with `snapshot`: squares emptied, then squares filled."""
        now = _colours(snapshot.board)
        for square in chess.SQUARES:
            if self.seen[square] != "." and now[square] == ".":
                self.moved.append(("lift", chess.square_name(square)))
        for square in chess.SQUARES:
            if now[square] != "." and self.seen[square] != now[square]:
                self.moved.append(("place", chess.square_name(square)))
        self.seen = now

    # ----------------------------------------------------------------- one drill

    def set_up(self, drill: Drill) -> None:
        """Step 1: until the camera shows the drill's position (by colours)."""
        target = (chess.Board(drill.fen) if drill.fen else chess.Board()).board_fen()
        said: Mismatch | None = None
        while True:
            missing, extra = _differences(target, self.seen)
            if not missing and not extra:
                self._say(self._(SET_UP_DONE))
                return
            mismatch = Mismatch(t=self.now(), missing=missing, extra=extra)
            if said is None:
                self._say(self._(SET_UP))
                self._say(self._(COLOURS_ONLY))
            if said is None or (said.missing, said.extra) != (missing, extra):
                self._say("  " + format_ruling(mismatch, self.language))
                said = mismatch
            item = self._next()
            if isinstance(item, Snapshot):
                self._see(item)

    def situation(self, drill: Drill, game: Game) -> list[Ruling] | None:
        """Step 2: the situation's movements asked for, checked and ruled on by `game`;
        None if the camera showed other movements than those asked for."""
        wanted = wanted_movements(drill)
        if wanted:
            self._say(self._(DO_THIS))
            for kind, origin, target in movement_steps(drill):
                text = TOUCH_ON_CAMERA if kind == "touch" else MOVE_ON_BOARD
                self._say("  - " + self._(text).format(square=origin, origin=origin, target=target))
        self.moved.clear()
        rulings: list[Ruling] = []
        while len(self.moved) < len(wanted):
            item = self._next()
            if isinstance(item, Event):
                if isinstance(item, Snapshot):
                    self._see(item)
                rulings += _rule(game, item)
                if self.moved != wanted[: len(self.moved)]:
                    self._say(self._(NOT_AS_ASKED))
                    return None
        # what a camera reports while a piece is off the board is no fault of the pupil's
        return [r for r in rulings if not (isinstance(r, Illegal) and not r.completed)]

    def answer(self, drill: Drill, game: Game, side: Side, before: list[Ruling]) -> DrillResult:
        """Step 3: the pupil's move and press, judged with the situation's rulings."""
        press_words = {PRESS, self._(PRESS).lower()}
        self._say(self._(ANSWER_WITH_CAMERA).format(press=self._(PRESS)))
        rulings: list[Ruling] = list(before)
        self.moved.clear()
        while True:
            item = self._next()
            if isinstance(item, Event):
                if isinstance(item, Snapshot):
                    self._see(item)
                rulings += _rule(game, item)
            elif isinstance(item, _Line) and item.text.lower() in press_words:
                rulings += _rule(game, Press(t=item.t, side=side))
                rulings += self._window(game, item.t + self.latency_s)
                answer = ", ".join(f"{what} {square}" for what, square in self.moved) or item.text
                return DrillResult(drill.name, answer, camera_passed(rulings), tuple(rulings))

    def _window(self, game: Game, until: float) -> list[Ruling]:
        """The camera's reports up to stream time `until` (the press's latency window),
        ruled on by `game`; later ones are kept for the next step."""
        rulings: list[Ruling] = []
        later: list[Any] = []

        def take(item: Any) -> None:
            nonlocal rulings
            if isinstance(item, Event) and item.t <= until:
                if isinstance(item, Snapshot):
                    self._see(item)
                rulings += _rule(game, item)
            else:
                later.append(item)

        try:
            self._watch(until, take)
        except DrillsEnded:
            later.append(SourceDone("camera"))
        self.pending.extend(later)
        return rulings + game.advance(max(until, game.t))

    def _watch(self, until: float, take: Callable[[Any], None]) -> None:
        """Hand `take` every item until the camera has looked at the board up to stream
        time `until` (`CameraSource.seen_until`: a camera a moment behind the clock, as on a
        busy Pi, is waited for), or `STALL_S` real seconds after the clock passed it.

        Raises:
            DrillsEnded: the video ended (the end of the input goes to `take`).
        """
        give_up: float | None = None
        while self.source.seen_until < until:
            now = self.clock.now()
            if now >= until:
                give_up = give_up if give_up is not None else time.monotonic() + STALL_S
                if time.monotonic() > give_up:
                    return
            wait = self.clock.real_delay(until - now) if now < until else 0.02
            item = self._next(timeout=max(0.01, wait), input_end=True)
            if item is not None:
                take(item)

    def first_look(self) -> None:
        """Let the camera look at the board for `FIRST_LOOK_S` from its first frame before
        the first set-up is judged: its tracker reports a scene only when it differs from the
        calibration's, so silence means the calibration's placement only once it had time
        to speak."""

        later: list[Any] = []

        def take(item: Any) -> None:
            if isinstance(item, Snapshot):
                self._see(item)
            elif isinstance(item, _EndOfInput):
                later.append(item)

        opened = time.monotonic() + OPEN_S
        while not math.isfinite(self.source.seen_until) and time.monotonic() < opened:
            item = self._next(timeout=0.02)  # the camera is opening (a video, a warm-up)
            if item is not None:
                take(item)
        first = self.source.seen_until
        self._watch((first if math.isfinite(first) else self.clock.now()) + FIRST_LOOK_S, take)
        self.pending.extend(later)

    def run(self, session: Session, drills: tuple[Drill, ...] = DRILLS) -> Session:
        """Run the drills until the input or the video ends; the results go to `session`.

        A camera that fails ends the drills with its message; the drills done so far are
        kept (the summary is still saved)."""
        try:
            self.first_look()
            self.run_drills(session, drills)
        except DrillsEnded:
            pass  # the video or the input ended during the first look
        except SourceError as exc:
            from arbiter.i18n import error_text

            self._say(error_text(exc, self.language))
        return session


def _rule(game: Game, event: Event) -> list[Ruling]:
    """`game`'s rulings on `event`; an event stamped before the last one ruled (a camera's
    report that arrives after a press stamped later: the tracker's frames are a moment
    behind the keyboard) is ruled at the last one's time, as a live session does (the press
    waits `latency_s` for the report)."""
    if event.t < game.t:
        event = dataclasses.replace(event, t=game.t)  # type: ignore[type-var]
    return game.handle(event)


def _colours(placement: str) -> list[str]:
    """A placement (letters, X/x, ?) as 64 states by square index: '.', 'X', 'x' or '?'."""
    from vision.placement import to_grid

    grid = to_grid(placement)
    return [grid[7 - chess.square_rank(sq)][chess.square_file(sq)] for sq in chess.SQUARES]


def _differences(target: str, seen: list[str]) -> tuple[tuple[PieceOn, ...], tuple[PieceOn, ...]]:
    """What the camera's view lacks of `target` (its pieces) and what it has too much."""
    want = chess.BaseBoard(target)
    colours = _colours(target)
    missing, extra = [], []
    for square in chess.SQUARES:
        if colours[square] == seen[square]:
            continue
        piece = want.piece_at(square)
        if piece is not None:
            missing.append(PieceOn(square, piece.symbol()))
        if seen[square] != ".":
            extra.append(PieceOn(square, seen[square]))
    return tuple(missing), tuple(extra)


def run_camera_drills(
    source: CameraSource,
    pupil: str,
    language: str,
    read: Callable[[], str | None],
    out: TextIO,
    *,
    clock: Clock | None = None,
    drills: tuple[Drill, ...] = DRILLS,
) -> Session:
    """Run the drills under the camera `source` and close it; the session's results.

    `clock`: the session's clock (default: real time from now)."""
    from arbiter.clock import MonotonicClock

    clock = clock or MonotonicClock()
    teacher = CameraDrills(source, clock, read, out, language, source.cal.placement)
    try:
        teacher.start()
        return teacher.run(Session(pupil, language), drills)
    finally:
        source.close()
