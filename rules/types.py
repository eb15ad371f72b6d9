"""The small vocabulary of the rules: the two sides, squares, and results as types.

A side is the contract's word (`"white"` or `"black"`, events.md); a square is python-chess's
`chess.Square` (0 = a1 ... 63 = h8), written as its algebraic name only on the wire.
"""

from __future__ import annotations

from typing import Final, Literal

import chess

__all__ = ["COLOR", "RESULTS", "SIDE", "SIDES", "Result", "Side", "Square", "other", "win_for"]

#: a player, as the contract names them
Side = Literal["white", "black"]
#: a game's result (Article 8.7)
Result = Literal["1-0", "0-1", "1/2-1/2"]
#: a square of the board, python-chess's integer
Square = chess.Square

SIDES: Final[tuple[Side, Side]] = ("white", "black")
RESULTS: Final[tuple[Result, ...]] = ("1-0", "0-1", "1/2-1/2")
SIDE: Final[dict[chess.Color, Side]] = {chess.WHITE: "white", chess.BLACK: "black"}
COLOR: Final[dict[str, chess.Color]] = {"white": chess.WHITE, "black": chess.BLACK}


def other(side: Side) -> Side:
    """The opponent of `side`."""
    return "black" if side == "white" else "white"


def win_for(side: Side) -> Result:
    """The result of a game `side` won (Article 8.7 results: `1-0`, `0-1`)."""
    return "1-0" if side == "white" else "0-1"
