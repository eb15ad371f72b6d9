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

from rules.errors import GameStateError
from rules.winnability.guide import IRREVERSIBLE, Guide, decode
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
    """Identity of a position for 9.2.3 purposes: placement, turn, castling rights that can
    still be used, and the en passant square only where an en passant capture is legal (the
    same identity as python-chess's repetition key, built from its public attributes)."""
    castling = board.castling_rights
    if castling:
        castling = board.clean_castling_rights()
    ep = board.ep_square
    if ep is not None and not board.has_legal_en_passant():
        ep = None
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.turn, castling, ep,
    )


#: a position as python-chess's board keeps it (the fields its own `pop` restores): pawns,
#: knights, bishops, rooks, queens, kings, white's units, black's units, all units, promoted
#: pieces, turn, castling rights, en passant square, halfmove clock, fullmove number
State = tuple[int, int, int, int, int, int, int, int, int, int, bool, int, int | None, int, int]


def snapshot(board: chess.Board) -> State:
    """The `State` of `board` (a tuple: a few hundred bytes, no move stack)."""
    return (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.occupied,
        board.promoted, board.turn, board.castling_rights, board.ep_square,
        board.halfmove_clock, board.fullmove_number,
    )


def restore(board: chess.Board, state: State) -> None:
    """Put `board` in the position `state` (its move stack is left alone: the search clears
    it), through the public attributes python-chess's boards are made of: much cheaper
    than copying a board."""
    (
        board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
        white, black, board.occupied, board.promoted, board.turn, board.castling_rights,
        board.ep_square, board.halfmove_clock, board.fullmove_number,
    ) = state
    board.occupied_co[chess.WHITE] = white
    board.occupied_co[chess.BLACK] = black


def play(state: State, code: int) -> State | None:
    """The `State` after the pseudo-legal move `code` (`guide.decode`) in the position
    `state`, computed on the bitboards exactly as python-chess's `Board.push` would leave
    them (its move stack aside); None when the position has castling rights, which this
    does not handle (the caller pushes on a board then). No board, no `Move`, no stack: a
    few integer operations instead of the most expensive call of the search."""
    (
        pawns, knights, bishops, rooks, queens, kings, white, black, occupied, promoted,
        turn, castling, ep, halfmove, fullmove,
    ) = state
    if castling:
        return None
    frm = code & 63
    to = code >> 6 & 63
    frm_bb = 1 << frm
    to_bb = 1 << to
    # the moved unit leaves its square (python-chess's `_remove_piece_at`)
    was_promoted = promoted & frm_bb
    if pawns & frm_bb:
        piece = chess.PAWN
        pawns ^= frm_bb
    elif knights & frm_bb:
        piece = chess.KNIGHT
        knights ^= frm_bb
    elif bishops & frm_bb:
        piece = chess.BISHOP
        bishops ^= frm_bb
    elif rooks & frm_bb:
        piece = chess.ROOK
        rooks ^= frm_bb
    elif queens & frm_bb:
        piece = chess.QUEEN
        queens ^= frm_bb
    else:
        piece = chess.KING
        kings ^= frm_bb
    occupied ^= frm_bb
    white &= ~frm_bb
    black &= ~frm_bb
    promoted &= ~frm_bb
    captured = occupied & to_bb
    halfmove = 0 if captured or piece == chess.PAWN else halfmove + 1
    if not turn:
        fullmove += 1
    new_ep = None
    if piece == chess.PAWN:
        diff = to - frm
        if diff == 16 and frm >> 3 == 1:
            new_ep = frm + 8
        elif diff == -16 and frm >> 3 == 6:
            new_ep = frm - 8
        elif to == ep and not captured and (diff == 7 or diff == 9 or diff == -7 or diff == -9):
            square = ep + (-8 if turn else 8)
            mask = 1 << square
            if pawns & mask:  # the pawn taken en passant (python-chess's `_remove_piece_at`)
                pawns ^= mask
                occupied ^= mask
                white &= ~mask
                black &= ~mask
                promoted &= ~mask
        promotion = code >> 12 & 7
        if promotion:
            piece = promotion
            was_promoted = 1
    # the unit lands, taking whatever stood there (`_set_piece_at`)
    if captured:
        not_to = ~to_bb
        pawns &= not_to
        knights &= not_to
        bishops &= not_to
        rooks &= not_to
        queens &= not_to
        kings &= not_to
        occupied ^= to_bb
        white &= not_to
        black &= not_to
        promoted &= not_to
    if piece == chess.PAWN:
        pawns |= to_bb
    elif piece == chess.KNIGHT:
        knights |= to_bb
    elif piece == chess.BISHOP:
        bishops |= to_bb
    elif piece == chess.ROOK:
        rooks |= to_bb
    elif piece == chess.QUEEN:
        queens |= to_bb
    else:
        kings |= to_bb
    occupied ^= to_bb
    if turn:
        white ^= to_bb
    else:
        black ^= to_bb
    if was_promoted:
        promoted ^= to_bb
    return (
        pawns, knights, bishops, rooks, queens, kings, white, black, occupied, promoted,
        not turn, castling, new_ep, halfmove, fullmove,
    )


def _checkmates(board: chess.Board, winner: chess.Color) -> bool:
    return board.turn != winner and board.is_checkmate()


#: (score, tie-break, parent position's `State`, move code (`guide.decode`), parent's key)
Entry = tuple[float, int, State, int, Hashable]


class HelpmateSearch:
    """A best-first helpmate search by `winner` that can be run a slice at a time.

    `run(nodes)` expands at most `nodes` more positions and says whether the search is over;
    then `line` is the helpmate, or None after *every* reachable position was expanded
    without one, which proves that `winner` cannot mate. The order of expansion depends on
    the position alone, so the answer after N expanded positions is the same whether they
    were expanded at once or in slices between moves (a budget counted in positions, not in
    time: replays stay exact).

    Children wait in the heap as (parent's `State`, move) and are only played when popped,
    so a position's moves cost one score update each, not a `push`. A popped child is played
    on one working board: the parent's state is put back into it (`restore`, a few
    attribute stores) and the move pushed, instead of copying a board per child.
    """

    __slots__ = (
        "counter", "done", "expanded", "guide", "heap", "line", "parents", "pending", "root",
        "root_state", "spent", "work",
    )

    def __init__(self, board: chess.Board, winner: chess.Color) -> None:
        self.root = board.copy(stack=False)
        self.root_state = snapshot(self.root)
        #: the board every popped child is played on (see the class docstring)
        self.work = board.copy(stack=False)
        self.guide = Guide(self.root, winner)
        self.parents: dict[Hashable, tuple[Hashable, int] | None] = {}
        self.heap: list[Entry] = []
        self.counter = 0
        self.expanded = 0
        self.done = False
        #: ran out of budget and let its positions go: it can answer "undecided" only
        self.spent = False
        self.line: list[chess.Move] | None = None
        root_key = position_key(self.root)
        self.parents[root_key] = None
        #: the position to expand first when the search goes on (the root, or the one popped
        #: when the last slice ran out): its state, key and whether its side is in check
        self.pending: tuple[State, Hashable, bool] | None = (
            self.root_state, root_key, self.root.is_check()
        )
        if _checkmates(self.root, winner):
            self._finish([])

    def _line_to(self, key: Hashable) -> list[chess.Move]:
        line: list[chess.Move] = []
        link = self.parents[key]
        while link is not None:
            key, code = link
            line.append(decode(code))
            link = self.parents[key]
        line.reverse()
        return line

    def _expand(
        self,
        node: chess.Board,
        state: State,
        key: Hashable,
        check: bool,
        legal: list[chess.Move] | None = None,
    ) -> None:
        """Queue the moves of `node` (in the position `state`) by their score (`legal`: its
        legal moves when in check, if already listed)."""
        self.expanded += 1
        heap = self.heap
        counter = self.counter
        push = heapq.heappush
        for f, code in self.guide.children(node, check, legal):
            counter -= 1  # ties: newest first, so plateaus are walked in depth
            push(heap, (f, counter, state, code, key))
        self.counter = counter

    def run(self, nodes: int) -> bool:
        """Expand at most `nodes` more positions; True when the search is over (`line` then
        holds the answer), False when it needs more."""
        if self.done:
            return True
        if self.spent:  # its caller (rules.winnability.ahead) begins a new one instead
            raise GameStateError("the winnability search was asked to go on after its budget")
        winner = self.guide.winner
        parents, heap = self.parents, self.heap
        node = self.work
        limit = self.expanded + nodes
        if self.pending is not None:
            if self.expanded >= limit:
                return False
            state, key, check = self.pending
            restore(node, state)
            self._expand(node, state, key, check)
            self.pending = None
        root_state = self.root_state
        pop = heapq.heappop
        clear_stack = node.clear_stack
        while heap:
            _, _, parent, code, parent_key = pop(heap)
            child = play(parent, code)
            if child is None:
                restore(node, parent)
                node.push(decode(code))
                clear_stack()
            else:
                restore(node, child)
            if node.was_into_check():
                continue  # the guide lists pseudo-legal moves: this one was not legal
            key = position_key(node)
            if key in parents:
                continue
            parents[key] = (parent_key, code)
            check = node.is_check()
            # in check, the legal moves are listed once: none is a mate, else the children
            legal = list(node.generate_legal_moves()) if check else None
            if check and not legal:
                if node.turn != winner:
                    self._finish(self._line_to(key))
                    return True
                continue
            irreversible = code & IRREVERSIBLE
            # a capture or a pawn move changes the material; any other move keeps the
            # parent's, which was not insufficient (or the parent is the root)
            if (irreversible or parent is root_state) and node.has_insufficient_material(winner):
                continue
            if irreversible and rammed(node) >= MIN_RAMS and cannot_mate(node, winner):
                continue
            if self.expanded >= limit:
                self.pending = (snapshot(node) if child is None else child, key, check)
                return False
            self._expand(node, snapshot(node) if child is None else child, key, check, legal)
        self._finish(None)
        return True

    def spend(self) -> None:
        """Let the positions go of a search that ran out of budget (it is kept only to say
        "undecided" again within that budget; `run` cannot go on)."""
        if not self.done:
            self.spent, self.pending = True, None
            self.heap, self.parents = [], {}

    def _finish(self, line: list[chess.Move] | None) -> None:
        """The answer is known: keep the line, let the positions go."""
        self.done, self.line, self.pending = True, line, None
        self.heap, self.parents = [], {}


def guided_helpmate(
    board: chess.Board, winner: chess.Color, budget: Budget
) -> list[chess.Move] | None:
    """A helpmate by `winner`, or None after expanding *every* reachable position without one,
    which proves that `winner` cannot mate (raises `OutOfBudget` when the budget runs out)."""
    search = HelpmateSearch(board, winner)
    if not search.run(budget.left):
        budget.left = -1
        raise OutOfBudget
    budget.left -= search.expanded
    return search.line
