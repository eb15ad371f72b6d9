"""The helpmate search's move generation (`rules.winnability.guide`): the same moves, scores
and order as scoring python-chess's own moves one at a time (FIDE 5.2.2, 6.9, 7.5.5).

Why it matters: the search breaks ties in score by the order of generation and reads its
answers against a budget in positions, so a move generated in another order, a move left out
or a score off by one rounding would change which positions are expanded, and so an answer
("undecided" where it was "can mate"). `Guide.children` generates the moves from the bitboards
out of check; `Guide._scored` scores python-chess's own moves one at a time, the way the
search did before. Positions: random games (castling, en passant), sparse random positions
with pawns about to promote, and every kind of piece on both sides.
"""

from __future__ import annotations

import random

import chess
import pytest
from positions import played_position, sparse_position

from rules.winnability.guide import IRREVERSIBLE, Guide, _candidate_moves, decode, encode


def _random_game(rng: random.Random) -> chess.Board:
    return played_position(rng, (1, 100)).copy(stack=False)


def _sparse(rng: random.Random) -> chess.Board:
    return sparse_position(rng, SPARSE_KINDS, (1, 8))


#: pawns drawn twice as often as each piece
SPARSE_KINDS = (chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


@pytest.mark.parametrize("make", [_random_game, _sparse])
def test_generated_children_match_the_reference(make) -> None:
    rng = random.Random(19)
    compared = 0
    for _ in range(400):
        board = make(rng)
        check = board.is_check()
        for winner in chess.COLORS:
            guide = Guide(board, winner)
            got = guide.children(board, check)
            kl, kw = board.king(not winner), board.king(winner)
            assert kl is not None and kw is not None
            moves = list(board.generate_legal_moves()) if check else _candidate_moves(board)
            assert got == guide._scored(board, moves, kl, kw), board.fen()
            for _, code in got:
                move = decode(code)
                assert encode(board, move) == code
                irreversible = board.is_capture(move) or board.pawns & (1 << move.from_square)
                assert bool(code & IRREVERSIBLE) == bool(irreversible)
            compared += 1
    assert compared == 800


def test_ties_keep_python_chess_order() -> None:
    """Two knights' moves of equal score come in python-chess's order (h8 down)."""
    board = chess.Board("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")
    guide = Guide(board, chess.WHITE)
    got = [decode(code) for _, code in guide.children(board, False)]
    assert got == _candidate_moves(board)
