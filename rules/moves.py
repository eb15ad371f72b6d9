"""When a move is made (Article 4.7) and what follows when it stands.

A move is made when its last piece is released (it stood `slide_s`, the clock was pressed,
or the other player's hand proved the release) with none of the mover's pieces left in the
hand; then the board as sensed is matched with the legal moves (or, for late sensors, with
sequences of up to `max_plies`). A legal move is checked against Article 4 (a breach is
recorded, or in strict mode the move refused), pushed, and the automatic endings follow
(Art. 5, 9.6). What no legal move explains is an illegal move in progress (4.7, 7.5.1), a
move still under way (castling 4.7.2, a capture 4.7.1, a promotion 4.7.3) or displaced
pieces (`mismatch`, 7.4).
"""

from __future__ import annotations

from enum import Enum

import chess

from rules import clocking, ending, hands, illegal
from rules.rulings import Ruling
from rules.sensed import (
    BeyondBudget,
    Match,
    SearchBudget,
    changed_squares,
    classify_attempt,
    find_match,
)
from rules.sides import SIDE
from rules.state import GameState
from rules.turn import Arrangement


class Settled(Enum):
    """What `settle` found the board to show once everything was down."""

    NONE = "none"  # the board shows the game's position
    MOVE = "move"  # a legal move (or several plies), made
    PARTIAL = "partial"  # castling, a capture or a promotion under way (4.7.1 to 4.7.3)
    ILLEGAL = "illegal"  # the mover's pieces stand where no legal move puts them (7.5.1)
    MISMATCH = "mismatch"  # displaced pieces, no move of the mover's (7.4)
    REFUSED = "refused"  # strict mode: the arrangement already refused
    #: so far off that the search for the plies explaining it ran out of budget: a
    #: `mismatch` (issue 17, D4)
    UNEXPLAINED = "unexplained"


def release_early(game: GameState, t: float, out: list[Ruling]) -> None:
    """The other player's hand is at work: the mover has let go of what he put down."""
    if game.own_in_hand() > 0:
        return
    diff = game.diff()
    if diff and isinstance(game.match(1), Match):
        release_all(game, t, out)


def settle_if_move(
    game: GameState, t: float, out: list[Ruling], made_at: float | None = None
) -> bool:
    """Make the move the board shows, if it shows one; rule nothing otherwise."""
    if game.over or game.pending or game.own_in_hand() > 0:
        return False
    diff = game.diff()
    refused = game.turn.refused
    if not diff or (refused is not None and game.arrangement(diff) == refused):
        return False
    if not isinstance(game.match(), Match):
        return False
    settle(game, t, out, made_at=t if made_at is None else made_at)
    return True


def release_all(game: GameState, t: float, out: list[Ruling]) -> None:
    """Release every piece put down, oldest first (a press, a still scene: 4.7)."""
    pending = game.pending
    order = list(pending) if len(pending) < 2 else sorted(pending, key=lambda s: pending[s][0])
    for sq in order:
        if game.over:
            return
        if sq in game.pending:
            release(game, sq, t, out)


def release(game: GameState, sq: int, t: float, out: list[Ruling]) -> None:
    """The piece on `sq` is released (4.7): the last one down makes the move."""
    placed_t = game.release_piece(sq)
    if game.pending:
        return  # the move is made when its last piece is released
    if game.own_in_hand() > 0:
        # the hand still holds a piece of this move (castling, a capture), unless a report
        # was lost: the board then shows the mover's move and the reply already made
        caught_up = game.match()
        if isinstance(caught_up, Match):
            made_all(game, caught_up, t, placed_t, out)
        return
    settle(game, t, out, made_at=placed_t)


def settle(
    game: GameState, t: float, out: list[Ruling], *, made_at: float, pressed: bool = False
) -> Settled:
    """Everything is down: which legal move (if any) does the board show? (`Settled`)"""
    diff = game.diff()
    if not diff:
        game.clear_mismatch()
        return Settled.NONE
    refused = game.turn.refused
    if refused is not None and game.arrangement(diff) == refused:
        return Settled.REFUSED
    match = game.match()
    if isinstance(match, BeyondBudget):
        game.mismatch(t, out, diff)
        return Settled.UNEXPLAINED
    if match is not None:
        made_all(game, match, t, made_at, out)
        return Settled.MOVE
    if made_with_displaced(game, diff, t, made_at, out):
        return Settled.MOVE
    if made_with_doubt(game, diff, t, made_at, out):
        return Settled.MOVE
    scene = game.turn.refused_scene
    if scene is not None and putting_back(game.arrangement(diff), scene):
        return Settled.REFUSED  # strict: the refused move on its way back (4.7), no new attempt
    attempt = classify_attempt(game.board, game.sensed, diff)
    if attempt.kind in ("castling_partial", "capture_partial", "not_promoted") and not pressed:
        return Settled.PARTIAL
    if game.turn.touched_any or game.turn.moved_squares:
        if not pressed:
            illegal.released(game, attempt.kind, attempt.move, t, diff, out)
        return Settled.ILLEGAL
    game.mismatch(t, out, diff)
    return Settled.MISMATCH


def putting_back(now: Arrangement, scene: Arrangement) -> bool:
    """Whether the board is on its way back from a refused arrangement to the position.

    Every square that still differs from the position was one of the refused move's (or
    differed then), and is either empty (a piece in the hand, on its way back) or shows what
    it showed then (not yet put back). Asked only where no legal move explains the board:
    such a step is no illegal move (4.7) and no `mismatch` beyond the one the refusal gave.
    """
    then = dict(scene)
    return all(sq in then and (letter is None or letter == then[sq]) for sq, letter in now)


def made_all(game: GameState, match: Match, t: float, made_at: float, out: list[Ruling]) -> None:
    """The plies of one report, in order (several when a late sensor saw them at once)."""
    if len(match.moves) == 1:  # the usual report: one ply
        if not game.over:
            made(game, match.moves[0], t, made_at, out, inferred=match.inferred)
        return
    for i, move in enumerate(match.moves):
        if game.over:
            break
        made(
            game,
            move,
            t,
            made_at,
            out,
            inferred=match.inferred,
            multi=len(match.moves) > 1,
            first=i == 0,
        )


def made_with_displaced(
    game: GameState, diff: set[int], t: float, made_at: float, out: list[Ruling]
) -> bool:
    """A legal move, with opponent pieces the mover took off and did not capture.

    The move stands (4.7) and the pieces taken off are displaced (7.4): `mismatch`.
    """
    them = not game.board.turn
    off = {sq for sq in diff if game.sensed[sq] is None and game.board.color_at(sq) == them}
    if not off:
        return False
    restored = list(game.sensed)
    for sq in off:
        piece = game.board.piece_at(sq)
        restored[sq] = piece.symbol() if piece else None
    match = find_match(game.board, restored, max_plies=1, promotion=game.promo())
    if not isinstance(match, Match):
        return False
    move = match.moves[0]
    if move.to_square in off or game.board.is_en_passant(move):
        return False
    made(game, move, t, made_at, out)
    if not game.over:
        game.mismatch(t, out)
    return True


def made_with_doubt(
    game: GameState, diff: set[int], t: float, made_at: float, out: list[Ruling]
) -> bool:
    """A still scene (a camera) showing legal plies and one square that none of them touched
    reported otherwise: the plies stand and the square is a `mismatch` (7.4), not an illegal
    move.

    Why: a camera misreads a square now and then (a piece in a shadow, a print), and goes on
    misreading it while the scene stays; a hand that moved one piece legally did not also
    change a square its move never reached, unless it displaced a piece there (7.4: put
    back, no illegal move either). Only a single such square, named by exactly one legal
    sequence (up to `max_plies`), whose every touched square the scene shows right.
    """
    if not game.still_scene_source() or len(diff) < 3:
        return False
    found: list[tuple[int, Match]] = []
    budget = SearchBudget()  # one budget for every square's search
    for sq in sorted(diff):
        restored = list(game.sensed)
        piece = game.board.piece_at(sq)
        restored[sq] = piece.symbol() if piece else None
        match = find_match(
            game.board,
            restored,
            max_plies=game.start.max_plies,
            promotion=game.promo(),
            budget=budget,
        )
        if isinstance(match, BeyondBudget):
            return False  # too far off to tell which square alone is misread
        if match is None:
            continue
        board = game.board.copy(stack=False)
        touched: set[int] = set()
        for move in match.moves:
            touched.update(changed_squares(board, move))
            board.push(move)
        if sq not in touched:
            found.append((sq, match))
    if len(found) != 1:
        return False
    made_all(game, found[0][1], t, made_at, out)
    if not game.over:
        game.mismatch(t, out)
    return True


def made(
    game: GameState,
    move: chess.Move,
    t: float,
    made_at: float,
    out: list[Ruling],
    *,
    inferred: bool = False,
    multi: bool = False,
    first: bool = True,
) -> None:
    """A legal move was made (4.7): check Article 4, then let it stand (or refuse it)."""
    side = SIDE[game.board.turn]
    turn = game.turn
    violation = None if (multi and not first) else hands.article4_breach(game, move, t, side)
    if violation is not None:
        out.append(violation)
        if game.strict:
            diff = game.diff()
            changed = set(changed_squares(game.board, move))
            game.refuse(game.arrangement(diff), game.arrangement(diff | changed))
            game.reinstate(t, "strict", violation.article, out)
            return
    record, stands = game.stand(
        move,
        side,
        t,
        made_at,
        touches=list(turn.touches),
        violation=violation,
        inferred=inferred,
    )
    out.append(stands)
    if game.start.auto_press:
        clocking.complete(game, record, game.clock_time(made_at), out)
    ending.after_move(game, t, out, made_at)
    if not game.over:
        ending.flag_after_release(game, t, out)
