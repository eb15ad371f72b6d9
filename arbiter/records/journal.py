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
from arbiter.records.stream import MAX_LINE_BYTES, read_events, torn_fault
from rules.errors import EventError
from rules.events import Event, Restart, Start
from rules.i18n import N_
from rules.library_reasons import reason_of


class JournalWriter:
    """Appends events to a journal file, one line each, fsynced per event."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            new = not self.path.exists()
            # created 0666 less the umask, like any file the user makes (docs/journal.md)
            self._handle: TextIO = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise JournalError.of(
                N_("journal {path}: cannot be opened ({reason})"),
                path=self.path,
                reason=reason_of(exc),
            ) from None
        if new and fsync:
            fsync_folder(self.path.parent)  # else a power cut may lose the new file's name
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
            raise JournalError.of(
                N_("journal {path}: cannot be written ({reason})"),
                path=self.path,
                reason=reason_of(exc),
            ) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._handle.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_journal(path: str | os.PathLike[str]) -> tuple[list[Event], list[str]]:
    """The events of a journal, and warnings for what a crash left unreadable.

    A journal is written by us, so a torn line (not UTF-8, or cut JSON) can only be one a
    crash cut: it is skipped with a warning (one in the middle is what an older version left
    when it resumed such a journal). Any other bad line is an error naming it. The reader is
    the one of every stream (`arbiter.records.stream`): no fault escapes as a traceback.
    """
    p = Path(path)
    warnings: list[str] = []
    try:
        handle = p.open("rb")
    except OSError as exc:
        raise JournalError.of(
            N_("journal {path}: cannot be read ({reason})"), path=p, reason=reason_of(exc)
        ) from None
    with handle:
        first = handle.readline(MAX_LINE_BYTES + 1)  # a longer one is the reader's to refuse
        whole = len(first) <= MAX_LINE_BYTES
        if whole and not _begins_a_journal(first, only_line=not handle.read(1).strip()):
            raise JournalError.of(
                N_("journal {path}: it does not begin with a 'start' event"), path=p
            )
        handle.seek(0)
        try:
            events = list(read_events(handle, f"journal {p}", torn="any", warn=warnings.append))
        except EventError as exc:
            raise JournalError.of("{error}", error=exc) from None  # said as `exc` is
    if not events:
        raise JournalError.of(N_("journal {path}: it holds no event (no game to resume)"), path=p)
    if not isinstance(events[0], Start):
        raise JournalError.of(N_("journal {path}: it does not begin with a 'start' event"), path=p)
    return events, warnings


def repair_torn_tail(path: str | os.PathLike[str]) -> Path | None:
    """Move the journal's last line aside if a crash tore it; the file it went to, or None.

    The torn bytes go to `NAME.torn-N` beside the journal (first free N; kept, never lost),
    and the journal is cut back to its last whole line, both fsynced; so the journal a game
    goes on with holds only whole lines, and `arbiter pgn`/`replay` read it to the end. A
    journal whose only line was torn (a power cut while `start` was written) becomes empty:
    it holds no game.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise JournalError.of(
            N_("journal {path}: cannot be read ({reason})"), path=p, reason=reason_of(exc)
        ) from None
    body = data.rstrip(b" \t\r\n")
    cut = body.rfind(b"\n") + 1  # where the last non-blank line begins
    if not body or torn_fault(body[cut:]) is None or not _a_journal(body, cut):
        return None
    n = 1
    while (target := p.with_name(f"{p.name}.torn-{n}")).exists():
        n += 1
    try:
        with target.open("xb") as f:
            f.write(data[cut:])
            f.flush()
            os.fsync(f.fileno())
        with p.open("r+b") as f:
            f.truncate(cut)
            f.flush()
            os.fsync(f.fileno())
        fsync_folder(p.parent)
    except OSError as exc:
        raise JournalError.of(
            N_("journal {path}: its torn last line cannot be moved to {target} ({reason})"),
            path=p,
            target=target,
            reason=reason_of(exc),
        ) from None
    return target


def _a_journal(body: bytes, cut: int) -> bool:
    """Is `body` (a file's bytes, its last line beginning at `cut`) a game's journal, whose
    last line a crash may have torn? See `_begins_a_journal`."""
    end = body.find(b"\n")
    return _begins_a_journal(body[: end if end >= 0 else None], only_line=cut == 0)


def _begins_a_journal(first: bytes, *, only_line: bool) -> bool:
    """Does a file whose first line is `first` begin as a journal does? That line is a JSON
    object of type `start` (a bad field of it is the reader's to name, line and fault), or,
    when it is the file's only line, the torn line of one (a JSON object begun: a power cut
    while `start` was written). A file that is no journal (a text given by mistake) is then
    neither cut nor read past: its first line is named as what is wrong."""
    text = first.strip()
    if not text or (only_line and text.startswith(b"{")):
        return True
    try:
        head = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("type") == Start.type


def fsync_folder(folder: Path) -> None:
    """Make a file created or renamed in `folder` survive a power cut (POSIX; else no-op)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # a filesystem that cannot sync a folder: nothing more can be done
    finally:
        os.close(fd)


def restart_event(last_t: float, gap_s: float | None = None, counted: bool = False) -> Restart:
    """The `restart` that continues a journal after a crash (events.md `restart`)."""
    t = last_t + (gap_s if counted and gap_s is not None else 0.0)
    return Restart(t=t, gap_s=gap_s, counted=counted)
