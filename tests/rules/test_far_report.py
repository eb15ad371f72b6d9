"""A board report far from the game is searched within a fixed work budget (issue 17, D4).

The search for the plies that explain a report tries at most `SEARCH_NODES` plies, whatever
`max_plies` (1 to 8): a report it cannot explain within that is a `mismatch`, never a move
and never an illegal move it could not prove; clocks and flags are ruled on time after it.
The work is counted in plies pushed (not in seconds), so a replay rules exactly as the game.
"""

from __future__ import annotations

import chess
import pytest
from event_script import Script, moves, of

from rules.events import Sensor
from rules.sensed import SEARCH_NODES, BeyondBudget, find_match

GAME = [
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Bb5",
    "a6",
    "Ba4",
    "Nf6",
    "O-O",
    "Be7",
    "Re1",
    "b5",
    "Bb3",
    "d6",
    "c3",
    "O-O",
    "h3",
    "Nb8",
    "d4",
    "Nbd7",
    "c4",
    "c6",
    "cxb5",
    "axb5",
    "Nc3",
    "Bb7",
    "Bg5",
    "b4",
    "Nb1",
    "h6",
]


def placements() -> list[str]:
    """The piece placement after each ply of GAME (index 0: the starting position)."""
    board = chess.Board()
    out = [board.board_fen()]
    for san in GAME:
        board.push_san(san)
        out.append(board.board_fen())
    return out


class PushCounter:
    """Counts `chess.Board.push` calls: the search's unit of work (and a few of the core's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = chess.Board.push

        def push(board: chess.Board, move: chess.Move) -> None:
            self.count += 1
            original(board, move)

        monkeypatch.setattr(chess.Board, "push", push)


@pytest.mark.parametrize("max_plies", [2, 4, 6, 8])
def test_the_probes_reproducer_is_ruled_as_before_without_the_exponential_search(
    monkeypatch: pytest.MonkeyPatch, max_plies: int
) -> None:
    """30 plies, then a report of the position after 1. e4 (the probe: 29 s at max_plies 6,
    minutes at 8): more squares differ than the plies can change, so no search at all."""
    script = Script(max_plies=max_plies).play(*GAME).snapshot(placements()[1]).tick(5)
    pushes = PushCounter(monkeypatch)
    rulings = script.rulings(finish=False)
    assert pushes.count <= 200  # the game's own 30 moves and their checks; the probe: 1.9 M
    after = [r for r in rulings if r.t >= script.events[-2].t]
    illegal = of(after, "illegal")
    assert illegal and not illegal[0].completed  # correctable (4.7), as before the bound


@pytest.mark.parametrize("max_plies", [7, 8])
def test_a_report_many_plies_ahead_costs_at_most_the_budget_and_is_a_mismatch(
    monkeypatch: pytest.MonkeyPatch, max_plies: int
) -> None:
    """15 plies played, then a report 15 plies ahead: without the bound 30,000 plies tried
    (0.7 s here, seconds on a Pi) at max_plies 8; the press then finds no move it can prove.
    (At max_plies 6 the same search ends within the budget: no sequence, an illegal move.)"""
    script = Script(max_plies=max_plies).play(*GAME[:15]).snapshot(placements()[30])
    script.tick(5).press("black")
    pushes = PushCounter(monkeypatch)
    rulings = script.rulings(finish=False)
    assert pushes.count <= SEARCH_NODES + 200
    after = [r for r in rulings if r.t >= script.events[-3].t]
    assert of(after, "mismatch"), [r.type for r in after]
    assert not of(after, "illegal") and not of(after, "move")


def test_the_search_itself_stops_at_its_budget_and_leaves_the_board_as_it_was() -> None:
    board = chess.Board()
    for san in GAME[:15]:
        board.push_san(san)
    before = board.fen(), len(board.move_stack)
    ahead = chess.Board(placements()[30] + " w - - 0 1")
    sensed: list[str | None] = [None] * 64
    for square, piece in ahead.piece_map().items():
        sensed[square] = piece.symbol()
    found = find_match(board, sensed, max_plies=8)
    assert isinstance(found, BeyondBudget) and found.nodes == SEARCH_NODES
    assert (board.fen(), len(board.move_stack)) == before


def test_the_flag_falls_on_time_after_a_far_off_report() -> None:
    script = Script(max_plies=8, time_control="60").play(*GAME[:15])
    script.snapshot(placements()[30]).tick(120)
    rulings = script.rulings(finish=False)
    flags = of(rulings, "flag")
    assert flags and flags[0].side == "black"
    assert of(rulings, "game_over")


def test_plies_made_while_the_source_was_away_are_still_recognised_at_max_plies_8() -> None:
    """Near reports stay cheap and explained: two plies made during an outage (events.md)."""
    script = Script(max_plies=8).play(*GAME[:10])
    script.add(Sensor, status="disconnected").add(Sensor, status="reconnected")
    script.snapshot(placements()[12])
    rulings = script.rulings(finish=False)
    assert moves(rulings)[-2:] == ["f1e1", "b7b5"]
    assert not of(rulings, "mismatch")
