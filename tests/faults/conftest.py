"""The fault suite's shared game: a real 31-ply game (both sides castle, captures, mate)."""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn
import pytest

from firmware_bridge.virtual import moves_to_events
from rules.events import Start

#: index (1-based) in real-games.pgn of DrDrunkenstein v mfm008: 31 plies, 16. Qxf7#
GAME_NUMBER = 898


@pytest.fixture(scope="module")
def mate_game(shared: Path) -> chess.pgn.Game:
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        for _ in range(GAME_NUMBER - 1):
            assert chess.pgn.skip_game(handle)
        game = chess.pgn.read_game(handle)
    assert game is not None and game.end().board().is_checkmate()
    return game


@pytest.fixture(scope="module")
def stream(mate_game: chess.pgn.Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game as a stream: lifts and places at a quick pace, presses implied."""
    game = mate_game
    start = Start(
        t=0.0, time_control="300+3", auto_press=True, white="Drunkenstein", black="mfm008"
    )
    events = [start, *moves_to_events(game, first_t=0.5, hand_s=0.06, gap_s=0.4)]
    path = tmp_path_factory.mktemp("stream") / "game-stream.jsonl"
    path.write_text("".join(e.to_json() + "\n" for e in events), encoding="utf-8")
    return path
