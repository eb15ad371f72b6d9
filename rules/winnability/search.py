"""Bounded searches for a helpmate: a series of legal moves, both sides cooperating, that ends
with one chosen side mating the other (FIDE 5.2.2, 6.9, 7.5.5: "by any series of legal moves").

One best-first search over python-chess's own moves (pseudo-legal ones, each checked for
legality when it is played: most are never played), counting the positions it expands
against a node budget (`Budget`), in the spirit of the Chess Unwinnability Analyzer (Ambrona,
2022). The position the guide (`guide`) rates closest to a mate is expanded next,
so the long helpmates of simple endings are found without a full-width search. Each position
is expanded at most once and none is cut for being unpromising, so when the search runs out of
positions without a mate it has visited *every* reachable position: the side cannot mate, a
proof, not a guess. Positions where the side provably cannot mate any more (insufficient
material, or the static proof of `static`) are not expanded.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable

import chess

from rules.winnability.guide import Guide
from rules.winnability.static import cannot_mate, rammed

#: below this many rammed pawn pairs the static proof is not tried inside the search (it is
#: always tried at the root); walls need several, and the proof costs a hundred microseconds
MIN_RAMS = 3


class OutOfBudget(Exception):
    """Raised inside a search when its node budget is spent (never escapes `rules`)."""


class Budget:
    """A count of positions a search may still expand."""

    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> None:
        """Account for one expanded position; raise `OutOfBudget` when none is left."""
        self.left -= 1
        if self.left < 0:
            raise OutOfBudget


def position_key(board: chess.Board) -> Hashable:
    """Identity of a position for 9.2.3 purposes: placement, turn, castling, legal e.p."""
    return board._transposition_key()  # python-chess's own repetition key


def _checkmates(board: chess.Board, winner: chess.Color) -> bool:
    return board.turn != winner and board.is_checkmate()


def _irreversible(board: chess.Board, move: chess.Move) -> bool:
    return board.is_capture(move) or board.piece_type_at(move.from_square) == chess.PAWN


Entry = tuple[float, int, chess.Board, chess.Move, Hashable]


def guided_helpmate(
    board: chess.Board, winner: chess.Color, budget: Budget, depth_weight: float = 0.0
) -> list[chess.Move] | None:
    """A helpmate by `winner`, or None after expanding *every* reachable position without one,
    which proves that `winner` cannot mate (raises `OutOfBudget` when the budget runs out).

    Children wait in the heap as (parent, move) and are only played when popped, so a
    position's moves cost one score update each, not a `push`.
    """
    root = board.copy(stack=False)
    if _checkmates(root, winner):
        return []
    guide = Guide(root, winner)
    root_key = position_key(root)
    parents: dict[Hashable, tuple[Hashable, chess.Move] | None] = {root_key: None}
    heap: list[Entry] = []
    counter = 0

    def line_to(key: Hashable) -> list[chess.Move]:
        line: list[chess.Move] = []
        link = parents[key]
        while link is not None:
            key, move = link
            line.append(move)
            link = parents[key]
        line.reverse()
        return line

    def expand(node: chess.Board, key: Hashable) -> None:
        nonlocal counter
        budget.spend()
        for f, move in guide.children(node):
            counter -= 1  # ties: newest first, so plateaus are walked in depth
            heapq.heappush(heap, (f, counter, node, move, key))

    expand(root, root_key)
    while heap:
        _, _, parent, move, parent_key = heapq.heappop(heap)
        irreversible = _irreversible(parent, move)
        node = parent.copy(stack=False)
        node.push(move)
        if node.was_into_check():
            continue  # the guide lists pseudo-legal moves: this one was not legal
        key = position_key(node)
        if key in parents:
            continue
        parents[key] = (parent_key, move)
        if node.is_check() and node.is_checkmate():
            if node.turn != winner:
                return line_to(key)
            continue
        if node.has_insufficient_material(winner):
            continue
        if irreversible and rammed(node) >= MIN_RAMS and cannot_mate(node, winner):
            continue
        expand(node, key)
    return None
