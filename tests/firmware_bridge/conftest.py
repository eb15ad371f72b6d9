"""Fixtures shared by the e-board tests."""

from __future__ import annotations

from pathlib import Path

import chess.pgn
import pytest


@pytest.fixture(scope="session")
def sampled_placements(shared: Path) -> list[str]:
    """Every 20th placement (ply 20, 40, ...) of the first 30 real games, for round trips."""
    out = []
    with open(shared / "data" / "games" / "real-games.pgn", encoding="utf-8") as fh:
        for _ in range(30):
            game = chess.pgn.read_game(fh)
            assert game is not None
            board = game.board()
            for ply, move in enumerate(game.mainline_moves(), start=1):
                board.push(move)
                if ply % 20 == 0:
                    out.append(board.board_fen())
    return out
