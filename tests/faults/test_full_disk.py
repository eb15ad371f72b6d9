"""A full disk (issue 17 item 6, D9): the game stops with a clear message, the PGN so far is
kept (in its file, or printed when that cannot be written), and `arbiter resume` after space
is freed gives the uninterrupted PGN.

A small file system cannot be mounted in CI, so the disk fills by a file-size limit
(RLIMIT_FSIZE, as `ulimit -f`): the journal's write fails with EFBIG where a full disk gives
ENOSPC; both are the same `OSError` path in the journal writer, and both may leave the last
line torn.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.faults.harness import ARBITER, ROOT, arbiter, finish, pgn_moves, pgn_of, without_date

pytestmark = [pytest.mark.faults, pytest.mark.realtime]

#: the journal may grow to this many bytes: the game stops a third of the way through
LIMIT = 4096


def test_a_full_disk_stops_the_game_keeps_its_pgn_and_resumes_exactly(
    stream: Path, tmp_path: Path
) -> None:
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the second game's PGN folder should be\n")
    common = ["--no-keyboard", "--display", "plain"]
    first = arbiter(
        ["play", "--events", str(stream), "--journal", str(journal), "--pgn", str(pgn), *common],
        limit_bytes=LIMIT,
    )
    second = arbiter(
        ["play", "--events", str(stream), "--journal", str(tmp_path / "other.jsonl"),
         "--pgn", str(blocked / "game.pgn"), *common],
        limit_bytes=LIMIT,
    )  # fmt: skip
    status, _, err = finish(first, timeout=60)
    assert status == 2, err
    stops = f"journal {journal}: cannot be written (the file is too large): the game stops here."
    assert stops in err
    assert f"The PGN so far is in {pgn}." in err
    assert f"`arbiter resume {journal}`" in err
    assert "Traceback" not in err
    moves, result = pgn_moves(pgn.read_text(encoding="utf-8"))
    expected = without_date(pgn_of(stream))
    whole, _ = pgn_moves(expected)
    assert result == "*" and 0 < len(moves) < len(whole) and whole[: len(moves)] == moves

    status, out, err = finish(second, timeout=60)
    assert status == 2 and "the PGN so far is printed above." in err, err
    printed, result = pgn_moves(out[out.index("[Event ") :])
    assert result == "*" and printed and whole[: len(printed)] == printed

    # space freed: the game goes on from the journal, torn last line and all
    resumed = subprocess.run(
        [*ARBITER, "resume", str(journal), "--pgn", str(pgn), *common],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert without_date(pgn.read_text(encoding="utf-8")) == expected


def test_a_full_disk_is_said_in_the_game_s_language(stream: Path, tmp_path: Path) -> None:
    """The same stop in Polish: the system's reason (EFBIG), the sentence around it and where
    the PGN went, with no English left but the command to type."""
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    common = ["--no-keyboard", "--display", "plain", "--lang", "pl"]
    game = arbiter(
        ["play", "--events", str(stream), "--journal", str(journal), "--pgn", str(pgn), *common],
        limit_bytes=LIMIT,
    )
    status, _, err = finish(game, timeout=60)
    assert status == 2, err
    assert (
        f"dziennik {journal}: nie można zapisać (plik jest za duży): partia zatrzymuje się "
        f"tutaj. Dotychczasowy PGN jest w {pgn}. Zwolnij trochę miejsca, a potem `arbiter "
        f"resume {journal}` wznowi grę od ostatniego zdarzenia w dzienniku."
    ) in err, err
    assert "Traceback" not in err
