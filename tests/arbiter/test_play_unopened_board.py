"""`arbiter play` on a board whose port cannot be opened: refused in one line, and no journal
left behind for a game that never began (a later `play --journal` or `resume` of it would
take it for an unfinished game)."""

from __future__ import annotations

import json
from pathlib import Path

from arbiter.live.records import discard_unplayed, info_path, lock_path
from tests.cli_inprocess import run_cli


def test_a_board_that_cannot_be_opened_leaves_no_journal(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-port"
    result = run_cli("play", "--board", f"dgt:{missing}", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and str(missing) in result.stderr
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_a_journal_named_on_the_command_line_is_not_left_either(tmp_path: Path) -> None:
    journal = tmp_path / "round1" / "board3.jsonl"
    result = run_cli("play", "--board", "dgt:/nonexistent/tty", "--journal", str(journal))
    assert result.returncode == 2, result.stderr
    assert not journal.exists() and not info_path(journal).exists()
    assert not lock_path(journal).exists()


def test_only_a_journal_holding_nothing_but_its_start_is_discarded(tmp_path: Path) -> None:
    start = json.dumps({"t": 0.0, "type": "start"})
    lift = json.dumps({"t": 1.0, "type": "lift", "square": "e2"})
    played = tmp_path / "played.jsonl"
    played.write_text(f"{start}\n{lift}\n")
    assert not discard_unplayed(played) and played.exists()
    torn = tmp_path / "torn.jsonl"
    torn.write_text('{"t": 0.0, "ty')
    assert not discard_unplayed(torn) and torn.exists()
    bare = tmp_path / "bare.jsonl"
    bare.write_text(start + "\n")
    info_path(bare).write_text("{}")
    assert discard_unplayed(bare)
    assert not bare.exists() and not info_path(bare).exists()
