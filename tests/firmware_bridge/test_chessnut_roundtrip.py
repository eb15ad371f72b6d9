"""Chessnut round trip (`eboard-protocols.md` 4.2): the board model's position message decodes
to the position it holds, for every 20th position of the first 30 real games, both seatings."""

from __future__ import annotations

import chess
import chess.pgn
import pytest

from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from rules.events import Snapshot


@pytest.mark.parametrize("rotated", [False, True])
def test_round_trip_real_games(sampled_placements: list[str], rotated: bool) -> None:
    placements = sampled_placements
    assert len(placements) > 60
    board = ChessnutBoard(rotated=rotated)
    codec = ChessnutCodec()
    first = board.receive(codec.encode_startup())
    assert codec.feed(first, 0.0) == [Snapshot(t=0.0, board=chess.STARTING_BOARD_FEN)]
    assert codec.rotated is rotated
    for i, placement in enumerate(placements):
        events = codec.feed(board.set_placement(placement), float(i))
        assert events == [Snapshot(t=float(i), board=placement)]
