"""The simulator's snapshot text (`arbiter.simulate.game._placement`) is what python-chess's
`BaseBoard.board_fen()` writes for the same pieces, with kinds or colours only (X/x)."""

from __future__ import annotations

import random

import chess

from arbiter.simulate.game import _placement


def _by_python_chess(pieces: dict[chess.Square, chess.Piece], knows_kind: bool) -> str:
    board = chess.BaseBoard.empty()
    for square, piece in pieces.items():
        board.set_piece_at(square, piece)
    text = board.board_fen()
    if knows_kind:
        return text
    return "".join(("X" if c.isupper() else "x") if c.isalpha() else c for c in text)


def test_the_placement_is_python_chess_board_fen() -> None:
    rng = random.Random(7)
    boards = [chess.Board().piece_map(), {}, chess.BaseBoard("8/8/8/3k4/8/8/8/7K").piece_map()]
    for _ in range(2000):
        squares = rng.sample(chess.SQUARES, rng.randint(0, 64))
        boards.append({sq: chess.Piece(rng.randint(1, 6), rng.random() < 0.5) for sq in squares})
    for pieces in boards:
        for knows_kind in (True, False):
            assert _placement(pieces, knows_kind) == _by_python_chess(pieces, knows_kind)


def test_a_colour_only_placement_names_no_kind() -> None:
    assert _placement(chess.Board().piece_map(), False) == (
        "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX"
    )
