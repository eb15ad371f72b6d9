"""The 58 scenarios of spec/fide-laws.md, each as a physical event stream (named by number).

Default mode is claims-only (Article 4 breaches recorded, the move played stands); where a
scenario gives the observing outcome, it is checked in `strict` mode too.
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn
from event_script import Script, moves, of, over

CASTLE_FEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMO_FEN = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"


def test_scenario_01_touch_g1_then_e4() -> None:
    s = Script().lift("g1").place("g1", "N").lift("e2").place("e4", "P").press("white")
    r = s.rulings()
    assert of(r, "obligation", kind="move_piece", square="g1", article="4.3.1")
    assert of(r, "violation", kind="touch_move", square="g1", side="white")
    assert moves(r) == ["e2e4"]
    strict = Script().lift("g1").place("g1", "N").lift("e2").place("e4", "P").press("white")
    strict.lift("e4").place("e2", "P").lift("g1").place("f3", "N").press("white")
    rs = strict.rulings(strict=True)
    assert of(rs, "reinstate", reason="strict")
    assert moves(rs) == ["g1f3"]


def test_scenario_02_touched_piece_cannot_move() -> None:
    r = Script().touch("c1").lift("d2").place("d4", "P").press().rulings()
    assert of(r, "obligation", kind="none", article="4.5")
    assert not of(r, "violation")
    assert moves(r) == ["d2d4"]
    r = Script().touch("e7", "white").lift("d2").place("d4", "P").press().rulings()
    assert not of(r, "violation")


def test_scenario_03_opponent_piece_must_be_taken() -> None:
    s = Script().play("e4", "e5", "Nf3", "Nc6", "Bb5", "a6")
    s.touch("a6").lift("b5").place("a4", "B").press()
    r = s.rulings()
    assert of(r, "obligation", kind="capture_piece", square="a6", article="4.3.2")
    assert of(r, "violation", kind="touch_move", square="a6")


def test_scenario_04_first_touched_movable_piece() -> None:
    r = Script().touch("b1").lift("g1").place("f3", "N").press().rulings()
    assert of(r, "violation", kind="touch_move", square="b1")
    r = Script().touch("a1").touch("b1").lift("g1").place("f3", "N").press().rulings()
    assert of(r, "obligation", kind="move_piece", square="b1")
    assert of(r, "violation", kind="touch_move", square="b1")


def test_scenario_05_both_colours_capture_required() -> None:
    s = Script().play("e4", "d5").touch("e4").touch("d5").lift("e4").place("e5", "P").press()
    r = s.rulings()
    assert of(r, "obligation", kind="capture_piece", square="d5", **{"with": "e4"})
    assert of(r, "violation", kind="touch_move", article="4.3.3")


def test_scenario_06_capture_impossible_first_movable_piece() -> None:
    s = Script().play("e4", "e5", "Nf3", "Nc6")
    s.touch("f3").touch("c6").lift("f1").place("b5", "B").press()
    r = s.rulings()
    assert of(r, "obligation", kind="move_piece", square="f3", article="4.3.3")
    assert of(r, "violation", kind="touch_move", square="f3")


def test_scenario_07_simultaneous_touches_own_first() -> None:
    s = Script().play("e4", "d5")
    s.lift("d5").lift("e4", dt=0.05).place("e5", "P").press()
    r = s.rulings()
    assert of(r, "obligation", kind="capture_piece", square="d5", **{"with": "e4"})
    assert of(r, "violation", kind="touch_move")


def test_scenario_08_castling_king_first() -> None:
    s = Script(CASTLE_FEN).lift("e1").place("g1", "K").lift("h1").place("f1", "R").press()
    r = s.rulings()
    assert moves(r) == ["e1g1"]
    assert of(r, "obligation", kind="castle", rook="h1", article="4.4.1")
    assert not of(r, "violation") and not of(r, "illegal")
    move = of(r, "move")[0]
    assert move.made_at == 4.0


def test_scenario_09_rook_first_no_castling() -> None:
    s = Script(CASTLE_FEN).lift("h1").touch("e1").place("f1", "R").press()
    r = s.rulings()
    assert moves(r) == ["h1f1"]
    assert not of(r, "violation")
    s.lift("e1", side="white").place("g1", "K", side="white")
    r = s.rulings()
    assert of(r, "mismatch")
    assert of(r, "violation", side="white")


def test_scenario_10_castling_illegal_king_must_move() -> None:
    fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    r = Script(fen).touch("e1").touch("h1").lift("h1").place("g1", "R").press().rulings()
    ob = of(r, "obligation", kind="king_move", article="4.4.3")
    assert ob
    assert of(r, "violation", kind="touch_move")
    r = Script(fen).touch("e1").touch("h1").lift("e1").place("d2", "K").press().rulings()
    assert not of(r, "violation")


def test_scenario_11_king_released_castling_other_side() -> None:
    fen = "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1"
    s = Script(fen).lift("e1").place("g1", "K").lift("g1").place("c1", "K")
    s.lift("a1").place("d1", "R").press()
    r = s.rulings()
    assert moves(r) == ["e1c1"]
    assert not of(r, "violation") and not of(r, "illegal", completed=True)


def test_scenario_12_king_released_press_is_illegal() -> None:
    s = Script(CASTLE_FEN).lift("e1").place("g1", "K").press()
    s.lift("h1").place("f1", "R").press("white")
    r = s.rulings()
    ill = of(r, "illegal", completed=True)
    assert ill and ill[0].count == 1
    assert of(r, "penalty", kind="time_added", seconds=120.0, side="white")
    assert of(r, "reinstate", reason="illegal_move")
    assert moves(r) == ["e1g1"]


def test_scenario_13_king_without_moves_rook_does_not_bind() -> None:
    fen = "r3k2r/8/8/8/8/8/3PPP2/R2QKB1R w KQkq - 0 1"
    r = Script(fen).touch("e1").touch("h1").lift("d2").place("d4", "P").press().rulings()
    assert of(r, "obligation", kind="none", article="4.4.3")
    assert not of(r, "violation")


def test_scenario_14_two_hands_castling() -> None:
    s = Script(CASTLE_FEN).lift("e1").lift("h1", dt=0.05).place("g1", "K").place("f1", "R")
    s.press()
    r = s.rulings()
    assert moves(r) == ["e1g1"] and not of(r, "illegal")
    s.arbiter("two_hands", side="white")
    r = s.rulings()
    assert of(r, "illegal", completed=True, defect="two_hands", article="7.5.4")
    assert of(r, "penalty", kind="time_added", seconds=120.0)
    assert of(r, "obligation", kind="castle", side="white")


def test_scenario_15_promotion_pawn_first() -> None:
    s = Script(PROMO_FEN).lift("e7").place("e8", "P").lift("e8", dt=0.1).place("e8", "Q")
    r = s.press().rulings()
    assert moves(r) == ["e7e8q"] and not of(r, "illegal")


def test_scenario_16_underpromotion_without_visiting() -> None:
    r = Script(PROMO_FEN).lift("e7").place("e8", "N").press().rulings()
    assert moves(r) == ["e7e8n"] and not of(r, "violation")


def test_scenario_17_promotion_piece_fixed() -> None:
    s = Script(PROMO_FEN).lift("e7").place("e8", "R").lift("e8", dt=0.1).place("e8", "Q")
    r = s.press().rulings()
    assert of(r, "violation", kind="promotion_choice", article="4.4.4")
    assert moves(r) == ["e7e8q"]
    strict = Script(PROMO_FEN).lift("e7").place("e8", "R").lift("e8", dt=0.1).place("e8", "Q")
    strict.lift("e8").place("e8", "R").press()
    rs = strict.rulings(strict=True)
    assert of(rs, "reinstate", reason="strict")
    assert moves(rs) == ["e7e8r"]


def test_scenario_18_pawn_left_on_last_rank() -> None:
    r = Script(PROMO_FEN).lift("e7").place("e8", "P").press().rulings()
    ill = of(r, "illegal", completed=True, defect="not_promoted", article="7.5.2")
    assert ill and ill[0].count == 1
    assert of(r, "penalty", kind="time_added", seconds=120.0)
    assert moves(r) == ["e7e8q"]
    assert not of(r, "reinstate")


def test_scenario_19_promotion_with_capture() -> None:
    fen = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1"
    r = Script(fen).lift("d8").lift("e7").place("d8", "Q").press().rulings()
    assert moves(r) == ["e7d8q"] and not of(r, "illegal")


def test_scenario_20_en_passant() -> None:
    s = Script().play("e4", "Nf6", "e5", "d5")
    r = s.lift("e5").place("d6", "P").lift("d5").press().rulings()
    assert moves(r)[-1] == "e5d6" and not of(r, "illegal") and not of(r, "violation")


def test_scenario_21_en_passant_expired() -> None:
    s = Script().play("e4", "Nf6", "e5", "d5", "Nf3", "Nc6")
    s.lift("e5").place("d6", "P").lift("d5")
    r = s.rulings(finish=False)
    assert of(r, "illegal", completed=False)
    assert not of(r, "illegal", completed=True)
    assert of(r, "obligation", side="white", square="e5")
    s.press("white")
    r = s.rulings()
    assert of(r, "illegal", completed=True)
    assert of(r, "penalty", kind="time_added", seconds=120.0)
    assert of(r, "reinstate", reason="illegal_move")


def test_scenario_22_capture_taken_piece_first() -> None:
    s = Script().play("e4", "d5").lift("d5").lift("e4").place("d5", "P").press()
    r = s.rulings()
    assert moves(r)[-1] == "e4d5" and not of(r, "violation")
    assert of(r, "obligation", kind="capture_piece", square="d5", article="4.3.2")


def test_scenario_23_capture_required_mismatch() -> None:
    s = Script().play("e4", "d5").lift("e4").lift("d5").place("e5", "P").press()
    r = s.rulings()
    assert of(r, "violation", kind="touch_move", article="4.3.3")
    assert of(r, "mismatch")


def test_scenario_24_released_piece_stays() -> None:
    s = Script().lift("e2").place("e4", "P").lift("e4").place("e3", "P").tick(1)
    r = s.rulings(finish=False)
    assert moves(r) == ["e2e4"]
    assert of(r, "violation", kind="released", side="white")
    assert of(r, "mismatch")
    r = s.press("white").rulings()
    assert moves(r) == ["e2e4"]


def test_scenario_25_slid_over_square() -> None:
    s = Script().lift("g1").place("f3", "N").lift("f3", dt=0.1).place("h3", "N").press()
    r = s.rulings()
    assert moves(r) == ["g1h3"] and not of(r, "violation") and not of(r, "illegal")


def test_scenario_26_released_on_unreachable_square() -> None:
    s = Script().lift("b1").place("b3", "N").tick(1)
    r = s.rulings(finish=False)
    assert of(r, "illegal", completed=False)
    assert not of(r, "penalty")
    s.lift("b3").place("c3", "N").press()
    r = s.rulings()
    assert moves(r) == ["b1c3"] and not of(r, "violation")


def test_scenario_27_unreachable_then_press() -> None:
    s = Script().lift("b1").place("b3", "N").press("white")
    r = s.rulings()
    assert of(r, "illegal", completed=True, count=1)
    assert of(r, "penalty", kind="time_added", seconds=120.0, side="white")
    assert of(r, "penalty", kind="increment_removed", seconds=30.0)
    assert of(r, "reinstate", reason="illegal_move")
    clock = of(r, "clock")[-1]
    assert clock.running == "white"
    assert clock.black == 5400 + 120
    s.lift("b3").place("a3", "N").press("white")
    r = s.rulings()
    assert moves(r) == ["b1a3"] and not of(r, "violation")


def test_scenario_28_second_illegal_move() -> None:
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    s = Script(fen).lift("a1").place("b2", "R").press("white")
    s.lift("b2").place("b3", "R").press("white")
    r = s.rulings()
    assert of(r, "illegal", completed=True, count=2)
    assert over(r) == ("1/2-1/2", "illegal_moves_dead_position")
    fen = "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1"
    s = Script(fen).lift("a1").place("b2", "R").press("white")
    s.lift("b2").place("b3", "R").press("white")
    assert over(s.rulings()) == ("0-1", "illegal_moves")


def test_scenario_29_press_without_move() -> None:
    r = Script().press("white").rulings()
    assert of(r, "illegal", completed=True, defect="no_move", article="7.5.3", count=1)
    assert of(r, "penalty", kind="time_added", seconds=120.0)
    assert of(r, "clock")[-1].running == "white"


def test_scenario_30_wrong_hand_is_a_warning() -> None:
    s = Script().play("e4").arbiter("warning", side="white")
    r = s.rulings()
    assert of(r, "penalty", kind="warning", side="white")
    assert not of(r, "illegal")


def test_scenario_31_move_before_opponent_pressed() -> None:
    s = Script().play("e4", pressed=False).lift("e7").place("e5", "p").tick(1)
    r = s.rulings(finish=False)
    assert moves(r) == ["e2e4", "e7e5"]
    assert not of(r, "clock")
    s.press("white")
    r = s.rulings()
    assert of(r, "clock")[-1].running == "black"


def test_scenario_32_adjustment_declared() -> None:
    s = Script().adjust("white").lift("b1").place("b1", "N").lift("e2").place("e4", "P").press()
    r = s.rulings()
    assert not of(r, "obligation", square="b1") and not of(r, "violation")


def test_scenario_33_adjustment_too_late() -> None:
    s = Script().lift("b1").place("b1", "N").adjust("white").lift("e2").place("e4", "P").press()
    r = s.rulings()
    assert of(r, "obligation", square="b1", article="4.3.1")
    assert of(r, "violation", kind="touch_move", square="b1")


def test_scenario_34_adjusting_when_not_your_move() -> None:
    s = Script().lift("e7", side="black").place("e7", "p", side="black")
    r = s.rulings(finish=False)
    assert of(r, "violation", kind="not_your_move", side="black", square="e7")
    assert not of(r, "obligation", side="black")


def test_scenario_35_claim_after_touching_is_lost() -> None:
    s = Script().lift("g1").place("g1", "N").lift("e2").place("e4", "P").press("white")
    s.lift("e7").claim("black", "touch_move")
    r = s.rulings()
    assert of(r, "claim", kind="touch_move", valid=False, article="4.8")
    s2 = Script().lift("g1").place("g1", "N").lift("e2").place("e4", "P").press("white")
    s2.claim("black", "touch_move")
    r2 = s2.rulings()
    assert of(r2, "claim", kind="touch_move", valid=True)
    assert of(r2, "reinstate", reason="claim_upheld")


SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def test_scenario_36_threefold_claim_without_move() -> None:
    s = Script().play(*SHUFFLE, *SHUFFLE).claim("white", "threefold")
    r = s.rulings()
    assert of(r, "claim", valid=True, article="9.2.2")
    assert over(r) == ("1/2-1/2", "threefold_repetition")


def test_scenario_37_threefold_claim_with_intended_move() -> None:
    s = Script().play(*SHUFFLE, "Nf3", "Nf6", "Ng1").claim("black", "threefold", "f6g8")
    r = s.rulings()
    assert of(r, "claim", valid=True, article="9.2.1")
    s = Script().play(*SHUFFLE, *SHUFFLE).claim("black", "threefold")
    r = s.rulings()
    assert of(r, "claim", valid=False)


def test_scenario_38_castling_rights_make_positions_differ() -> None:
    shuffle = ["Ke2", "Ke7", "Ke1", "Ke8"]
    s = Script(CASTLE_FEN).play(*shuffle, *shuffle).claim("white", "threefold")
    r = s.rulings()
    assert of(r, "claim", valid=False)
    assert of(r, "penalty", kind="time_added", seconds=120.0, side="white")
    assert of(r, "draw_offer", side="white")
    s = Script(CASTLE_FEN).play(*shuffle, *shuffle, "Ke2", "Ke7", "Ke1", "Ke8")
    s.claim("white", "threefold")
    assert of(s.rulings(), "claim", valid=True)


def test_scenario_39_en_passant_makes_positions_differ() -> None:
    fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"
    base = ["e4", "Kd8", "Kd1", "Ke8", "Ke1", "Kd8", "Kd1", "Ke8", "Ke1"]
    r = Script(fen).play(*base).claim("black", "threefold").rulings()
    assert of(r, "claim", valid=False)
    r = Script(fen).play(*base).claim("black", "threefold", "e8d8").rulings()
    assert of(r, "claim", valid=True)
    r = Script(fen).play(*base, "Kd8", "Kd1", "Ke8", "Ke1").claim("black", "threefold").rulings()
    assert of(r, "claim", valid=True)


def test_scenario_40_fifty_moves_with_intended_move() -> None:
    fen = "8/8/8/4k3/8/8/4K3/4R3 w - - 99 120"
    r = Script(fen).claim("white", "fifty", "e1a1").rulings()
    assert of(r, "claim", valid=True, article="9.3.1")
    r = Script(fen).play("Ra1").claim("white", "fifty").rulings()
    assert of(r, "claim", valid=False)
    fen97 = "8/8/8/4k3/8/8/4K3/4R3 w - - 97 120"
    s = Script(fen97).claim("white", "fifty", "e1a1")
    r = s.rulings(finish=False)
    assert of(r, "claim", valid=False)
    assert of(r, "penalty", kind="time_added", side="white", seconds=120.0)
    assert of(r, "obligation", kind="declared_move", move="e1a1")
    s.lift("e1").place("h1", "R").press("white")
    assert of(s.rulings(), "violation", kind="touch_move")


def test_scenario_41_touch_forfeits_claim() -> None:
    s = Script().play(*SHUFFLE, *SHUFFLE).touch("e1").claim("white", "threefold")
    r = s.rulings()
    assert of(r, "claim", valid=False, article="9.4")
    assert not of(r, "penalty")


def test_scenario_42_fivefold_repetition() -> None:
    r = Script().play(*SHUFFLE * 4).rulings()
    assert over(r) == ("1/2-1/2", "fivefold_repetition")
    assert len(moves(r)) == 16


def test_scenario_43_seventyfive_moves_and_mate_prevails() -> None:
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 149 200"
    assert over(Script(fen).play("Rb1").rulings()) == ("1/2-1/2", "seventyfive_moves")
    assert over(Script(fen).play("Ra8#").rulings()) == ("1-0", "checkmate")


def test_scenario_44_flag_with_lone_king_opponent() -> None:
    fen = "8/8/8/4k3/8/8/3QK3/8 w - - 0 60"
    r = Script(fen, time_control="60").tick(61).rulings()
    assert of(r, "flag", side="white")
    assert over(r) == ("1/2-1/2", "time_dead_position")
    fen_b = "8/8/8/4k3/8/8/3QK3/8 b - - 0 60"
    assert over(Script(fen_b, time_control="60").tick(61).rulings()) == ("1-0", "time")


def test_scenario_45_knight_can_mate_with_help() -> None:
    fen = "7k/7p/8/8/8/8/8/4K1N1 b - - 0 70"
    assert over(Script(fen, time_control="60").tick(61).rulings()) == ("1-0", "time")
    fen_w = "7k/7p/8/8/8/8/8/4K1N1 w - - 0 70"
    assert over(Script(fen_w, time_control="60").tick(61).rulings()) == ("0-1", "time")


def test_scenario_46_bishops() -> None:
    fen = "8/8/8/3k4/8/2n5/8/4KB2 w - - 0 80"
    assert over(Script(fen, time_control="60").tick(61).rulings()) == ("0-1", "time")
    # the black bishop takes the knight on a light square: same-coloured bishops, dead at once
    fen2 = "8/8/8/1b1k4/8/3N4/8/5B1K b - - 0 80"
    r = Script(fen2).lift("d3").lift("b5").place("d3", "b").rulings()
    assert over(r) == ("1/2-1/2", "dead_position")


def test_scenario_47_dead_position_before_flag() -> None:
    fen = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"
    s = (
        Script(fen, time_control="10")
        .lift("d2", dt=8.0)
        .lift("e1", dt=0.5)
        .place("d2", "K", dt=0.5)
    )
    r = s.tick(5).rulings()
    assert over(r) == ("1/2-1/2", "dead_position")
    assert not of(r, "flag")


def test_scenario_48_flag_after_fortieth_move_before_press(shared: Path) -> None:
    with (shared / "data/games/clocked-games.pgn").open() as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if len(list(game.mainline_moves())) > 90:
                break
    assert game is not None
    sans = []
    board = game.board()
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert len(sans) >= 80
    s = Script(time_control="40/5400+30:1800+30").play(*sans[:79])
    b = s.board
    move = b.parse_san(sans[79])
    s._hands(move)
    last = s.t
    s.rulings(finish=False)
    assert s.game.clock.moves_completed("white") == 40
    assert s.game.clock.moves_completed("black") == 39
    black_left = s.game.clock.remaining("black", last)
    s.tick(black_left + 1)
    r = s.rulings()
    assert of(r, "flag", side="black")
    assert over(r) == ("1-0", "time")
    s2 = Script(time_control="40/5400+30:1800+30").play(*sans[:80])
    r2 = s2.rulings()
    assert s2.game.clock.moves_completed("black") == 40
    assert of(r2, "clock")[-1].black > 5400


def test_scenario_49_mate_released_before_flag() -> None:
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
    s = Script(fen, time_control="10").lift("a1", dt=9.0).place("a8", "R", dt=0.5).tick(2)
    r = s.rulings()
    assert over(r) == ("1-0", "checkmate")
    assert not of(r, "flag")


def test_scenario_50_first_flag_decides() -> None:
    r = Script(time_control="5").tick(6).rulings()
    assert of(r, "flag", side="white") and over(r) == ("0-1", "time")


def test_scenario_51_simple_delay() -> None:
    s = Script(time_control="5400d5").lift("e2", dt=1).place("e4", "P", dt=1).press("white", dt=1)
    assert of(s.rulings(), "clock")[-1].white == 5400
    s = Script(time_control="5400d5").lift("e2", dt=4).place("e4", "P", dt=3).press("white", dt=1)
    assert of(s.rulings(), "clock")[-1].white == 5397


def test_scenario_52_draw_offers() -> None:
    s = Script().play("e4", pressed=False).offer("white").press("white").lift("e7")
    s.place("e5", "p").press("black").accept("black")
    r = s.rulings()
    assert of(r, "draw_offer", side="white")
    assert over(r) is None  # the offer lapsed when Black touched a piece
    s = Script().play("e4").offer("white").accept("black")
    assert over(s.rulings()) is None  # 5.2.3: before Black's first move
    s = Script().play("e4", "e5").offer("white").accept("black")
    assert over(s.rulings()) == ("1/2-1/2", "agreement")


def test_scenario_53_incorrect_claim_accepted_as_offer() -> None:
    s = Script().play("e4", "e5").claim("white", "threefold").accept("black")
    r = s.rulings()
    assert of(r, "claim", valid=False)
    assert over(r) == ("1/2-1/2", "agreement")


def test_scenario_54_blitz_illegal_move_reinstated() -> None:
    fen = "3r2k1/8/8/8/8/8/8/4K3 w - - 0 1"
    s = Script(fen, time_control="180+2").lift("e1").place("d2", "K").press("white")
    r = s.rulings()
    assert of(r, "illegal", completed=True, defect="in_check")
    assert of(r, "penalty", kind="time_added", seconds=60.0)
    assert of(r, "penalty", kind="increment_removed", seconds=2.0)
    assert of(r, "obligation", side="white", square="e1")


def test_scenario_55_rapid_second_illegal_move() -> None:
    s = Script(time_control="900+10").lift("b1").place("b3", "N").press("white")
    s.lift("b3").place("b4", "N").press("white")
    r = s.rulings()
    assert of(r, "penalty", kind="time_added", seconds=60.0)
    assert over(r) == ("0-1", "illegal_moves")


def test_scenario_56_arbiter_declares_after_both_kings_in_check() -> None:
    s = (
        Script(time_control="900+10")
        .play("e4", "e5")
        .arbiter("declare", result="1/2-1/2", reason="arbiter_decision")
    )
    assert over(s.rulings()) == ("1/2-1/2", "arbiter_decision")


def test_scenario_57_resignation_when_opponent_cannot_mate() -> None:
    fen = "4k3/8/8/8/8/8/8/4KQ2 w - - 0 1"
    assert over(Script(fen).resign("black").rulings()) == ("1-0", "resignation")
    r = Script(fen).resign("white").rulings()
    assert over(r) == ("1/2-1/2", "resignation_dead_position")


def test_scenario_58_set_up_errors_through_the_arbiter() -> None:
    s = Script().play("e4", "e5").arbiter("set_position", fen=chess.STARTING_FEN)
    r = s.rulings(finish=False)
    assert of(r, "reinstate", reason="arbiter")
    assert of(r, "mismatch")
