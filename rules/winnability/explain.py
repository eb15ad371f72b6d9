"""Why a side cannot mate, in words an arbiter can read out (FIDE 5.2.2, 6.9, 7.5.5, 5.1.2).

The reasons mirror the proofs of `decide`: too little material, a pawn structure that can
never change (with where the enemy king can go and which colour of squares the bishops
keep), or an exhaustive walk of every reachable position.

A reason is a typed value (`CannotMate`), said in words by `say(reason, language)` through
the rules' catalogue (`rules.i18n`); `say(reason)` gives the English, which a ruling's
`explanation` carries (the contract's English), and a `game_over` ruling keeps the typed
reasons too (`GameOver.why`), so that the players read them in their language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import chess

from rules.i18n import N_, Np_, translations
from rules.winnability.static import cannot_check, cannot_mate, fixed_pawns, rams

_NAMES = {
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
}
#: the pieces of a side's material, named in a sentence
PIECE_WORDS: dict[str, tuple[str, str]] = {
    "knight": Np_("material", "knight"),
    "bishop": Np_("material", "bishop"),
    "rook": Np_("material", "rook"),
    "queen": Np_("material", "queen"),
}
SIDE_WORDS: dict[chess.Color, tuple[str, str]] = {
    chess.WHITE: Np_("side", "White"),
    chess.BLACK: Np_("side", "Black"),
}

ONLY_KING = N_("{side} has only the king")
TOO_LITTLE = N_("{side} has too little material to mate (king and {pieces})")
LIGHT_BISHOPS = N_("{side}'s bishops move on light squares only")
DARK_BISHOPS = N_("{side}'s bishops move on dark squares only")
BLOCKED = N_("{side} cannot mate: {parts}")
PAWNS_BLOCKED = N_("{pawns} pawns are blocked for good")
KING_BEHIND = N_("{enemy}'s king can only ever reach {squares} squares behind them")
NO_ATTACK = N_("no unit of {side} can ever attack one of those squares")
FLIGHT_SQUARE = N_("wherever {side} could give check, the king keeps a flight square")
SEARCHED = N_(
    "{side} cannot mate: every series of legal moves was examined and none ends in mate by {side}"
)
CHECKMATED = N_("{side} is checkmated")

Kind = Literal["only_king", "material", "blocked", "searched", "checkmated"]


@dataclass(frozen=True, slots=True)
class CannotMate:
    """Why `color` cannot mate: the proof's `kind` and what it rests on.

    `pieces` (material): the side's pieces besides the king; `pawns`, `squares`,
    `can_check`, `bishops` (blocked): how many pawns are blocked for good, how many squares
    the enemy king can reach behind them, whether the side could ever give check there, and
    the one colour of squares its bishops keep ("light", "dark"), if that counts.
    """

    color: chess.Color
    kind: Kind
    pieces: tuple[str, ...] = ()
    pawns: int = 0
    squares: int = 0
    can_check: bool = False
    bishops: Literal["light", "dark"] | None = None


def say(reason: CannotMate, language: str = "en") -> str:
    """The reason in words, in `language` (the contract's English by default)."""
    words = _Words(language)
    own = words.side(reason.color)
    if reason.kind == "only_king":
        return words.text(ONLY_KING).format(side=own)
    if reason.kind == "material":
        pieces = ", ".join(words.piece(p) for p in reason.pieces)
        return words.text(TOO_LITTLE).format(side=own, pieces=pieces)
    if reason.kind == "searched":
        return words.text(SEARCHED).format(side=own)
    if reason.kind == "checkmated":
        return words.text(CHECKMATED).format(side=own)
    parts = [
        words.text(PAWNS_BLOCKED).format(pawns=reason.pawns),
        words.text(KING_BEHIND).format(enemy=words.side(not reason.color), squares=reason.squares),
        words.text(FLIGHT_SQUARE if reason.can_check else NO_ATTACK).format(side=own),
    ]
    if reason.bishops is not None:
        bishops = LIGHT_BISHOPS if reason.bishops == "light" else DARK_BISHOPS
        parts.append(words.text(bishops).format(side=own))
    return words.text(BLOCKED).format(side=own, parts="; ".join(parts))


class _Words:
    """The catalogue's words in one language; English needs no lookup (the hot path: a
    ruling's `explanation`)."""

    def __init__(self, language: str) -> None:
        self.tr = None if language == "en" else translations(language)

    def text(self, message: str) -> str:
        return message if self.tr is None else self.tr.gettext(message)

    def side(self, color: chess.Color) -> str:
        named = SIDE_WORDS[color]
        return named[1] if self.tr is None else self.tr.pgettext(*named)

    def piece(self, name: str) -> str:
        named = PIECE_WORDS[name]
        return named[1] if self.tr is None else self.tr.pgettext(*named)


def _material(board: chess.Board, color: chess.Color) -> CannotMate:
    own = board.occupied_co[color]
    pieces = tuple(
        _NAMES[piece]
        for piece in _NAMES
        for _ in chess.scan_forward(board.pieces_mask(piece, color))
    )
    if not pieces and not own & board.pawns:
        return CannotMate(color, "only_king")
    return CannotMate(color, "material", pieces=pieces)


def _bishop_colours(board: chess.Board, color: chess.Color) -> Literal["light", "dark"] | None:
    bishops = board.bishops & board.occupied_co[color]
    if not bishops or board.pawns & board.occupied_co[color] & ~fixed_pawns(board)[0]:
        return None
    if not bishops & chess.BB_DARK_SQUARES:
        return "light"
    if not bishops & chess.BB_LIGHT_SQUARES:
        return "dark"
    return None


def static_proof(board: chess.Board, color: chess.Color) -> CannotMate | None:
    """The static proof that `color` cannot mate, or None without one."""
    if board.has_insufficient_material(color):
        return _material(board, color)
    if not rams(board) or not cannot_mate(board, color):
        return None
    fixed, white, black = fixed_pawns(board)
    theirs = black if color == chess.WHITE else white
    return CannotMate(
        color,
        "blocked",
        pawns=chess.popcount(fixed),
        squares=chess.popcount(theirs.king),
        can_check=not cannot_check(board, color),
        bishops=_bishop_colours(board, color),
    )


def static_reason(board: chess.Board, color: chess.Color) -> str | None:
    """The reason of a static proof that `color` cannot mate, in English, or None."""
    proof = static_proof(board, color)
    return None if proof is None else say(proof)
