"""`BoardSource`: an e-board as a source of contract events for a live session.

It owns the transport and the codec of a `--board PROTOCOL:DEVICE` (`auto:` detects the
protocol first; a Bluetooth LE protocol's DEVICE is an address, opened by `BleTransport`),
runs the transport in a background thread, and hands on the events it decoded, stamped in the
session's time: the transport's clock is `clock() - zero`, where `zero` is the session's t = 0
on the same monotonic clock. A live session gives `start` a `deliver` callback, called by
the reading thread after every step (one thread per board, no queue between); without one
the events wait in a queue for `poll_events(max_wait)` (tools and tests that pull them).
The stream includes `sensor` events: `dropped` (garbage), `disconnected` and `reconnected`
(a pulled cable; the rules reconcile the next full report). `start_settings()` gives the
sensor settings the board's events need in the stream's `start` event.

Writing to the board (LEDs, clock commands) goes through `send`, which is thread-safe.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from firmware_bridge.capture import CaptureWriter
from firmware_bridge.codecs.base import Codec
from firmware_bridge.errors import DetectionError, TransportError
from firmware_bridge.registry import AUTO, codec_for, link_kind, parse_board_spec
from firmware_bridge.transport import LinkTransport, SerialTransport, detect_protocol
from rules.events import Event
from rules.i18n import Counted, Joined
from rules.library_reasons import reason_of

__all__ = ["BoardSource", "Deliver", "choose_board"]

#: what a live session gives `BoardSource.start`: called on the reading thread with the
#: events of each step (an empty list when none came)
Deliver = Callable[[list[Event]], None]

#: the error of a board whose reading failed, as a template of `ArbiterError.of`: the
#: `arbiter` command says it in the user's language (arbiter/i18n.py `DEVICE_ERRORS`)
READ_FAILED = "reading the board on {device} failed: {reason}"
#: `--board auto` found no board, or several (`choose_board`)
NO_BOARD_FOUND = "--board auto: no board found"
NO_BOARD_FOUND_NOTES = "--board auto: no board found; {notes}"
SEVERAL_BOARDS = "--board auto: {boards} found ({specs}): name one with --board"
#: `SEVERAL_BOARDS`'s `{boards}` (`Nn_` forms, marked in arbiter/i18n.py DEVICE_COUNTED)
BOARDS = ("{count} board", "{count} boards", "count")


def choose_board() -> tuple[str, str]:
    """The protocol and device of the one board found on USB, serial and Bluetooth LE
    (`--board auto`); unknown serial ports are asked what they are.

    Raises:
        DetectionError: none found, or more than one (the message lists them and says what
            could not be searched).
    """
    from firmware_bridge.discovery import discover
    from firmware_bridge.registry import parse_board_spec

    found = discover(probe=True)
    specs = [board.spec for board in found.boards if board.spec is not None]
    if not specs and found.notes:  # the notes say what could not be searched
        raise DetectionError.of(NO_BOARD_FOUND_NOTES, notes=Joined(found.notes))
    if not specs:
        raise DetectionError.of(NO_BOARD_FOUND)
    if len(specs) > 1:
        raise DetectionError.of(
            SEVERAL_BOARDS, boards=Counted(BOARDS, len(specs)), specs=", ".join(specs)
        )
    protocol, device = parse_board_spec(specs[0])
    if protocol == AUTO:
        protocol = detect_protocol(device)
    return protocol, device


class BoardSource:
    """A board's events, read in a background thread; see the module docstring.

    Args:
        spec: `PROTOCOL:DEVICE`, e.g. `dgt:/dev/ttyACM0`, `auto:/dev/ttyUSB0`, `dgt:loop://`.
            `auto:` runs the detection here, in the constructor (up to about 5 s on a port
            where no board answers, then `DetectionError`); `auto` alone takes the one board
            found on USB, serial and Bluetooth LE (`choose_board`).
        calibration: Certabo: the calibration file (with `auto:`, used only if the board
            found is a Certabo).
        capture_path: where to record every byte read and written (JSON Lines, 0.1).
        clock: the monotonic clock (injected for tests).
        zero: the session's t = 0 on `clock` (default: now). Events are stamped `clock() - zero`.
        codec_options: passed to the codec (e.g. `clock_white='right'` for DGT).
        step_s: the longest the reading thread waits for bytes before it runs the codec's
            timers (real seconds).
    """

    def __init__(
        self,
        spec: str,
        *,
        calibration: str | Path | None = None,
        capture_path: str | Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        zero: float | None = None,
        codec_options: dict[str, Any] | None = None,
        step_s: float = 0.02,
    ) -> None:
        self.spec = spec
        self.protocol, self.device = parse_board_spec(spec)
        self._clock = clock
        self.zero = clock() if zero is None else zero
        self._capture = CaptureWriter(capture_path) if capture_path is not None else None
        self.step_s = step_s
        try:
            if self.protocol == AUTO and not self.device:
                self.protocol, self.device = choose_board()
            if self.protocol == AUTO:
                self.protocol = detect_protocol(
                    self.device, clock=self.session_time, capture=self._capture
                )
                if self.protocol != "certabo":
                    calibration = None  # another board needs none (it may be a camera's)
            self.codec: Codec = codec_for(
                self.protocol, calibration=calibration, **(codec_options or {})
            )
            self.transport: LinkTransport
            if link_kind(self.protocol) == "ble":
                from firmware_bridge.ble.transport import BleTransport

                self.transport = BleTransport(
                    self.device,
                    self.codec,
                    protocol=self.protocol,
                    clock=self.session_time,
                    capture=self._capture,
                )
            elif link_kind(self.protocol) == "hid":
                from firmware_bridge.hid_transport import HidTransport

                self.transport = HidTransport(
                    self.device, self.codec, clock=self.session_time, capture=self._capture
                )
            else:
                self.transport = SerialTransport(
                    self.device, self.codec, clock=self.session_time, capture=self._capture
                )
        except BaseException:
            self._close_capture()
            raise
        self._queue: queue.Queue[Event] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None
        self._deliver: Deliver | None = None
        self._failed: Callable[[TransportError], None] | None = None
        self._early: list[Event] = []  # a `disconnected` before the thread runs (`wait`)

    def session_time(self) -> float:
        """Seconds since the session's zero (never below 0)."""
        return max(0.0, self._clock() - self.zero)

    def start_settings(self) -> dict[str, float]:
        """The sensor settings (`noise_s`, `slide_s`, `latency_s`) for the stream's `start`."""
        return dict(self.codec.sensor_settings)

    # -- running ------------------------------------------------------------------------

    def start(
        self,
        *,
        wait: bool = False,
        deliver: Deliver | None = None,
        failed: Callable[[TransportError], None] | None = None,
    ) -> BoardSource:
        """Open the port and start reading.

        A port that cannot be opened is an error now, unless `wait`: then a `disconnected`
        event comes first and the port is tried again with back-off, as after a pulled
        cable (a resumed game whose board is not plugged in yet).

        With `deliver`, the reading thread calls `deliver(events)` after every step (at
        least every `step_s`, with an empty list when nothing came, so the receiver can run
        its own timers on the same thread), and `failed(error)` once if reading fails; no
        event goes to the queue of `poll_events`.
        """
        if self._thread is not None:
            return self
        self._deliver, self._failed = deliver, failed
        try:
            self.transport.open()
        except TransportError as exc:
            if not wait:
                self._close_capture()
                raise
            self._early = self.transport.open_later(exc)
        except BaseException:
            self._close_capture()
            raise
        self._thread = threading.Thread(target=self._run, name=f"board-{self.protocol}")
        self._thread.daemon = True
        self._thread.start()
        return self

    def _run(self) -> None:
        events, self._early = self._early, []
        try:
            while True:
                if self._deliver is not None:
                    self._deliver(events)
                else:
                    for event in events:
                        self._queue.put(event)
                if self._stop.is_set():
                    return
                events = self.transport.step(self.step_s)
        except BaseException as exc:  # handed on by `failed` or by poll_events
            self._failure = exc
            if self._failed is not None:
                self._failed(self._failure_error())

    def _failure_error(self) -> TransportError:
        reason = reason_of(self._failure or EOFError())  # set before this is called
        error = TransportError.of(READ_FAILED, device=self.device, reason=reason)
        error.__cause__ = self._failure
        return error

    def poll_events(self, max_wait: float = 0.0) -> list[Event]:
        """The events decoded since the last call, waiting up to `max_wait` s for the first.

        Raises:
            TransportError: the reading thread failed (the cause is chained); the events it
                decoded before were returned by earlier calls or come first here.
        """
        out: list[Event] = []
        with contextlib.suppress(queue.Empty):
            out.append(
                self._queue.get(timeout=max_wait) if max_wait > 0 else self._queue.get_nowait()
            )
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if not out and self._failure is not None:
            raise self._failure_error()
        return out

    def __iter__(self) -> Iterator[Event]:
        """Events as they come, until `close`."""
        while not self._stop.is_set():
            yield from self.poll_events(0.1)

    def send(self, data: bytes) -> None:
        """Write bytes to the board (an LED or clock command) from any thread."""
        self.transport.send(data)

    def send_encoded(self, make: Callable[[Codec], bytes]) -> None:
        """Write what `make(codec)` encodes, encoded in the reading thread (from any thread):
        for commands that touch the codec's state, such as the DGT 3000's queue."""
        self.transport.send_encoded(make)

    def close(self) -> None:
        """Stop reading, close the port and the capture."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self.transport.close()
        self._close_capture()

    def _close_capture(self) -> None:
        if self._capture is not None:
            self._capture.close()

    def __enter__(self) -> BoardSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
