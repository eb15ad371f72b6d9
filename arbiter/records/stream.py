"""Reading event streams and journals from files, with line numbers in every error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from arbiter.errors import StreamFileError
from rules.errors import EventError
from rules.events import Event, parse_line


def open_text(path: str) -> TextIO:
    """Open a stream file for reading ('-' is standard input), with a clear error."""
    if path == "-":
        return sys.stdin
    p = Path(path)
    if not p.exists():
        raise StreamFileError(f"{path}: no such file")
    if p.is_dir():
        raise StreamFileError(f"{path}: is a folder, not a stream file")
    try:
        return p.open(encoding="utf-8", newline="")
    except OSError as exc:
        raise StreamFileError(f"{path}: cannot be read ({exc.strerror})") from None


def read_events(handle: TextIO, name: str = "stream") -> Iterator[Event]:
    """Events of a JSON Lines stream; blank lines are skipped.

    Raises EventError naming `name`, the line number and the fault; events before it have
    already been yielded, so nothing already read is lost.
    """
    last_t: float | None = None
    for number, raw in enumerate(_lines(handle, name), start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            event = parse_line(text, line=number)
        except EventError as exc:
            raise EventError(f"{name}: {exc}") from None
        if last_t is not None and event.t < last_t:
            raise EventError(
                f"{name}: line {number}: t={event.t} comes before the previous event's"
                f" t={last_t} (times must not run backwards)"
            )
        last_t = event.t
        yield event


def _lines(handle: TextIO, name: str) -> Iterator[str]:
    try:
        yield from handle
    except UnicodeDecodeError as exc:
        raise EventError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
