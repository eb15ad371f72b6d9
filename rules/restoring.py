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
  A camera's press is ruled on the still scene that shows the board at the press: the next
  one if that scene began before the press, else the one before it; a press still waiting
  when the board shows the game again was made while it was put back: no move.

With `auto_press` no press ever comes (the release of a move completes it, events.md), so
no press can say that the hands have stopped. There the release stands for the press: a piece
put down that stood `slide_s` untouched, on a square the last of the legal plies the board
then shows (up to `max_plies`) arrived at, ends the restoring, and those plies are made. A
piece put back goes to the square it came from, which the last ply of the board it leaves
never arrives at, so the positions the board passes through while it is put back are still
not moves; a move made on a board put back only part way (to legal plies from the game) is no
longer lost, and play goes on.

docs/events.md ("Putting the board back") is this module's reading of the contract.
"""

from __future__ import annotations

import chess

from rules import moves
from rules.clocking import complete
from rules.events import Lift, Place, Press
from rules.rulings import Ruling
from rules.sensed import Match, Sensed, changed_squares
from rules.state import GameState
from rules.types import Side


def lift(game: GameState, ev: Lift, out: list[Ruling]) -> bool:
    """A piece taken off while the board is restored: no touch (4.3), only the sensed board.

    Returns False when play went on before it (`released`): the lift is then ruled in play.
    """
    sq = chess.parse_square(ev.square)
    if released(game, ev.t, out):
        return False
    if game.restore_put_down is not None and sq in game.restore_put_down[0]:
        game.put_back_settled()  # slid over the square, never released there (4.7)
    game.sense(sq, None)
    _changed(game, ev.t, out)
    return True


def place(game: GameState, ev: Place, out: list[Ruling]) -> bool:
    """A piece put down while the board is restored; a blind sensor's piece is unknown.

    Returns False when play went on before it (`released`): the place is then ruled in play.
    """
    if released(game, ev.t, out):
        return False
    sq = chess.parse_square(ev.square)
    game.sense(sq, ev.piece or "?")
    if game.start.auto_press:
        game.pieces_put_back(frozenset((sq,)), ev.t)
    _changed(game, ev.t, out)
    return True


def report(game: GameState, seen: Sensed, seen_at: float, t: float, out: list[Ruling]) -> bool:
    """A whole-board report while the board is restored: the sensed board, kinds kept where
    a colour-only or blind sensor shows a piece the sensed board already names.

    Returns False when play went on before it (`released`): the report is then ruled in play.
    """
    if released(game, t, out):
        return False
    if game.start.auto_press:
        arrived = frozenset(
            sq for sq in range(64) if seen[sq] is not None and game.sensed[sq] is None
        )
        if arrived:
            game.pieces_put_back(arrived, seen_at)
    game.report(seen)
    _changed(game, seen_at, out)
    return True


def released(game: GameState, t: float, out: list[Ruling]) -> bool:
    """`auto_press`: the piece put down last has stood `slide_s` by `t` (the time of the next
    change of the board). If it went where the last of the legal plies the board shows (up to
    `max_plies`) arrived, the hands have played, not put back: those plies are made, as a
    press would make them (see the module's docstring), and play goes on. True if so."""
    put_down = game.restore_put_down
    if put_down is None or not game.start.auto_press:
        return False
    squares, put_t = put_down
    if t - put_t <= game.start.slide_s:
        return False
    game.put_back_settled()
    match = game.match()
    if isinstance(match, Match) and match.moves:
        board = game.board.copy(stack=False)
        for move in match.moves[:-1]:
            board.push(move)
        if not squares & set(changed_squares(board, match.moves[-1])):
            match = None  # a piece put back where it stands in the game: no move
    if not isinstance(match, Match):
        if squares & game.diff():
            # put down where the game has no such piece: as at a press, what is still to be
            # put back is said again (once per difference), so the game never goes silent
            game.mismatch(t, out)
        return False
    game.restored()
    game.forget_presses()
    moves.made_all(game, match, t, put_t, out)
    return True


def presses_before(game: GameState, seen_at: float, out: list[Ruling]) -> None:
    """A camera's scene that began after a waiting press shows what the hands did after it:
    that press is ruled on the board as it was before this scene."""
    earlier = game.take_presses_before(seen_at)
    for side, press_t in earlier:
        if game.restoring and not game.over:
            _pressed(game, side, press_t, game.t, out)


def press(game: GameState, ev: Press, out: list[Ruling]) -> None:
    """A press while the board is restored: the plies it shows, or no move at all.

    A camera shows the board only in its next still scene (events.md, `latency_s`): the
    press waits for it, as any press does with such a source (`presses_before`).
    """
    if game.still_scene_source():
        game.wait_for_report(ev.side, ev.t)
        return
    _pressed(game, ev.side, ev.t, ev.t, out)


def _pressed(game: GameState, side: Side, press_t: float, t: float, out: list[Ruling]) -> None:
    match = game.match()
    if not isinstance(match, Match):
        game.mismatch(t, out)  # what is still to be put back (once per difference)
        return
    game.restored()
    moves.made_all(game, match, t, game.restore_seen_at, out)
    if game.over:
        return
    for record in reversed(game.records):
        if record.pressed:
            break
        if record.side == side:
            complete(game, record, game.clock_time(press_t), out, ruling_t=t)
            break


def _changed(game: GameState, t: float, out: list[Ruling]) -> None:
    """The board changed: play goes on once it shows the game's position again; presses
    that waited for this report are ruled on it."""
    game.seen_while_restoring(t)
    if not game.diff():
        game.put_back_settled()
        game.restored()
        game.forget_presses()  # made while the board was put back: no move, no 7.5.3
        return
    while game.waiting_presses and game.restoring and not game.over:
        side, press_t = game.take_waiting_press()
        _pressed(game, side, press_t, game.t, out)
