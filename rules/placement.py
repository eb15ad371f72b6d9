"""The board placement, written once: the piece-placement field of a FEN <-> 64 slots.

A sensed board is 64 slots in `chess.Square` order (a1 first), each a FEN letter, `X`/`x` (a
white/black piece of unknown kind), `?` (a piece of unknown colour) or None (events.md,
`snapshot`). `check_placement` validates the text of an event (`EventError`, naming what is
wrong), `sensed_from_placement` parses it and `placement_of` writes it back, as
`chess.Board.board_fen()` would for the same pieces.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import EventError, PositionError
from rules.i18n import N_

__all__ = [
    "PIECE_LETTERS",
    "SENSED_LETTERS",
    "Sensed",
    "board_fen_of",
    "check_placement",
    "placement_of",
    "rank_fen",
    "sensed_from_placement",
]

#: 64 slots, a1 first: a letter, or None for an empty square
Sensed = list[str | None]
PIECE_LETTERS = frozenset("PNBRQKpnbrqk")
SENSED_LETTERS = PIECE_LETTERS | frozenset("Xx?")

_RUNS = tuple(("1" * n, str(n)) for n in range(8, 1, -1))
#: a slot as one character: its letter, "1" for an empty square
_SLOT_CHAR: dict[str | None, str] = {None: "1", **{c: c for c in "PNBRQKpnbrqkXx?"}}


#: a rank's 8 slots -> its FEN (a game has few distinct ranks; bounded all the same)
_RANK_FEN: dict[tuple[str | None, ...], str] = {}


def rank_fen(letters: Sequence[str | None], rank: int) -> str:
    """The FEN of one rank (0 is the first) of a position's slots, runs of empty squares counted."""
    slots = tuple(letters[8 * rank : 8 * rank + 8])
    fen = _RANK_FEN.get(slots)
    if fen is None:
        fen = "".join(map(_SLOT_CHAR.__getitem__, slots))
        for run, digit in _RUNS:
            if run in fen:
                fen = fen.replace(run, digit)
        if len(_RANK_FEN) < 100_000:
            _RANK_FEN[slots] = fen
    return fen


def board_fen_of(letters: Sensed) -> str:
    """The FEN piece placement of a position's slots (as `chess.Board.board_fen()` gives it)."""
    return "/".join([rank_fen(letters, rank) for rank in range(7, -1, -1)])


def placement_of(sensed: Sensed) -> str:
    """FEN piece placement of sensed slots (X, x, ? kept): `board_fen_of` under its own name."""
    return board_fen_of(sensed)


#: a rank's text -> its 8 slots, a-file first (as `_RANK_FEN`, few distinct; bounded)
_RANK_SLOTS: dict[str, tuple[str | None, ...]] = {}
#: the texts of ranks `check_placement` found well formed (bounded)
_GOOD_RANKS: set[str] = set()
_CACHED = 100_000


def sensed_from_placement(placement: str) -> Sensed:
    """The slots of a snapshot's FEN piece placement (already checked by the event)."""
    out: Sensed = [None] * 64
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise PositionError(f"piece placement {placement!r} must have 8 ranks")
    for i, rank in enumerate(ranks):
        slots = _RANK_SLOTS.get(rank)
        if slots is None:
            slots = _rank_slots(placement, rank, 8 - i)
            if len(_RANK_SLOTS) < _CACHED:
                _RANK_SLOTS[rank] = slots
        out[8 * (7 - i) : 8 * (8 - i)] = slots
    return out


def _rank_slots(placement: str, rank: str, number: int) -> tuple[str | None, ...]:
    """The 8 slots of one rank's text (`number`: 8 for the first rank of the placement)."""
    slots: list[str | None] = [None] * 8
    file = 0
    for ch in rank:
        if ch.isdigit():
            file += int(ch)
        else:
            if file > 7:
                raise PositionError(f"piece placement {placement!r}: rank {number} too long")
            slots[file] = ch
            file += 1
    return tuple(slots)


def check_placement(board: object) -> None:
    """Check a FEN piece-placement field, where X, x and ? may stand for sensed pieces."""
    if not isinstance(board, str):
        raise EventError.of(N_("'board' must be a FEN piece placement, not {board!r}"), board=board)
    ranks = board.split("/")
    if len(ranks) != 8:
        raise EventError.of(N_("'board' {board!r} must have 8 ranks separated by '/'"), board=board)
    for i, rank in enumerate(ranks):
        if rank in _GOOD_RANKS:
            continue
        width = 0
        for ch in rank:
            if ch.isdigit():
                if ch == "0":
                    raise EventError.of(
                        N_("'board' {board!r}: a run of 0 squares on rank {rank}"),
                        board=board,
                        rank=8 - i,
                    )
                width += int(ch)
            elif ch in SENSED_LETTERS:
                width += 1
            else:
                raise EventError.of(
                    N_("'board' {board!r}: unknown piece letter {letter!r}"), board=board, letter=ch
                )
        if width != 8:
            raise EventError.of(
                N_("'board' {board!r}: rank {rank} has {width} squares, not 8"),
                board=board,
                rank=8 - i,
                width=width,
            )
        if len(_GOOD_RANKS) < _CACHED:
            _GOOD_RANKS.add(rank)
