"""Winnability (FIDE 5.2.2, 6.9, 7.5.5, 5.1.2): sound "cannot mate" proofs, checked helpmates.

Cases follow the ideas of the Chess Unwinnability Analyzer (Ambrona, 2022): insufficient
material, minor-piece helpmates, pawn walls that no piece can cross, bishops confined behind
their own pawns, forced captures, and the scenarios of fide-laws.md. Every True answer is
re-checked by playing its helpmate line with python-chess; False answers are cross-checked by
an independent brute-force helpmate search on random positions.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import played_position

from rules.errors import PositionError
from rules.winnability import (
    Winnability,
    analyse,
    board_from_fen,
    can_mate,
    decide,
    find_helpmate,
    may_be_dead,
)
from rules.winnability.screen import _certified, is_certified
from rules.winnability.static import cannot_mate, fixed_pawns

BUDGET = 20_000  # generous, so that the cases below are decided, not undecided

WHITE, BLACK = chess.WHITE, chess.BLACK


def assert_mates(fen: str, color: chess.Color, budget: int = BUDGET) -> list[chess.Move]:
    """The helpmate found for `color` is a legal series that ends with `color` mating."""
    board = chess.Board(fen)
    line = find_helpmate(board, color, budget)
    assert line is not None, f"no helpmate found for {'White' if color else 'Black'} in {fen}"
    for move in line:
        assert move in board.legal_moves, f"{move} is illegal in {board.fen()}"
        board.push(move)
    assert board.is_checkmate(), f"line {line} does not end in mate"
    assert board.turn != color, "the wrong side is mated"
    return line


def brute_force_mates(board: chess.Board, color: chess.Color, plies: int) -> bool:
    """Independent, unpruned check: does some series of at most `plies` legal moves end with
    `color` mating? (No ordering, no transposition table, no shared code.)"""
    if board.is_checkmate():
        return board.turn != color
    if plies == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        found = brute_force_mates(board, color, plies - 1)
        board.pop()
        if found:
            return True
    return False


# ---------------------------------------------------------------- material only


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",  # K v K
        "8/8/4k3/8/8/3K4/8/6B1 b - - 0 1",  # K+B v K
        "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1",  # K+N v K
        "8/8/8/3k4/8/3b4/8/4KB2 w - - 0 80",  # same-coloured bishops (scenario 46)
        "8/1b6/8/3k4/8/3b4/8/4KB2 w - - 0 80",  # three bishops, one colour
    ],
)
def test_insufficient_material_is_dead(fen: str) -> None:
    result = analyse(chess.Board(fen))
    assert result == Winnability(white=False, black=False)
    assert result.dead is True
    assert may_be_dead(chess.Board(fen))


@pytest.mark.parametrize(
    ("name", "fen"),
    [
        ("K+N v K+N", "8/8/4k3/2n5/8/3K1N2/8/8 w - - 0 1"),
        ("K+B v K+N", "8/8/8/3k4/8/2n5/8/4KB2 w - - 0 80"),
        ("opposite bishops", "8/8/4k3/2b5/8/3K1B2/8/8 w - - 0 1"),
        ("K+N v K+P", "8/8/8/4k3/8/1p6/8/K2N4 w - - 0 1"),
    ],
)
def test_minor_piece_endings_are_not_dead(name: str, fen: str) -> None:
    result = analyse(chess.Board(fen), budget=BUDGET)
    assert result.dead is False, name
    for color in (WHITE, BLACK):
        if result.side(color):
            assert_mates(fen, color)


def test_both_sides_mate_with_minor_pieces() -> None:
    # Helpmates exist for both sides here (FIDE 5.2.2 commentary in fide-laws.md).
    for fen in ("8/8/4k3/2n5/8/3K1N2/8/8 w - - 0 1", "8/8/4k3/2b5/8/3K1B2/8/8 w - - 0 1"):
        assert_mates(fen, WHITE)
        assert_mates(fen, BLACK)


# ---------------------------------------------------------------- fide-laws.md scenarios


def test_scenario_44_lone_king_cannot_mate_the_queen() -> None:
    fen = "8/8/8/4k3/8/8/3QK3/8 w - - 0 60"
    board = chess.Board(fen)
    assert can_mate(board, BLACK) is False  # White's flag: ½-½ (6.9)
    assert can_mate(board, WHITE) is True  # Black's flag: 1-0
    assert_mates(fen, WHITE)


def test_scenario_45_knight_mates_because_the_pawn_blocks() -> None:
    fen = "7k/7p/8/8/8/8/8/4K1N1 b - - 0 70"
    board = chess.Board(fen)
    assert can_mate(board, WHITE, budget=BUDGET) is True  # Black's flag: 1-0
    assert can_mate(board, BLACK, budget=BUDGET) is True  # White's flag: 0-1
    assert_mates(fen, WHITE)
    assert_mates(fen, BLACK)


def test_scenario_46_knight_v_bishop_then_same_coloured_bishops() -> None:
    fen = "8/8/8/3k4/8/2n5/8/4KB2 w - - 0 80"
    assert can_mate(chess.Board(fen), BLACK, budget=BUDGET) is True  # W's flag: 0-1
    assert_mates(fen, BLACK)
    dead = analyse(chess.Board("8/8/8/3k4/8/3b4/8/4KB2 w - - 0 80"))
    assert dead.dead is True  # 5.2.2: ½-½ at once


def test_scenario_57_resignation_against_a_lone_king() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")
    assert can_mate(board, WHITE) is True  # Black resigns: 1-0
    assert can_mate(board, BLACK) is False  # White resigns: ½-½ (5.1.2)


def test_scenario_28_lone_king_against_rook_and_against_pawn() -> None:
    assert can_mate(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), BLACK) is False
    assert can_mate(chess.Board("4k3/8/8/8/8/8/p7/R3K3 w - - 0 1"), BLACK) is True


# ---------------------------------------------------------------- pawn walls

WALL = "1p1p1p1p/pPpPpPpP/P1P1P1P1"  # ranks 5, 4, 3: a wall no king can cross


@pytest.mark.parametrize(
    "fen",
    [
        f"4k3/8/8/{WALL}/8/4K3 w - - 0 1",
        f"k7/8/8/{WALL}/8/K7 b - - 0 1",
        "7k/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1",  # kings kept off rank 4/5 by pawn attacks
        # bishops that could only be sacrificed on squares of the other colour
        f"4k3/8/4b3/{WALL}/8/2B1K3 w - - 0 1",
        f"4k3/3b1b2/2b1b3/{WALL}/8/B1B3BK w - - 0 1",
    ],
)
def test_blocked_pawn_walls_are_dead(fen: str) -> None:
    result = analyse(chess.Board(fen))
    assert result == Winnability(white=False, black=False), fen
    assert may_be_dead(chess.Board(fen))


@pytest.mark.parametrize(
    "fen",
    [
        # a light bishop can be sacrificed on b3/d3/f3/h3, a pawn takes it, the wall opens
        f"4k3/8/4b3/{WALL}/8/3BK3 w - - 0 1",
        # one lever: h-pawns not facing each other
        "4k3/8/8/1p1p1p2/pPpPpPpp/P1P1P1P1/7P/4K3 w - - 0 1",
        # the a-pawn is gone: the kings walk round the wall
        "k7/8/8/1p1p1p1p/1PpPpPpP/2P1P1P1/p7/K7 w - - 0 1",
    ],
)
def test_walls_with_a_way_through_are_not_dead(fen: str) -> None:
    result = analyse(chess.Board(fen), budget=BUDGET)
    assert result.dead is False, fen
    for color in (WHITE, BLACK):
        if result.side(color):
            assert_mates(fen, color)


@pytest.mark.parametrize(
    "fen",
    [
        # A white bishop shut in behind the black pawns: it can check the black king, but
        # every square where it could do so keeps a flight square nothing can ever cover.
        # (Each was confirmed by an exhaustive walk of all reachable positions.)
        "8/p2k4/Pp3pBp/1Pp1pPpP/2PpP1P1/3P4/5K2/8 w - - 0 1",
        "Bk6/6p1/5pPp/4pP1P/1p1pP3/pPpP2K1/P1P5/8 b - - 0 1",
        "k7/2p1pBp1/1pPpPpPp/pP1P1P1P/P7/8/8/4K3 b - - 0 1",
    ],
)
def test_bishop_that_checks_but_never_mates(fen: str) -> None:
    board = chess.Board(fen)
    assert brute_force_mates(board.copy(), WHITE, 3) is False
    assert can_mate(board, WHITE) is False
    assert analyse(board).dead is True


def test_fixed_pawns_of_a_closed_wall_are_all_of_them() -> None:
    board = chess.Board(f"4k3/8/4b3/{WALL}/8/2B1K3 w - - 0 1")
    fixed, _, _ = fixed_pawns(board)
    assert fixed == board.pawns


def test_a_bishop_that_can_be_sacrificed_unfixes_the_wall() -> None:
    # The light bishop can go to b3/d3/f3/h3, where a black pawn may take it.
    board = chess.Board(f"4k3/8/4b3/{WALL}/8/3BK3 w - - 0 1")
    fixed, _, _ = fixed_pawns(board)
    assert fixed != board.pawns
    assert not cannot_mate(board, WHITE)
    assert not cannot_mate(board, BLACK)


def test_static_proof_never_claims_a_side_that_can_check() -> None:
    # Open board: the queen checks at once; nothing may be proven.
    board = chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert not cannot_mate(board, WHITE)
    assert cannot_mate(board, BLACK)  # a bare king never gives check


def test_forced_capture_into_bare_kings_is_dead() -> None:
    # White's only legal move is Kxh2: K v K. Nobody can mate.
    board = chess.Board("8/8/8/8/8/5k2/7p/7K w - - 0 1")
    assert analyse(board) == Winnability(white=False, black=False)


def test_forced_capture_that_opens_the_wall_is_not_dead() -> None:
    # Black's king slipped behind the wall; its only legal move, Kxg3, opens the wall.
    fen = "8/8/8/1p1p1p1p/pPpPpPpP/P1P1P1Pk/8/7K b - - 0 1"
    board = chess.Board(fen)
    assert [board.san(m) for m in board.legal_moves] == ["Kxg3"]
    result = analyse(board, budget=BUDGET)
    assert result.dead is False
    for color in (WHITE, BLACK):
        if result.side(color):
            assert_mates(fen, color)


def test_only_the_weaker_side_can_mate() -> None:
    # Queen and rook against a knight: the knight mates with the white pieces as blockers.
    fen = "4k3/8/8/8/8/2n5/8/QR2K3 w - - 0 1"
    assert can_mate(chess.Board(fen), BLACK, budget=BUDGET) is True
    assert_mates(fen, BLACK)


def test_stalemate_is_not_a_mate_for_anyone() -> None:
    board = chess.Board("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1")
    assert board.is_stalemate()
    assert analyse(board) == Winnability(white=False, black=False)


def test_stalemate_trap_is_not_dead() -> None:
    # 1.a7 stalemates at once, but other lines let the pawn queen and mate (Black helping).
    fen = "k7/8/PK6/8/8/8/8/8 w - - 0 1"
    board = chess.Board(fen)
    trap = board.copy()
    trap.push_san("a7")
    assert trap.is_stalemate()
    assert analyse(board) == Winnability(white=True, black=False)
    assert_mates(fen, WHITE)


def test_checkmate_on_the_board() -> None:
    board = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    assert analyse(board) == Winnability(white=True, black=False)
    assert find_helpmate(board, WHITE) == []


def test_undecided_when_the_budget_is_tiny() -> None:
    board = chess.Board()
    assert can_mate(board, WHITE, budget=1) is None
    assert analyse(board, budget=1).dead is None


def test_dead_property() -> None:
    assert Winnability(True, None).dead is False
    assert Winnability(None, True).dead is False
    assert Winnability(False, None).dead is None
    assert Winnability(False, False).dead is True


def test_bad_fen_raises_position_error() -> None:
    with pytest.raises(PositionError, match="bogus"):
        board_from_fen("bogus")
    with pytest.raises(PositionError, match="no white king"):
        board_from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1")


def test_start_position_both_can_mate() -> None:
    assert_mates(chess.STARTING_FEN, WHITE, budget=BUDGET)
    assert_mates(chess.STARTING_FEN, BLACK, budget=BUDGET)


# ---------------------------------------------------------------- may_be_dead screen


def test_may_be_dead_false_in_an_open_position() -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4")
    assert may_be_dead(board) is False


def test_may_be_dead_true_when_forced() -> None:
    assert may_be_dead(chess.Board("8/8/8/8/8/5k2/7p/7K w - - 0 1"))


def test_may_be_dead_false_by_triangulation_after_a_quiet_move() -> None:
    # The position before the quiet move is certified by decide(); the screen then reaches
    # it back (opponent's quiet move, knight back, opponent back) without any search.
    _certified.clear()
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    firsts = set()
    for color in (WHITE, BLACK):
        answer, line = decide(board, color)
        assert answer is True and line
        firsts.add(line[0])
    quiet = next(
        m
        for m in board.legal_moves
        if board.piece_type_at(m.from_square) == chess.KNIGHT
        and not board.is_capture(m)
        and m not in firsts
    )
    board.push(quiet)
    before = (board.fen(), list(board.move_stack))
    assert not is_certified(board)
    assert may_be_dead(board) is False
    assert (board.fen(), list(board.move_stack)) == before  # the board is left as it was
    assert is_certified(board)


def test_may_be_dead_true_for_every_dead_case_here() -> None:
    _certified.clear()
    for fen in (
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        f"4k3/8/8/{WALL}/8/4K3 w - - 0 1",
        "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1",  # stalemate
    ):
        assert may_be_dead(chess.Board(fen)), fen


# ---------------------------------------------------------------- random soundness checks


def _random_game_position(rng: random.Random) -> chess.Board:
    return played_position(rng, (0, 120))


def _random_material_position(rng: random.Random) -> chess.Board:
    """Kings, a few pieces, sometimes part of a wall: many answers here are False."""
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        if rng.random() < 0.5:
            for f in range(8):
                if rng.random() < 0.8:
                    r = rng.randrange(2, 5)
                    board.set_piece_at(chess.square(f, r), chess.Piece(chess.PAWN, WHITE))
                    board.set_piece_at(chess.square(f, r + 1), chess.Piece(chess.PAWN, BLACK))
        free = [s for s in squares if board.piece_at(s) is None]
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, WHITE))
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, BLACK))
        for _ in range(rng.randrange(0, 3)):
            kind = rng.choice([chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.PAWN])
            sq = free.pop()
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), endgame=st.booleans())
def test_random_positions_false_means_no_short_helpmate(seed: int, endgame: bool) -> None:
    rng = random.Random(seed)
    board = _random_material_position(rng) if endgame else _random_game_position(rng)
    plies = 4 if endgame else 2
    for color in (WHITE, BLACK):
        answer, line = decide(board, color, budget=1500)
        if answer is False:
            assert not brute_force_mates(board.copy(), color, plies), board.fen()
        elif answer is True:
            assert line is not None
            replay = board.copy()
            for move in line:
                assert move in replay.legal_moves
                replay.push(move)
            assert replay.is_checkmate() and replay.turn != color
    if may_be_dead(board) is False:
        assert analyse(board, budget=1500).dead is not True, board.fen()
