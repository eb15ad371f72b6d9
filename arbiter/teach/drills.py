"""Touch-move drills for pupils (`arbiter teach`): a situation on the board, the pupil's
move, the rules core's judgement, a score, and a summary kept over the weeks.

Each drill sets up one situation of Articles 4 and 7 (a piece touched, a rook touched before
the king, a piece let go, a piece straightened without "I adjust", a king in check), as the
events a board would report, in strict (teaching) mode. The pupil then types a move (`g1f3`,
`e1g1` to castle, `e7e8q`) or `press`; it becomes the lifts, places and press of a hand on a
board, and the rules core rules on it (`rules.game.Game`), exactly as at a game: the drill is
passed when the move stands with no violation, no illegal move and no refusal. The rulings
are shown in the pupil's language, so the pupil reads what was done and what the Law asks.

At the end the score is appended to a summary file (JSON Lines, one line a session) with the
result of each drill, and the pupil's earlier sessions are shown, so a teacher sees progress.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TextIO

import chess

from arbiter.errors import ConfigError
from arbiter.i18n import gettext
from arbiter.outputs.display import board_lines
from rules.events import Event, Lift, Place, Press, Start, Touch
from rules.game import Game
from rules.i18n import N_
from rules.library_reasons import reason_of
from rules.messages import format_ruling
from rules.rulings import ClockState, Illegal, MoveStands, Reinstate, Ruling, Violation
from rules.types import Side

__all__ = ["DRILLS", "Drill", "DrillResult", "Session", "move_events", "run_drills"]

CONTROL = "5400+30"


@dataclass(frozen=True, slots=True)
class Drill:
    """One situation: the position, what the pupil's hand already did, and what to ask."""

    name: str
    article: str
    prompt: str
    #: what the Law requires and what to do now, for a ten-year-old, said after a wrong answer
    lesson: str
    setup: tuple[tuple[str, str], ...]  # (what, square): "touch", "lift", "place"
    fen: str | None = None


DRILLS: tuple[Drill, ...] = (
    Drill(
        "touch_own",
        "4.3.1",
        N_("You touched your knight on g1. Make your move."),
        N_("The rule: a piece you touch must move, if it can. So move the knight from g1."),
        (("touch", "g1"),),
    ),
    Drill(
        "touch_opponent",
        "4.3.2",
        N_("You touched Black's pawn on a6. Make your move."),
        N_(
            "The rule: a piece of your opponent's that you touch must be taken, if you can."
            " So take the pawn on a6 with the bishop (b5a6)."
        ),
        (("touch", "a6"),),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    ),
    Drill(
        "rook_first",
        "4.4.2",
        N_("You touched the rook on h1 first, then the king. Make your move."),
        N_(
            "The rule: touch the rook first and you may not castle with it; the rook must"
            " move. So move the rook from h1."
        ),
        (("touch", "h1"), ("touch", "e1")),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    ),
    Drill(
        "released",
        "4.7",
        N_("You put your pawn down on e3 and let go. Finish your move (type {press})."),
        N_(
            "The rule: once you let go of a piece on a square it may go to, it stays there."
            " So press the clock."
        ),
        (("lift", "e2"), ("place", "e3")),
    ),
    Drill(
        "adjust_unsaid",
        "4.2.1",
        N_('You straightened your knight on b1 without saying "I adjust" first. Make your move.'),
        N_(
            'The rule: say "I adjust" before you straighten a piece, or it counts as'
            " touched. So move the knight from b1."
        ),
        (("lift", "b1"), ("place", "b1")),
    ),
    Drill(
        "illegal_move",
        "7.5.1",
        N_("Black's rook gives check. Make a legal move: an illegal one costs time."),
        N_(
            "The rule: a move that leaves your king in check is illegal, and once you press"
            " the clock your opponent gets two more minutes. So take the king out of check."
        ),
        (),
        "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
    ),
)

HEADER = N_("Drill {number} of {total} (Art. {article})")
ASK = N_("Your move (two squares, e.g. g1f3, or {press}):")
RIGHT = N_("Right!")
WRONG = N_("Not right.")
HOW = N_("Type a move as two squares, e.g. g1f3 (e1g1 castles), or {press}.")
SCORE = N_("{pupil}: {score} of {total} drills right.")
SAVED = N_("Summary saved in {path}.")
PROGRESS = N_("Sessions of {pupil}:")
SESSION_LINE = N_("{date}: {score} of {total}")
#: what the pupil types to press the clock (English `press` is always understood too)
PRESS = N_("press")


@dataclass(frozen=True, slots=True)
class DrillResult:
    """How the pupil did on one drill: the answer given, passed or not, and the rulings."""

    drill: str
    answer: str
    passed: bool
    rulings: tuple[Ruling, ...]


@dataclass
class Session:
    """One pupil's session: the results so far."""

    pupil: str
    language: str
    results: list[DrillResult] = field(default_factory=list)

    @property
    def score(self) -> int:
        return sum(r.passed for r in self.results)

    def summary(self, date: str) -> dict[str, object]:
        """The line of the summary file for this session."""
        return {
            "pupil": self.pupil,
            "date": date,
            "language": self.language,
            "score": self.score,
            "total": len(self.results),
            "drills": {r.drill: r.passed for r in self.results},
        }


def move_events(board: chess.Board, move: chess.Move, t: float) -> list[Event]:
    """What a hand on a board reports for `move`, from time `t`: lifts, places, the press."""
    side: Side = "white" if board.turn else "black"
    steps: list[tuple[str, chess.Square, str | None]] = []
    piece = board.piece_at(move.from_square)
    if piece is None:
        return []
    if board.is_castling(move):
        rook_from, rook_to = _castling_rook(move)
        rook = board.piece_at(rook_from)
        steps += [
            ("lift", move.from_square, piece.symbol()),
            ("place", move.to_square, piece.symbol()),
        ]
        if rook is not None:
            steps += [("lift", rook_from, rook.symbol()), ("place", rook_to, rook.symbol())]
    else:
        taken = move.to_square
        if board.is_en_passant(move):
            taken = move.to_square + (-8 if board.turn else 8)
        victim = board.piece_at(taken)
        if victim is not None:
            steps.append(("lift", taken, victim.symbol()))
        steps.append(("lift", move.from_square, piece.symbol()))
        placed = piece.symbol()
        if move.promotion:
            placed = chess.Piece(move.promotion, board.turn).symbol()
        steps.append(("place", move.to_square, placed))
    events: list[Event] = []
    for i, (what, square, letter) in enumerate(steps):
        name = chess.square_name(square)
        cls = Lift if what == "lift" else Place
        events.append(cls(t=t + i, square=name, piece=letter))
    events.append(Press(t=t + len(steps), side=side))
    return events


def _castling_rook(move: chess.Move) -> tuple[chess.Square, chess.Square]:
    rank = chess.square_rank(move.from_square)
    kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    return (
        chess.square(7 if kingside else 0, rank),
        chess.square(5 if kingside else 3, rank),
    )


def _setup_events(drill: Drill, board: chess.Board) -> list[Event]:
    side: Side = "white" if board.turn else "black"
    events: list[Event] = []
    lifted: str | None = None
    for i, (what, square) in enumerate(drill.setup, start=1):
        piece = board.piece_at(chess.parse_square(square))
        letter = piece.symbol() if piece else None
        if what == "touch":
            events.append(Touch(t=float(i), square=square, side=side))
        elif what == "lift":
            events.append(Lift(t=float(i), square=square, piece=letter))
            board.remove_piece_at(chess.parse_square(square))
            lifted = letter
        else:
            events.append(Place(t=float(i), square=square, piece=lifted))
            board.set_piece_at(chess.parse_square(square), chess.Piece.from_symbol(str(lifted)))
    return events


def judge(drill: Drill, answer: str, language: str = "en") -> DrillResult | None:
    """The rules core's judgement of `answer` in `drill`; None if it is no move at all."""
    game = Game(Start(t=0.0, fen=drill.fen, time_control=CONTROL, strict=True))
    hands = chess.Board(drill.fen) if drill.fen else chess.Board()  # what the board shows
    setup = _setup_events(drill, hands)
    for event in setup:
        game.handle(event)
    t = float(len(setup) + 3)  # longer than slide_s: what was put down is let go
    text = answer.strip().lower().replace(" ", "").replace("-", "")
    if text in (PRESS, gettext(PRESS, language).lower()):
        events: list[Event] = [Press(t=t, side="white" if game.board.turn else "black")]
    else:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return None
        lifted = _lifted_square(drill)
        if lifted is not None and move.from_square == lifted:  # the piece already moved
            events = [Press(t=t, side="white" if game.board.turn else "black")]
        else:
            events = move_events(hands, move, t)
        if not events:
            return None
    rulings = tuple(r for e in events for r in game.handle(e))
    return DrillResult(drill.name, answer.strip(), passed(rulings), rulings)


def passed(rulings: Iterable[Ruling]) -> bool:
    """A drill is passed when the pupil's move stands with no violation, no illegal move
    and no refusal (Articles 4 and 7)."""
    rulings = list(rulings)
    faults = (Violation, Illegal, Reinstate)
    return any(isinstance(r, MoveStands) for r in rulings) and not any(
        isinstance(r, faults) for r in rulings
    )


def _lifted_square(drill: Drill) -> chess.Square | None:
    lifted = [sq for what, sq in drill.setup if what == "lift"]
    placed = [sq for what, sq in drill.setup if what == "place"]
    if lifted and placed and lifted[0] != placed[-1]:
        return chess.parse_square(lifted[0])
    return None


def run_drills(
    pupil: str,
    language: str,
    read: Callable[[], str | None],
    out: TextIO,
    drills: tuple[Drill, ...] = DRILLS,
) -> Session:
    """Run the drills, reading the pupil's answers with `read` (None: no more input)."""
    session = Session(pupil, language)

    def _(message: str) -> str:
        return gettext(message, language)

    for number, drill in enumerate(drills, start=1):
        board = chess.Board(drill.fen) if drill.fen else chess.Board()
        _setup_events(drill, board)
        out.write("\n" + _(HEADER).format(number=number, total=len(drills), article=drill.article))
        press = _(PRESS)
        prompt = _(drill.prompt).format(press=press)
        out.write("\n" + "\n".join(board_lines(board)) + "\n" + prompt + "\n")
        while True:
            out.write(_(ASK).format(press=press) + " ")
            out.flush()
            answer = read()
            if answer is None:
                return session
            result = judge(drill, answer, language)
            if result is not None:
                break
            out.write(_(HOW).format(press=press) + "\n")
        session.results.append(result)
        out.write("\n")
        for r in result.rulings:
            if not isinstance(r, ClockState):
                out.write("  " + format_ruling(r, language) + "\n")
        out.write(_(RIGHT if result.passed else WRONG) + "\n")
        if not result.passed:
            out.write(_(drill.lesson) + "\n")
    return session


def save_summary(session: Session, path: Path, date: str | None = None) -> list[dict[str, object]]:
    """Append the session to the summary file; return all the pupil's sessions in it."""
    date = date or f"{datetime.now():%Y-%m-%d %H:%M}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(session.summary(date), ensure_ascii=False) + "\n")
    except OSError as exc:
        raise ConfigError.of(
            N_("{path}: the summary cannot be written ({reason})"), path=path, reason=reason_of(exc)
        ) from None
    return [s for s in _read_summaries(path) if s.get("pupil") == session.pupil]


def _read_summaries(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a crash: the others still count
            if isinstance(item, dict):
                yield item
