"""Generators of positions of the kinds of unwinnability the Chess Unwinnability Analyzer's paper
lists (Ambrona 2022), for bench/winnability.py: blocked pawn chains with or without bishops
(kings and bishops that can or cannot get round them), forced stalemates and captures, and
positions where the side to move has a single legal move.

Kings boxed in by their own pawns with the other side free are not here: the oracle cannot
walk such positions (the free king takes pawns, pawns promote, the positions multiply); the
closed walls of bench/position.py (unwinnable by construction) are that kind's yardstick.

None of them is labelled here: bench/winnability.py asks the independent exhaustive oracle
(`position.enumerate_mates`, plain python-chess) for every (side, position) pair and keeps the
pairs it proves unwinnable. The generators only make positions where that oracle finishes
(few units beside the locked pawns) and where unwinnability is common.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import chess

# the random-position generators shared with the tests (tests/positions.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from positions import sparse_position

WHITE_PAWN = chess.Piece(chess.PAWN, chess.WHITE)
BLACK_PAWN = chess.Piece(chess.PAWN, chess.BLACK)


def _chain(board: chess.Board, rng: random.Random, files: list[int]) -> None:
    """Rammed pawn pairs on `files` (consecutive), neighbouring files one rank apart so that
    no pawn of the chain can take another."""
    rank = rng.randrange(1, 6)
    for f in files:
        board.set_piece_at(chess.square(f, rank), WHITE_PAWN)
        board.set_piece_at(chess.square(f, rank + 1), BLACK_PAWN)
        step = rng.choice((-1, 1))
        if not 1 <= rank + step <= 5:
            step = -step
        rank += step


def _empty(board: chess.Board) -> list[chess.Square]:
    return [sq for sq in chess.SQUARES if board.piece_at(sq) is None]


def _kings(board: chess.Board, rng: random.Random) -> bool:
    free = _empty(board)
    rng.shuffle(free)
    board.set_piece_at(free[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(free[1], chess.Piece(chess.KING, chess.BLACK))
    board.turn = rng.random() < 0.5
    return board.is_valid()


def partial_chain(rng: random.Random) -> chess.Board:
    """A blocked chain over three to eight neighbouring files, kings anywhere: where the chain
    leaves a way round, a king may go round and take pawns; where not, it is a wall."""
    while True:
        board = chess.Board(None)
        width = rng.randrange(3, 9)
        first = rng.randrange(0, 9 - width)
        _chain(board, rng, list(range(first, first + width)))
        if _kings(board, rng):
            return board


def chain_with_bishops(rng: random.Random) -> chess.Board:
    """A blocked chain over six to eight files, kings anywhere, and a bishop for one or both
    sides: bishops of one colour may or may not reach a square where a pawn can take them."""
    while True:
        board = chess.Board(None)
        width = rng.randrange(6, 9)
        first = rng.randrange(0, 9 - width)
        _chain(board, rng, list(range(first, first + width)))
        free = _empty(board)
        rng.shuffle(free)
        for color in chess.COLORS:
            if rng.random() < 0.7:
                board.set_piece_at(free.pop(), chess.Piece(chess.BISHOP, color))
        if _kings(board, rng):
            return board


def stalemate_trap(rng: random.Random) -> chess.Board:
    """A king with at most one legal move, against a queen, rook or pawn and king: the game may
    be forced into a stalemate or a capture of the last unit before any mate."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        lone = rng.random() < 0.5
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, lone))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, not lone))
        for _ in range(rng.randrange(1, 3)):
            sq = squares.pop()
            kind = rng.choice((chess.QUEEN, chess.ROOK, chess.PAWN, chess.PAWN))
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, not lone))
        board.turn = lone
        if board.is_valid() and board.legal_moves.count() <= 1 and not board.is_checkmate():
            return board


def forced_replies(rng: random.Random) -> chess.Board:
    """Kings and a few pawns and minor pieces where the side to move has one legal move and
    its opponent then few: long forced sequences."""
    kinds = [chess.PAWN, chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP]
    return sparse_position(rng, kinds, (2, 5), lambda b: b.legal_moves.count() == 1)
