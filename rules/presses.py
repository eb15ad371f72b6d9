"""Clock presses: the press completes the move (6.2.1, 4.7), or is a press without a move.

A press releases what the mover put down (4.7). With a sensor that reports late
(`latency_s`, a camera's still scenes) a press waits for the report of its move; only a
report that shows the player's move not made makes it a press without a move (7.5.3), and
never while the source is disconnected (events.md). A press after an arrangement that no
legal move explains completes an illegal move (7.5).

Without a clock (time control '-') there is no clock to press (6.2.1) and so no "press without
a move" (7.5.3 speaks of pressing the clock): the press is only the signal that the mover has
finished, whichever side the source gave it (a single key or button cannot tell who pressed).
It completes the mover's move, or does nothing.
"""

from __future__ import annotations

from rules import ending, illegal, moves, restoring
from rules.clocking import complete
from rules.events import Press
from rules.moves import Settled
from rules.rulings import Defect, Mismatch, Ruling
from rules.sensed import Match, Sensed, classify_attempt, compatible
from rules.sides import COLOR, SIDE
from rules.state import GameState
from rules.types import Side


def press(game: GameState, ev: Press, out: list[Ruling]) -> None:
    """A clock press (6.2.1): releases the move (4.7) and completes it, or waits for a report."""
    if game.restoring:
        restoring.press(game, ev, out)  # the board is being put back (7.4)
        return
    side = ev.side
    if game.pending and (game.start.latency_s == 0 or pending_makes_move(game)):
        # the press releases what is down (4.7); with a late sensor, only when it already
        # shows a move: the rest of the move may still be on its way (latency_s)
        moves.release_all(game, ev.t, out)
        if game.over:
            return
    waited = game.take_flag_wait() if game.flag_wait is not None else None
    if waited is not None:
        fside, at = waited
        ending.flag(game, fside, at, ev.t, out, waited=True)
        if game.over:
            return
    if not game.timed:
        side = untimed_presser(game, side)  # after the release: the move it made is the mover's
    last = game.records[-1] if game.records else None
    if last is not None and last.side == side and not last.pressed:
        complete(game, last, game.clock_time(ev.t), out)
        return
    if (
        side == SIDE[game.board.turn]
        and not game.waiting_presses
        and moves.settle_if_move(game, ev.t, out)
    ):
        last = game.records[-1] if game.records else None
        if last is not None and last.side == side and not last.pressed:
            complete(game, last, game.clock_time(ev.t), out)
        return
    if side == SIDE[game.board.turn] or game.waiting_presses:
        due = game.press_due(ev.t)
        if due is not None and due <= ev.t:  # no report to wait for: matched at once
            resolve(game, side, ev.t, ev.t, out)
        else:
            game.wait_for_report(side, ev.t)


def untimed_presser(game: GameState, given: Side) -> Side:
    """Whose press a press is in a game without a clock: the mover's (6.2.1, 7.5.3).

    `given` (the side the source named) when that side has a move not yet completed by a
    press; else the player whose move is made but not completed; else the player to move.
    A move begun after an uncompleted one needs a press of its own, so a press given the
    wrong side completes at most a move already made and never convicts anyone.
    """
    unpressed = []
    for record in reversed(game.records):
        if record.pressed:
            break
        unpressed.append(record.side)
    if given in unpressed:
        return given
    if unpressed:
        return unpressed[0]
    return SIDE[game.board.turn]


def pending_makes_move(game: GameState) -> bool:
    """Whether the pieces put down already show a legal move (none left in the hand)."""
    if game.own_in_hand() > 0:
        return False
    diff = game.diff()
    return bool(diff) and isinstance(game.match(), Match)


def within_latency(game: GameState, t: float) -> bool:
    """Whether every waiting press is still within its `latency_s` at `t`: a board that
    reports every change may still report the move (events.md), so a whole-board report
    taken now may be as late as its field updates and does not decide the press. A camera's
    still scene always decides (it is the report the press waited for)."""
    if not game.waiting_presses:
        return False
    for _, press_t in game.waiting_presses:
        due = game.press_due(press_t)
        if due is None or due <= t:
            return False
    return True


def reply_after_press(game: GameState, square: int, t: float, out: list[Ruling]) -> bool:
    """A lift on `square` at `t` after the mover pressed: the opponent's reply, or not.

    With a sensor that reports late (`latency_s`), the mover's press may wait for the report
    of his move while the opponent already answers. The press ended the mover's turn (6.2.1),
    so once the board as sensed shows his move complete (nothing of his in the hand, a legal
    move on the board), a piece of the opponent's lifted now is in the opponent's hand: the
    move stands (4.7), the waiting press completes it at the moment it was made, and the lift
    is the opponent's touch (4.3), never the mover's. Where the move is not yet complete on
    the board, the lift is the late report of the mover's own capture and nothing is done.

    Returns True if the move was made to stand here (the caller then reads the lift as the
    new mover's).
    """
    mover = SIDE[game.board.turn]
    if not game.pending or not any(side == mover for side, _ in game.waiting_presses):
        return False
    piece = game.board.piece_at(square)
    if piece is None or piece.color == COLOR[mover] or game.sensed[square] is None:
        return False
    if not pending_makes_move(game):
        return False
    before = len(game.records)
    moves.release_all(game, t, out)
    if game.over or len(game.records) == before:
        return False
    record = game.records[-1]
    for i, (side, press_t) in enumerate(game.waiting_presses):
        if side == mover and record.side == mover and not record.pressed:
            game.press_matched(i)
            complete(game, record, game.clock_time(press_t), out, ruling_t=t)
            break
    return True


def resolve_waiting(game: GameState, t: float, out: list[Ruling]) -> None:
    """A still scene arrived: presses that waited for it are matched now."""
    while game.waiting_presses and not game.over:
        side, pt = game.take_waiting_press()
        resolve(game, side, pt, t, out)


def resolve(
    game: GameState, side: Side, press_t: float, t: float, out: list[Ruling], *, final: bool = False
) -> None:
    """Match a press with its move, or rule it a press without a move (7.5.3)."""
    if game.over:
        return
    for record in reversed(game.records):
        if record.side == side and not record.pressed:
            complete(game, record, game.clock_time(press_t), out, ruling_t=t)
            return
        if record.pressed:
            break
    if side != SIDE[game.board.turn]:
        return  # pressing when one's clock is not running changes nothing
    if game.timed and (game.clock.running != side or game.clock.paused):
        # the opponent moved without pressing (6.2.1), or the arbiter paused the clocks:
        # this player's clock is not running, and a press on a stopped clock does nothing
        return
    if game.disconnected:
        return  # while a source is disconnected, never a press without a move
    # the press released what still stood within slide_s
    placed = game.release_pieces()
    made_at = press_t if placed is None else placed
    state = moves.settle(game, t, out, made_at=made_at, pressed=True)
    if state is Settled.REFUSED:
        return  # strict: the refused move is no move; the player's clock runs on
    if state is Settled.UNEXPLAINED:
        return  # too far off to prove a move or an illegal one: the `mismatch` is the ruling
    if state is Settled.MOVE:
        last = game.records[-1]
        if last.side == side and not last.pressed:
            complete(game, last, game.clock_time(press_t), out, ruling_t=t)
        return
    diff = game.diff()
    if not diff or pressed_again(game, diff):
        if diff:
            game.mismatch(t, out, diff)
        if not game.timed:
            return  # 7.5.3 is a press of the clock: without one, a press with no move is nothing
        illegal.completed(game, side, "no_move", None, t, out, press_t=press_t)
        return
    attempt = classify_attempt(game.board, game.sensed, diff)
    if attempt.kind == "not_promoted" and attempt.move is not None:
        illegal.completed(game, side, "not_promoted", attempt.move, t, out, press_t=press_t)
        return
    defect: Defect
    if attempt.kind == "castling_partial":
        defect = "unreachable"
    else:
        defect = "in_check" if attempt.kind == "in_check" else "unreachable"
    if game.turn.touched_any or game.turn.moved_squares:
        defect = "two_hands" if game.turn.two_hands else defect
        illegal.completed(game, side, defect, attempt.move, t, out, press_t=press_t)
    else:
        game.mismatch(t, out, diff)
        if game.timed:  # 7.5.3 only where there is a clock
            illegal.completed(game, side, "no_move", None, t, out, press_t=press_t)


def pressed_again(game: GameState, diff: set[int]) -> bool:
    """Does the board show just what it showed when this turn's illegal move was ruled and
    its position reinstated (7.5.1)? Then the player has made no move since, and a press is
    a press without a move (7.5.3: "considered and penalized as if an illegal move"), not the
    illegal arrangement completed a second time. Anything moved since (scenario 28: the rook
    taken on from b2 to b3) is a new attempt, ruled as such."""
    scene = game.turn.reinstated_scene
    return scene is not None and game.arrangement(diff) == scene


def before_scene(
    game: GameState, seen: Sensed, seen_at: float | None, t: float, out: list[Ruling]
) -> None:
    """A camera's still scene that began after a waiting press and shows the game's position
    again, while the scene before it showed the mover's arrangement already ruled illegal
    (4.7, released where no legal move takes it): the press is ruled on the scene before,
    as the completion of that illegal move (7.5.1), not as a press without a move (7.5.3).

    Why: the last still scene before the press showed the illegal arrangement released (no
    hand at the board), and the board was not seen still again until after the press: the
    hands were at the board at the press, and the scene that began after it shows what they
    did after it (the queen put back). `rules.restoring` rules a camera's press on the same
    reading (the scene that shows the board at the press: the next one if it began before
    the press, else the one before). The camera cannot see the piece put back a moment
    before a press made while the hand still hid the board (that would be 7.5.3); either
    way the illegal move counts and is penalised the same (7.5.5), and the position after
    it is the one the board shows, so only the article and the words depend on the reading.
    Only 7.5.1: a pawn left on the last rank (7.5.2) is not ruled so, since there the
    reading would decide whether a queen stands on the board (the pawn was put back).
    """
    if seen_at is None or not game.waiting_presses or not game.still_scene_source():
        return
    diff = game.diff()
    if not diff or game.turn.reported_illegal != game.arrangement(diff):
        return
    board = game.board
    if not all(compatible(seen[sq], board.piece_at(sq)) for sq in range(64)):
        return  # the scene shows something else than the position: ruled on it, as ever
    earlier = game.take_presses_before(seen_at)
    if not earlier:
        return
    ruled: list[Ruling] = []
    for side, press_t in earlier:
        resolve(game, side, press_t, t, ruled)
    # the scene shows the reinstated position already: no `mismatch` to put it back
    out.extend(r for r in ruled if not isinstance(r, Mismatch))
