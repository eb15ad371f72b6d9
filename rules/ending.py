"""How a game ends: Articles 5 (mate, stalemate, dead position, resignation), 6.9 (the flag)
and 9.6 (fivefold repetition, 75 moves), and the rule profiles' automatic draws.

After every move the automatic endings are checked (5.1.1, 5.2.1, 9.6, 5.2.2). A flag, a
resignation or a second illegal move asks whether the opponent can still mate (6.9, 5.1.2,
7.5.5): a proven "cannot" makes the game a draw. The end stops the clocks.

With `GameState.defer_verdicts` (the live session) such an ending whose search was not
worked out ahead is ruled as far as it goes without the verdict (the `flag`; the `illegal`
move and its increment taken back; a resignation has nothing before its verdict) and the
verdict is left to `settle`, slice by slice between inputs: no input waits for the search.
The verdict (`verdict`) is the same function a replay calls at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from rules import winnability
from rules.events import Resign
from rules.rulings import Flag, GameOver, Note, NoteTopic, Penalty, Reason, Ruling
from rules.sides import COLOR, SIDE, other, win_for
from rules.state import GameState, VerdictEnding
from rules.types import Result, Side
from rules.winnability.explain import CannotMate, say, static_proof
from rules.winnability.material import few_minor_pieces, minor_pieces_only, pawns_locked

#: work allowed for the dead-position check after a move (winnability budget units)
DEAD_POSITION_BUDGET = 500
#: work allowed for "can the opponent still mate?" at a flag, a resignation or a second
#: illegal move, where the static proof leaves it open (locked pawns, a few minor pieces):
#: about 0.1 ms a position here. 400 left a real K+N v K+N flag of the corpus undecided (its
#: helpmate takes some 2,000 positions, 40 ms); 2,500 (as `arbiter position`) decides it, at
#: the cost of up to about 0.3 s here when nothing is found
RULING_BUDGET = 2500


def after_move(game: GameState, t: float, out: list[Ruling], made_at: float) -> None:
    """Automatic endings after a move: 5.1.1, 5.2.1, 9.6, 5.2.2, and the profile's draws."""
    board = game.board
    mover = other(SIDE[board.turn])
    if not game.has_legal_moves():
        if board.is_check():
            game_over(game, t, win_for(mover), "checkmate", "5.1.1", out)
        else:
            game_over(game, t, "1/2-1/2", "stalemate", "5.2.1", out)
        return
    repetitions = game.repetitions_of_current()
    if repetitions >= 5:
        game_over(game, t, "1/2-1/2", "fivefold_repetition", "9.6.1", out)
        return
    if board.halfmove_clock >= 150:
        game_over(game, t, "1/2-1/2", "seventyfive_moves", "9.6.2", out)
        return
    why_dead = dead_position(game)
    if why_dead is not None:
        game_over(game, t, "1/2-1/2", "dead_position", "5.2.2", out, why_dead)
        return
    if game.profile.automatic_draws and (
        repetitions >= 3 or board.halfmove_clock >= 100 or board.is_insufficient_material()
    ):
        game_over(game, t, "1/2-1/2", "profile", "9.2, 9.3, 5.2.2", out)
        return
    if game.profile.minor_pieces_drawn and minor_pieces_only(board):
        game_over(game, t, "1/2-1/2", "profile", "5.2.2", out)


def dead_position(game: GameState) -> tuple[CannotMate, ...] | None:
    """5.2.2: no series of legal moves can end in mate (proven, never guessed): each side's
    reason (the `explanation` of the draw), or None when the position is not proven dead.

    Checked after every move, so it must be cheap: python-chess's insufficient material
    first, then the full analysis only where every pawn is locked (a position where some
    pawn can still move is left to play on: at worst a dead position goes undetected,
    never a live one declared dead). Queens are left out: a queen locked behind a wall
    is a curiosity, and positions with queens and locked pawns are common in play.

    Before the analysis, its sound screen (`winnability.may_be_dead`): a helpmate certificate
    proves the position alive in microseconds, where the analysis would spend milliseconds
    (up to a good part of a second) only to find the same; the verdict is the same either
    way, as both answers are proven.
    """
    board = game.board
    # a pawn, rook or queen on the board is sufficient material (python-chess's own first
    # test, answered here without its two calls)
    if board.pawns | board.rooks | board.queens or not board.is_insufficient_material():
        if board.queens or not pawns_locked(board):
            return None
        if not winnability.may_be_dead(board):
            return None
    reasons = []
    for color in (chess.WHITE, chess.BLACK):
        can, why = winnability.proven_verdict(board, color, DEAD_POSITION_BUDGET)
        if can is not False or why is None:
            return None
        reasons.append(why)
    return tuple(reasons)


def cannot_mate(game: GameState, side: Side) -> bool:
    """6.9, 5.1.2, 7.5.5: `side` cannot mate by any series of legal moves (proven)."""
    return mate_verdict(game, side)[0] is False


def why_cannot_mate(game: GameState, side: Side) -> str | None:
    """6.9, 5.1.2, 7.5.5: why `side` cannot mate by any series of legal moves, in words (the
    `explanation` of the draw), or None when that is not proven."""
    why = mate_verdict(game, side)[1]
    return None if why is None else say(why)


def mate_verdict(game: GameState, side: Side) -> tuple[bool | None, CannotMate | None]:
    """6.9, 5.1.2, 7.5.5: can `side` mate by some series of legal moves? (False, why) when
    proven impossible, (True, None) when mate is possible, (None, None) when
    undecided within `RULING_BUDGET` (`winnability.verdict`).

    python-chess's insufficient material and the static proof of blocked pawns come first
    (fractions of a millisecond). The helpmate search runs where unwinnability is likely
    beyond them: locked pawns, or a few minor pieces and no pawns. Elsewhere (free pawns or
    major pieces, nothing the static proof can hold) the side is taken to be able to mate, as
    the contract's "never declare a draw unless mate is provably impossible" asks: a budget
    of `RULING_BUDGET` positions leaves real, winnable flags (K+B+P v K, K+N+2P v K from the
    corpus) undecided, and holding such a game would take a won game from its winner.
    """
    board = game.board
    color = COLOR[side]
    reason = static_proof(board, color)
    if reason is not None:
        return False, reason
    if not searched(board, color):
        return True, None
    return winnability.proven_verdict(board, color, RULING_BUDGET)


def searched(board: chess.Board, color: chess.Color) -> bool:
    """Whether `mate_verdict` asks the helpmate search (where the static proof fails): where
    unwinnability is likely, locked pawns or a few minor pieces and no pawns."""
    return pawns_locked(board) or few_minor_pieces(board, color)


def work_ahead(game: GameState, nodes: int) -> bool:
    """Between moves, in the live session's idle time: advance by at most `nodes` positions
    the searches a flag, a resignation or a second illegal move would run in the current
    position (6.9, 5.1.2, 7.5.5), for each side; True while work is left.

    The rules core has no threads; the session calls this while no input waits, a slice at a
    time. A ruling finds the search done (or goes on from where it stopped): the verdict is
    the one it would have been without it (`rules.winnability.ahead`), only sooner.
    """
    if game.over or game.held:
        return False
    board = game.board
    for color in (chess.WHITE, chess.BLACK):
        if not searched(board, color) or board.has_insufficient_material(color):
            continue
        if not winnability.work_ahead(board, color, RULING_BUDGET, nodes):
            return True
    return False


#: the endings a move makes by itself (`after_move`)
ENDED_BY_THE_MOVE = frozenset(
    {"checkmate", "stalemate", "fivefold_repetition", "seventyfive_moves", "dead_position",
     "profile"}
)  # fmt: skip


def game_over(
    game: GameState,
    t: float,
    result: Result,
    reason: Reason,
    article: str | None,
    out: list[Ruling],
    why: CannotMate | tuple[CannotMate, ...] | None = None,
    *,
    said: str | None = None,
) -> None:
    """The game ended (5, 6.9, 9.6, 7.5.5, a claim, the arbiter): rule it and stop the clocks.

    `why`: why the game is drawn when the side that would win cannot mate (dead_position,
    time_dead_position, resignation_dead_position, illegal_moves_dead_position), for the
    arbiter to show: the ruling's `explanation` in English (a project extension,
    docs/events.md) and the typed reasons, which the formatter says in the players' language.
    `said`: the arbiter's own words for a declared result (12.2), the `explanation` as typed."""
    if game.over:
        return
    game.end(result, reason)
    reasons = why if isinstance(why, tuple) else () if why is None else (why,)
    explanation = ". ".join(say(r) for r in reasons) if reasons else said
    out.append(
        GameOver(
            t=t,
            article=article,
            result=result,
            reason=reason,
            explanation=explanation,
            why=reasons,
        )
    )
    if game.timed:
        stop = t
        if reason in ENDED_BY_THE_MOVE:
            # the mover's press waiting for the report of this move (a camera sees it late)
            # stopped the mover's clock when it was made (6.2.1), as it does for any move
            running = game.clock.running
            pressed = [pt for side, pt in game.waiting_presses if side == running and pt < t]
            stop = min(pressed, default=t)
        game.stop_clock(stop)
        game.clock_ruling(out, t)


def flag(
    game: GameState, side: Side, at: float, t: float, out: list[Ruling], *, waited: bool = False
) -> None:
    """6.9: the time ran out. A placement still pending may yet end the game first."""
    if game.over:
        return
    mover_pending = any(h == side for _, (pt, h) in game.pending.items() if pt <= at)
    if mover_pending and not waited:
        game.flag_waits(side, at)
        return
    game.flag_fell(side)
    game.stop_clock(at)
    out.append(Flag(t=t, side=side, article="6.9", at=round(at, 6)))
    if not deferred(game, "flag", side, t):
        verdict(game, "flag", side, t, out)


def deferred(game: GameState, ending: VerdictEnding, side: Side, t: float) -> bool:
    """With `defer_verdicts`, leave the verdict of `side`'s `ending` ruled at `t` to `settle`
    when it needs more search than was worked out ahead; True when it was left."""
    if game.defer_verdicts and not verdict_ready(game, other(side)):
        game.await_verdict(ending, side, t)  # the live session settles it between inputs
        return True
    return False


def verdict_ready(game: GameState, side: Side) -> bool:
    """Whether `mate_verdict(game, side)` is known without searching further: a static proof,
    no search asked (`searched`), or the search worked out ahead (`work_ahead`) finished or
    at its budget. Asks the kept search only: expands no position."""
    board = game.board
    color = COLOR[side]
    if not searched(board, color):
        return True
    return winnability.work_ahead(board, color, RULING_BUDGET, 0)


def settle(game: GameState, nodes: int | None, out: list[Ruling]) -> bool:
    """The verdict an ending left to the live session (`GameState.awaiting_verdict`): advance
    its search by at most `nodes` positions (None: to the end) and, once it is known, rule it
    into `out`. True when nothing awaits any more. The rulings are those the ending would
    have given at once: only their moment in real time differs."""
    waiting = game.awaiting_verdict
    if waiting is None:
        return True
    winner = other(waiting.side)
    if nodes is not None and not winnability.work_ahead(
        game.board, COLOR[winner], RULING_BUDGET, nodes
    ):
        return False  # more of the search is left than this slice
    game.verdict_given()
    verdict(game, waiting.ending, waiting.side, waiting.t, out)
    return True


def hold(game: GameState, t: float, out: list[Ruling]) -> None:
    """Whether the side that would win can still mate is undecided (6.9, 5.1.2, 7.5.5): the
    clocks stop and the game holds, board events ignored, until the arbiter's `declare`. The
    Laws give no default, so nothing is guessed and no `game_over` is ruled."""
    if game.timed and game.clock.running is not None:
        game.stop_clock(t)
    game.hold_for_verdict()
    game.release_pieces()  # the game holds: nothing put down is decided any more
    game.forget_presses()
    if game.timed:
        game.clock_ruling(out, t)


def flag_after_release(game: GameState, t: float, out: list[Ruling]) -> None:
    """A flag that waited for this release (events.md): the move did not end the game."""
    if game.flag_wait is not None and not game.pending:
        waited = game.take_flag_wait()
        assert waited is not None
        flag(game, waited[0], waited[1], t, out, waited=True)


def resign(game: GameState, ev: Resign, out: list[Ruling]) -> None:
    """5.1.2: resignation loses, unless the opponent cannot mate by any legal series."""
    if not deferred(game, "resignation", ev.side, ev.t):
        verdict(game, "resignation", ev.side, ev.t, out)


def illegal_moves_lose(game: GameState, side: Side, t: float, out: list[Ruling]) -> None:
    """7.5.5: `side`'s completed illegal move loses the game (the second, or the first where
    the profile says so), unless the opponent cannot mate by any legal series."""
    if not deferred(game, "illegal_moves", side, t):
        verdict(game, "illegal_moves", side, t, out)


@dataclass(frozen=True, slots=True)
class EndingLaw:
    """What an ending whose verdict asks "can the opponent still mate?" is ruled: the
    article, the reason of the loss and of the draw, the note when undecided, and whether
    the loss is also a `penalty` (7.5.5)."""

    article: str
    lost: Reason
    drawn: Reason
    undecided: NoteTopic
    penalty: bool = False


ENDING_LAWS: dict[VerdictEnding, EndingLaw] = {
    "flag": EndingLaw("6.9", "time", "time_dead_position", "flag_undecided"),
    "resignation": EndingLaw(
        "5.1.2", "resignation", "resignation_dead_position", "resignation_undecided"
    ),
    "illegal_moves": EndingLaw(
        "7.5.5", "illegal_moves", "illegal_moves_dead_position", "illegal_moves_undecided",
        penalty=True,
    ),
}


def verdict(
    game: GameState, ending: VerdictEnding, side: Side, t: float, out: list[Ruling]
) -> None:
    """6.9, 5.1.2, 7.5.5, after `side`'s flag, resignation or losing illegal move: a loss if
    the opponent can still mate by some series of legal moves, a draw if that is proven
    impossible. Undecided within the budget, a `note` says that the arbiter decides: the
    clocks stop and the game holds (board events ignored) until the arbiter's `declare`
    (docs/events.md); the Laws give no default, so nothing is guessed."""
    law = ENDING_LAWS[ending]
    winner = other(side)
    can, why = mate_verdict(game, winner)
    if can is None:
        out.append(Note(t=t, side=side, article=law.article, topic=law.undecided))
        hold(game, t, out)
    elif can is False:
        game_over(game, t, "1/2-1/2", law.drawn, law.article, out, why)
    else:
        if law.penalty:
            out.append(Penalty(t=t, side=side, article=law.article, kind="game_lost"))
        game_over(game, t, win_for(winner), law.lost, law.article, out)
