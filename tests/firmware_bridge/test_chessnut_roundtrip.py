"""Chessnut round trip (`eboard-protocols.md` 4.2): the board model's position message decodes
to the position it holds, for every 20th position of the first 30 real games, both seatings."""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn
import pytest

from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from rules.events import Snapshot


def sample_placements(shared: Path, games: int = 30, every: int = 20) -> list[str]:
    """Every `every`-th placement (ply 20, 40, ...) of the first `games` games."""
    out = []
    with open(shared / "data" / "games" / "real-games.pgn", encoding="utf-8") as fh:
        for _ in range(games):
            game = chess.pgn.read_game(fh)
            assert game is not None
            board = game.board()
            for ply, move in enumerate(game.mainline_moves(), start=1):
                board.push(move)
                if ply % every == 0:
                    out.append(board.board_fen())
    return out


@pytest.mark.parametrize("rotated", [False, True])
def test_round_trip_real_games(shared: Path, rotated: bool) -> None:
    placements = sample_placements(shared)
    assert len(placements) > 60
    board = ChessnutBoard(rotated=rotated)
    codec = ChessnutCodec()
    first = board.receive(codec.encode_startup())
    assert codec.feed(first, 0.0) == [Snapshot(t=0.0, board=chess.STARTING_BOARD_FEN)]
    assert codec.rotated is rotated
    for i, placement in enumerate(placements):
        events = codec.feed(board.set_placement(placement), float(i))
        assert events == [Snapshot(t=float(i), board=placement)]
