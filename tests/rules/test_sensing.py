"""Move reconstruction from every sensor kind: blinks, slides, late reports, two plies at once,
a board reconnected, pieces of unknown kind (events.md, "The board as sensed")."""

from __future__ import annotations

import chess
from event_script import Script, moves, of, over

from rules.events import Sensor
from rules.rulings import PieceOn

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"


def colour(placement: str) -> str:
    return "".join("X" if c.isupper() else "x" if c.isalpha() else c for c in placement)


def test_a_sensor_blink_is_no_touch() -> None:
    s = Script(noise_s=0.3).lift("b1").place("b1", "N", dt=0.1)
    s.lift("e2").place("e4", "P").press("white")
    r = s.rulings()
    assert moves(r) == ["e2e4"] and not of(r, "violation")


def test_a_piece_put_down_before_its_lift_is_reported() -> None:
    # a DGT scan may report the capture's place before the capturing piece's lift
    s = Script(noise_s=0.3, slide_s=0.3).play("e4", "d5")
    s.place("d5", "P").lift("e4", dt=0.1).press("white")
    r = s.rulings()
    assert moves(r)[-1] == "e4d5" and not of(r, "illegal") and not of(r, "violation")


def test_a_slide_across_squares_on_an_occupancy_board() -> None:
    s = Script(slide_s=0.3).lift("d1", None).place("e2", None, dt=0.1).lift("e2", None, dt=0.1)
    r = s.place("e2", None, dt=0.1).rulings(finish=False)
    assert not moves(r)  # the queen cannot reach e2: slid there? no: e2 is still occupied by P
    s = Script(slide_s=0.3).play("e4", "e5")
    s.lift("d1", None).place("e2", None, dt=0.1).lift("e2", None, dt=0.1)
    s.place("f3", None, dt=0.1).lift("f3", None, dt=0.1).place("g4", None, dt=0.1)
    s.lift("g4", None, dt=0.1).place("h5", None, dt=0.1).press("white")
    r = s.rulings()
    assert moves(r)[-1] == "d1h5" and not of(r, "illegal")


def test_occupancy_promotion_is_a_queen_unless_named() -> None:
    fen = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
    r = Script(fen).lift("e7", None).place("e8", None).press("white").rulings()
    assert moves(r) == ["e7e8q"] and not of(r, "illegal")
    s = Script(fen).promote("white", "N").lift("e7", None).place("e8", None).press("white")
    assert moves(s.rulings()) == ["e7e8n"]


def test_late_report_after_the_press_is_matched_within_latency() -> None:
    s = Script(latency_s=1.0).lift("e2").press("white", dt=0.5).place("e4", "P", dt=0.3)
    r = s.tick(2).rulings()
    assert moves(r) == ["e2e4"] and not of(r, "illegal")
    assert of(r, "clock")[-1].running == "black"


def test_press_without_a_move_shows_after_latency() -> None:
    r = Script(latency_s=1.0).press("white").tick(2).rulings()
    ill = of(r, "illegal", defect="no_move")
    assert ill and ill[0].t == 1.5  # the press at 0.5, ruled when latency_s had passed


def test_camera_snapshots_and_a_late_still_scene() -> None:
    s = Script(slide_s=0.0, latency_s=1.0, max_plies=4)
    s.snapshot(colour(START))
    s.press("white", dt=3)
    s.snapshot(colour(AFTER_E4), dt=2, seen_at=3.5)  # the scene is still only after the press
    r = s.rulings()
    assert moves(r) == ["e2e4"] and not of(r, "illegal")
    move = of(r, "move")[0]
    assert move.made_at == 3.5
    assert of(r, "clock")[-1].running == "black"


def test_camera_sees_two_plies_at_once() -> None:
    s = Script(slide_s=0.0, latency_s=1.0, max_plies=4)
    s.press("white", dt=2).press("black", dt=2).snapshot(colour(AFTER_E4_E5), dt=1)
    r = s.rulings()
    assert moves(r) == ["e2e4", "e7e5"]
    assert not of(r, "illegal") and not of(r, "mismatch")
    assert of(r, "clock")[-1].running == "white"


def test_a_camera_snapshot_that_no_legal_sequence_explains_is_a_mismatch() -> None:
    s = Script(slide_s=0.0, latency_s=1.0, max_plies=2)
    s.snapshot("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1", dt=1)  # a rook vanished
    r = s.rulings()
    assert of(r, "mismatch") or of(r, "illegal")
    assert not moves(r)


def test_reconnected_board_reconciles_a_single_move() -> None:
    s = Script(slide_s=0.3, noise_s=0.3).add(Sensor, status="disconnected")
    s.press("white", dt=5)  # pressed while the cable was out: never a press without a move
    s.add(Sensor, status="reconnected").snapshot(AFTER_E4)
    r = s.rulings()
    assert moves(r) == ["e2e4"] and not of(r, "illegal")
    assert of(r, "clock")[-1].running == "black"  # the press waited for the report


def test_reconnected_board_with_an_unexplained_position_is_a_mismatch() -> None:
    s = Script().add(Sensor, status="disconnected").add(Sensor, status="reconnected")
    s.snapshot("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R")
    r = s.rulings()
    assert of(r, "mismatch")
    mm = of(r, "mismatch")[0]
    assert PieceOn(chess.G1, "N") in mm.missing


def test_identity_snapshots_with_intermediate_states() -> None:
    s = Script(slide_s=0.25)
    s.snapshot("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR", dt=1)  # pawn in the hand
    s.snapshot(AFTER_E4, dt=0.5).press("white", dt=0.5)
    r = s.rulings()
    assert moves(r) == ["e2e4"]
    assert of(r, "obligation", square="e2")


def test_mate_by_a_camera_report_before_the_flag() -> None:
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
    s = Script(fen, time_control="10", slide_s=0.0, latency_s=1.0)
    s.snapshot("7k/8/6K1/8/8/8/8/R7", dt=1)
    s.snapshot("R6k/8/6K1/8/8/8/8/8", dt=9.5, seen_at=9.5)  # the still scene came late
    r = s.rulings()
    assert over(r) == ("1-0", "checkmate")


def test_press_before_a_slow_board_reports_the_lift() -> None:
    # a DGT scan reports the capture's place, the clock's press arrives, then the lift
    s = Script(noise_s=0.3, slide_s=0.3, latency_s=0.3).play("e4", "d5")
    s.place("d5", "P").press("white", dt=0.08).lift("e4", dt=0.07).tick(1)
    r = s.rulings()
    assert moves(r)[-1] == "e4d5"
    assert not of(r, "illegal") and not of(r, "mismatch")
    assert of(r, "clock")[-1].running == "black"


#: 1. e4 e5 made while the cable was out, then White's knight already in the hand (g1 empty)
E4_E5_KNIGHT_UP = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKB1R"


def test_reconnected_board_with_plies_and_the_next_move_in_progress() -> None:
    """The first report after a reconnection caught a hand at the board: the plies made
    meanwhile stand, the piece off its square is the next mover's lift (a move in progress
    is no `mismatch`, events.md), and his move goes on as usual."""
    s = Script(slide_s=0.3, noise_s=0.3).add(Sensor, status="disconnected")
    s.add(Sensor, status="reconnected", dt=5).snapshot(E4_E5_KNIGHT_UP)
    s.place("f3", "N", dt=0.5).press("white", dt=0.5)
    r = s.rulings()
    assert moves(r) == ["e2e4", "e7e5", "g1f3"]
    assert not of(r, "mismatch") and not of(r, "illegal")
    assert of(r, "obligation", square="g1")  # the knight in the hand was touched (4.3.1)


def test_reconnected_board_with_plies_and_an_opponents_piece_off_is_a_mismatch() -> None:
    """After 1. e4 e5 it is White's move: Black's d-pawn off d7 is no move in progress of the
    player to move (pieces knocked about, or taken off first): a `mismatch`, as before."""
    s = Script(slide_s=0.3, noise_s=0.3).add(Sensor, status="disconnected")
    s.add(Sensor, status="reconnected", dt=5)
    s.snapshot("rnbqkbnr/ppp2ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
    r = s.rulings()
    assert of(r, "mismatch") and not moves(r)
