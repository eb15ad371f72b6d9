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
* `RecordInfo`: the PGN path, the date and the PGN tags the journal's `start` does not hold,
  kept beside the journal for `arbiter resume` and `arbiter pgn JOURNAL`.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from arbiter.errors import SessionError
from rules.i18n import N_
from rules.library_reasons import reason_of


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
        raise SessionError.of(
            N_("journal {journal}: cannot make its lock {path} ({reason})"),
            journal=journal,
            path=path,
            reason=reason_of(exc),
        ) from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SessionError.of(
            N_(
                "journal {journal} is in use by another arbiter program (its game is being"
                " played now); stop that one first, or give this game another --journal"
            ),
            journal=journal,
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
        raise SessionError.of(
            N_("{path}: cannot be moved to {target} ({reason})"),
            path=path,
            target=target,
            reason=reason_of(exc),
        ) from None
    return target


#: the PGN tags a game's options may give beyond the contract's `start` fields (Event, Site,
#: Round, White, Black): option name -> PGN tag; journaled in `start.tags` (with the Date)
EXTRA_TAGS = {
    "board_number": "Board",
    "white_elo": "WhiteElo",
    "black_elo": "BlackElo",
    "white_fide_id": "WhiteFideId",
    "black_fide_id": "BlackFideId",
}


@dataclass(frozen=True, slots=True)
class RecordInfo:
    """What a game's record needs that its journal's events do not hold: where its PGN goes,
    the day it began (the PGN Date), and the tags of `EXTRA_TAGS`. Kept beside the journal
    (`info_path`), so that `arbiter resume` writes the same PGN, and `arbiter pgn JOURNAL`
    gives the same headers, without the options being given again."""

    pgn: str | None = None
    date: str = "????.??.??"
    tags: dict[str, str] = field(default_factory=dict)


def info_path(journal: Path) -> Path:
    """`.NAME.record.json` in the journal's folder."""
    return journal.with_name(f".{journal.name}.record.json")


def save_info(journal: Path, info: RecordInfo) -> None:
    """Keep `info` beside `journal` (atomic replace).

    Raises:
        SessionError: it cannot be written (the game would not know its PGN on a resume).
    """
    data = {"pgn": info.pgn, "date": info.date, "tags": info.tags}
    try:
        write_atomic(info_path(journal), json.dumps(data, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise SessionError.of(
            N_("journal {path}: cannot keep its record settings in {where} ({reason})"),
            path=journal,
            where=info_path(journal),
            reason=reason_of(exc),
        ) from None


def load_info(journal: Path) -> tuple[RecordInfo | None, str | None]:
    """The `RecordInfo` kept beside `journal` (None if there is none), and a warning if it
    could not be read (the record is then written without it, never refused)."""
    path = info_path(journal)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        from arbiter.i18n import Said

        warning = SessionError.of(
            N_("{path}: cannot be read ({reason}); the PGN headers may be missing"),
            path=path,
            reason=reason_of(exc),
        )
        return None, Said(warning)
    try:
        data = json.loads(raw.decode("utf-8"))
        pgn, date, tags = data.get("pgn"), data.get("date"), data.get("tags", {})
        if not (pgn is None or isinstance(pgn, str)) or not isinstance(date, str):
            raise ValueError
        if not isinstance(tags, dict) or not all(
            k in EXTRA_TAGS.values() and isinstance(v, str) for k, v in tags.items()
        ):
            raise ValueError
    except (ValueError, UnicodeDecodeError, AttributeError, RecursionError):
        return None, f"{path}: not the record settings of a game; the PGN headers may be missing"
    return RecordInfo(pgn, date, dict(tags)), None


def tags_of(options: dict[str, object]) -> dict[str, str]:
    """The PGN tags of `EXTRA_TAGS` the options give."""
    return {tag: str(options[k]) for k, tag in EXTRA_TAGS.items() if options.get(k) is not None}


def discard_unplayed(journal: Path) -> bool:
    """Remove a new game's journal that holds its `start` line and nothing else, with its
    record file and its lock, after the game could not begin (a board's port that cannot be
    opened, a camera that is not there): nothing was played, and a file left behind would be
    taken for an unfinished game. A journal holding any other line is kept. True if removed."""
    try:
        with open(journal, "rb") as handle:
            lines = [line for line in handle.read(1 << 16).splitlines() if line.strip()]
    except OSError:
        return False
    try:
        only_start = len(lines) == 1 and json.loads(lines[0]).get("type") == "start"
    except (ValueError, AttributeError):
        only_start = False
    if not only_start:
        return False
    for path in (journal, info_path(journal), lock_path(journal)):
        with contextlib.suppress(OSError):
            path.unlink()
    return True
