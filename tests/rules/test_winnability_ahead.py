"""Work done ahead, between moves, for what a flag would need (FIDE 6.9; issue 19's live limit).

The live session runs the helpmate search of the current position a slice at a time while it
waits for input (`rules.ending.work_ahead`); the verdict must be the same whether the search
ran ahead in slices, ran at once, or ran out of budget: a budget counted in positions.
"""

from __future__ import annotations

import chess
import pytest
from event_script import Script, of, over

from rules import ending
from rules.winnability import ahead, verdict, work_ahead
from rules.winnability.search import HelpmateSearch

#: rammed pawns: Black mates only after taking White's pawns (some hundreds of positions)
LOCKED = "8/8/5k2/2p1p3/2P1P3/8/8/4K3 w - - 0 1"
#: K+N v K+N: a helpmate exists, found after some two thousand positions
KNIGHTS = "8/8/2K5/5N2/8/5n2/5k2/8 b - - 0 1"
#: a closed wall: the static proof settles it, no search
WALL = "7k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1"


@pytest.mark.parametrize("fen", [LOCKED, KNIGHTS, WALL])
@pytest.mark.parametrize("budget", [1, 40, 300, 2500])
def test_the_verdict_does_not_depend_on_work_done_ahead(fen: str, budget: int) -> None:
    board = chess.Board(fen)
    ahead.forget()
    at_once = [verdict(board, color, budget) for color in chess.COLORS]
    for slice_ in (1, 7, 50):
        ahead.forget()
        for color in chess.COLORS:
            while not work_ahead(board, color, budget, slice_):
                pass
        assert [verdict(board, color, budget) for color in chess.COLORS] == at_once
    ahead.forget()


def test_a_search_in_slices_expands_what_a_search_at_once_does() -> None:
    board = chess.Board(KNIGHTS)
    whole = HelpmateSearch(board, chess.WHITE)
    assert whole.run(10_000)
    sliced = HelpmateSearch(board, chess.WHITE)
    runs = 0
    while not sliced.run(13):
        runs += 1
    assert runs > 10
    assert sliced.expanded == whole.expanded and sliced.line == whole.line
    replay = board.copy()
    for move in sliced.line or []:
        assert move in replay.legal_moves
        replay.push(move)
    assert replay.is_checkmate() and replay.turn == chess.BLACK


def test_a_smaller_budget_than_the_search_needed_stays_undecided() -> None:
    board = chess.Board(KNIGHTS)
    ahead.forget()
    assert verdict(board, chess.WHITE, 2500)[0] is True
    # the finished search is kept, but it took more positions than 40: undecided within 40
    assert verdict(board, chess.WHITE, 40) == (None, None)
    ahead.forget()


def test_the_flag_after_work_ahead_costs_the_ruling_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ahead.forget()
    script = Script(LOCKED, time_control="60")
    script.rulings(finish=False)
    while ending.work_ahead(script.game, 50):
        pass
    assert not ending.work_ahead(script.game, 50)  # nothing left: the session blocks again
    expanded: list[int] = []
    run = HelpmateSearch.run

    def counting(self: HelpmateSearch, nodes: int) -> bool:
        before = self.expanded
        done = run(self, nodes)
        expanded.append(self.expanded - before)
        return done

    monkeypatch.setattr(HelpmateSearch, "run", counting)
    r = script.tick(61).rulings()
    assert over(r) == ("0-1", "time") and of(r, "flag")
    assert sum(expanded) == 0
    ahead.forget()


def test_nothing_to_work_ahead_where_the_static_proof_or_free_pieces_decide() -> None:
    for fen in (WALL, chess.STARTING_FEN):
        script = Script(fen)
        script.rulings(finish=False)
        assert not ending.work_ahead(script.game, 50)


def test_a_search_out_of_budget_lets_its_positions_go_and_a_larger_budget_begins_anew() -> None:
    board = chess.Board(KNIGHTS)
    ahead.forget()
    assert verdict(board, chess.WHITE, 40) == (None, None)
    spent = ahead.search_for(board, chess.WHITE, 40)
    assert spent.spent and not spent.heap and not spent.parents
    assert verdict(board, chess.WHITE, 40) == (None, None)  # the same, without a new search
    assert ahead.search_for(board, chess.WHITE, 40) is spent
    assert verdict(board, chess.WHITE, 2500)[0] is True
    assert ahead.search_for(board, chess.WHITE, 2500) is not spent
    ahead.forget()
