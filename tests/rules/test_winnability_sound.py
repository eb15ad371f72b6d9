"""Soundness of `rules.winnability` on random positions (FIDE 5.2.2, 6.9, 7.5.5).

The dangerous mistake is calling a side unable to mate where it can: a flag would then be
scored a draw that the Laws give as a loss. Three random samples, none chosen by the code
under test: sparse positions (kings and one to four units of any kind, pawns included),
kings with rammed pawn pairs and a few minor pieces (where static proofs apply), and positions
of random games played from the start. Every "cannot mate" not already given by
python-chess's own `has_insufficient_material` is checked against a brute-force search of
every series of three plies, and every "can mate" must come with a helpmate line that
python-chess replays to that side's mate.
"""

from __future__ import annotations

import random

import chess
import pytest
from positions import played_position, sparse_position

from rules.winnability import decide

KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def _sparse(rng: random.Random) -> chess.Board:
    return sparse_position(rng, KINDS, (1, 5))


def _rammed(rng: random.Random) -> chess.Board:
    """Kings, two to six rammed pawn pairs (a black pawn just in front of a white one) and
    up to two bishops or knights: pawn structures where the static proof is tried."""
    while True:
        board = chess.Board(None)
        for _ in range(rng.randrange(2, 7)):
            f, r = rng.randrange(8), rng.randrange(1, 6)
            white, black = chess.square(f, r), chess.square(f, r + 1)
            if board.piece_at(white) or board.piece_at(black):
                continue
            board.set_piece_at(white, chess.Piece(chess.PAWN, chess.WHITE))
            board.set_piece_at(black, chess.Piece(chess.PAWN, chess.BLACK))
        empty = [s for s in chess.SQUARES if not board.piece_at(s)]
        rng.shuffle(empty)
        board.set_piece_at(empty.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(empty.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randrange(0, 3)):
            kind = rng.choice((chess.BISHOP, chess.KNIGHT))
            board.set_piece_at(empty.pop(), chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


def _played(rng: random.Random) -> chess.Board:
    return chess.Board(played_position(rng, (10, 120), unfinished=True).fen())


def _mates_within(board: chess.Board, color: chess.Color, plies: int) -> bool:
    if board.is_checkmate():
        return board.turn != color
    if plies == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        found = _mates_within(board, color, plies - 1)
        board.pop()
        if found:
            return True
    return False


def _check(board: chess.Board, color: chess.Color, budget: int) -> None:
    answer, line = decide(board, color, budget)
    if answer is True:
        assert line is not None
        walk = board.copy()
        for move in line:
            assert move in walk.legal_moves, (board.fen(), line)
            walk.push(move)
        assert walk.is_checkmate() and walk.turn != color, board.fen()
    elif answer is False and not board.has_insufficient_material(color):
        assert not _mates_within(board.copy(), color, 3), (board.fen(), color)


@pytest.mark.parametrize("seed", range(3))
def test_sparse_positions(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(25):
        board = _sparse(rng)
        for color in chess.COLORS:
            _check(board, color, 300)


@pytest.mark.parametrize("seed", range(3))
def test_rammed_pawns(seed: int) -> None:
    rng = random.Random(3000 + seed)
    for _ in range(12):
        board = _rammed(rng)
        for color in chess.COLORS:
            _check(board, color, 300)


@pytest.mark.parametrize("seed", range(3))
def test_positions_of_random_games(seed: int) -> None:
    rng = random.Random(2000 + seed)
    for _ in range(6):
        board = _played(rng)
        for color in chess.COLORS:
            _check(board, color, 200)
