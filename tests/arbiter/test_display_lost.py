"""A screen that cannot be written does not stop the game (issue 17's leftover).

`arbiter play` on a virtual DGT board, moves typed through a pipe, its standard output either
a file at the file-size limit (RLIMIT_FSIZE, as `ulimit -f`: writes fail with EFBIG) or a
pipe whose reader is gone (EPIPE). The display goes quiet with one `sensor` `display_lost`
note in the journal; the game goes on to its end, journaled and in the PGN; no traceback.
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

import chess.pgn

from arbiter.records.journal import read_journal
from rules.events import Sensor

MOVES = ["e2e4", "e7e5", "g1f3", "b8c6", "resign"]
#: the file-size limit, in bytes; standard output's file is filled to just under it
LIMIT = 20_000


def _play(
    tmp_path: Path, stdout: IO[bytes] | int, preexec_fn: Callable[[], None] | None = None
) -> subprocess.Popen[str]:
    commands = tmp_path / "commands.txt"
    commands.write_text("\n".join(MOVES) + "\n", encoding="utf-8")
    return subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", "--board", "dgt-sim", "--tc", "5+3",
         "--journal", str(tmp_path / "g.jsonl"), "--pgn", str(tmp_path / "g.pgn"),
         "--display", "plain"],
        stdin=commands.open(encoding="utf-8"), stdout=stdout, stderr=subprocess.PIPE,
        text=True, cwd=tmp_path, preexec_fn=preexec_fn,
    )  # fmt: skip


def _check_game_went_on(tmp_path: Path, stderr: str) -> None:
    assert "Traceback" not in stderr, stderr
    events, warnings = read_journal(tmp_path / "g.jsonl")
    assert not warnings
    lost = [e for e in events if isinstance(e, Sensor) and e.status == "display_lost"]
    assert len(lost) == 1, [json.dumps(e.status) for e in lost]
    assert lost[0].detail is not None and "cannot be written" in lost[0].detail
    record = chess.pgn.read_game(io.StringIO((tmp_path / "g.pgn").read_text(encoding="utf-8")))
    assert record is not None and not record.errors
    moves = [m.uci() for m in record.mainline_moves()]
    assert moves == MOVES[:-1]
    assert record.headers["Result"] == "0-1"  # White, having the move, resigned


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_a_screen_at_the_file_size_limit_goes_quiet_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    screen = tmp_path / "screen.txt"
    screen.write_bytes(b"." * (LIMIT - 200))  # the game's title and first lines still fit
    with screen.open("ab") as out:
        played = _play(tmp_path, out, preexec_fn=_limit_file_size)
        _, stderr = played.communicate(timeout=120)
    assert played.returncode == 0, stderr
    assert screen.stat().st_size <= LIMIT
    assert "time control" in screen.read_text(encoding="utf-8", errors="replace")
    _check_game_went_on(tmp_path, stderr)


def test_a_screen_whose_reader_went_away_goes_quiet_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    played = _play(tmp_path, subprocess.PIPE)
    assert played.stdout is not None
    played.stdout.close()  # nobody reads the screen
    stderr = played.stderr.read() if played.stderr is not None else ""
    played.wait(timeout=120)
    assert played.returncode == 0, stderr
    _check_game_went_on(tmp_path, stderr)
