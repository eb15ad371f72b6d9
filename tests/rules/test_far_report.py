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
from rules.sensed import SEARCH_NODES, BeyondBudget, Match, SearchBudget, find_match

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


@pytest.mark.parametrize("max_plies", [6, 7, 8])
def test_a_report_many_plies_ahead_is_decided_without_a_search(
    monkeypatch: pytest.MonkeyPatch, max_plies: int
) -> None:
    """15 plies played, then a report 15 plies ahead: Black would need more plies than
    `max_plies` holds to put his pieces where the board shows them, so no ply is tried
    (30,000 without any bound, the whole budget before the needs were counted); the
    press is then ruled as for any board no legal sequence explains: an illegal move, the
    same at max_plies 6, 7 and 8."""
    script = Script(max_plies=max_plies).play(*GAME[:15]).snapshot(placements()[30])
    script.tick(5).press("black")
    pushes = PushCounter(monkeypatch)
    rulings = script.rulings(finish=False)
    assert pushes.count <= 200  # the game's own 15 moves and their checks
    after = [r for r in rulings if r.t >= script.events[-3].t]
    assert of(after, "illegal", completed=True), [r.type for r in after]
    assert not of(after, "move")


def far_board(played: int, shown: int) -> tuple[chess.Board, list[str | None]]:
    """The game after `played` plies, and the board as it stood after `shown` plies."""
    board = chess.Board()
    for san in GAME[:played]:
        board.push_san(san)
    sensed: list[str | None] = [None] * 64
    for square, piece in chess.Board(placements()[shown] + " w - - 0 1").piece_map().items():
        sensed[square] = piece.symbol()
    return board, sensed


def test_the_search_itself_stops_at_its_budget_and_leaves_the_board_as_it_was() -> None:
    """Six plies from the start position at max_plies 8: White's and Black's needs fit in
    eight plies, and the many orders of the opening's moves take some 500 plies to try."""
    board, sensed = far_board(0, 6)
    before = board.fen(), len(board.move_stack)
    found = find_match(board, sensed, max_plies=8)
    assert isinstance(found, BeyondBudget) and found.nodes == SEARCH_NODES
    assert (board.fen(), len(board.move_stack)) == before


@pytest.mark.parametrize(("played", "outage"), [(8, 6), (12, 6)])
def test_plies_made_while_the_board_was_away_are_recognised_up_to_max_plies(
    played: int, outage: int
) -> None:
    """Issue 17 item 1: a board back after an outage of six or seven plies of the game, asked
    with max_plies as many, is explained by those plies within the budget (a budget of 100
    plies tried, as before, left both out of reach: a `mismatch`)."""
    board, sensed = far_board(played, played + outage)
    found = find_match(board, sensed, max_plies=outage)
    assert isinstance(found, Match), found
    check = board.copy()
    for move in found.moves:
        check.push(move)
    assert check.board_fen() == placements()[played + outage]


def shown(letter: str | None, shows: str) -> str | None:
    """A piece's letter as a sensor showing only colours or occupancy shows it."""
    if letter is None:
        return None
    if shows == "occupancy":
        return "?"
    return "X" if letter.isupper() else "x"


@pytest.mark.parametrize("shows", ["kinds", "colours", "occupancy"])
def test_plies_within_max_plies_are_explained_within_the_budget(shows: str) -> None:
    """Every report of the game 2 to 4 plies on from each of its positions (max_plies 4, a
    camera's) is answered within the budget, as a search without a budget answers it: by
    plies ending in the game's position (or none, where sequences of different lengths end
    in different positions)."""
    explained = 0
    for played in range(0, 27):
        for ahead in (2, 3, 4):
            board, sensed = far_board(played, played + ahead)
            if shows != "kinds":
                sensed = [shown(s, shows) for s in sensed]
            found = find_match(board, sensed, max_plies=4)
            unbounded = find_match(board, sensed, max_plies=4, budget=SearchBudget(10**6))
            assert found == unbounded, (played, ahead)
            explained += isinstance(found, Match)
            if isinstance(found, Match) and shows == "kinds":  # the others cannot tell K from R
                end = board.copy(stack=False)
                for move in found.moves:
                    end.push(move)
                assert end.board_fen() == placements()[played + ahead]
    assert explained >= 55  # of 81 (58 with occupancy only, where more orders fit)


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
