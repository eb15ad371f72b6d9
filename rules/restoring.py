"""Pieces put back after a reconnection's `mismatch`: the board is being restored (7.4).

When the first full report after a reconnection shows neither the game's position nor legal
plies from it (up to `max_plies`), it is a `mismatch` (events.md: what to put back where) and
the game is `RESTORING` (`rules.phases`) until the board shows the game again. Meanwhile the
hands at the board are restoring a position, not playing:

- lifts, places and reports change the board as sensed only: no touch is a touch-move duty
  (4.3), no arrangement a move or an illegal move (4.7, 7.5), so the positions the board
  passes through on its way back (pieces put back one at a time, in reverse move order, are
  each a legal position) never become moves;
- when the board shows the game's position again, play goes on from it;
- a clock press says that the hands have stopped: if the board then shows legal plies from
  the game's position (up to `max_plies`), they are recognised as at a reconnection (the
  contract's rule) and the press completes its player's last one; otherwise the press is no
  move and no press without a move (7.5.3 does not apply to a position being restored, 7.4):
  what is still to be put back is ruled again (`mismatch`) and the clock of the player having
  the move runs on (the arbiter may pause the clocks while the position is restored, 6.11).

docs/events.md ("Putting the board back") is this module's reading of the contract.
"""

from __future__ import annotations

import chess

from rules import moves
from rules.clocking import complete
from rules.events import Lift, Place, Press
from rules.rulings import Ruling
from rules.sensed import Match, Sensed, compatible
from rules.state import GameState


def lift(game: GameState, ev: Lift, out: list[Ruling]) -> None:
    """A piece taken off while the board is restored: no touch (4.3), only the sensed board."""
    game.sensed[chess.parse_square(ev.square)] = None
    _changed(game, ev.t)


def place(game: GameState, ev: Place, out: list[Ruling]) -> None:
    """A piece put down while the board is restored; a blind sensor's piece is unknown."""
    game.sensed[chess.parse_square(ev.square)] = ev.piece or "?"
    _changed(game, ev.t)


def report(game: GameState, seen: Sensed, seen_at: float, out: list[Ruling]) -> None:
    """A whole-board report while the board is restored: the sensed board, kinds kept where
    a colour-only or blind sensor shows a piece the sensed board already names."""
    game.sensed = [
        s if s is not None and seen[i] is not None and compatible(seen[i], _piece(s)) else seen[i]
        for i, s in enumerate(game.sensed)
    ]
    _changed(game, seen_at)


def press(game: GameState, ev: Press, out: list[Ruling]) -> None:
    """A press while the board is restored: the plies it shows, or no move at all."""
    match = game.match()
    if not isinstance(match, Match):
        game.mismatch(ev.t, out)  # what is still to be put back (once per difference)
        return
    game.restored()
    moves.made_all(game, match, ev.t, game.restore_seen_at, out)
    if game.over:
        return
    for record in reversed(game.records):
        if record.pressed:
            break
        if record.side == ev.side:
            complete(game, record, game.clock_time(ev.t), out)
            break


def _changed(game: GameState, t: float) -> None:
    """The board changed: play goes on once it shows the game's position again."""
    game.restore_seen_at = t
    if not game.diff():
        game.restored()


def _piece(letter: str) -> chess.Piece | None:
    return None if letter in "Xx?" else chess.Piece.from_symbol(letter)
