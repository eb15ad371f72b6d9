"""An e-board (`firmware_bridge.source.BoardSource`) as a live source, and its feedback."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import chess

from arbiter.clock import Clock
from arbiter.errors import SourceError
from arbiter.inputs.base import Emit, Source, SourceFailed
from arbiter.inputs.line_noise import NoiseFilter
from arbiter.outputs.board_feedback import ClockTimes, Leds
from rules.errors import ArbiterError
from rules.events import Event, Lift, Place, Snapshot
from rules.i18n import N_
from rules.rulings import ClockState, MoveStands, Obligation

if TYPE_CHECKING:
    from rules.rulings import Ruling

#: on a resumed game, how long (stream seconds) the board's lifts and places are held back
#: waiting for its first full report before they are passed on after all
STALE_HOLD_S = 3.0
#: the protocols whose LEDs show 12.6 feedback (`follow`); Certabo's and Chessnut's LEDs
#: are not driven for it
FEEDBACK_BOARDS = ("millennium", "dgt")


class BoardAdapter(Source):
    """An e-board (`--board PROTOCOL:DEVICE`, firmware_bridge.source.BoardSource) as a source.

    The board source stamps its events on the session's clock (`clock.now`, so a sped-up
    demo clock stamps board events in the stream's time too) and hands them, on its one
    reading thread, to `_take`, which filters them and emits them to the session. Its
    sensor settings go into the game's `start`.

    After a restart (`after_restart`, set by `arbiter resume`) the port may hold changes the
    board sent while nobody read it (a USB-serial chip's buffer, a pseudo-terminal); they
    arrive all at once, stamped with the time they are read, ahead of the full report the
    start-up asks for. That report shows where they led, and the rules reconcile it with the
    game (events.md, `reconnected`), so the lifts and places read before it are set aside
    (`stale`) rather than ruled as touches made now. If no full report comes within
    `STALE_HOLD_S`, they are passed on after all, in order.

    Line noise goes through a `NoiseFilter` first: one drop report a second, and no board
    dump that only repeats the board while the line is noisy (issue 17, D8).

    It also writes to the board what the rulings say (`follow`), where the board can show it:

    * Board feedback (FIDE 12.6): only with `feedback` (strict mode or `--feedback`), the
      square of a touch-move obligation and the squares of the last move light on a board
      with LEDs (Millennium; a DGT board identified as a Revelation II). In the default mode
      nothing is sent: no light may tell a player that the opponent has moved.
    * A DGT 3000 clock on a DGT board (the codec saw its status): our clock is the clock of
      record, so every `clock` ruling's times are sent to it (`encode_clock_times`).

    Args:
        spec: `PROTOCOL:DEVICE`.
        clock: the session's clock.
        calibration: Certabo's calibration file (ignored by other protocols: `--calibration`
            may be the camera's; with `auto:`, used if the board found is a Certabo).
        capture: where to record what the board sends and receives (eboard-protocols.md 0.1).
        clock_white: DGT: which side of the DGT 3000, seen from its front, is White's.
        feedback: the board may show obligations and moves (see above).
    """

    def __init__(
        self,
        spec: str,
        clock: Clock,
        calibration: str | None = None,
        *,
        capture: str | None = None,
        clock_white: str | None = None,
        feedback: bool = False,
    ) -> None:
        from firmware_bridge.registry import AUTO, parse_board_spec
        from firmware_bridge.source import BoardSource

        protocol, _ = parse_board_spec(spec)
        options: dict[str, Any] = {}
        if clock_white is not None:
            if protocol not in ("dgt", "revelation", AUTO):
                raise SourceError.of(
                    N_(
                        "--clock-white is for a DGT 3000 clock on a DGT board (dgt:DEVICE),"
                        " not for --board {spec}"
                    ),
                    spec=spec,
                )
            if clock_white not in ("left", "right"):
                raise SourceError.of(
                    N_("--clock-white must be left or right, not {value!r}"), value=clock_white
                )
            if protocol != AUTO:
                options["clock_white"] = clock_white
        self.name = f"board:{spec}"
        self.feedback = feedback
        self.board = BoardSource(
            spec,
            calibration=calibration if protocol in ("certabo", AUTO) else None,
            capture_path=capture,
            clock=clock.now,
            zero=0.0,
            codec_options=options,
        )
        if clock_white is not None and protocol == AUTO:
            # the protocol is known only now, after the detection
            if self.board.codec.name != "dgt":
                self.board.close()
                raise SourceError.of(
                    N_(
                        "--clock-white is for a DGT 3000 clock on a DGT board; the board found"
                        " at {spec} is a {protocol} board"
                    ),
                    spec=spec,
                    protocol=self.board.codec.name,
                )
            self.board.codec.clock_white = clock_white  # type: ignore[attr-defined]
        #: the bytes `follow` sent to the board, in order (for the display and tests)
        self.sent: list[bytes] = []
        #: a board not plugged in at the start is waited for (a resumed game), not an error
        self.wait_for_port = False
        #: a resumed game: changes read before the board's first full report are stale
        self.after_restart = False
        #: stale lifts and places set aside after a restart (for the display and tests)
        self.stale: list[Event] = []
        #: line noise: one drop report a second, no repeated dumps (D8)
        self.noise = NoiseFilter()
        self._emit: Emit | None = None
        self._waiting = False  # for the first full report after a restart
        self._held: list[Event] = []  # lifts and places read while `_waiting`

    def start_settings(self) -> dict[str, float]:
        """`noise_s`, `slide_s`, `latency_s` for this board (events.md, Sensor settings)."""
        return self.board.start_settings()

    def start(self, emit: Emit, clock: Clock) -> None:
        self._emit = emit
        self._waiting = self.after_restart
        self.board.start(wait=self.wait_for_port, deliver=self._take, failed=self._failed)

    def _take(self, reads: list[Event]) -> None:
        """The board's events of one reading step (called on its reading thread, every
        `step_s` at least): noise merged (D8), stale changes after a restart set aside."""
        assert self._emit is not None
        emit = self._emit
        now = self.board.session_time()
        events = self.noise.flush(now)
        for read in reads:
            events += self.noise.take(read, now)
        held = self._held
        for event in events:
            if not self._waiting:
                emit(event)
            elif isinstance(event, Snapshot):
                self._waiting = False
                self.stale.extend(held)
                held.clear()
                emit(event)
            elif isinstance(event, Lift | Place):
                held.append(event)
            else:
                emit(event)
        if held and now - held[0].t > STALE_HOLD_S:
            self._waiting = False  # no full report came: the changes are all there is
            for event in held:
                emit(event)
            held.clear()

    def _failed(self, error: ArbiterError) -> None:
        if self._emit is not None:
            self._emit(SourceFailed.on(self.name, error))

    def has_leds(self) -> bool:
        """A board whose LEDs we may drive: Millennium, or a DGT Revelation II (the codec
        declares `has_leds`; a DGT board's codec only when it is a Revelation II)."""
        codec = self.board.codec
        return codec.has_leds and codec.name in FEEDBACK_BOARDS

    def follow(self, rulings: list[Ruling], t: float) -> None:
        """Show on the board what `rulings` allow it to show (see the class docstring)."""
        for ruling in rulings:
            if isinstance(ruling, ClockState):
                running = None if ruling.paused else ruling.running
                self._send(ClockTimes(ruling.white, ruling.black, running))
            if not self.feedback or not self.has_leds():
                continue  # FIDE 12.6: in the default mode the board shows nothing
            squares: list[str] = []
            match ruling:
                case Obligation(square=square) if square is not None:
                    squares = [chess.square_name(square)]
                case MoveStands(move=move):
                    squares = [
                        chess.square_name(move.from_square),
                        chess.square_name(move.to_square),
                    ]
            if squares:
                self._send(Leds(squares))

    def _send(self, command: Callable[[Any], bytes]) -> None:
        """Have the reading thread encode and write `command` (codecs are not thread-safe).

        Best effort: a board unplugged for a moment misses a light, not the game; what was
        written is kept in `sent`.
        """

        def make(codec: Any) -> bytes:
            try:
                data = command(codec)
            except ArbiterError:
                return b""
            if data:
                self.sent.append(data)
            return data

        try:
            self.board.send_encoded(make)
        except (ArbiterError, OSError):
            return

    def close(self) -> None:
        self.board.close()
