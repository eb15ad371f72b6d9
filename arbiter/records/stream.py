"""The one JSON Lines reader of event streams and journals, with file and line in every error.

Every command that reads events (`replay`, `pgn`, `resume`, `play --events`, `play
--journal`) reads them here, so that every fault is told the same way and none escapes as a
traceback: a line that is not UTF-8 (named by its line and the byte within it), a line longer
than `MAX_LINE_BYTES`, JSON nested too deeply, a number too large for a float, a UTF-8 byte
order mark on the first line (skipped). Lines are read as bytes one at a time, so every event
before a bad line has been yielded: nothing already read is lost.

A crash or a power cut can tear the last line of a journal (`torn`): such a line may be
tolerated, with a warning, by the readers that ask for it. A live source (`arbiter play
--events`) skips every bad line instead (`skip`): it is told what line and why, and the game
goes on with the lines after it (issue 17 item 2; `arbiter.inputs.stream`).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal, cast

from arbiter.errors import StreamFileError
from arbiter.i18n import Localized, Said, gettext
from rules.errors import ArbiterError, EventError
from rules.events import Event, parse_line
from rules.i18n import N_
from rules.library_reasons import reason_of

#: The longest line read (a `start` with a FEN, names and settings is well under 2 KB).
MAX_LINE_BYTES = 1 << 20
BOM = b"\xef\xbb\xbf"

#: What to do with a torn line (not UTF-8, or not JSON: what a crash leaves): "error" stops
#: there; "tail" lets the last line of the input be torn (warned); "any" skips every torn
#: line with a warning (the journal reader: journals resumed by older versions keep one).
TornPolicy = Literal["error", "tail", "any"]
Warn = Callable[[str], None]
#: told of a bad line a live reader skips: its number, and the error naming file, line, fault
Skip = Callable[[int, EventError], None]


#: what a file to read is, for the error of a folder given instead
A_STREAM_FILE = N_("a stream file")
A_CAPTURE = N_("a capture")


def open_stream(
    path: str, *, what: str = A_STREAM_FILE, error: type[ArbiterError] = StreamFileError
) -> BinaryIO:
    """Open a file for reading as bytes ('-' is standard input), with a clear `error` naming
    it as `what` (a message id: `A_STREAM_FILE`, `A_CAPTURE`) when it is missing, a folder or
    unreadable."""
    if path == "-":
        return _stdin()
    p = Path(path)
    if not p.exists():
        raise error.of(N_("{path}: no such file"), path=path)
    if p.is_dir():
        said = Localized(lambda language: gettext(what, language))
        raise error.of(N_("{path}: is a folder, not {what}"), path=path, what=said)
    try:
        return p.open("rb")
    except OSError as exc:
        raise error.of(
            N_("{path}: cannot be read ({reason})"), path=path, reason=reason_of(exc)
        ) from None


def _stdin() -> BinaryIO:
    """Standard input as bytes. A pipe or a terminal is read unbuffered: a reading thread
    blocked in a buffered reader holds its lock, and Python aborts at exit over it."""
    try:
        if stat.S_ISREG(os.fstat(sys.stdin.fileno()).st_mode):
            return sys.stdin.buffer
        return cast(BinaryIO, open(sys.stdin.fileno(), "rb", buffering=0, closefd=False))
    except (AttributeError, OSError, ValueError):
        return sys.stdin.buffer


#: a fault of one line of a file, with the file's name and the line's number
LINE_FAULT = N_("{file}: line {line}: {fault}")
#: the warning for a torn line that is skipped
TORN_LINE = N_("{file}: line {line} was cut short by a crash ({fault}) and is ignored")


def torn_fault(raw: bytes) -> str | None:
    """Why the line `raw` looks torn by a crash (not UTF-8, or cut JSON), or None."""
    fault = torn_error(raw)
    return None if fault is None else str(fault)


def torn_error(raw: bytes) -> EventError | None:
    """`torn_fault` as an error of ours, which the command says in the user's language."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return EventError.of(
            N_("not UTF-8 text ({reason} at byte {byte} of the line)"),
            reason=reason_of(exc),
            byte=exc.start + 1,
        )
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return EventError.of(N_("not valid JSON ({reason})"), reason=reason_of(exc))
    except (ValueError, RecursionError):
        return None  # whole JSON, but a value out of range: a fault, not a tear
    return None


@dataclass
class ReadPlace:
    """Where `read_events` stands: the line of the event it yielded last, and whether it
    stopped at a fault of its own (its error names file and line already)."""

    line: int = 0
    failed: bool = False

    def locate(self, exc: ArbiterError, name: str) -> EventError:
        """An error the rules found in the event read last (a `start` whose FEN is no legal
        position, a second `start`, an unreadable `set_position`), naming the file and that
        event's line as the reader's own errors do (issue 17 D13)."""
        if self.line == 0:
            return EventError.of(N_("{file}: {error}"), file=name, error=exc)
        return EventError.of(LINE_FAULT, file=name, line=self.line, fault=exc)


def read_events(
    handle: BinaryIO,
    name: str = "stream",
    *,
    torn: TornPolicy = "error",
    warn: Warn | None = None,
    place: ReadPlace | None = None,
    skip: Skip | None = None,
) -> Iterator[Event]:
    """Events of a JSON Lines stream; blank lines are skipped.

    Raises EventError naming `name`, the line number and the fault; events before it have
    already been yielded. `torn` and `warn` say what becomes of a line torn by a crash.
    `place`, if given, is kept at the line of the event yielded last (`ReadPlace`).
    `skip`, if given, is told of every bad line instead (torn or not, too long, not an event,
    dated before the event before it), and reading goes on after it: a live game's source.
    A failure to read the file at all is raised still.
    """
    try:
        for number, event in _read(handle, name, torn, warn, skip):
            if place is not None:
                place.line = number
            yield event
    except ArbiterError:
        if place is not None:
            place.failed = True
        raise


def _read(
    handle: BinaryIO, name: str, torn: TornPolicy, warn: Warn | None, skip: Skip | None = None
) -> Iterator[tuple[int, Event]]:
    last_t: float | None = None
    lines = _numbered_lines(handle, name, skipping=skip is not None)
    for number, raw in lines:
        try:
            if isinstance(raw, EventError):
                raise raw  # a line too long to be an event
            if not raw.strip():
                continue
            event = _event_of(raw, number, name, torn, warn, lines)
            if event is None:
                continue  # a torn line tolerated, with its warning
            _check_order(event, last_t, number, name)
        except EventError as exc:
            if skip is None:
                raise
            skip(number, exc)
            continue
        last_t = event.t
        yield number, event


def _event_of(
    raw: bytes,
    number: int,
    name: str,
    torn: TornPolicy,
    warn: Warn | None,
    lines: Iterator[tuple[int, bytes | EventError]],
) -> Event | None:
    """The event of line `number`, or None for a torn line `torn` tolerates (warned)."""
    fault = torn_error(raw)
    if fault is not None:
        if torn == "any" or (torn == "tail" and _only_blank_after(lines)):
            if warn is not None:
                warn(Said(EventError.of(TORN_LINE, file=name, line=number, fault=fault)))
            return None
        raise EventError.of(LINE_FAULT, file=name, line=number, fault=fault)
    return _parse(raw, number, name)


def _check_order(event: Event, last_t: float | None, number: int, name: str) -> None:
    """Times must not run backwards (events.md)."""
    if last_t is not None and event.t < last_t:
        raise EventError.of(
            N_(
                "{file}: line {line}: t={t} comes before the previous event's"
                " t={before} (times must not run backwards)"
            ),
            file=name,
            line=number,
            t=event.t,
            before=last_t,
        )


def _parse(raw: bytes, number: int, name: str) -> Event:
    try:
        return parse_line(raw.decode("utf-8"), line=number)
    except EventError as exc:
        raise EventError.of(N_("{file}: {error}"), file=name, error=exc) from None
    except (ValueError, OverflowError, RecursionError, MemoryError) as exc:
        reason = reason_of(exc)  # nesting and too many digits in our words
        raise EventError.of(
            N_("{file}: line {line}: cannot be read ({reason})"),
            file=name,
            line=number,
            reason=reason,
        ) from None


def _only_blank_after(lines: Iterator[tuple[int, bytes | EventError]]) -> bool:
    """Is the rest of the input blank? (Consumes it; called only before stopping there.)"""
    return all(isinstance(raw, bytes) and not raw.strip() for _, raw in lines)


def _numbered_lines(
    handle: BinaryIO, name: str, *, skipping: bool = False
) -> Iterator[tuple[int, bytes | EventError]]:
    """The lines of `handle` as bytes, numbered from 1. A line longer than `MAX_LINE_BYTES`
    is an error: raised, or (`skipping`) read to its end a block at a time, never held
    whole, and given in its place."""
    number = 0
    while True:
        try:
            raw = handle.readline(MAX_LINE_BYTES + 1)
        except OSError as exc:
            raise StreamFileError.of(
                N_("{path}: cannot be read ({reason})"), path=name, reason=reason_of(exc)
            ) from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            too_long = EventError.of(
                N_("{file}: line {line}: longer than {limit} bytes; not an event"),
                file=name,
                line=number,
                limit=MAX_LINE_BYTES,
            )
            if not skipping:
                raise too_long
            _read_past_line(handle, name)
            yield number, too_long
            continue
        if number == 1 and raw.startswith(BOM):
            raw = raw[len(BOM) :]
        yield number, raw


def _read_past_line(handle: BinaryIO, name: str) -> None:
    """Read on to the end of the line being read (a block at a time), or of the input."""
    while True:
        try:
            rest = handle.readline(MAX_LINE_BYTES)
        except OSError as exc:
            raise StreamFileError.of(
                N_("{path}: cannot be read ({reason})"), path=name, reason=exc.strerror or exc
            ) from None
        if not rest or rest.endswith(b"\n"):
            return
