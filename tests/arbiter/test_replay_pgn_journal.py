"""`arbiter replay`, `arbiter pgn` and the journal: the record of a game, and bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import chess.pgn
import pytest
from cli_inprocess import run_cli

from arbiter.errors import JournalError
from arbiter.records.journal import JournalWriter, read_journal, restart_event
from arbiter.records.pgn import pgn_from_rulings
from arbiter.simulate.game import simulate_game
from rules.events import Lift, Place, Press, Start
from rules.replay import replay


def arbiter(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, stdin=stdin or "")  # in this process (tests/cli_inprocess.py)


def write_stream(path: Path, events: list) -> Path:
    path.write_text("".join(e.to_json() + "\n" for e in events), encoding="utf-8")
    return path


def first_games(shared: Path, name: str, count: int) -> list[chess.pgn.Game]:
    games = []
    with (shared / "data/games" / name).open(encoding="utf-8") as f:
        while len(games) < count and (g := chess.pgn.read_game(f)) is not None:
            games.append(g)
    return games


def test_pgn_writes_the_clocks_of_the_game_back(shared: Path) -> None:
    for game in first_games(shared, "clocked-games.pgn", 12):
        events = simulate_game(game, "identity")
        start = events[0]
        assert isinstance(start, Start)
        text = pgn_from_rulings(start, replay(events))
        record = chess.pgn.read_game(__import__("io").StringIO(text))
        assert record is not None
        assert record.headers["Result"] == game.headers["Result"]
        ours = list(record.mainline())
        theirs = list(game.mainline())
        assert [n.move for n in ours] == [n.move for n in theirs]
        if game.end().board().is_game_over():
            # a move that ends the game stops the clock at once: no press, no increment
            ours, theirs = ours[:-1], theirs[:-1]
        for a, b in zip(ours, theirs, strict=True):
            assert a.clock() is not None
            assert abs(a.clock() - b.clock()) <= 0.1, (a.ply(), a.clock(), b.clock())


def test_pgn_records_rulings_as_comments(tmp_path: Path) -> None:
    events = [
        Start(t=0, time_control="300+2", white="Ann", black="Bob"),
        Lift(t=1, square="g1", piece="N"),
        Place(t=2, square="g1", piece="N"),
        Lift(t=3, square="e2", piece="P"),
        Place(t=3.5, square="e4", piece="P"),
        Press(t=3.7, side="white"),
    ]
    result = arbiter("pgn", str(write_stream(tmp_path / "g.jsonl", events)))
    assert result.returncode == 0, result.stderr
    assert '[White "Ann"]' in result.stdout and '[TimeControl "300+2"]' in result.stdout
    assert "1. e4 { [%clk 0:04:58.3] White did not move or capture the piece touched on g1" in (
        result.stdout.replace("\n", " ")
    )
    assert '[Termination "unterminated"]' in result.stdout


#: 1. e4 with a 5-minute clock: four good lines before a bad one
E4_STREAM = [
    Start(t=0, time_control="300+2"),
    Lift(t=3, square="e2", piece="P"),
    Place(t=3.5, square="e4", piece="P"),
    Press(t=3.7, side="white"),
]


def test_replay_json_lines_and_a_bad_line_after_the_good_ones(tmp_path: Path) -> None:
    path = write_stream(tmp_path / "g.jsonl", E4_STREAM)
    with path.open("a") as f:
        f.write('{"t": 4, "type": "place", "square": "z9"}\n')
    result = arbiter("replay", "--json", str(path))
    assert result.returncode == 2
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["type"] for r in lines] == ["obligation", "move", "clock"]
    assert "line 5" in result.stderr and "square" in result.stderr
    assert "Traceback" not in result.stderr


def test_pgn_of_a_stream_broken_part_way_keeps_the_moves_before_the_fault(
    tmp_path: Path,
) -> None:
    path = write_stream(tmp_path / "g.jsonl", E4_STREAM)
    with path.open("a") as f:
        f.write('{"t": 4, "type": "teleport"}\n{"t": 5, "type": "press", "side": "black"}\n')
    result = arbiter("pgn", str(path))
    assert result.returncode == 2
    assert "line 5" in result.stderr and "teleport" in result.stderr
    assert "Traceback" not in result.stderr
    game = chess.pgn.read_game(io.StringIO(result.stdout))
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4"]
    assert game.headers["Result"] == "*"
    assert "the record stops here" in result.stdout
    # the same to a file, and a file that cannot be written is named
    out = tmp_path / "g.pgn"
    assert arbiter("pgn", str(path), "--out", str(out)).returncode == 2
    assert out.read_text(encoding="utf-8") == result.stdout
    bad = arbiter("pgn", str(path), "--out", str(tmp_path / "no" / "g.pgn"))
    assert bad.returncode == 2 and "cannot be written" in bad.stderr


@pytest.mark.parametrize(
    ("content", "fault"),
    [
        ('{"t": 0, "type": "start"}\n{"t": -1, "type": "press", "side": "white"}\n', "line 2"),
        (
            '{"t": 0, "type": "start"}\n{"t": 5, "type": "tick"}\n{"t": 4, "type": "tick"}\n',
            "line 3",
        ),
        ('{"t": 1, "type": "press", "side": "white"}\n', "start"),
        ('{"t": 0, "type": "start", "time_control": "5+x"}\n', "time control"),
        ('{"t": 0, "type": "start", "rules": "klingon"}\n', "profile"),
        ('{"t": 0, "type": "start", "fen": "not a fen"}\n', "FEN"),
        ("", "empty"),
    ],
)
def test_replay_bad_streams_give_one_clear_line(tmp_path: Path, content: str, fault: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    result = arbiter("replay", str(path))
    assert result.returncode == 2
    assert fault in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_of_a_missing_file() -> None:
    result = arbiter("replay", "/nonexistent/game.jsonl")
    assert result.returncode == 2 and "no such file" in result.stderr


def test_strict_flag_overrides_the_stream(tmp_path: Path) -> None:
    events = [
        Start(t=0),
        Lift(t=1, square="g1", piece="N"),
        Place(t=2, square="g1", piece="N"),
        Lift(t=3, square="e2", piece="P"),
        Place(t=4, square="e4", piece="P"),
    ]
    path = write_stream(tmp_path / "g.jsonl", events)
    plain = arbiter("replay", "--json", str(path))
    strict = arbiter("replay", "--json", "--strict", str(path))
    assert '"type": "move"' in plain.stdout and '"reinstate"' not in plain.stdout
    assert '"reason": "strict"' in strict.stdout and '"type": "move"' not in strict.stdout


def test_journal_is_appended_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    events = [Start(t=0, time_control="60"), Lift(t=1, square="e2"), Place(t=2, square="e4")]
    with JournalWriter(path) as journal:
        for e in events:
            journal.append(e)
    got, warnings = read_journal(path)
    assert got == events and not warnings


def test_journal_cut_by_a_crash_keeps_every_whole_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    with JournalWriter(path) as journal:
        journal.append(Start(t=0))
        journal.append(Lift(t=1, square="e2"))
    with path.open("a") as f:
        f.write('{"t": 2, "type": "pla')  # the power went
    got, warnings = read_journal(path)
    assert len(got) == 2 and warnings and "cut short" in warnings[0]
    with JournalWriter(path) as journal:  # resuming appends on a line of its own
        journal.append(restart_event(1.0))
        journal.append(Place(t=3, square="e4"))
    got, warnings = read_journal(path)
    assert [e.type for e in got] == ["start", "lift", "restart", "place"]
    assert os.path.getsize(path) > 0


def test_journal_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"t": 1, "type": "lift", "square": "e2"}\n', encoding="utf-8")
    with pytest.raises(JournalError, match="start"):
        read_journal(path)
    with pytest.raises(JournalError, match="cannot be read"):
        read_journal(tmp_path / "missing.jsonl")
