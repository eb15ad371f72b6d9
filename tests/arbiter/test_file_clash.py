"""D5: `--pgn`, `--capture` or `--events` naming the journal is refused before anything opens."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from cli_inprocess import run_cli

from arbiter.errors import OutputClashError
from arbiter.records.paths import check_distinct, same_file
from rules.events import Start

JOURNAL_TEXT = Start(t=0, time_control="60").to_json() + "\n"


def arbiter(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd)  # refusals: in this process (tests/cli_inprocess.py)


def test_same_file_by_spelling_link_and_inode(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text(JOURNAL_TEXT)
    os.link(journal, tmp_path / "hard.jsonl")
    (tmp_path / "soft.jsonl").symlink_to(journal)
    assert same_file(journal, tmp_path / "sub" / ".." / "j.jsonl")
    assert same_file(journal, tmp_path / "hard.jsonl")
    assert same_file(journal, tmp_path / "soft.jsonl")
    assert not same_file(journal, tmp_path / "other.jsonl")


def test_check_distinct_names_both_options(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    with pytest.raises(OutputClashError, match=r"--journal .* and --pgn .* the same file"):
        check_distinct({"journal": journal, "pgn": str(tmp_path / "." / "j.jsonl")})
    with pytest.raises(OutputClashError, match=r"--pgn .* and --capture"):
        check_distinct({"journal": journal, "pgn": "x.pgn", "capture": "x.pgn"})
    check_distinct({"journal": journal, "pgn": "x.pgn", "capture": None, "events": "-"})


@pytest.mark.parametrize("option", ["--pgn", "--capture", "--events"])
def test_play_refuses_an_output_naming_the_journal(tmp_path: Path, option: str) -> None:
    journal = tmp_path / "same.jsonl"
    journal.write_text(JOURNAL_TEXT)
    result = arbiter(
        tmp_path, "play", "--journal", "same.jsonl", option, "./same.jsonl",
        "--no-keyboard", "--display", "plain",
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "name the same file" in result.stderr and "Traceback" not in result.stderr
    assert journal.read_text() == JOURNAL_TEXT  # untouched


def test_resume_refuses_a_hard_link_of_the_journal_as_pgn(tmp_path: Path) -> None:
    journal = tmp_path / "g.jsonl"
    journal.write_text(JOURNAL_TEXT)
    os.link(journal, tmp_path / "g.pgn")
    result = arbiter(tmp_path, "resume", "g.jsonl", "--pgn", "g.pgn", "--no-keyboard")
    assert result.returncode == 2 and "name the same file" in result.stderr
    assert journal.read_text() == JOURNAL_TEXT


def test_resume_does_not_connect_to_a_network_board_the_journal_names(tmp_path: Path) -> None:
    """D14: a journal from elsewhere cannot make `arbiter resume` open a socket."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    start = Start(t=0, time_control="60", sources=[f"board:dgt:socket://127.0.0.1:{port}"])
    (tmp_path / "j.jsonl").write_text(start.to_json() + "\n")
    try:
        result = arbiter(tmp_path, "resume", "j.jsonl", "--no-keyboard", "--display", "plain")
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert result.returncode == 2 and "network address" in result.stderr
