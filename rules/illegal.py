"""Illegal moves and their penalties: Article 7.5 (and 4.7 before the press).

An arrangement no legal move explains, released before the press, is an illegal move the
player may still correct (4.7: `illegal` with `completed: false`). Completed at the press, it
is ruled at once in every mode (7.5.1 to 7.5.4): the press's increment is taken back, the
opponent gets time or, at the second one, the game is lost (7.5.5; a draw when the opponent
cannot mate). A pawn left on the last rank becomes a queen (7.5.2); a press without a move
(7.5.3) changes no position. Profiles may make the first one lose (the Czech text).
"""

from __future__ import annotations

import chess

from rules import ending
from rules.profiles import penalty_article, penalty_seconds
from rules.rulings import Defect, Illegal, Penalty, Ruling
from rules.sides import other
from rules.state import GameState
from rules.types import Side

DEFECT_ARTICLE = {
    "unreachable": "7.5.1",
    "in_check": "7.5.1",
    "other": "7.5.1",
    "not_promoted": "7.5.2",
    "no_move": "7.5.3",
    "two_hands": "7.5.4",
}


def released(
    game: GameState, kind: str, move: chess.Move | None, t: float, diff: set[int], out: list[Ruling]
) -> None:
    """7.5.1 / 4.7: released where no legal move takes it; correctable until the press."""
    key = game.arrangement(diff)
    if not game.report_illegal(key):
        return
    defect: Defect = "in_check" if kind == "in_check" else "unreachable"
    side = game.turn.side
    out.append(
        Illegal(
            t=t,
            side=side,
            article="4.7",
            completed=False,
            defect=defect,
            count=game.illegal_count[side],
            move=move,
        )
    )


def completed(
    game: GameState,
    side: Side,
    defect: Defect,
    move: chess.Move | None,
    t: float,
    out: list[Ruling],
    *,
    press_t: float,
) -> None:
    """7.5: an illegal move completed at the press, ruled at once in every mode."""
    count = game.count_illegal(side)
    article = DEFECT_ARTICLE[defect]
    out.append(
        Illegal(
            t=t, side=side, article=article, completed=True, defect=defect, count=count, move=move
        )
    )
    credit, counted = 0.0, False
    if defect != "no_move" and game.timed:
        credit, counted = game.press_for_move(side, game.clock_time(press_t))
    if defect == "not_promoted" and move is not None:
        # 7.5.2: the pawn becomes a queen of its colour; the move stands
        queen = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        _, stands = game.stand(
            queen,
            side,
            t,
            press_t,
            touches=list(game.turn.touches),
            pressed=True,
            credit=credit,
            counted=counted,
        )
        out.append(stands)
    elif defect != "no_move" and game.timed:
        if counted:
            game.uncount_clock_move(side)
        game.start_clock(side, press_t)
    if not penalties(game, side, count, credit, t, out):
        return
    if defect not in ("no_move", "not_promoted"):
        game.reinstate(t, "illegal_move", "7.5.1", out, clock=False)
        game.keep_reinstated_scene()
    elif defect == "not_promoted":
        game.mismatch(t, out)
    game.clock_ruling(out, t)
    if defect == "not_promoted":
        ending.after_move(game, t, out, press_t)


def penalties(
    game: GameState, side: Side, count: int, credit: float, t: float, out: list[Ruling]
) -> bool:
    """7.5.5: the press's increment back, then time to the opponent or the game lost.

    Without a clock no time is added (there is none to add it to); the second completed
    illegal move still loses (7.5.5).

    Returns False when the game is over (a second illegal move, or the Czech text's
    fast-play rule: `ending.illegal_moves_lose`, whose verdict the live session may give a
    moment later), True when play goes on.
    """
    opponent = other(side)
    if credit > 0:
        if game.timed:
            game.give_time(side, -credit, t)
        out.append(
            Penalty(
                t=t,
                side=side,
                article="7.5.5",
                kind="increment_removed",
                seconds=round(credit, 6),
            )
        )
    if count >= 2 or loses_at_once(game):
        ending.illegal_moves_lose(game, side, t, out)
        return False
    if not game.timed:
        return True  # 7.5.5's two minutes go on a clock: with none, no time is added
    seconds = penalty_seconds(game.mode)
    game.give_time(opponent, seconds, t)
    out.append(
        Penalty(
            t=t,
            side=side,
            article=penalty_article(game.mode, "7.5.5"),
            kind="time_added",
            seconds=seconds,
        )
    )
    return True


def loses_at_once(game: GameState) -> bool:
    """Czech text: in games under 15 minutes a completed illegal move loses at once."""
    limit = game.profile.illegal_loses_under_s
    if limit is None or not game.timed:
        return False
    periods = game.control.periods
    total = sum(p.seconds for p in periods) + 60 * (periods[0].increment if periods else 0)
    return total < limit
