"""The journal: every input event of a game, appended to a JSON Lines file as it happens.

The journal is the single source of truth of a game: each event is written, flushed and
fsynced before the rules see it, so a crash or a power cut loses nothing already ruled on.
Replaying the journal rebuilds the position, the clocks and every ruling.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TextIO

from arbiter.errors import JournalError
from rules.errors import EventError
from rules.events import Event, Restart, Start, parse_line


class JournalWriter:
    """Appends events to a journal file, one line each, fsynced per event."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle: TextIO = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot be opened ({exc.strerror})") from None
        self._needs_newline = self._ends_without_newline()

    def _ends_without_newline(self) -> bool:
        try:
            size = self.path.stat().st_size
            if size == 0:
                return False
            with self.path.open("rb") as f:
                f.seek(size - 1)
                return f.read(1) != b"\n"
        except OSError:
            return False

    def append(self, event: Event) -> None:
        """Write one event durably (flush + fsync) before it is ruled on."""
        line = event.to_json() + "\n"
        if self._needs_newline:
            line = "\n" + line  # a line cut by a crash stays on its own, never glued to ours
            self._needs_newline = False
        try:
            self._handle.write(line)
            self._handle.flush()
            if self.fsync:
                os.fsync(self._handle.fileno())
        except OSError as exc:
            raise JournalError(f"journal {self.path}: cannot be written ({exc.strerror})") from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._handle.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_journal(path: str | os.PathLike[str]) -> tuple[list[Event], list[str]]:
    """The events of a journal, and warnings for what a crash left unreadable.

    A journal is written by us, so a bad line can only be the last one, cut by a crash or a
    power loss: it is skipped with a warning. A bad line in the middle is an error naming it.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise JournalError(f"journal {p}: cannot be read ({exc.strerror})") from None
    lines = text.split("\n")
    events: list[Event] = []
    warnings: list[str] = []
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            event = parse_line(line, line=i + 1)
        except EventError as exc:
            if i == last:
                warnings.append(
                    f"journal {p}: the last line ({i + 1}) was cut short and is ignored"
                )
                break
            if _looks_cut(line):
                warnings.append(
                    f"journal {p}: line {i + 1} was cut short by a crash and is ignored"
                )
                continue
            raise JournalError(f"journal {p}: {exc}") from None
        if events and event.t < events[-1].t:
            raise JournalError(
                f"journal {p}: line {i + 1}: t={event.t} comes before t={events[-1].t}"
            )
        events.append(event)
    if not events or not isinstance(events[0], Start):
        raise JournalError(f"journal {p}: it does not begin with a 'start' event")
    return events, warnings


def _looks_cut(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return True
    return False


def restart_event(last_t: float, gap_s: float | None = None, counted: bool = False) -> Restart:
    """The `restart` that continues a journal after a crash (events.md `restart`)."""
    t = last_t + (gap_s if counted and gap_s is not None else 0.0)
    return Restart(t=t, gap_s=gap_s, counted=counted)
