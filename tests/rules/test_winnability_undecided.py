"""A flag whose consequence the analysis cannot settle within its budget (FIDE 6.9).

6.9 makes a flag a loss only if the opponent can still mate by some series of legal moves;
when the search runs out of budget neither answer is proven, so the session must not guess:
the `flag` ruling says "undecided: the arbiter decides", no `game_over` follows, the clocks
stop, board events are ignored and the arbiter's `declare` ends the game.
"""

from __future__ import annotations

import io

import chess
import pytest
from event_script import Script, of, over

from arbiter.outputs.display import Display
from rules import ending
from rules.events import Resign, Start
from rules.game import Game
from rules.messages import format_ruling
from rules.rulings import Flag, Note, parse_ruling
from rules.winnability import verdict

#: a middlegame: Black can mate, but not within one expanded position
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"
#: rammed pawns, where unwinnability is likely and the search decides (Black can mate after
#: taking White's pawns, but not within one expanded position)
LOCKED = "8/8/5k2/2p1p3/2P1P3/8/8/4K3 w - - 0 1"


def test_verdict_is_three_valued() -> None:
    board = chess.Board(MIDDLEGAME)
    assert verdict(board, chess.BLACK, 1) == (None, None)
    can, why = verdict(board, chess.BLACK, 2500)
    assert can is True and why is None
    can, why = verdict(chess.Board("7k/8/8/8/8/8/8/K7 w - - 0 1"), chess.BLACK, 1)
    assert can is False and why == "Black has only the king"


def test_flag_with_the_analysis_out_of_budget_is_held_for_the_arbiter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    script = Script(LOCKED, time_control="60").tick(61)
    script.lift("e1").place("d2", "K")  # ignored: the game holds after the flag
    r = script.rulings()
    flag = of(r, "flag", side="white")[0]
    assert isinstance(flag, Flag)
    note = of(r, "note", side="white")[0]
    assert isinstance(note, Note) and note.topic == "flag_undecided" and note.article == "6.9"
    assert format_ruling(note).startswith("Undecided: the arbiter decides")
    assert [x.type for x in r] == ["flag", "note", "clock"]
    assert over(r) is None and not of(r, "move")
    assert script.game.held and not script.game.over
    clocks = of(r, "clock")
    assert clocks and clocks[-1].running is None  # type: ignore[attr-defined]
    assert parse_ruling(flag.to_dict()) == flag
    assert parse_ruling(note.to_dict(format_ruling), format_ruling) == note


def test_the_arbiter_declares_after_an_undecided_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    r = Script(LOCKED, time_control="60").tick(61).arbiter(
        "declare", result="0-1", reason="time"
    ).rulings()
    assert over(r) == ("0-1", "time")


def test_a_flag_with_free_pieces_is_a_loss_without_a_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Outside locked pawns and a few minor pieces the side can mate (the contract: never a
    draw unless mate is provably impossible), whatever the search's budget."""
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    r = Script(MIDDLEGAME, time_control="60").tick(61).rulings()
    assert over(r) == ("0-1", "time")


def test_flag_with_a_helpmate_found_is_a_loss_and_carries_no_undecided() -> None:
    r = Script(MIDDLEGAME, time_control="60").tick(61).rulings()
    assert over(r) == ("0-1", "time")
    assert of(r, "flag", side="white") and not of(r, "note")


def test_resignation_with_the_analysis_out_of_budget_is_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """5.1.2: a resignation loses only if the opponent can still mate; undecided, it is held."""
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    script = Script(LOCKED, time_control="600")
    r = script.resign("white").rulings()
    assert over(r) is None
    note = of(r, "note", side="white")[0]
    assert isinstance(note, Note) and note.topic == "resignation_undecided"
    assert note.article == "5.1.2"
    assert "arbiter decides" in format_ruling(note)
    assert script.game.held and not script.game.over
    clocks = of(r, "clock")
    assert clocks and clocks[-1].running is None  # type: ignore[attr-defined]
    assert parse_ruling(note.to_dict(format_ruling), format_ruling) == note
    r = script.arbiter("declare", result="0-1", reason="resignation").rulings()
    assert over(r) == ("0-1", "resignation")


def test_resignation_where_the_search_finds_a_mate_still_loses() -> None:
    r = Script(LOCKED, time_control="600").resign("white").rulings()
    assert over(r) == ("0-1", "resignation")
    assert not of(r, "note")


def test_second_illegal_move_with_the_analysis_out_of_budget_is_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """7.5.5: the second completed illegal move loses only if the opponent can mate."""
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    s = Script(LOCKED, time_control="600").lift("e1").place("e3", "K").press("white")
    s = s.lift("e3").place("e5", "K").press("white")
    r = s.rulings()
    assert over(r) is None and not of(r, "penalty", kind="game_lost")
    note = of(r, "note", side="white")[0]
    assert isinstance(note, Note) and note.topic == "illegal_moves_undecided"
    assert note.article == "7.5.5"
    assert s.game.held and not s.game.over


def test_dead_position_carries_the_reason_of_both_sides() -> None:
    fen = "8/8/8/1b1k4/8/3N4/8/5B1K b - - 0 80"
    r = Script(fen).lift("d3").lift("b5").place("d3", "b").rulings()
    assert over(r) == ("1/2-1/2", "dead_position")
    why = of(r, "game_over")[0].explanation  # type: ignore[attr-defined]
    assert why is not None and why.startswith("White has too little material")
    assert "Black has too little material" in why


def test_dead_position_behind_a_wall_names_the_blocked_pawns() -> None:
    # Black's last pawn move closes the wall: neither king can ever cross it
    fen = "7k/8/2p5/p3p1p1/PpPpPpPp/1P1P1P1P/8/K7 b - - 0 1"
    r = Script(fen).lift("c6").place("c5", "p").rulings()
    assert over(r) == ("1/2-1/2", "dead_position")
    why = of(r, "game_over")[0].explanation  # type: ignore[attr-defined]
    assert why is not None and why.count("pawns are blocked for good") == 2


def test_the_terminal_shows_a_held_game_as_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    game = Game(Start(t=0.0, fen=LOCKED, time_control="600", white="Ann", black="Bob"))
    display = Display(io.StringIO(), tty=True, title="Ann v Bob")
    display.attach(game)
    display.show(game.handle(Resign(t=3.0, side="white")), 3.0)
    screen = display.render(3.0)
    assert "undecided: the arbiter decides" in screen
    assert "White to move" not in screen
    assert "game over" not in screen
