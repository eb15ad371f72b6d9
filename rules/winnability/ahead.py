"""Helpmate searches kept by position, so that work done between moves is not done again
(FIDE 6.9, 5.1.2, 7.5.5; the live limit of issue 19: no ruling waits long for the analysis).

A flag, a resignation or a second illegal move asks whether the other side can still mate.
Where only the search can tell, it may need thousands of positions; the live session spends
its idle time between moves running the search of the current position a slice at a time
(`work_ahead`), and the ruling then finds it finished or nearly so. The search expands
positions in an order fixed by the position alone, and its answer is read against the
caller's budget in positions (`answer`), so a verdict is the same whether it was worked out
ahead, in slices, or at once: replays stay exact whatever the timing.

The searches are kept in a small table by (position, side), the oldest dropped first; one
that runs out of its caller's budget lets its positions go (`HelpmateSearch.spend`) and is
begun anew only if a larger budget asks.
"""

from __future__ import annotations

from collections.abc import Hashable

import chess

from rules.winnability.search import HelpmateSearch, position_key

#: searches kept: the current position's two sides and a few recent ones (each holds at most
#: its budget's positions)
KEPT = 8

_searches: dict[tuple[Hashable, chess.Color], HelpmateSearch] = {}


def search_for(board: chess.Board, color: chess.Color, budget: int) -> HelpmateSearch:
    """The search for a mate by `color` from `board`: the one already begun, or a new one
    (also when the one kept ran out of a smaller budget and let its positions go)."""
    key = (position_key(board), color)
    search = _searches.get(key)
    if search is None or (search.spent and search.expanded < budget):
        search = HelpmateSearch(board, color)
        _searches[key] = search
        while len(_searches) > KEPT:
            del _searches[next(iter(_searches))]
    return search


def answer(
    board: chess.Board, color: chess.Color, budget: int
) -> tuple[bool | None, list[chess.Move] | None]:
    """The search's answer within `budget` expanded positions: (True, line), (False, None)
    when every reachable position was expanded without a mate, (None, None) when that takes
    more than `budget` positions. Runs what is left of the search up to `budget`."""
    search = search_for(board, color, budget)
    if not search.done and not search.spent:
        search.run(budget - search.expanded)
    if not search.done or search.expanded > budget:
        search.spend()
        return None, None
    if search.line is None:
        return False, None
    return True, search.line


def work_ahead(board: chess.Board, color: chess.Color, budget: int, nodes: int) -> bool:
    """Advance the search of `board` for `color` by at most `nodes` positions, never past
    `budget`; True when nothing is left to do for that budget."""
    search = search_for(board, color, budget)
    if search.done or search.expanded >= budget:
        return True
    return search.run(min(nodes, budget - search.expanded)) or search.expanded >= budget


def forget() -> None:
    """Drop every kept search (tests; a program that wants its memory back)."""
    _searches.clear()
