"""The helpmate search plays its moves on the bitboards (`rules.winnability.search.play`), not
with python-chess's `Board.push`: it must leave exactly the position `push` leaves (FIDE 5.2.2,
6.9, 7.5.5).

Why it matters: the search's answers, its helpmate lines and the positions it expands rest on
the positions it plays; a bitboard, a halfmove clock, an en passant square or a promoted mask
that differs from python-chess's would change a position's identity (9.2.3), a legality check
or the order of the search. Positions: random games (en passant, promotions, castling rights,
for which `play` declines) and sparse random positions with pawns about to promote.
"""

from __future__ import annotations

import random

import chess
import pytest
from positions import played_position, sparse_position

from rules.winnability.guide import encode
from rules.winnability.search import play, snapshot

KINDS = (chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def _random_game(rng: random.Random) -> chess.Board:
    return played_position(rng, (1, 120)).copy(stack=False)


def _sparse(rng: random.Random) -> chess.Board:
    return sparse_position(rng, KINDS, (1, 8))


@pytest.mark.parametrize("make", [_random_game, _sparse])
def test_play_leaves_the_position_push_leaves(make) -> None:
    rng = random.Random(19)
    played = declined = 0
    for _ in range(300):
        board = make(rng)
        state = snapshot(board)
        for move in board.generate_pseudo_legal_moves():
            after = play(state, encode(board, move))
            if after is None:
                assert board.castling_rights
                declined += 1
                continue
            pushed = board.copy(stack=False)
            pushed.push(move)
            assert after == snapshot(pushed), (board.fen(), move.uci())
            played += 1
    assert played > 2000
    if make is _random_game:
        assert declined > 0


def test_play_en_passant_and_promotions() -> None:
    for fen, uci in (
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"),
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2", "d4e3"),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 2", "a7b8n"),
        ("4k3/8/8/8/8/8/p7/1R2K3 b - - 3 9", "a2a1q"),
        ("4k3/8/8/8/8/8/3P4/4K3 w - - 5 9", "d2d4"),
    ):
        board = chess.Board(fen)
        move = chess.Move.from_uci(uci)
        after = play(snapshot(board), encode(board, move))
        board.push(move)
        assert after == snapshot(board), (fen, uci)


def test_play_keeps_the_promoted_mask() -> None:
    """A promoted unit that moves, and one that is taken, as python-chess keeps them."""
    board = chess.Board("1n2k3/P7/8/8/8/8/6p1/4K2R w - - 0 2")
    board.push(chess.Move.from_uci("h1h2"))
    board.push(chess.Move.from_uci("g2g1q"))
    board.push(chess.Move.from_uci("a7b8q"))
    assert board.promoted
    for uci in ("g1h2", "e1f1", "h2b8"):  # black's new queen takes, then takes the new one
        move = chess.Move.from_uci(uci)
        after = play(snapshot(board), encode(board, move))
        board.push(move)
        assert after == snapshot(board), uci
