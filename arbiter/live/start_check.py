"""The start of a live game (issue 12 item 7): the clocks start when Black presses, once the
pieces stand as the game begins.

With `clock_start = "black_press"` (the default; `--clock-start`) a new timed game begins with
its clocks stopped (a journaled `pause` at t = 0, so a replay of the journal gives the same
clocks) and the arbiter or the players set up the pieces. Black's press starts White's clock,
as on a DGT 3000 (FIDE 6.5: the clock of the player with the white pieces is started), but
only once the board shows the game's starting position: before that, the press is answered
with what is wrong and where ("put the white rook on h1; take the white pawn off e4"), and
the clocks stay stopped.
With `clock_start = "now"` White's clock runs from the start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbiter.i18n import gettext
from rules.i18n import N_
from rules.messages import format_ruling

if TYPE_CHECKING:
    from rules.game import Game

#: the screen's line while the clocks wait (`waiting_note`)
WAITING = {
    True: N_(
        "set up the pieces in the game's starting position: the clocks start when Black presses"
    ),
    False: N_("set up the pieces in the start position: the clocks start when Black presses"),
}


def setup_difference(game: Game, t: float, language: str = "en") -> str | None:
    """What is wrong with the pieces on the board for the game's position, as the screen
    says it in `language` (None: the board is right). Read only: the game is not changed."""
    diff = game.diff()
    if not diff:
        return None
    return format_ruling(game.difference(t, sorted(diff)), language)


def waiting_note(game: Game, language: str = "en") -> str:
    """The screen's line while the clocks wait for Black's press, in `language`."""
    return gettext(WAITING[bool(game.start.fen)], language)
