"""Pairings in (TRF-16, CSV), results out, and the broadcast folder read as a relay reads it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess.pgn
import pytest

from arbiter.demo.game import demo_events
from arbiter.hall.errors import PairingsError
from arbiter.hall.export import write_round
from arbiter.hall.pairings import read_pairings, results_csv, results_trf
from arbiter.hall.replay import BoardReplay
from tests.hall.relay import CloudReader, Relay


def _player(rank: int, name: str, fide: str, rounds: list[str], points: float) -> str:
    line = f"001 {rank:4d} m    {name:<33} 2000 FRA {fide:>11} 1990/01/01 {points:4.1f} {rank:4d}"
    line = line.ljust(89)
    for block in rounds:
        line += "  " + block
    return line


def _trf(tmp_path: Path) -> Path:
    # round 1: 1-2 (1-0), 3-4 (=); round 2 paired: 4 (1.5? no: 0.5) v 1, 2 v 3
    lines = [
        "012 Club Open 2026",
        _player(1, "Alpha, Ann", "1000001", ["   2 w 1", "   4 b  "], 1.0),
        _player(2, "Beta, Bob", "1000002", ["   1 b 0", "   3 w  "], 0.0),
        _player(3, "Gamma, Cy", "1000003", ["   4 w =", "   2 b  "], 0.5),
        _player(4, "Delta, Di", "1000004", ["   3 b =", "   1 w  "], 0.5),
    ]
    path = tmp_path / "round.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_trf_pairings_are_ordered_by_score_and_give_tags(tmp_path: Path) -> None:
    rnd = read_pairings(_trf(tmp_path))
    assert rnd.number == 2 and rnd.event == "Club Open 2026"
    # board 1: the pair with the leader (1 point) - Di (white) v Ann
    assert [(p.board, p.white, p.black) for p in rnd.pairings] == [
        (1, "Delta, Di", "Alpha, Ann"),
        (2, "Beta, Bob", "Gamma, Cy"),
    ]
    assert rnd.pairings[0].white_id == "1000004"


def test_trf_results_written_back_with_points(tmp_path: Path) -> None:
    rnd = read_pairings(_trf(tmp_path))
    text = results_trf(rnd, {"1": "0-1", "2": "1/2-1/2"})
    again = {line[4:8].strip(): line for line in text.splitlines() if line.startswith("001")}
    assert again["1"][101:109] == "   4 b 1" and again["1"][80:84] == " 2.0"
    assert again["4"][101:109] == "   1 w 0" and again["4"][80:84] == " 0.5"
    assert again["2"][108] == "=" and again["3"][108] == "="
    # read back, round 2 is still the last round paired, now with results
    (tmp_path / "after.trf").write_text(text, encoding="utf-8")
    assert len(read_pairings(tmp_path / "after.trf", 2).pairings) == 2


def test_csv_pairings_and_results(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("Board,White,Black,white_fide_id\n1,Ann,Bob,123\n2,Cy,Di,\n", encoding="utf-8")
    rnd = read_pairings(path, 3)
    assert rnd.number == 3 and rnd.pairings[0].white_id == "123"
    out = results_csv(rnd, {"1": "1-0"}).splitlines()
    assert out[1].endswith(",1-0") and out[2].endswith(",*")
    with pytest.raises(PairingsError, match="TRF results need TRF pairings"):
        results_trf(rnd, {})


def test_a_bye_gets_no_board_and_latin1_names_are_read(tmp_path: Path) -> None:
    lines = [
        "012 Open d'été",
        _player(1, "Ångström, Åsa", "1", ["   2 w  "], 0.0),
        _player(2, "Brûlé, Noël", "2", ["   1 b  "], 0.0),
        _player(3, "Côté, Zoé", "3", ["0000 - U"], 0.0),
    ]
    path = tmp_path / "latin1.trf"
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    rnd = read_pairings(path)
    assert [(p.white, p.black) for p in rnd.pairings] == [("Ångström, Åsa", "Brûlé, Noël")]
    assert rnd.event == "Open d'été" and rnd.encoding == "latin-1"


def test_csv_with_semicolons(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("board;white;black\n1;Müller, Jan;Dupont, Léa\n", encoding="utf-8")
    assert read_pairings(path).pairings[0].black == "Dupont, Léa"


@pytest.mark.parametrize(
    ("name", "text", "match"),
    [
        ("a.csv", "white,black\nA,B\n", "header must name"),
        ("b.csv", "board,white,black\nx,A,B\n", "line 2"),
        ("c.trf", "012 nothing\n", "no player"),
    ],
)
def test_bad_pairings_are_told(tmp_path: Path, name: str, text: str, match: str) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(PairingsError, match=match):
        read_pairings(tmp_path / name)


def test_a_relay_follows_a_round_live(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("board,white,black\n1,Ann,Bob\n2,Cy,Di\n", encoding="utf-8")
    rnd = read_pairings(path, 1)
    streams = {"1": demo_events(seed=1), "2": demo_events(seed=2)}
    replays = {b: BoardReplay(b, "g") for b in streams}
    relay = Relay(tmp_path / "live", 1)
    cloud = CloudReader(tmp_path / "live", 1)
    counts = []
    longest = max(len(s) for s in streams.values())
    for seq in range(1, longest + 1, 25):
        for board, events in streams.items():
            for n in range(seq, min(seq + 25, len(events) + 1)):
                replays[board].offer(n, events[n - 1].to_dict(), None)
        write_round(tmp_path / "live", rnd, replays)
        counts.append(sum(len(v) for v in relay.poll().values()))
        assert cloud.poll() == relay.seen  # the JSON feed holds the PGN's moves, as live
    assert counts == sorted(counts) and counts[0] < counts[-1]  # it followed the games
    index = json.loads((tmp_path / "live/round-1/index.json").read_text(encoding="utf-8"))
    assert [p["result"] for p in index["pairings"]] == [r.result() for r in replays.values()]
    assert all(not p["live"] for p in index["pairings"])
    text = (tmp_path / "live/round-1/game-2.pgn").read_text(encoding="utf-8")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    assert game.headers["White"] == "Cy" and game.headers["Board"] == "2"
    assert game.headers["Round"] == "1"
    first = next(iter(game.mainline()))
    assert "[%clk" in first.comment and "[%emt" in first.comment
    games = (tmp_path / "live/round-1/games.pgn").read_text(encoding="utf-8")
    assert games.count("[Event ") == 2
    words = {"1-0": "WHITEWIN", "0-1": "BLACKWIN", "1/2-1/2": "DRAW", "*": "*"}
    assert cloud.results == {int(b): words[r.result()] for b, r in replays.items()}
    clocks = [None if n.clock() is None else round(n.clock()) for n in game.mainline()]
    assert cloud.clocks[2] == clocks and any(c is not None for c in clocks)
