"""The two players: names for python-chess colours, the opponent, a win as a result string."""

from __future__ import annotations

import chess

SIDE = {chess.WHITE: "white", chess.BLACK: "black"}
COLOR = {"white": chess.WHITE, "black": chess.BLACK}


def other(side: str) -> str:
    """The opponent of `side`."""
    return "black" if side == "white" else "white"


def win_for(side: str) -> str:
    """The result of a game `side` won (Article 8.7 results: `1-0`, `0-1`)."""
    return "1-0" if side == "white" else "0-1"
