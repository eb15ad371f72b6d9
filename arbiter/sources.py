"""Where a live session's time and inputs come from: its clock, and its input sources.

Every input of a live game (a clock button, a key, a line of a scripted stream, an e-board,
a camera) reaches the session through one small interface: a `Source` is started with an
`emit` callback (thread-safe: the session gives `queue.Queue.put`) and the session's clock,
and emits contract events (`rules.events`) or a few *intents* that only the session can turn
into events, because they depend on the game's state (the keyboard's "the player whose clock
runs presses", the pause button's toggle). A source that fails emits `SourceFailed`, so the
session stops with a clear message and never a traceback from a thread.

The sources here: `StreamSource` (a scripted stream file or stdin, played in real time),
`KeyboardSource` (single keys on a terminal, `KEYS`), `GpioSource` (the clock panel's
buttons, LEDs and buzzer, and a reed-switch board when the config has `[gpio.matrix]`),
`BoardAdapter` (an e-board, `firmware_bridge.source`) and `CameraSource` (a camera or a
video with its calibration, `vision`). GPIO, serial and OpenCV are imported lazily.

Time: live code never reads the wall clock. `MonotonicClock` maps `time.monotonic()` to the
stream's `t` (seconds since the game's `start`, events.md), optionally sped up (the demo);
tests inject a `FakeClock`.
"""

from __future__ import annotations

import os
import queue
import select
import stat
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import chess

from rules.errors import ArbiterError
from rules.events import Event, Start, Tick
from rules.rulings import ClockState, MoveStands, Obligation, Reinstate

if TYPE_CHECKING:
    from firmware_bridge.gpio.base import Pins
    from firmware_bridge.gpio.indications import PanelMode
    from firmware_bridge.gpio.panel import ClockPanel
    from firmware_bridge.gpio.pins import MatrixSettings, PinMap
    from firmware_bridge.gpio.reed_matrix import ReedMatrixSource
    from rules.rulings import Ruling


class SourceError(ArbiterError):
    """An input source cannot be opened or failed while the game ran."""


# ---------------------------------------------------------------------------- clocks


class Clock(Protocol):
    """The session's time base: stream seconds `t`, and the monotonic seconds behind them."""

    def now(self) -> float:
        """The stream time now (seconds since the game's `start`)."""

    def real_delay(self, dt: float) -> float:
        """How many real seconds `dt` stream seconds take (for waiting)."""

    def mono(self, t: float) -> float:
        """The monotonic time at which the stream reaches `t` (GPIO edges are stamped so)."""

    def stream(self, mono: float) -> float:
        """The stream time of the monotonic time `mono` (the inverse of `mono`)."""


class MonotonicClock:
    """`time.monotonic()` as stream time: t = (monotonic - origin) × speed.

    Args:
        t0: the stream time now (0 for a new game; the journal's last `t` on a resume, so
            that the clocks go on as they stood: events.md `restart`).
        speed: how much faster than real time the stream runs (1 for play; the demo's
            `--speed`).
        source: the monotonic clock (injectable for tests).
    """

    def __init__(
        self, t0: float = 0.0, *, speed: float = 1.0, source: Callable[[], float] = time.monotonic
    ) -> None:
        if not speed > 0:
            raise SourceError(f"the speed must be above 0, not {speed!r}")
        self.speed = speed
        self._source = source
        self.origin = source() - t0 / speed

    def now(self) -> float:
        return (self._source() - self.origin) * self.speed

    def real_delay(self, dt: float) -> float:
        return max(0.0, dt / self.speed)

    def mono(self, t: float) -> float:
        return self.origin + t / self.speed

    def stream(self, mono: float) -> float:
        return (mono - self.origin) * self.speed


class FakeClock:
    """A clock a test sets by hand (`set`, `advance`); stream time and monotonic time agree."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t
        self.origin = 0.0

    def now(self) -> float:
        return self.t

    def set(self, t: float) -> None:
        self.t = t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t

    def real_delay(self, dt: float) -> float:
        return max(0.0, dt)

    def mono(self, t: float) -> float:
        return t

    def stream(self, mono: float) -> float:
        return mono


# ---------------------------------------------------------------------------- intents


@dataclass(frozen=True, slots=True)
class KeyCommand:
    """A key the arbiter or a player pressed at stream time `t` (see `KEYS`)."""

    t: float
    key: str


@dataclass(frozen=True, slots=True)
class SourceFailed:
    """A source stopped on an error; the session ends with `message`."""

    message: str


@dataclass(frozen=True, slots=True)
class SourceDone:
    """A source will send nothing more (a stream file came to its end)."""

    name: str


#: keys of the keyboard source -> what they do (the keyboard stands in for the buttons)
KEYS: dict[str, str] = {
    " ": "the player whose clock runs presses it",
    "p": "pause or resume the clocks (arbiter, 6.11)",
    "c": "a claim of kind 'any' by the player having the move (9.2, 9.3)",
    "w": "add 60 s to White's clock (arbiter, 6.10-6.11)",
    "b": "add 60 s to Black's clock (arbiter)",
    "q": "stop; the journal stays, `arbiter resume` continues the game",
}

#: the keys in a line a screen can show
KEYS_HELP = "keys: space press  p pause/resume  c claim  w/b +60 s  q stop"

Emit = Callable[[Any], None]


# ---------------------------------------------------------------------------- sources


class Source(ABC):
    """An input of a live session; see the module docstring."""

    #: how the journal's `start.sources` names it (so `arbiter resume` can reopen it)
    name: str = ""
    #: it can come to an end (a file), after which it emits `SourceDone(name)`
    finite: bool = False

    @abstractmethod
    def start(self, emit: Emit, clock: Clock) -> None:
        """Begin emitting (from a thread or callbacks); returns at once."""

    def close(self) -> None:  # noqa: B027 - most sources need nothing
        """Stop emitting and release what the source holds."""


class StreamSource(Source):
    """A stream of contract events played in real time: each event at its own `t`.

    The script dates its events; the session waits until its clock reaches each event's
    `t`, so a scripted game runs as it would at the board, and runs the same every time.
    `tick` events are skipped (the live session's timer decides what time decides).
    On a resume, `skip_through(t, seen)` drops what the journal already holds.

    A *live* stream (a pipe, a FIFO, a terminal: `open` tells) brings each line when it
    happens, so while it waits for the next line nobody knows that line's time: the session's
    timers go on deciding meanwhile (a flag falls when the time runs out, a piece is released
    after `slide_s`), instead of waiting for the next line.
    """

    finite = True

    def __init__(
        self, events: Iterable[Event], name: str = "events:-", *, live: bool = False
    ) -> None:
        self.name = name
        self.live = live
        #: the `t` of the next event it will send (None once it has ended, or while a live
        #: stream waits for its next line): the session decides nothing by time at or after
        #: it before the event is in, so a script is ruled the same however the threads are
        #: scheduled
        self.horizon: float | None = None if live else 0.0
        self._events: Iterator[Event] = iter(events)
        self._first: Event | None = None
        self._skip_t: float | None = None
        self._skip_seen: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def open(cls, path: str) -> StreamSource:
        """The stream of the file at `path` ('-': standard input)."""
        from arbiter.stream import open_text, read_events

        handle = open_text(path)
        label = "stdin" if path == "-" else path
        name = "events:-" if path == "-" else f"events:{os.path.abspath(path)}"
        return cls(read_events(handle, label), name, live=_is_live(handle))

    def first_start(self) -> Start | None:
        """The stream's `start`, when it begins with one (taken out of the stream)."""
        try:
            first = next(self._events, None)
        except ArbiterError as exc:
            raise SourceError(str(exc)) from None
        if isinstance(first, Start):
            return first
        self._first = first
        return None

    def skip_through(self, t: float, seen: Iterable[Event]) -> None:
        """Drop events before `t`, and those at `t` that are among `seen` (the journal's)."""
        self._skip_t = t
        self._skip_seen = {e.to_json() for e in seen if e.t == t}

    def _skipped(self, event: Event) -> bool:
        if self._skip_t is None:
            return False
        if event.t < self._skip_t:
            return True
        return event.t == self._skip_t and event.to_json() in self._skip_seen

    def start(self, emit: Emit, clock: Clock) -> None:
        self._thread = threading.Thread(
            target=self._play, args=(emit, clock), name=self.name, daemon=True
        )
        self._thread.start()

    def _play(self, emit: Emit, clock: Clock) -> None:
        try:
            pending = [self._first] if self._first is not None else []
            events = _chain(pending, self._events)
            while True:
                if self.live:
                    self.horizon = None  # the next line comes when it happens
                event = next(events, None)
                if event is None:
                    break
                if isinstance(event, Start):
                    raise SourceError(f"{self.name}: a second 'start' event at t={event.t}")
                if isinstance(event, Tick) or self._skipped(event):
                    continue
                self.horizon = event.t
                while not self._stop.is_set():
                    wait = clock.real_delay(event.t - clock.now())
                    if wait <= 0:
                        break
                    self._stop.wait(wait)
                if self._stop.is_set():
                    return
                emit(event)
            self.horizon = None
            emit(SourceDone(self.name))
        except ArbiterError as exc:
            emit(SourceFailed(str(exc)))
        except OSError as exc:
            emit(SourceFailed(f"{self.name}: cannot be read ({exc.strerror or exc})"))

    def close(self) -> None:
        self._stop.set()


def _chain(first: list[Event], rest: Iterator[Event]) -> Iterator[Event]:
    yield from first
    yield from rest


def _is_live(handle: TextIO) -> bool:
    """Does `handle` bring its lines as they happen (not a regular file: a pipe, a FIFO, a
    terminal)? A file redirected to standard input is not live."""
    try:
        return not stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        return False  # no descriptor (a test's StringIO): its lines are all there


class KeyboardSource(Source):
    """Single keys from a terminal (cbreak mode, restored on close); see `KEYS`.

    Only for a TTY: without one there are no keys to read, and the display writes plain
    lines. A pipe wakes the reading thread on close, so it never polls.
    """

    name = "keyboard"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self._saved: Any = None
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None

    @staticmethod
    def usable(stream: TextIO | None = None) -> bool:
        """Is there a terminal to read keys from?"""
        s = stream if stream is not None else sys.stdin
        try:
            return s.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def start(self, emit: Emit, clock: Clock) -> None:
        import termios
        import tty

        fd = self.stream.fileno()
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(
            target=self._read, args=(fd, emit, clock), name="keyboard", daemon=True
        )
        self._thread.start()

    def _read(self, fd: int, emit: Emit, clock: Clock) -> None:
        while True:
            ready, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            data = os.read(fd, 32)
            if not data:
                return
            t = clock.now()
            for ch in data.decode("utf-8", errors="ignore"):
                key = ch.lower() if ch != " " else ch
                if key in KEYS:
                    emit(KeyCommand(t, key))

    def close(self) -> None:
        if self._wake_w >= 0:
            os.write(self._wake_w, b"x")
            if self._thread is not None:
                self._thread.join(timeout=1.0)
            os.close(self._wake_w)
            os.close(self._wake_r)
            self._wake_w = self._wake_r = -1
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None


class GpioSource(Source):
    """The clock panel on GPIO (firmware_bridge.gpio): buttons in, LEDs and buzzer out.

    The panel's buttons stamp each press at the interrupt with the back-end's monotonic
    clock; `origin` (the monotonic time of the stream's t=0) turns it into `t`. The panel's
    outputs follow the rulings under FIDE 12.6 (`firmware_bridge.gpio.indications`): the
    session calls `follow` with every step's rulings and `update` when `next_due` says.
    """

    def __init__(
        self,
        backend: str,
        pin_map: PinMap | None = None,
        mode: PanelMode | None = None,
        pins: Pins | None = None,
        matrix: MatrixSettings | None = None,
    ) -> None:
        self.backend = backend
        self.name = f"gpio:{backend}" + ("+matrix" if matrix is not None else "")
        self.pin_map = pin_map
        self.mode = mode
        if pins is None:  # now, so that a Pi without RPi.GPIO fails before a game begins
            from firmware_bridge.gpio.base import open_pins

            pins = open_pins(backend)
        self.pins: Pins = pins
        from firmware_bridge.gpio.indications import DEFAULT_MODE
        from firmware_bridge.gpio.panel import ClockPanel
        from firmware_bridge.gpio.pins import DEFAULT_PINS

        # the pins are claimed now too: a GPIO given twice fails before a game begins
        self.panel: ClockPanel | None = ClockPanel(
            pins, self._forward, pin_map or DEFAULT_PINS, mode=mode or DEFAULT_MODE
        )
        self._emit: Emit | None = None
        self._clock: Clock | None = None
        # a reed-switch board on the same pins, only when the config has [gpio.matrix]
        self.reed: ReedMatrixSource | None = None
        if matrix is not None:
            from firmware_bridge.gpio.pins import open_matrix_source

            self.reed = open_matrix_source(pins, pin_map or DEFAULT_PINS, matrix)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start_settings(self) -> dict[str, float]:
        """The reed board's sensor settings for the `start` (none without a board)."""
        return dict(self.reed.sensor_settings) if self.reed is not None else {}

    def _forward(self, item: Any) -> None:
        emit = self._emit
        if emit is not None:  # a press before the game began is nobody's move
            emit(item)

    def start(self, emit: Emit, clock: Clock) -> None:
        self._clock = clock
        if self.panel is not None:
            for button in self.panel.buttons:
                button.origin = clock.mono(0.0)  # edge times minus it are stream times
        self._emit = emit
        if self.reed is not None:
            self.reed.origin = clock.mono(0.0)
            self._thread = threading.Thread(
                target=self._scan, args=(clock,), name="reed-matrix", daemon=True
            )
            self._thread.start()

    def _scan(self, clock: Clock) -> None:
        """Scan the reed board at its rate (50 Hz) and send what the scans confirm."""
        reed = self.reed
        assert reed is not None
        try:
            while not self._stop.is_set():
                now = clock.mono(clock.now())
                for event in reed.step(now):
                    self._forward(event)
                due = reed.next_due if reed.next_due is not None else now
                self._stop.wait(max(0.0, clock.real_delay(clock.stream(due) - clock.now())))
        except ArbiterError as exc:
            self._forward(SourceFailed(f"{self.name}: the reed-switch board: {exc}"))

    def follow(self, rulings: list[Ruling], t: float) -> None:
        if self.panel is not None and self._clock is not None:
            self.panel.follow(rulings, self._clock.mono(t))

    def begin(self, running: str | None, t: float, history: list[Ruling] | None = None) -> None:
        """Show the clock that runs as the game starts; on a resume, also what `history`
        left standing (a fallen flag), without replaying its beeps."""
        if self.panel is None or self._clock is None:
            return
        from dataclasses import replace

        from firmware_bridge.gpio.indications import indications

        self.panel.begin(running, self._clock.mono(t))
        if history:
            self.panel.state = replace(self.panel.state.after(history), news=())
            self.panel.show(indications(self.panel.state, self.panel.mode), self._clock.mono(t))

    def update(self, t: float) -> None:
        if self.panel is not None and self._clock is not None:
            self.panel.update(self._clock.mono(t))

    def next_due(self, t: float) -> float | None:
        """The stream time of the panel's next output change, or None."""
        if self.panel is None or self._clock is None:
            return None
        due = self.panel.next_due(self._clock.mono(t))
        return None if due is None else max(t, self._clock.stream(due))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        if self.panel is not None and self._clock is not None:
            self.panel.close(self._clock.mono(self._clock.now()))
        self.pins.close()


class BoardAdapter(Source):
    """An e-board (`--board PROTOCOL:DEVICE`, firmware_bridge.source.BoardSource) as a source.

    The board source stamps its events on the session's clock (`clock.now`, so a sped-up
    demo clock stamps board events in the stream's time too); a thread hands them on. Its
    sensor settings go into the game's `start`.

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
                raise SourceError(
                    f"--clock-white is for a DGT 3000 clock on a DGT board (dgt:DEVICE), "
                    f"not for --board {spec}"
                )
            if clock_white not in ("left", "right"):
                raise SourceError(f"--clock-white must be left or right, not {clock_white!r}")
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
                raise SourceError(
                    f"--clock-white is for a DGT 3000 clock on a DGT board; the board found "
                    f"at {spec} is a {self.board.codec.name} board"
                )
            self.board.codec.clock_white = clock_white  # type: ignore[attr-defined]
        #: the bytes `follow` sent to the board, in order (for the display and tests)
        self.sent: list[bytes] = []
        #: a board not plugged in at the start is waited for (a resumed game), not an error
        self.wait_for_port = False
        self._stop = threading.Event()

    def start_settings(self) -> dict[str, float]:
        """`noise_s`, `slide_s`, `latency_s` for this board (events.md, Sensor settings)."""
        return self.board.start_settings()

    def start(self, emit: Emit, clock: Clock) -> None:
        self.board.start(wait=self.wait_for_port)
        threading.Thread(target=self._pump, args=(emit,), name=self.name, daemon=True).start()

    def _pump(self, emit: Emit) -> None:
        try:
            while not self._stop.is_set():
                for event in self.board.poll_events(0.2):
                    emit(event)
        except ArbiterError as exc:
            emit(SourceFailed(f"{self.name}: {exc}"))

    def has_leds(self) -> bool:
        """A board whose LEDs we may drive: Millennium, or a DGT Revelation II."""
        codec = self.board.codec
        if codec.name == "millennium":
            return True
        return codec.name == "dgt" and bool(getattr(codec, "revelation", False))

    def follow(self, rulings: list[Ruling], t: float) -> None:
        """Show on the board what `rulings` allow it to show (see the class docstring)."""
        for ruling in rulings:
            if isinstance(ruling, ClockState):
                running = None if ruling.paused else ruling.running
                self._send(_ClockTimes(ruling.white, ruling.black, running))
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
                self._send(_Leds(squares))

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
        self._stop.set()
        self.board.close()


#: a Millennium LED pattern: always on (eboard-protocols.md 2.3)
LED_ON = 0xFF


@dataclass(frozen=True, slots=True)
class _ClockTimes:
    """Our clock's times for a DGT 3000 on a DGT board, when the codec saw one (else none)."""

    white: float
    black: float
    running: str | None

    def __call__(self, codec: Any) -> bytes:
        if codec.name != "dgt" or not _dgt_clock_present(codec):
            return b""
        return bytes(codec.encode_clock_times(self.white, self.black, self.running))


def _dgt_clock_present(codec: Any) -> bool:
    """A DGT 3000 is on the board: it sent valid times (`clock_present`), or it answered the
    start-up's VERSION command and has not said "no clock" since."""
    if codec.clock_present is not None:
        return bool(codec.clock_present)
    return codec.clock_version is not None


@dataclass(frozen=True, slots=True)
class _Leds:
    """The LEDs of `squares` (Millennium: all four corners of each, steady)."""

    squares: list[str]

    def __call__(self, codec: Any) -> bytes:
        if codec.name == "millennium":
            return bytes(codec.encode_leds(dict.fromkeys(self.squares, LED_ON)))
        return bytes(codec.encode_leds(self.squares))


#: the contract's sensor settings for a camera (events.md: values to start from)
CAMERA_SETTINGS = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


def _expectation(fen: str) -> Any:
    """What the rules say may change next (vision.expectations), or None for a FEN without
    the side to move (then the tracker has no second opinion)."""
    from vision.errors import VisionError
    from vision.expectations import Expectation

    try:
        return Expectation.after(fen) if len(fen.split()) >= 2 else None
    except VisionError:
        return None


class CameraSource(Source):
    """A camera or a video file (vision.sources, vision.tracker) as a source of snapshots.

    Frames are stamped by their source from its first frame; the first frame is taken to be
    seen at the session time it arrived, and later ones keep their spacing. A video file is
    played at its own pace. The tracker turns still scenes into `snapshot` events.

    `follow` passes the position after each move that stands to the tracker, which learns
    the empty squares' looks from the frame of the snapshot that showed it
    (`SnapshotTracker.confirm`): light that drifts over a long game, and squares that held
    a piece at calibration, are then judged by what they looked like empty in this game.
    It also tells the tracker which squares a legal continuation can touch
    (`SnapshotTracker.expect`): another square read otherwise is reported only if it lasts.
    """

    def __init__(
        self, calibration: str, camera: int | str | None = None, video: str | None = None
    ) -> None:
        self.name = (
            f"camera:{camera}" if camera is not None else f"video:{os.path.abspath(video or '')}"
        )
        self.camera, self.video, self.calibration = camera, video, calibration
        self.finite = video is not None
        from vision.calibration import Calibration

        self.cal = Calibration.load(calibration)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: positions the rules accepted, for the tracker's thread to learn from
        self._confirmed: queue.SimpleQueue[str] = queue.SimpleQueue()
        #: how many confirmed positions taught the tracker (for the display and tests)
        self.learned = 0

    def start_settings(self) -> dict[str, Any]:
        return dict(CAMERA_SETTINGS)

    def start(self, emit: Emit, clock: Clock) -> None:
        from vision.sources import open_source

        frames = open_source(camera=self.camera, video=self.video)
        self._thread = threading.Thread(
            target=self._run, args=(frames, emit, clock), name=self.name, daemon=True
        )
        self._thread.start()

    def _run(self, frames: Iterator[tuple[float, Any]], emit: Emit, clock: Clock) -> None:
        from vision.tracker import SnapshotTracker

        tracker = SnapshotTracker(self.cal, known=self.cal.placement)
        offset: float | None = None
        try:
            for t, frame in frames:
                if self._stop.is_set():
                    return
                if offset is None:
                    offset = clock.now() - t
                wait = clock.real_delay(offset + t - clock.now())
                if wait > 0 and self._stop.wait(wait):
                    return
                while not self._confirmed.empty():
                    fen = self._confirmed.get_nowait()
                    self.learned += tracker.confirm(fen.split()[0])
                    tracker.expect(_expectation(fen))
                for event in tracker.feed(frame, t):
                    emit(_shifted(event, offset))
            emit(SourceDone(self.name))
        except ArbiterError as exc:
            emit(SourceFailed(f"{self.name}: {exc}"))
        finally:
            close = getattr(frames, "close", None)
            if callable(close):
                close()  # releases the capture in this thread, before the program ends

    def follow(self, rulings: list[Ruling], t: float) -> None:
        """Hand the position after the last move that stands to the tracker's thread."""
        fen = None
        for ruling in rulings:
            if isinstance(ruling, MoveStands | Reinstate):
                fen = ruling.fen
        if fen is not None:
            self._confirmed.put(fen)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)  # OpenCV must not be torn down mid-frame


def _shifted(event: Event, offset: float) -> Event:
    """`event` with its times (`t`, `seen_at`) moved by `offset` into session time."""
    import dataclasses

    changes: dict[str, Any] = {"t": max(0.0, event.t + offset)}
    seen_at = getattr(event, "seen_at", None)
    if seen_at is not None:
        changes["seen_at"] = max(0.0, seen_at + offset)
    return dataclasses.replace(event, **changes)  # type: ignore[type-var]


__all__ = [
    "CAMERA_SETTINGS",
    "KEYS",
    "KEYS_HELP",
    "BoardAdapter",
    "CameraSource",
    "Clock",
    "FakeClock",
    "GpioSource",
    "KeyCommand",
    "KeyboardSource",
    "MonotonicClock",
    "Source",
    "SourceDone",
    "SourceError",
    "SourceFailed",
    "StreamSource",
]
