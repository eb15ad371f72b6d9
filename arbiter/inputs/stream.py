"""A scripted stream of contract events (a file or standard input) as a live source."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterable, Iterator
from typing import IO, Any

from arbiter.clock import Clock
from arbiter.errors import SourceError
from arbiter.inputs.base import BadLine, Emit, Source, SourceDone, SourceFailed
from arbiter.records.stream import ReadPlace
from rules.errors import ArbiterError, EventError
from rules.events import Event, Sensor, Start, Tick
from rules.i18n import N_
from rules.library_reasons import reason_of

#: the rules' own words for a second `start` (rules.game), said with the file and line
SECOND_START = N_("a second 'start' event in the same stream")
#: the longest `detail` of a `bad_line` note in the journal (a fault may quote the line)
MAX_DETAIL = 400


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

    A line of a file opened here that cannot be read (not UTF-8, not JSON, nested too deeply,
    too long, a number out of range, a field of the wrong type, a time running backwards, a
    second `start`) does not end the game (issue 17 item 2): it is sent as a `BadLine`, whose
    `sensor` `bad_line` note is dated at the `t` of the line read before it (so the journal
    and a resume agree on it), and the game goes on with the lines after it and the other
    inputs. Only the first line, read before the game (`first_start`), still stops there.
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
        #: how many `bad_line` notes the journal holds at `_skip_t` (a resume drops as many)
        self._skip_notes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: where `emit` sends a bad line's note once started (before: the line is an error)
        self._emit: Emit | None = None
        #: the `t` of the last line read as an event (a bad line's note is dated there)
        self._read_t = 0.0
        #: the file's name in messages, and the line of the event read last (`open` only)
        self._label = name
        self._place: ReadPlace | None = None

    @classmethod
    def open(cls, path: str) -> StreamSource:
        """The stream of the file at `path` ('-': standard input); its bad lines are skipped
        once the game has begun (see the class docstring)."""
        from arbiter.records.stream import open_stream, read_events

        handle = open_stream(path)
        label = "stdin" if path == "-" else path
        name = "events:-" if path == "-" else f"events:{os.path.abspath(path)}"
        source = cls([], name, live=_is_live(handle))
        source._label, source._place = label, ReadPlace()
        source._events = read_events(handle, label, place=source._place, skip=source._bad_line)
        return source

    def _bad_line(self, number: int, error: EventError) -> None:
        """A line that cannot be read: an error before the game, else a `BadLine` sent."""
        emit = self._emit
        if emit is None:
            raise error  # the first line, read before the game: the game cannot start
        t = self._read_t
        if self._skip_t is not None and (
            t < self._skip_t or (t == self._skip_t and self._skip_notes > 0)
        ):
            if t == self._skip_t:
                self._skip_notes -= 1
            return  # a resume: the journal holds its note already
        detail = str(error)
        if len(detail) > MAX_DETAIL:
            detail = detail[: MAX_DETAIL - 3] + "..."
        emit(BadLine(Sensor(t=t, status="bad_line", detail=detail), error))

    def first_start(self) -> Start | None:
        """The stream's `start`, when it begins with one (taken out of the stream)."""
        try:
            first = next(self._events, None)
        except ArbiterError as exc:
            raise SourceError.of("{error}", error=exc) from None  # said as `exc` is
        if isinstance(first, Start):
            self._read_t = first.t
            return first
        self._first = first
        return None

    def skip_through(self, t: float, seen: Iterable[Event]) -> None:
        """Drop events before `t`, and those at `t` that are among `seen` (the journal's)."""
        self._skip_t = t
        at_t = [e for e in seen if e.t == t]
        self._skip_seen = {e.to_json() for e in at_t}
        self._skip_notes = sum(isinstance(e, Sensor) and e.status == "bad_line" for e in at_t)

    def _skipped(self, event: Event) -> bool:
        if self._skip_t is None:
            return False
        if event.t < self._skip_t:
            return True
        return event.t == self._skip_t and event.to_json() in self._skip_seen

    def start(self, emit: Emit, clock: Clock) -> None:
        self._emit = emit
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
                    if self._place is None:  # a stream of our own (a demo's): a fault of ours
                        raise SourceError.of(
                            N_("{name}: a second 'start' event at t={t}"),
                            name=self.name,
                            t=event.t,
                        )
                    second = EventError.of(SECOND_START)
                    line = self._place.line
                    self._bad_line(line, self._place.locate(second, self._label))
                    continue
                self._read_t = event.t
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
