"""How a simulated stream ends, so that the FIDE Laws give the game's recorded result.

The result comes from the PGN's `Result` and `Termination` tags, not from the moves alone
(data/games/README.md). The stream ends with the events that explain it:

- checkmate (5.1.1), stalemate (5.2.1), a dead position (5.2.2, as far as python-chess's
  `is_insufficient_material` proves it): nothing more, the last move ends the game;
- a loss on time (6.9), or a draw on time when the opponent cannot mate: the flag of the side
  to move falls after the last move; the stream says that time passed with a `tick`;
- a draw by agreement (5.2.3, 9.1.2.1): the player who just moved offers before his press, the
  opponent accepts;
- a draw the platform declared on its own for a repetition or fifty moves (lichess "Normal",
  chess.com "drawn by repetition"): FIDE draws these only on a claim by the player having the
  move (9.2, 9.3): threefold when the position already stands three times (9.2.2), else fifty
  moves when 100 plies passed without capture or pawn move (9.3.2), else with an intended move
  that repeats the position (9.2.1) or completes the fifty moves (9.3.1); failing all, agreement;
- any other decisive result: the loser resigns (5.1.2).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from arbiter.errors import SimulateError
from rules.i18n import N_

__all__ = ["Ending", "choose_ending"]

RESULTS = {"1-0": chess.WHITE, "0-1": chess.BLACK}
DRAW = "1/2-1/2"


@dataclass(frozen=True, slots=True)
class Ending:
    """What ends the stream: `kind` is none, flag, resign, agreement or claim; `side` is the
    flagged player, the resigner, the player who offers, or the claimant."""

    kind: str
    side: chess.Color | None = None
    claim: str | None = None
    move: str | None = None


def _claim_move(board: chess.Board) -> tuple[str, str] | None:
    """An intended move after which a claim holds: threefold (9.2.1), then fifty (9.3.1)."""
    found_fifty = None
    for move in board.legal_moves:
        zeroing = board.is_zeroing(move)
        board.push(move)
        try:
            if board.is_repetition(3):
                return "threefold", move.uci()
            if found_fifty is None and not zeroing and board.halfmove_clock >= 100:
                found_fifty = ("fifty", move.uci())
        finally:
            board.pop()
    return found_fifty


def _draw_ending(board: chess.Board, termination: str) -> Ending:
    mover = not board.turn  # the player who made the last move
    if "agree" in termination:
        return Ending("agreement", mover)
    if board.is_repetition(3):
        return Ending("claim", board.turn, "threefold")
    if board.halfmove_clock >= 100:
        return Ending("claim", board.turn, "fifty")
    intended = _claim_move(board)
    if intended is not None:
        return Ending("claim", board.turn, intended[0], intended[1])
    return Ending("agreement", mover)


def choose_ending(board: chess.Board, headers: chess.pgn.Headers, *, where: object) -> Ending:
    """The ending events `board` (the final position) needs to give the recorded result.

    Raises:
        SimulateError: the result cannot follow from the Laws (e.g. a win for a side that
        cannot mate, a mate the result contradicts, a loss on time by the side not to move).
    """
    result = headers.get("Result", "*")
    termination = headers.get("Termination", "").lower()
    if board.is_checkmate():
        if RESULTS.get(result) != (not board.turn):
            raise SimulateError.of(
                N_("{where}: the last move mates, but the result is {result}"),
                where=where,
                result=result,
            )
        return Ending("none")
    if board.is_stalemate() or board.is_insufficient_material():
        if result != DRAW:
            raise SimulateError.of(
                N_("{where}: the last move draws (5.2), but the result is {result}"),
                where=where,
                result=result,
            )
        return Ending("none")
    if result not in RESULTS and result != DRAW:
        return Ending("none")
    winner = RESULTS.get(result)
    if winner is not None and board.has_insufficient_material(winner):
        cannot = (
            N_("{where}: {result}, but White cannot checkmate, so the Laws (5.1.2, 6.9) would"
               " draw the game")
            if winner
            else N_("{where}: {result}, but Black cannot checkmate, so the Laws (5.1.2, 6.9)"
                    " would draw the game")
        )  # fmt: skip
        raise SimulateError.of(cannot, where=where, result=result)
    if "time" in termination:
        if winner == board.turn:
            raise SimulateError.of(
                N_(
                    "{where}: lost on time by the side that made the last move; its clock was"
                    " not running"
                ),
                where=where,
            )
        if winner is None and not board.has_insufficient_material(not board.turn):
            raise SimulateError.of(
                N_(
                    "{where}: drawn on time, but the opponent of the flagged side can still"
                    " checkmate (6.9 gives it the game)"
                ),
                where=where,
            )
        return Ending("flag", board.turn)
    if winner is not None:
        return Ending("resign", not winner)
    return _draw_ending(board, termination)
