"""The game record as PGN (Article 8): the moves that stand, their clocks, and the rulings.

Built from the rulings of a stream, so that a journal, a replay and a live session all give
the same record: the seven-tag roster plus TimeControl and Termination, each move with the
mover's clock after the press as `[%clk]`, violations, penalties, claims and offers as
comments, and the result. The comments are in the game's language (`language`), each citing
its FIDE article; the tags keep the PGN standard's English values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import chess
import chess.pgn

from arbiter.i18n import gettext
from rules.events import (
    Start,
)
from rules.i18n import N_
from rules.messages import format_ruling
from rules.rulings import (
    ArbiterDid,
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


#: the order of the PGN tags: the seven-tag roster's, with the board number, the ratings and
#: FIDE ids of the players as tournament software writes them
TAG_ORDER = (
    "Event", "Site", "Date", "Round", "Board", "White", "Black", "Result",
    "WhiteElo", "BlackElo", "WhiteFideId", "BlackFideId", "TimeControl", "Termination",
)  # fmt: skip
_PGN_CONTROL = re.compile(r"(\?|-|\*\d+|(\d+/)?\d+(\+\d+)?(:(\d+/)?\d+(\+\d+)?)*)")


def pgn_time_control(control: str | None) -> str:
    """The PGN standard's TimeControl tag (section 9.6) for the contract's time control:
    `-` without a clock; periods as `moves/seconds+increment` joined by `:`; an hourglass as
    `*seconds`. The standard has no delay or per-move cap: those periods are written with
    their main time (the delay is counted as an increment, which is what a player gains).
    """
    if not control:
        return "-"
    if _PGN_CONTROL.fullmatch(control):
        return control
    from rules.errors import TimeControlError
    from rules.timecontrol import TimeControl

    try:
        parsed = TimeControl.parse(control)
    except TimeControlError:
        return "?"
    if parsed.untimed:
        return "-"
    parts = []
    for period in parsed.periods:
        text = f"{_whole(period.seconds)}"
        if parsed.hourglass:
            return f"*{text}"
        if period.moves:
            text = f"{period.moves}/{text}"
        extra = period.increment or period.delay or period.bronstein
        if extra:
            text += f"+{_whole(extra)}"
        parts.append(text)
    return ":".join(parts)




def _whole(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


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
    date: str | None = None,
    last_note: str | None = None,
    tags: Mapping[str, str] | None = None,
    language: str = "en",
) -> str:
    """The PGN text of a game from its `start` event and its rulings.

    `last_note` is a comment after everything else, e.g. why the record stops early; `tags`
    are more PGN tags (Board, WhiteElo, BlackElo, WhiteFideId, BlackFideId), written in
    `TAG_ORDER` among the others, over those journaled in `start.tags`; `date` is the Date
    tag (by default the journaled one, else unknown). The arbiter's clock actions are
    comments where they happened, from their own rulings (`arbiter_action`); the clocks held
    to be started (`hold_start`, `--clock-start`) are written only where they started (6.5).
    `language` is that of the comments.
    """
    plies: list[_Ply] = []
    preamble: list[str] = []
    result = "*"
    termination = "unterminated"
    waiting_clock: _Ply | None = None
    before_move: list[str] = []  # a violation is ruled just before the move it concerns

    def note(text: str) -> None:
        (plies[-1].comments if plies else preamble).append(text)

    at_claim: list[_Ply] = []  # the plies when the last claim was ruled

    for r in rulings:
        if isinstance(r, ArbiterDid):
            if r.action == "hold_start":
                continue  # the clocks wait to be started: `start_clocks` says when they did
            if r.action in ("uphold_claim", "reject_claim"):
                # the arbiter overruled the claim's ruling: the game as it stood at the
                # claim (a reinstated move back, no result); the new ruling's follow
                plies[:] = at_claim
                waiting_clock = None
                result, termination = "*", "unterminated"
            note(format_ruling(r, language))
            continue
        if isinstance(r, ClaimRuling):
            at_claim = list(plies)
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
    journaled = dict(start.tags or {})
    begun = journaled.pop("Date", "????.??.??")
    return _write(
        start,
        plies,
        preamble,
        result,
        termination,
        begun if date is None else date,
        {**journaled, **(tags or {})},
        language,
    )


def _write(
    start: Start,
    plies: list[_Ply],
    preamble: list[str],
    result: str,
    termination: str,
    date: str,
    tags: Mapping[str, str],
    language: str,
) -> str:
    game = chess.pgn.Game()
    given = {
        "Event": start.event or "?",
        "Site": start.site or "?",
        "Date": date,
        "Round": start.round or "-",
        "White": start.white or "?",
        "Black": start.black or "?",
        "Result": result,
        "TimeControl": pgn_time_control(start.time_control),
        "Termination": termination,
        **{k: v for k, v in tags.items() if k not in ("Result", "Date")},
    }
    game.headers.clear()
    for key in [*TAG_ORDER, *sorted(set(given) - set(TAG_ORDER))]:
        if key in given:
            game.headers[key] = given[key]
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
