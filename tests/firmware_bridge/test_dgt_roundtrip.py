"""Round trips through the DGT board model (house style lesson 6): positions of real games
dumped by a normal and a turned board decode to the same positions, and games played move by
move as field updates keep the codec's board image in step with the game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.sim.dgt_board import DgtBoardModel
from rules.events import Lift, Place, Snapshot


def games(shared: Path, count: int) -> Iterator[chess.pgn.Game]:
    with open(shared / "data" / "games" / "real-games.pgn", encoding="utf-8") as pgn:
        for _ in range(count):
            game = chess.pgn.read_game(pgn)
            assert game is not None
            yield game


def every_20th_position(game: chess.pgn.Game) -> list[str]:
    board = game.board()
    out = [board.board_fen()]
    for ply, move in enumerate(game.mainline_moves(), start=1):
        board.push(move)
        if ply % 20 == 0:
            out.append(board.board_fen())
    return out


@pytest.mark.parametrize("rotated", [False, True], ids=["normal", "rotated"])
def test_dumps_of_real_game_positions_decode(shared: Path, rotated: bool) -> None:
    checked = 0
    for game in games(shared, 30):
        board = DgtBoardModel(rotated=rotated)
        codec = DgtCodec()  # learns the orientation from the first (initial) dump
        codec.feed(board.receive(DgtCodec().encode_startup()), 0.0)
        assert codec.rotated is rotated
        for t, placement in enumerate(every_20th_position(game)):
            board.set_placement(placement)
            assert codec.feed(board.receive(b"\x42"), float(t)) == [
                Snapshot(t=float(t), board=placement)
            ]
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("rotated", [False, True], ids=["normal", "rotated"])
def test_games_played_as_field_updates(shared: Path, rotated: bool) -> None:
    moves = 0
    for game in games(shared, 10):
        model = DgtBoardModel(rotated=rotated)
        codec = DgtCodec()
        codec.feed(model.receive(codec.encode_startup()), 0.0)
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), start=1):
            events = codec.feed(model.play(board, move), float(ply))
            lifts = [e for e in events if isinstance(e, Lift)]
            places = [e for e in events if isinstance(e, Place)]
            assert len(lifts) + len(places) == len(events)
            moved = board.piece_at(move.from_square)
            assert (
                Lift(
                    t=float(ply),
                    square=chess.square_name(move.from_square),
                    piece=moved.symbol() if moved else None,
                )
                in lifts
            )
            board.push(move)
            to_piece = board.piece_at(move.to_square)
            assert places[0] == Place(
                t=float(ply),
                square=chess.square_name(move.to_square),
                piece=to_piece.symbol() if to_piece else None,
            )
            assert codec.board == board.board_fen() == model.placement
            moves += 1
    assert moves > 300
