"""A refusal in words a child understands: what was done, what the Law requires, what to do
now, in one or two short sentences (issue 15, item 3).

A ruling's own sentence ("White did not move or capture the piece touched on g1 (Art.
4.3.1).") is the arbiter's record, fixed in English for the golden digest and cited in the
PGN. In teaching (strict) mode the display adds, under each refusal, a lesson addressed to
the player at the board ("You touched the piece on g1, so you must move it or take it. Put
your move back and play with the piece on g1."), in the game's language. Lessons are said
only for the refusals: a violation of Article 4 (4.2-4.7) and an illegal move (7.5), open
or completed.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.i18n import gettext
from rules.i18n import LANGUAGES, N_
from rules.rulings import GameOver, Illegal, Ruling, Violation

__all__ = ["LESSONS", "lesson_of", "lessons", "lessons_by_language"]

#: a lesson by the kind of refusal; `{square}` is the square the ruling names
LESSONS: dict[str, str] = {
    # Art. 4.3: a touched piece must be moved, an opponent's touched piece taken
    "violation.touch_move": N_(
        "You touched the piece on {square}, so you must move it or take it."
        " Put your move back and play with the piece on {square}."
    ),
    # Art. 4.4.2: the rook touched first, no castling with it
    "violation.castling_rook_first": N_(
        "You touched the rook on {square} before the king, so you may not castle with it."
        " Put the pieces back and move the rook."
    ),
    # Art. 4.7: a piece let go on a square it may go to stays there
    "violation.released": N_(
        "You let go of the piece on {square}, so it must stay there."
        " Put it back on {square} and press the clock."
    ),
    # Art. 4.7 (promotion): the new piece stays once it touched the square
    "violation.promotion_choice": N_(
        "Your new piece touched {square}, so you may not change it any more."
        " Put it back on {square} and press the clock."
    ),
    # Art. 4.3 and 1.2: only the player having the move may touch the pieces to move
    "violation.not_your_move": N_(
        "You touched the piece on {square} while it was your opponent's turn."
        " Put it back and wait until your opponent has pressed the clock."
    ),
    # Art. 7.5.1 / 3.9: a move that leaves one's own king in check is illegal
    "illegal.open.in_check": N_(
        "That move leaves your king in check, which is not allowed."
        " Take it back and make a move that saves your king."
    ),
    # Art. 3.7.5: a pawn on the last rank must be exchanged at once
    "illegal.open.not_promoted": N_(
        "A pawn that reaches the last row must become a queen, rook, bishop or knight."
        " Put one of them there instead of the pawn."
    ),
    # Art. 4.1: one hand for a move
    "illegal.open.two_hands": N_(
        "You used two hands for one move, which is not allowed. Make your move with one hand."
    ),
    # Art. 7.5.1: any other move no legal move explains
    "illegal.open": N_(
        "That move is not allowed. Put it back and make a legal move before you press the clock."
    ),
    # Art. 6.2.1 / 7.5.1: a press must end a move
    "illegal.completed.no_move": N_(
        "You pressed the clock without making a move. Make your move first, then press the clock."
    ),
    # Art. 7.5.1, 7.5.5: a completed illegal move: the opponent gets time
    "illegal.completed": N_(
        "You pressed the clock after a move that is not allowed, so your opponent gets extra"
        " time. Now make a legal move."
    ),
    # Art. 7.5.5: the second completed illegal move loses
    "illegal.completed.lost": N_(
        "You pressed the clock after a move that is not allowed once more, and that loses the game."
    ),
}


def _key(ruling: Ruling, game_ends: bool) -> str | None:
    if isinstance(ruling, Violation):
        return f"violation.{ruling.kind}"
    if isinstance(ruling, Illegal):
        if not ruling.completed:
            specific = f"illegal.open.{ruling.defect}"
            return specific if specific in LESSONS else "illegal.open"
        if game_ends:
            return "illegal.completed.lost"
        if ruling.defect == "no_move":
            return "illegal.completed.no_move"
        return "illegal.completed"
    return None


def lesson_of(ruling: Ruling, language: str, *, game_ends: bool = False) -> str | None:
    """The lesson for `ruling` in `language`, or None when it is no refusal.

    `game_ends`: the same step ended the game (a completed illegal move that loses).
    """
    key = _key(ruling, game_ends)
    if key is None or key not in LESSONS:
        return None
    square = ruling.fields().get("square", "")
    return gettext(LESSONS[key], language).format(square=square)


def lessons(rulings: Iterable[Ruling], language: str) -> dict[int, str]:
    """The lessons of one step's rulings, by the ruling's position among them."""
    rulings = list(rulings)
    ends = any(isinstance(r, GameOver) for r in rulings)
    out: dict[int, str] = {}
    for i, r in enumerate(rulings):
        text = lesson_of(r, language, game_ends=ends)
        if text is not None:
            out[i] = text
    return out


def lessons_by_language(rulings: Iterable[Ruling]) -> dict[int, dict[str, str]]:
    """The lessons of one step's rulings in every language of the arbiter, by the ruling's
    position among them: what the web page's teaching view shows in its own language (the
    page chooses among them; it never builds a lesson itself)."""
    rulings = list(rulings)
    by_language = {language: lessons(rulings, language) for language in LANGUAGES}
    out: dict[int, dict[str, str]] = {}
    for language, taught in by_language.items():
        for i, text in taught.items():
            out.setdefault(i, {})[language] = text
    return out
