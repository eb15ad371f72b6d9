"""The SAN and FEN of every `move` ruling are python-chess's own (`Board.san`, `Board.fen`),
check and mate marks and castling rights included: the rules core writes them without
python-chess's legal-move generations (`rules.state.san_without_check`, `sensed.fen_of`) and
must never differ; so are the legal moves it generates itself (`sensed.LegalMoves`)."""

from __future__ import annotations

import random
from collections.abc import Callable

import chess
import pytest

from rules.events import Start
from rules.state import GameState

#: positions where SAN needs care: disambiguation by file, rank and both, promotions with
#: check and mate, castling with check, en passant, mate by a pawn
POSITIONS = [
    "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "k7/8/8/8/1N3N2/8/8/4K3 w - - 0 1",
    "k7/8/3N4/8/3N4/8/8/4K3 w - - 0 1",
    "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1",
    "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "k7/2P5/1K6/8/8/8/8/8 w - - 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "k7/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "6rk/6pp/8/4N3/8/8/8/6K1 w - - 0 1",
    # a disambiguated mate (Nef7#, Ngf7#) and disambiguated checks (python-chess's own SAN
    # without its look-ahead, the suffix added by the rules core)
    "6rk/6pp/8/4N1N1/8/8/8/6K1 w - - 0 1",
    # pinned pieces: a pawn along the pin and across it, a knight, a rook along a diagonal pin
    "4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "6k1/8/8/8/1b6/2P5/3P4/4K3 w - - 0 1",
    "6k1/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
    "6k1/8/8/8/1q6/8/3R4/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/2p5/1N2K3 b - - 0 1",
]


def _random_play(state: GameState, rng: random.Random, plies: int) -> None:
    """Moves chosen at random, each checked: the ruling's SAN is `Board.san` before it."""
    for _ in range(plies):
        legal = list(state.board.legal_moves)
        if not legal:
            return
        move = rng.choice(legal)
        expected = state.board.san(move)
        side = "white" if state.board.turn else "black"
        _, ruling = state.stand(move, side, 1.0, 1.0, touches=[])
        assert ruling.san == expected, state.board.fen()
        assert ruling.fen == state.board.fen()


@pytest.mark.parametrize("fen", POSITIONS)
def test_san_of_every_move_from_special_positions(fen: str) -> None:
    board = chess.Board(fen)
    assert board.is_valid()
    for move in list(board.legal_moves):
        state = GameState(Start(t=0.0, fen=fen, time_control="-"))
        expected = board.san(move)
        side = "white" if board.turn else "black"
        _, ruling = state.stand(move, side, 1.0, 1.0, touches=[])
        assert ruling.san == expected, (fen, move.uci())
        assert ruling.fen == state.board.fen()


@pytest.mark.parametrize("seed", range(8))
def test_san_of_random_games(seed: int) -> None:
    state = GameState(Start(t=0.0, time_control="-"))
    _random_play(state, random.Random(seed), 300)


def test_a_pieces_legal_moves_are_python_chess_own() -> None:
    """`LegalMoves.from_mask` of one piece (its own fast path for knights, bishops, rooks and
    queens) gives `generate_legal_moves(from_mask=...)`: same moves, same order, pinned
    pieces and checks included, over random play."""
    from rules.sensed import LegalMoves

    rng = random.Random(7)
    checked = 0
    for fen in POSITIONS:
        board = chess.Board(fen)
        legal = LegalMoves(board)
        for sq in chess.scan_forward(board.occupied_co[board.turn]):
            mask = chess.BB_SQUARES[sq]
            assert list(legal.from_mask(mask)) == list(board.generate_legal_moves(from_mask=mask))
        for sq in chess.scan_forward(board.occupied_co[not board.turn]):
            mask = chess.BB_SQUARES[sq]
            assert legal.to_mask(mask) == list(board.generate_legal_moves(to_mask=mask))
    for _ in range(12):
        board = chess.Board()
        for _ in range(100):
            legal = LegalMoves(board)
            for sq in chess.scan_forward(board.occupied_co[board.turn]):
                mask = chess.BB_SQUARES[sq]
                assert list(legal.from_mask(mask)) == list(
                    board.generate_legal_moves(from_mask=mask)
                ), (board.fen(), chess.square_name(sq))
                checked += 1
            for sq in chess.scan_forward(board.occupied_co[not board.turn]):
                mask = chess.BB_SQUARES[sq]
                assert legal.to_mask(mask) == list(board.generate_legal_moves(to_mask=mask)), (
                    board.fen(),
                    chess.square_name(sq),
                )
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    assert checked > 8_000


def test_whether_a_legal_move_exists_is_python_chess_own() -> None:
    """`LegalMoves.any` (a free piece's attack answers at once) agrees with python-chess over
    random play, stalemates and mates included."""
    from rules.sensed import LegalMoves

    rng = random.Random(11)
    seen = set()
    for fen in [*POSITIONS, "7k/5Q2/5K2/8/8/8/8/8 b - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]:
        board = chess.Board(fen)
        assert LegalMoves(board).any() == any(board.generate_legal_moves()), fen
    for _ in range(25):
        board = chess.Board()
        for _ in range(160):
            has = any(board.generate_legal_moves())
            assert LegalMoves(board).any() == has, board.fen()
            seen.add(has)
            if not has:
                break
            board.push(rng.choice(list(board.legal_moves)))
    assert True in seen


#: kings beside attacked squares, with castling through and into attack, and pieces pinned
#: along a rank, a file and a diagonal
KING_POSITIONS = [
    "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1",
    "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
    "7k/8/8/3b4/8/8/R5B1/K6r w - - 0 1",
    # checks: to be blocked or taken, a double check, a pinned piece that cannot help
    "4k3/8/8/8/1b6/8/8/RN2K2R w KQ - 0 1",
    "4k3/8/8/8/1b6/5n2/8/RN2K2R w KQ - 0 1",
    "4r1k1/8/8/8/8/8/4R3/4K2r w - - 0 1",
    "4k3/8/8/8/8/5n2/3P4/4K3 w - - 0 1",
]


def _over_positions_and_play(
    check: Callable[[chess.Board], int], *, seed: int, games: int, plies: int
) -> int:
    """`check` on every special position, then on every position of `games` random games of
    up to `plies` plies; the sum of what it counted in the random games."""
    for fen in [*POSITIONS, *KING_POSITIONS]:
        check(chess.Board(fen))
    rng = random.Random(seed)
    asked = 0
    for _ in range(games):
        board = chess.Board()
        for _ in range(plies):
            asked += check(board)
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
    return asked


def test_one_pieces_moves_asked_square_by_square_are_python_chess_own() -> None:
    """`LegalMoves.has_move_from` and `moves_between` (their own tests for knights, bishops,
    rooks, queens and kings' steps) say what `generate_legal_moves(from_mask=...)` says:
    whether the piece has a move, and its moves to each square, in order; and `PieceMoves`
    holds exactly those moves. Over special positions and random play, fresh caches each
    time (nothing generated before the question)."""
    from rules.sensed import LegalMoves, PieceMoves

    def check(board: chess.Board) -> int:
        asked = 0
        for sq in chess.SQUARES:
            mask = chess.BB_SQUARES[sq]
            moves = list(board.generate_legal_moves(from_mask=mask))
            assert LegalMoves(board).has_move_from(sq) == bool(moves), (board.fen(), sq)
            if not board.occupied_co[board.turn] & mask:
                continue
            for to in chess.SQUARES:
                want = [m for m in moves if m.to_square == to]
                got = LegalMoves(board).moves_between(sq, to)
                assert got == want, (board.fen(), chess.square_name(sq), chess.square_name(to))
                asked += 1
            piece = PieceMoves(LegalMoves(board), sq)
            assert list(piece) == moves
            assert len(piece) == len(moves)
            for move in board.pseudo_legal_moves:
                assert (move in piece) == (move in moves), (board.fen(), move.uci())
        return asked

    assert _over_positions_and_play(check, seed=5, games=4, plies=80) > 100_000


def test_touch_move_duties_worked_out_quickly_are_those_of_all_moves() -> None:
    """`obligation_for` with the position's `LegalMoves` (one own piece: whether it can move;
    a capture's touches: the capturing moves alone) gives the duty worked out from all the
    touched pieces' moves (without them): same kind, squares, article and moves, for every
    one or two touched squares over special positions and random play, en passant included."""
    from rules.sensed import LegalMoves
    from rules.touch import obligation_for

    def check(board: chess.Board) -> int:
        occupied = list(chess.scan_forward(board.occupied))
        pairs = [[a] for a in chess.SQUARES] + [[a, b] for a in occupied for b in occupied]
        for touches in pairs:
            want = obligation_for(board, touches)
            got = obligation_for(board, touches, cache=LegalMoves(board))
            if want is None or got is None:
                assert want is got, (board.fen(), touches)
                continue
            assert got.key() == want.key(), (board.fen(), touches)
            assert got.rook_first == want.rook_first
            if want.allowed is None or got.allowed is None:
                assert want.allowed is got.allowed, (board.fen(), touches)
            else:
                assert set(got.allowed) == set(want.allowed), (board.fen(), touches)
        return len(pairs)

    assert _over_positions_and_play(check, seed=3, games=2, plies=50) > 50_000
