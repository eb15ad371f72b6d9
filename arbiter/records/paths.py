"""Checks on the files a live game writes, made before any of them is opened.

The journal is the single source of truth of a game. A `--pgn` or `--capture` naming the
same file (by another spelling, a symbolic link or a hard link) would overwrite it or mix
other lines into it, and the game could no longer be resumed or exported; an `--events`
stream read from it would read the game's own lines back. So these are refused first.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from arbiter.errors import OutputClashError
from rules.i18n import N_

#: The options naming a file of a live game, in the order a message names them.
FILE_OPTIONS = ("journal", "pgn", "capture", "events")


def same_file(a: Path, b: Path) -> bool:
    """Do `a` and `b` name one file: the same resolved path, or (both existing) one inode."""
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False  # one of them does not exist yet: the resolved paths decided


def check_distinct(files: Mapping[str, str | os.PathLike[str] | None]) -> None:
    """Refuse two options naming one file (`files`: option name -> path or None).

    Raises OutputClashError naming both options and the file; '-' (standard input) is not
    a file and is left out.
    """
    named = [
        (option, Path(path))
        for option, path in files.items()
        if path is not None and os.fspath(path) not in ("", "-")
    ]
    for i, (first, a) in enumerate(named):
        for second, b in named[i + 1 :]:
            if same_file(a, b):
                raise OutputClashError.of(
                    N_(
                        "--{first} {a} and --{second} {b} name the same file; the {other}"
                        " would overwrite or mix into it. Name another file."
                    ),
                    first=first,
                    a=a,
                    second=second,
                    b=b,
                    other=second if first == "journal" else first,
                )
