"""A live game's files kept safe (issue 12 item 8): the journal locked while a game uses it,
the PGN rewritten after every move by an atomic replace, and never over another game's PGN.

* `lock_journal`: one process per journal. A second `arbiter play`/`resume` on a journal in
  use is refused with a clear message instead of writing into the same file. The lock is an
  `fcntl.flock` on a hidden file beside the journal (`.NAME.lock`: the journal itself is
  renamed when its game is over, and a lock on a renamed file would protect nothing), held
  as long as the process runs and released by the system when it ends, even after a crash.
* `write_atomic`: the PGN is written to a temporary file in the same folder, flushed to the
  disk and renamed over the old one, so a power cut leaves the old record or the new one,
  never half of one.
* `set_aside`: a new game whose `--pgn` names the record of an earlier game moves that record
  aside (`NAME.1.pgn`, `.2`, ...), as a finished game's journal is.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO

from arbiter.errors import SessionError


def lock_path(journal: Path) -> Path:
    """The lock file of `journal`: `.NAME.lock` in its folder."""
    return journal.with_name(f".{journal.name}.lock")


def lock_journal(journal: Path) -> IO[bytes]:
    """Lock `journal` for this process; keep the returned file open while the game runs.

    Raises:
        SessionError: another process holds the journal (its game is being played), or the
            lock cannot be made (the folder is not writable).
    """
    import fcntl

    path = lock_path(journal)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "ab")  # noqa: SIM115 - held open for the whole game
    except OSError as exc:
        raise SessionError(
            f"journal {journal}: cannot make its lock {path} ({exc.strerror})"
        ) from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SessionError(
            f"journal {journal} is in use by another arbiter program (its game is being "
            "played now); stop that one first, or give this game another --journal"
        ) from None
    return handle


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` by an atomic replace (see the module docstring).

    Raises:
        OSError: the folder or the disk refused; `path` is then as it was.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def set_aside(path: Path) -> Path | None:
    """Move an earlier game's file at `path` to `NAME.1.EXT` (`.2`, ...); None if there was
    none (or it was empty).

    Raises:
        SessionError: it cannot be moved (the new game would overwrite it otherwise).
    """
    if not path.exists() or path.stat().st_size == 0:
        return None
    n = 1
    while (target := path.with_name(f"{path.stem}.{n}{path.suffix}")).exists():
        n += 1
    try:
        path.rename(target)
    except OSError as exc:
        raise SessionError(f"{path}: cannot be moved to {target} ({exc.strerror})") from None
    return target
