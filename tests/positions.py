"""Random positions shared by the winnability tests and benches (FIDE 5.2.2, 6.9, 7.5.5).

One home for the generators that tests/rules/test_winnability*.py and bench/position.py,
bench/winnability_kinds.py each used to carry a near-copy of. What a generator makes depends
on its `random.Random` alone (the calls on it are in a fixed order), so a seeded test or
bench draws the same positions every run. Imported as `positions` (tests/ is on the path of
pytest's tests; the benches put it there).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import chess


def sparse_position(
    rng: random.Random,
    kinds: tuple[chess.PieceType, ...] | list[chess.PieceType],
    units: tuple[int, int],
    accept: Callable[[chess.Board], bool] | None = None,
) -> chess.Board:
    """Two kings and `randrange(*units)` draws of `kinds` (either colour; a pawn drawn on a
    back rank is dropped) on random squares, side to move at random, until a valid position
    that `accept` (if given) takes."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randrange(*units)):
            sq = squares.pop()
            kind = rng.choice(kinds)
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid() and (accept is None or accept(board)):
            return board


def played_position(
    rng: random.Random, plies: tuple[int, int], *, unfinished: bool = False
) -> chess.Board:
    """The position after `randrange(*plies)` random legal moves from the start (fewer when
    the game ends first), with its move stack; with `unfinished`, drawn again until the game
    is not over."""
    while True:
        board = chess.Board()
        for _ in range(rng.randrange(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not unfinished or not board.is_game_over():
            return board
