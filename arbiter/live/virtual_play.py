"""`arbiter play --board dgt-sim`: a live game by hand on a virtual e-board (no hardware).

A virtual board of the protocol (`firmware_bridge.virtual.VirtualBoard`, one of the demo's
`SIM_BOARDS`) sits behind a pseudo-terminal; the session reads it through the real codec and
serial path (`VirtualBoardAdapter`, a `BoardAdapter`), as it reads a real board. The player's
hands are typed commands (`arbiter.live.commands`): `e2e4` lifts and puts down the pieces of
the move on the virtual board, then presses the clock; `lift e2` / `place e4` are single hand
movements, for the touch rules (4.3-4.7). Other commands (press, claims, offers, the
arbiter's actions) go to the session, which turns them into contract events.

`CommandSource` reads the commands: from a terminal a line at a time in cbreak mode (the line
being typed shows on the screen's last line; a space on an empty line presses the clock at
once), from a pipe line by line. A hand movement waits until the board has reported it
through the serial path before the next one, and movements are paced by the board's own
sensor settings (`noise_s`, `slide_s`, `latency_s`), so commands piped in at once play as a
person at the board would, never merged into one movement or into the opponent's move.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import chess

from arbiter.clock import Clock
from arbiter.errors import SourceError
from arbiter.inputs.base import Emit, KeyCommand, Notice, Source, SourceFailed, Typed
from arbiter.inputs.board import BoardAdapter
from arbiter.inputs.terminal import TerminalReader, is_terminal
from arbiter.live.commands import (
    HAND_NEEDS_BOARD,
    CommandError,
    HandMove,
    HandStep,
    PressCmd,
    parse_command,
)
from rules.errors import ArbiterError
from rules.events import Event, Lift, Place, Snapshot
from rules.i18n import N_
from rules.library_reasons import reason_of

#: real seconds a hand movement may take to come back through the serial path
ECHO_TIMEOUT_S = 10.0
#: stream seconds added to the board's `noise_s`/`slide_s` between two hand movements, and
#: to its `latency_s` after a press, so that no two movements are read as one
MARGIN_S = 0.15
#: what the screen says when the virtual board does not do or report a hand movement
LIFT_REFUSED = N_("the board could not lift on {square}")
PLACE_REFUSED = N_("the board could not place on {square}")
LIFT_UNREPORTED = N_("the board did not report the lift on {square}")
PLACE_UNREPORTED = N_("the board did not report the place on {square}")


class VirtualBoardAdapter(BoardAdapter):
    """The `BoardAdapter` of a virtual board: the same serial path, and it counts the events
    it hands on, so that a hand movement can wait until the board has reported it."""

    def __init__(self, virtual: Any, spec: str, clock: Clock, calibration: str | None) -> None:
        super().__init__(spec, clock, calibration)
        self.virtual = virtual
        #: the events handed on so far, in order
        self.delivered: list[Event] = []
        self._seen = threading.Condition()

    def start(self, emit: Emit, clock: Clock) -> None:
        def counting(item: Any) -> None:
            emit(item)
            if isinstance(item, Event):
                with self._seen:
                    self.delivered.append(item)
                    self._seen.notify_all()

        super().start(counting, clock)
        self.virtual.start()  # after the port is open: the board answers the start-up

    def wait_report(
        self,
        square: str | None,
        since: int,
        timeout: float = ECHO_TIMEOUT_S,
        occupied: bool | None = None,
    ) -> bool:
        """Wait (real seconds) until an event after the first `since` reports `square` (a
        lift or place there, or a whole-board report showing the square `occupied` or empty
        as the movement left it: a report the board made before the movement does not count;
        None: any event); True if one did."""

        def shows(event: Event) -> bool:
            if square is None:
                return True
            if isinstance(event, Snapshot):
                return occupied is None or _occupied(event.board, square) == occupied
            return getattr(event, "square", None) == square

        def reported() -> bool:
            return any(shows(e) for e in self.delivered[since:])

        with self._seen:
            return self._seen.wait_for(reported, timeout)

    def wait_event(
        self, wanted: Callable[[Event], bool], since: int, timeout: float = ECHO_TIMEOUT_S
    ) -> bool:
        """Wait (real seconds) until an event after the first `since` is `wanted`."""
        with self._seen:
            return self._seen.wait_for(
                lambda: any(wanted(e) for e in self.delivered[since:]), timeout
            )

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.virtual.close()


def _occupied(placement: str, square: str) -> bool:
    """Whether a board report's placement (FEN letters, digits, X/x, ?) has a piece on
    `square`."""
    rows = placement.split()[0].split("/")
    file, rank = ord(square[0]) - ord("a"), int(square[1])
    if len(rows) != 8 or not 1 <= rank <= 8:
        return False
    column = 0
    for char in rows[8 - rank]:
        if char.isdigit():
            column += int(char)
            if column > file:
                return False
        elif column == file:
            return True
        else:
            column += 1
    return False


def open_virtual_board(
    sim: str, clock: Clock, placement: str | None = None, *, speed: float = 1.0
) -> VirtualBoardAdapter:
    """The virtual board `sim` (`dgt-sim`, ...) with the pieces of `placement` (a resumed
    game's; default the start position), read back through the real serial path. Its device
    lives in a private temporary folder, removed on close. `speed`: the board's own pace (a
    Certabo's records come `speed` times as often)."""
    from firmware_bridge.errors import VirtualBoardError
    from firmware_bridge.virtual import VirtualBoard

    protocol = sim.removesuffix("-sim")
    try:
        virtual = VirtualBoard(
            protocol, placement=placement or chess.STARTING_BOARD_FEN, speed=speed
        )
    except VirtualBoardError as exc:
        raise SourceError.of(N_("--board {sim}: {error}"), sim=sim, error=exc) from None
    try:
        calibration = None
        if protocol == "certabo":
            calibration = str(Path(virtual.path).parent / "certabo-calibration.json")
            virtual.save_calibration(calibration)
        return VirtualBoardAdapter(
            virtual, f"{virtual.board_protocol}:{virtual.path}", clock, calibration
        )
    except BaseException:
        virtual.close()
        raise


def hand_steps(placement: str, uci: str) -> list[Lift | Place]:
    """The lifts and places of a hand playing `uci` on the pieces of `placement` (t = 0):
    a captured piece lifted first (en passant: the pawn beside), the rook of a castling
    after the king, a promoted pawn put down as its new piece (a queen unless named).

    Raises:
        CommandError: no piece stands on the move's first square.
    """
    board = chess.BaseBoard(placement)
    move = chess.Move.from_uci(uci)
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise CommandError.of(
            N_("{move}: there is no piece on {square}"),
            move=uci,
            square=chess.square_name(move.from_square),
        )
    steps: list[Lift | Place] = []
    taken = board.piece_at(move.to_square)
    file_change = chess.square_file(move.to_square) - chess.square_file(move.from_square)
    if taken is not None:
        steps.append(Lift(t=0, square=chess.square_name(move.to_square), piece=taken.symbol()))
    elif piece.piece_type == chess.PAWN and file_change != 0:
        beside = chess.square(
            chess.square_file(move.to_square), chess.square_rank(move.from_square)
        )
        victim = board.piece_at(beside)
        if victim is not None:
            steps.append(Lift(t=0, square=chess.square_name(beside), piece=victim.symbol()))
    steps.append(Lift(t=0, square=chess.square_name(move.from_square), piece=piece.symbol()))
    letter = piece.symbol()
    last_rank = chess.square_rank(move.to_square) in (0, 7)
    if piece.piece_type == chess.PAWN and last_rank:
        kind = move.promotion or chess.QUEEN
        letter = chess.Piece(kind, piece.color).symbol()
    steps.append(Place(t=0, square=chess.square_name(move.to_square), piece=letter))
    if piece.piece_type == chess.KING and abs(file_change) == 2:
        rank = chess.square_rank(move.from_square)
        rook_from, rook_to = (7, 5) if file_change > 0 else (0, 3)
        rook = "R" if piece.color == chess.WHITE else "r"
        steps.append(Lift(t=0, square=chess.square_name(chess.square(rook_from, rank)), piece=rook))
        steps.append(Place(t=0, square=chess.square_name(chess.square(rook_to, rank)), piece=rook))
    return steps


class Hand:
    """Plays hand commands on a virtual board, one movement at a time, each waited for.

    Args:
        board: the virtual board's adapter.
        pause: waits the given stream seconds (real time in play; a test's fake clock moves).
    """

    def __init__(self, board: VirtualBoardAdapter, pause: Callable[[float], None]) -> None:
        self.board = board
        self.pause = pause
        settings = board.start_settings()
        self.step_s = max(settings.get("noise_s", 0.0), settings.get("slide_s", 0.0)) + MARGIN_S
        self.reply_s = settings.get("latency_s", 0.0) + MARGIN_S
        self._held: list[str] = []

    def move(self, uci: str) -> None:
        """`e2e4`: every movement of the move, on the pieces the board holds now."""
        for step in hand_steps(self.board.virtual.placement(), uci):
            self._movement(step)
        self._held.clear()  # a captured piece is set aside, not put down again

    def step(self, cmd: HandStep) -> None:
        """`lift e2` / `place e4 [q]`."""
        virtual = self.board.virtual
        piece_now = chess.BaseBoard(virtual.placement()).piece_at(chess.parse_square(cmd.square))
        if cmd.kind == "lift":
            if piece_now is None:
                raise CommandError.of(
                    N_("lift {square}: there is no piece on {square}"), square=cmd.square
                )
            self._movement(Lift(t=0, square=cmd.square, piece=piece_now.symbol()))
            return
        if not self._held:
            raise CommandError.of(
                N_("place {square}: no piece is in the hand (lift one first)"), square=cmd.square
            )
        letter = self._held[-1]
        if cmd.piece is not None:
            letter = cmd.piece.upper() if letter.isupper() else cmd.piece
        if piece_now is not None:
            raise CommandError.of(
                N_("place {square}: {square} is occupied; lift that first"), square=cmd.square
            )
        self._movement(Place(t=0, square=cmd.square, piece=letter))

    def after_press(self) -> None:
        """Wait as long as the board may take to report a move after its press."""
        self.pause(self.reply_s)

    def _movement(self, event: Lift | Place) -> None:
        virtual = self.board.virtual
        before, skipped = len(self.board.delivered), len(virtual.skipped)
        virtual.act(event)
        if len(virtual.skipped) > skipped:
            message = LIFT_REFUSED if event.type == "lift" else PLACE_REFUSED
            raise CommandError.of(message, square=event.square)
        if not self.board.wait_report(event.square, before, occupied=isinstance(event, Place)):
            message = LIFT_UNREPORTED if event.type == "lift" else PLACE_UNREPORTED
            raise CommandError.of(message, square=event.square)
        if isinstance(event, Lift) and event.piece:
            self._held.append(event.piece)
        elif isinstance(event, Place) and self._held:
            promoted = event.piece not in self._held
            self._held.remove(self._held[-1] if promoted else event.piece)  # type: ignore[arg-type]
        self.pause(self.step_s)


def real_pause(clock: Clock) -> Callable[[float], None]:
    """Wait `dt` stream seconds of `clock` in real time."""
    return lambda dt: time.sleep(clock.real_delay(dt))


class CommandSource(Source):
    """Typed commands (`arbiter.live.commands`) from a terminal or a pipe, see the module
    docstring. The end of a pipe stops the session (the journal stays resumable).

    Args:
        hand: plays the hand commands on the virtual board (None: they are refused).
        stream: where the commands come from (standard input by default).
        pause: how to wait stream seconds (default: real time of the session's clock).
        prompt: shows the line being typed (a terminal), e.g. the display's footer.
    """

    name = "commands"

    def __init__(
        self,
        hand_board: VirtualBoardAdapter | None,
        stream: TextIO | None = None,
        *,
        pause: Callable[[float], None] | None = None,
        prompt: Callable[[str], None] | None = None,
    ) -> None:
        self.board = hand_board
        self.stream = stream if stream is not None else sys.stdin
        self.pause = pause
        self.prompt = prompt
        self.tty = False
        self._reader = TerminalReader(self.stream)

    def start(self, emit: Emit, clock: Clock) -> None:
        pause = self.pause or real_pause(clock)
        hand = Hand(self.board, pause) if self.board is not None else None
        self.tty = is_terminal(self.stream)
        self._reader = TerminalReader(self.stream)  # the stream may be set after __init__
        self._reader.start(lambda: self._run(emit, clock, hand), name=self.name, cbreak=self.tty)

    def _run(self, emit: Emit, clock: Clock, hand: Hand | None) -> None:
        try:
            if self.board is not None and not self.board.wait_report(None, 0):
                raise CommandError.of(
                    N_("the virtual board did not report its pieces at the start")
                )
            for line in self._lines():
                self.perform(line, emit, clock, hand)
            emit(KeyCommand(clock.now(), "q"))  # the pipe ended: stop, resumable
        except ArbiterError as exc:
            error = SourceError.of(N_("typed commands: {error}"), error=exc)
            emit(SourceFailed(str(error), error))
        except OSError as exc:
            error = SourceError.of(
                N_("typed commands: reading them failed ({reason})"), reason=reason_of(exc)
            )
            emit(SourceFailed(str(error), error))

    def perform(self, line: str, emit: Emit, clock: Clock, hand: Hand | None) -> None:
        """Do one typed line: hand movements here, the rest handed to the session."""
        try:
            cmd = parse_command(line)
            if isinstance(cmd, HandMove | HandStep):
                if hand is None:
                    raise CommandError.of(HAND_NEEDS_BOARD)
                if isinstance(cmd, HandStep):
                    hand.step(cmd)
                    return
                hand.move(cmd.uci)
                emit(Typed(clock.now(), "press"))
                hand.after_press()
                return
        except CommandError as exc:
            emit(Notice(str(exc), exc))
            return
        emit(Typed(clock.now(), line))
        if isinstance(cmd, PressCmd) and hand is not None:
            hand.after_press()

    def _lines(self) -> Any:
        if self.tty:
            yield from self._typed_lines()
            return
        buffer = b""
        for data in self._reader.chunks(4096):
            buffer += data
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                text = raw.decode("utf-8", errors="replace")
                if text.strip() and not text.lstrip().startswith("#"):
                    yield text
        if self._reader.ended and buffer.strip():  # a last line without its newline
            yield buffer.decode("utf-8", errors="replace")

    def _typed_lines(self) -> Any:
        """A terminal in cbreak mode: keys make a line (shown by `prompt`); Enter ends it;
        a space on an empty line is a press at once; Backspace edits."""
        line = ""
        for data in self._reader.chunks(64):
            for ch in data.decode("utf-8", errors="ignore"):
                if ch in "\r\n":
                    text, line = line, ""
                    self._show(line)
                    yield text if text.strip() else "press"
                elif ch == " " and not line:
                    yield "press"
                elif ch in ("\x7f", "\b"):
                    line = line[:-1]
                elif ch == "\x15":  # Ctrl-U: the whole line
                    line = ""
                elif ch.isprintable():
                    line += ch
                self._show(line)

    def _show(self, line: str) -> None:
        if self.prompt is not None:
            self.prompt(line)

    def close(self) -> None:
        self._reader.close()
