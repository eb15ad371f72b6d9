"""A lone king against enough material: the helpmate is found within the ruling's budget
(FIDE 6.9: a flag there loses; issue 19: "undecided" only where the analysis truly cannot
tell, not in an ending every arbiter knows).

K+B+N v K was left undecided in about a fifth of random positions (the search's guide drove
the lone king to a corner faster than the winner's king could follow); these are some of
them, and random positions of the classic bare-king endings, every helpmate line replayed
with python-chess.
"""

from __future__ import annotations

import random

import chess
import pytest

from rules import ending
from rules.events import Start, Tick
from rules.game import Game
from rules.winnability import ahead, decide

#: K+B+N v K positions left undecided before (White to mate)
ONCE_UNDECIDED = [
    "3N4/8/5k2/K7/8/8/8/3B4 w - - 0 1",
    "8/3B1N2/5k2/8/8/8/8/2K5 b - - 0 1",
    "4B3/3N4/8/3K1k2/8/8/8/8 w - - 0 1",
    "4B3/8/8/N7/8/6K1/8/1k6 b - - 0 1",
    "3k4/8/5N2/3KB3/8/8/8/8 b - - 0 1",
    "5N1k/8/8/5B2/4K3/8/8/8 b - - 0 1",
]


def _mates(board: chess.Board, line: list[chess.Move], color: chess.Color) -> bool:
    board = board.copy()
    for move in line:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != color


@pytest.mark.parametrize("fen", ONCE_UNDECIDED)
def test_bishop_and_knight_mate_within_the_rulings_budget(fen: str) -> None:
    ahead.forget()
    board = chess.Board(fen)
    found, line = decide(board, chess.WHITE, ending.RULING_BUDGET)
    assert found is True and line is not None and _mates(board, line, chess.WHITE)


def _random(rng: random.Random, pieces: list[int]) -> chess.Board:
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(8, 56) if chess.PAWN in pieces else range(64), 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq, piece in zip(squares[2:], pieces, strict=True):
            board.set_piece_at(sq, chess.Piece(piece, chess.WHITE))
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid() and not board.is_game_over():
            return board


@pytest.mark.parametrize(
    "pieces",
    [
        [chess.BISHOP, chess.KNIGHT],
        [chess.KNIGHT, chess.KNIGHT],
        [chess.BISHOP, chess.BISHOP],
        [chess.BISHOP, chess.PAWN],
        [chess.KNIGHT, chess.PAWN],
    ],
    ids=["KBN", "KNN", "KBB", "KBP", "KNP"],
)
def test_bare_king_endings_are_decided_with_a_replayed_mate(pieces: list[int]) -> None:
    rng = random.Random(len(pieces) * 100 + sum(pieces))
    for _ in range(25):
        board = _random(rng, pieces)
        ahead.forget()
        found, line = decide(board, chess.WHITE, ending.RULING_BUDGET)
        assert found is True, board.fen()
        assert line is not None and _mates(board, line, chess.WHITE), board.fen()


def test_a_flag_against_bishop_and_knight_loses() -> None:
    """Black's flag falls with White's K+B+N against the bare king: 0-1 is not in doubt, the
    game is lost on time (6.9), not held for the arbiter."""
    ahead.forget()
    game = Game(Start(t=0.0, fen="5N1k/8/8/5B2/4K3/8/8/8 b - - 0 1", time_control="60"))
    rulings = game.handle(Tick(t=61.0))
    assert [r.type for r in rulings] == ["flag", "game_over", "clock"]
    assert game.result == "1-0"
