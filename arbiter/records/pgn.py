"""The game record as PGN (Article 8): the moves that stand, their clocks, and the rulings.

Built from the rulings of a stream, so that a journal, a replay and a live session all give
the same record: the seven-tag roster plus TimeControl and Termination, each move with the
mover's clock after the press as `[%clk]`, violations, penalties, claims and offers as
comments, and the result. The comments are in the game's language (`language`), each citing
its FIDE article; the tags keep the PGN standard's English values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import chess
import chess.pgn

from arbiter.i18n import gettext
from rules.events import Start
from rules.i18n import N_
from rules.messages import format_ruling
from rules.rulings import (
    ClaimRuling,
    ClockState,
    DrawOffer,
    Flag,
    GameOver,
    Illegal,
    MoveStands,
    Penalty,
    Reinstate,
    Ruling,
    Violation,
)

TERMINATION = {
    "time": "time forfeit",
    "time_dead_position": "time forfeit",
    "illegal_moves": "rules infraction",
    "illegal_moves_dead_position": "rules infraction",
    "arbiter_decision": "adjudication",
}
#: rulings written as a comment after the ply they follow (violations: before their move)
COMMENTED = (Illegal, Penalty, ClaimRuling, DrawOffer, Reinstate, Flag)
RECORD_BROKEN = N_("(record broken: {move} does not follow; see the journal)")


@dataclass
class _Ply:
    move: chess.Move
    mover: str
    clk: float | None = None
    comments: list[str] = field(default_factory=list)


def _clk(seconds: float) -> str:
    seconds = max(0.0, seconds)
    whole = int(seconds)
    tenths = round((seconds - whole) * 10)
    if tenths == 10:
        whole, tenths = whole + 1, 0
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}.{tenths}"


def pgn_from_rulings(
    start: Start,
    rulings: Iterable[Ruling],
    *,
    date: str = "????.??.??",
    last_note: str | None = None,
    language: str = "en",
) -> str:
    """The PGN text of a game from its `start` event and its rulings.

    `last_note` is a comment after everything else, e.g. why the record stops early;
    `language` that of the rulings' comments.
    """
    plies: list[_Ply] = []
    preamble: list[str] = []
    result = "*"
    termination = "unterminated"
    waiting_clock: _Ply | None = None
    before_move: list[str] = []  # a violation is ruled just before the move it concerns

    def note(text: str) -> None:
        (plies[-1].comments if plies else preamble).append(text)

    for r in rulings:
        if before_move and not isinstance(r, MoveStands | Violation):
            for text in before_move:
                note(text)
            before_move.clear()
        match r:
            case MoveStands(move=move):
                ply = _Ply(move, r.side or "")
                ply.comments.extend(before_move)
                before_move.clear()
                plies.append(ply)
                waiting_clock = ply
            case Reinstate(ply=standing):
                del plies[standing:]  # plies counted from the stream's start
                waiting_clock = None
            case ClockState(running=running) if waiting_clock is not None:
                mover = waiting_clock.mover
                if running != mover and mover in ("white", "black"):
                    waiting_clock.clk = r.white if mover == "white" else r.black
                    waiting_clock = None
            case GameOver(result=won, reason=reason):
                result = won
                termination = TERMINATION.get(reason, "normal")
                note(format_ruling(r, language))
            case Violation():
                before_move.append(format_ruling(r, language))
        if isinstance(r, COMMENTED):
            note(format_ruling(r, language))
    for text in before_move:
        note(text)
    if last_note:
        note(last_note)
    return _write(start, plies, preamble, result, termination, date, language)


def _write(
    start: Start,
    plies: list[_Ply],
    preamble: list[str],
    result: str,
    termination: str,
    date: str,
    language: str,
) -> str:
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = start.event or "?"
    h["Site"] = start.site or "?"
    h["Date"] = date
    h["Round"] = start.round or "-"
    h["White"] = start.white or "?"
    h["Black"] = start.black or "?"
    h["Result"] = result
    h["TimeControl"] = start.time_control or "-"
    h["Termination"] = termination
    board = chess.Board(start.fen) if start.fen else chess.Board()
    if start.fen:
        game.setup(board)
    if preamble:
        game.comment = " ".join(preamble)
    node: chess.pgn.GameNode = game
    for ply in plies:
        if not board.is_legal(ply.move):
            node.comment = (node.comment + " " if node.comment else "") + (
                gettext(RECORD_BROKEN, language).format(move=ply.move.uci())
            )
            break
        node = node.add_variation(ply.move)
        board.push(ply.move)
        parts = []
        if ply.clk is not None:
            parts.append(f"[%clk {_clk(ply.clk)}]")
        parts.extend(ply.comments)
        if parts:
            node.comment = " ".join(parts)
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n"
