"""A scripted stream of contract events (a file or standard input) as a live source."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterable, Iterator
from typing import IO, Any

from arbiter.clock import Clock
from arbiter.errors import SourceError
from arbiter.inputs.base import Emit, Source, SourceDone, SourceFailed
from rules.errors import ArbiterError
from rules.events import Event, Start, Tick
from rules.i18n import N_
from rules.library_reasons import reason_of


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
        from arbiter.records.stream import open_stream, read_events

        handle = open_stream(path)
        label = "stdin" if path == "-" else path
        name = "events:-" if path == "-" else f"events:{os.path.abspath(path)}"
        return cls(read_events(handle, label), name, live=_is_live(handle))

    def first_start(self) -> Start | None:
        """The stream's `start`, when it begins with one (taken out of the stream)."""
        try:
            first = next(self._events, None)
        except ArbiterError as exc:
            raise SourceError.of("{error}", error=exc) from None  # said as `exc` is
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
                    raise SourceError.of(
                        N_("{name}: a second 'start' event at t={t}"), name=self.name, t=event.t
                    )
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
            emit(SourceFailed(str(exc), exc))
        except OSError as exc:
            error = SourceError.of(
                N_("{path}: cannot be read ({reason})"), path=self.name, reason=reason_of(exc)
            )
            emit(SourceFailed(str(error), error))
        except Exception as exc:  # the game must end with a message, never hang (D2)
            emit(SourceFailed(f"{self.name}: stopped ({type(exc).__name__}: {exc})"))

    def close(self) -> None:
        self._stop.set()


def _chain(first: list[Event], rest: Iterator[Event]) -> Iterator[Event]:
    yield from first
    yield from rest


def _is_live(handle: IO[Any]) -> bool:
    """Does `handle` bring its lines as they happen (not a regular file: a pipe, a FIFO, a
    terminal)? A file redirected to standard input is not live."""
    try:
        return not stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):
        return False  # no descriptor (a test's StringIO): its lines are all there
