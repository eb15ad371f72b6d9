"""Hand-built positions of each kind of unwinnability (FIDE 6.9, 5.2.2, 7.5.5), both ways.

Each "cannot mate" comes with its reason in words; each look-alike that a pawn break or a
forced capture opens stays winnable, with its helpmate line replayed. A flag falling in a
blocked position is a draw with the reason on the game_over ruling; one pawn break away from
a win, a loss. A property test checks random gapped walls against a bounded helpmate search.
"""

from __future__ import annotations

import io
import random

import chess
import pytest
from event_script import Script, of, over

from arbiter.cli.position import explain
from rules.winnability import analyse, find_helpmate, why_cannot_mate

WHITE, BLACK = chess.WHITE, chess.BLACK

#: a closed wall: every file holds a white pawn rammed by a black one, no capture possible
CLOSED_WALL = "7k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1"
#: the same wall with a light bishop each side: the bishops never reach the other half
WALL_WITH_BISHOPS = "5b1k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K4B2 w - - 0 1"
#: the same wall with the black e-pawn back on e6: White's e4-e5+ opens it (a pawn break)
WALL_WITH_A_BREAK = "7k/8/4p3/p1p3p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1"
#: Black to move must take the last white unit: bare kings follow (a forced capture)
FORCED_CAPTURE = "8/8/8/8/8/8/6Q1/4K2k b - - 0 1"
#: the black king, to move, is stalemated in the corner: the game ends, nobody mates
STALEMATE_CORNER = "k7/P7/1K6/8/8/8/8/8 b - - 0 1"
#: the same with White to move: Kc5 Kb7, a8=Q+ frees the pawn and a mate follows
STALEMATE_CORNER_WHITE_TO_MOVE = "k7/P7/1K6/8/8/8/8/8 w - - 0 1"


def replays_to_mate(fen: str, color: chess.Color) -> bool:
    board = chess.Board(fen)
    line = find_helpmate(board, color, 20_000)
    if line is None:
        return False
    for move in line:
        assert move in board.legal_moves
        board.push(move)
    return board.is_checkmate() and board.turn != color


@pytest.mark.parametrize("fen", [CLOSED_WALL, WALL_WITH_BISHOPS])
def test_blocked_walls_are_dead_with_a_reason(fen: str) -> None:
    result = analyse(chess.Board(fen))
    assert result.white is False and result.black is False
    for color in chess.COLORS:
        reason = why_cannot_mate(chess.Board(fen), color)
        assert reason is not None and "blocked" in reason and "king can only ever reach" in reason


def test_bishop_colour_is_named() -> None:
    reason = why_cannot_mate(chess.Board(WALL_WITH_BISHOPS), WHITE)
    assert reason is not None and "light squares only" in reason


def test_a_pawn_break_keeps_the_wall_winnable() -> None:
    assert analyse(chess.Board(WALL_WITH_A_BREAK), budget=20_000).white is True
    assert replays_to_mate(WALL_WITH_A_BREAK, WHITE)
    assert why_cannot_mate(chess.Board(WALL_WITH_A_BREAK), WHITE) is None


def test_forced_capture_leaves_bare_kings() -> None:
    board = chess.Board(FORCED_CAPTURE)
    assert board.legal_moves.count() == 1
    assert analyse(board).white is False
    reason = why_cannot_mate(board, WHITE)
    assert reason is not None and "examined" in reason


def test_stalemated_corner_king_cannot_be_mated() -> None:
    assert analyse(chess.Board(STALEMATE_CORNER)).white is False
    assert why_cannot_mate(chess.Board(STALEMATE_CORNER), BLACK) == "Black has only the king"


def test_the_same_corner_with_white_to_move_stays_winnable() -> None:
    assert replays_to_mate(STALEMATE_CORNER_WHITE_TO_MOVE, WHITE)


def test_flag_in_a_blocked_position_is_a_draw_with_the_reason() -> None:
    r = Script(CLOSED_WALL, time_control="60").tick(61).rulings()
    assert of(r, "flag", side="white")
    assert over(r) == ("1/2-1/2", "time_dead_position")
    ruling = of(r, "game_over")[0]
    assert "blocked" in (ruling.explanation or "")


def test_flag_one_pawn_break_away_from_a_win_is_a_loss() -> None:
    r = Script(WALL_WITH_A_BREAK, time_control="60").tick(61).rulings()
    assert over(r) == ("0-1", "time")
    assert of(r, "game_over")[0].explanation is None


def test_explain_command_names_the_reason() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert explain(WALL_WITH_BISHOPS, out, err, budget=2500, as_json=False) == 0
    text = out.getvalue()
    assert "dead position" in text and "light squares only" in text
    out = io.StringIO()
    assert explain("8/8/8/8/8/8/8", out, err, budget=10, as_json=False) == 1
    assert "arbiter position" in err.getvalue()


def _gapped_wall(rng: random.Random) -> chess.Board:
    """A closed wall of alternating ranks with one black pawn moved back a rank (a gap), the
    kings on their own sides and maybe a bishop each side."""
    while True:
        board = chess.Board(CLOSED_WALL)
        gap = rng.randrange(8)
        for sq in chess.scan_forward(board.pieces_mask(chess.PAWN, BLACK)):
            if chess.square_file(sq) == gap and rng.random() < 0.7:
                board.remove_piece_at(sq)
                board.set_piece_at(sq + 8, chess.Piece(chess.PAWN, BLACK))
        for color, ranks in ((WHITE, (0, 1)), (BLACK, (6, 7))):
            king = board.king(color)
            assert king is not None
            board.remove_piece_at(king)
            free = [
                s for s in chess.SQUARES if chess.square_rank(s) in ranks and not board.piece_at(s)
            ]
            board.set_piece_at(rng.choice(free), chess.Piece(chess.KING, color))
            if rng.random() < 0.5:
                free = [s for s in free if not board.piece_at(s)]
                board.set_piece_at(rng.choice(free), chess.Piece(chess.BISHOP, color))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            return board


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


@pytest.mark.parametrize("seed", range(4))
def test_cannot_mate_never_where_a_short_helpmate_exists(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        board = _gapped_wall(rng)
        result = analyse(board, budget=300)
        for color in chess.COLORS:
            if result.side(color) is False:
                assert not _mates_within(board.copy(), color, 3), board.fen()


def test_resignation_in_a_blocked_position_is_a_draw_with_the_reason() -> None:
    r = Script(CLOSED_WALL).resign("white").rulings()
    assert over(r) == ("1/2-1/2", "resignation_dead_position")
    assert "blocked" in (of(r, "game_over")[0].explanation or "")
    r = Script(WALL_WITH_A_BREAK).resign("white").rulings()
    assert over(r) == ("0-1", "resignation")
    assert of(r, "game_over")[0].explanation is None


def test_second_illegal_move_against_a_lone_king_is_a_draw_with_the_reason() -> None:
    s = Script("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").lift("a1").place("b2", "R").press("white")
    r = s.lift("b2").place("b3", "R").press("white").rulings()
    assert over(r) == ("1/2-1/2", "illegal_moves_dead_position")
    assert of(r, "game_over")[0].explanation == "Black has only the king"
