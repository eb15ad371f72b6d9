"""Typed commands of a live game: what a player or the arbiter types, as contract events.

A line typed at the keyboard (or read from a pipe) is one command. `parse_command` reads it
into a typed value; `event_for` turns a game command into the contract event it stands for at
this moment of the game (events.md), because some depend on the game's state (whose clock
runs, who offered a draw). Hand commands (`e2e4`, `lift e2`, `place e4`) are not events of
the session: they move pieces on a virtual board (`arbiter.live.virtual_play`), whose codec
and serial path report them as a real board would.

The commands (sides may be written `white`/`w`, `black`/`b`; without one, the player having
the move is meant, except where said):

    e2e4, e7e8q, e1g1     the mover's hand plays the move on the board, then presses
    lift e2 / place e4     one hand movement (the touch rules, 4.3-4.7); `place` puts down the
                           piece last lifted (`place e8 q` names it)
    press [SIDE] (or an empty line, or space alone; a pipe skips empty lines)
                           the player whose clock runs presses it (without a clock: the mover);
                           `press black` is Black's hand on Black's button, whatever runs
    adjust [SIDE] (also j'adoube)
                           that player says "j'adoube" (4.2.1): until his next move, pieces he
                           lifts and puts back on their own squares are adjusted, not touched
    claim [any|touch|threefold|fifty] [MOVE] [SIDE]
                           a claim (9.2, 9.3, 4.8); `any` (the default) is what a player's claim
                           button says: whatever the Laws allow that player now
    offer [SIDE]           a draw offer (9.1.2; default: the player having the move)
    accept / decline       the answer to the standing offer, by the other player
    resign [SIDE]          that player resigns (5.1.2; default: the player having the move)
    declare RESULT [REASON]
                           the arbiter declares the result (1-0, 0-1, 1/2-1/2)
    takeback [N]           the arbiter takes back the last N plies (default 1)
    setclock W B           the arbiter sets the clocks (6.10.2): 5:00 4:30, 1:30:00, or seconds
    add SIDE SECONDS       the arbiter adds time (6.10-6.11)
    pause / resume         the arbiter stops or restarts the clocks (6.11)
    uphold / reject        the arbiter's verdict on the last claim, overruling the rules'
                           ruling (9.5, 4.8; `claim_verdict`, docs/events.md): a draw claim
                           rejected costs 9.5.3's time and the game goes on; the same verdict
                           as the rules' confirms it
    quit                   stop; the journal stays, `arbiter resume` continues the game
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

import chess

from rules.errors import ArbiterError
from rules.events import (
    RESULTS,
    Accept,
    AddTime,
    Adjust,
    Claim,
    ClaimVerdict,
    Declare,
    Decline,
    Event,
    Offer,
    PauseClocks,
    Press,
    Resign,
    Resume,
    SetClock,
    Takeback,
)
from rules.i18n import N_
from rules.presses import untimed_presser
from rules.rulings import ClaimKind
from rules.types import Result, Side
from rules.verdicts import open_claim

if TYPE_CHECKING:
    from rules.game import Game


class CommandError(ArbiterError):
    """A typed command that cannot be read or does not fit the game now (shown, not fatal)."""


@dataclass(frozen=True, slots=True)
class HandMove:
    """`e2e4`: the mover's hand plays `uci` on the board; then the mover presses."""

    uci: str


@dataclass(frozen=True, slots=True)
class HandStep:
    """`lift e2` / `place e4 [piece]`: one hand movement on the board."""

    kind: Literal["lift", "place"]
    square: str
    piece: str | None = None


@dataclass(frozen=True, slots=True)
class PressCmd:
    """The player whose clock runs presses it, or the player named (his own button)."""

    side: Side | None = None


@dataclass(frozen=True, slots=True)
class ClaimCmd:
    kind: ClaimKind
    move: str | None
    side: Side | None


@dataclass(frozen=True, slots=True)
class PlayerCmd:
    """A player's word: offer, accept, decline, resign, adjust ("j'adoube", 4.2.1)."""

    word: Literal["offer", "accept", "decline", "resign", "adjust"]
    side: Side | None


@dataclass(frozen=True, slots=True)
class DeclareCmd:
    result: Result
    reason: str | None


@dataclass(frozen=True, slots=True)
class TakebackCmd:
    plies: int


@dataclass(frozen=True, slots=True)
class SetClockCmd:
    white: float
    black: float


@dataclass(frozen=True, slots=True)
class AddTimeCmd:
    side: Side
    seconds: float


@dataclass(frozen=True, slots=True)
class PauseCmd:
    """`pause` or `resume` (the clocks, 6.11)."""

    resume: bool


@dataclass(frozen=True, slots=True)
class VerdictCmd:
    """`uphold` or `reject`: the arbiter's verdict on the last claim (9.5, 4.8)."""

    valid: bool


@dataclass(frozen=True, slots=True)
class QuitCmd:
    """Stop the session; the journal stays resumable."""


GameCommand: TypeAlias = (
    PressCmd | ClaimCmd | PlayerCmd | DeclareCmd | TakebackCmd | SetClockCmd | AddTimeCmd
    | PauseCmd | VerdictCmd | QuitCmd
)  # fmt: skip
Command: TypeAlias = HandMove | HandStep | GameCommand

#: how the claim kinds may be written
CLAIM_WORDS: dict[str, ClaimKind] = {
    "any": "any",
    "touch": "touch_move",
    "touch_move": "touch_move",
    "touch-move": "touch_move",
    "threefold": "threefold",
    "3": "threefold",
    "repetition": "threefold",
    "fifty": "fifty",
    "50": "fifty",
}
SIDE_WORDS: dict[str, Side] = {"white": "white", "w": "white", "black": "black", "b": "black"}
#: the commands in one line a screen can show
COMMANDS_HELP = (
    "type: e2e4 | lift e2 | place e4 | press | adjust | claim [touch|threefold|fifty] [MOVE] |"
    " offer | accept | decline | resign | declare 1-0 | takeback | setclock 5:00 5:00 | pause |"
    " uphold | reject | quit"
)
#: how "j'adoube" (4.2.1) may be typed
ADJUST_WORDS = ("adjust", "j'adoube", "jadoube", "j’adoube")
MAX_CLOCK_S = 100 * 3600.0
HAND_NEEDS_BOARD = N_("hand commands need a virtual board (--board dgt-sim)")


def parse_command(text: str) -> Command:
    """The command of one typed line (see the module docstring).

    Raises:
        CommandError: the line is not a command; the message says what is expected.
    """
    words = text.strip().lower().split()
    if not words or words == ["press"] or words == ["space"]:
        return PressCmd()
    if words[0] == "press":
        return PressCmd(_one_side("press", words[1:]))
    if words[0] in ADJUST_WORDS:
        return PlayerCmd("adjust", _one_side(words[0], words[1:]))
    head, rest = words[0], words[1:]
    if len(words) == 1 and _is_uci(head):
        return HandMove(head)
    if head in ("lift", "place"):
        return _hand_step(head, rest)
    if head == "claim":
        return _claim(rest)
    if head in ("offer", "accept", "decline", "resign"):
        return PlayerCmd(head, _one_side(head, rest))  # type: ignore[arg-type]
    if head == "declare":
        return _declare(rest)
    if head == "takeback":
        return _takeback(rest)
    if head == "setclock":
        if len(rest) != 2:
            raise CommandError.of(
                N_("setclock needs White's and Black's times, e.g. setclock 5:00 4:30")
            )
        return SetClockCmd(_seconds(rest[0]), _seconds(rest[1]))
    if head == "add":
        if len(rest) != 2 or rest[0] not in SIDE_WORDS:
            raise CommandError.of(N_("add needs a side and seconds, e.g. add white 60"))
        return AddTimeCmd(SIDE_WORDS[rest[0]], _seconds(rest[1]))
    if head in ("pause", "resume") and not rest:
        return PauseCmd(resume=head == "resume")
    if head in ("uphold", "reject") and not rest:
        return VerdictCmd(valid=head == "uphold")
    if head in ("quit", "q", "stop") and not rest:
        return QuitCmd()
    raise CommandError.of(
        N_("{text!r} is not a command; {help}"), text=text.strip(), help=COMMANDS_HELP
    )


def _is_uci(word: str) -> bool:
    try:
        chess.Move.from_uci(word)
    except ValueError:
        return False
    return len(word) in (4, 5) and word != "0000"


def _square(word: str) -> str:
    if word not in chess.SQUARE_NAMES:
        raise CommandError.of(N_("{word!r} is not a square (a1 to h8)"), word=word)
    return word


def _hand_step(head: str, rest: list[str]) -> HandStep:
    if not rest or len(rest) > 2:
        raise CommandError.of(N_("{head} needs a square, e.g. {head} e2"), head=head)
    piece = None
    if len(rest) == 2:
        if head != "place" or rest[1] not in ("q", "r", "b", "n"):
            raise CommandError.of(
                N_("{command}: only place names a piece (q, r, b, n)"),
                command=" ".join([head, *rest]),
            )
        piece = rest[1]
    kind: Literal["lift", "place"] = "lift" if head == "lift" else "place"
    return HandStep(kind, _square(rest[0]), piece)


def _one_side(head: str, rest: list[str]) -> Side | None:
    if not rest:
        return None
    if len(rest) == 1 and rest[0] in SIDE_WORDS:
        return SIDE_WORDS[rest[0]]
    raise CommandError.of(
        N_("{head} takes at most a side (white or black), not {rest!r}"),
        head=head,
        rest=" ".join(rest),
    )


def _claim(rest: list[str]) -> ClaimCmd:
    kind: ClaimKind = "any"
    move: str | None = None
    side: Side | None = None
    for word in rest:
        if word in CLAIM_WORDS:
            kind = CLAIM_WORDS[word]
        elif word in SIDE_WORDS:
            side = SIDE_WORDS[word]
        elif _is_uci(word):
            move = word
        else:
            raise CommandError.of(
                N_(
                    "claim {rest}: {word!r} is not a claim kind (touch, threefold, fifty),"
                    " a move (e2e4) or a side"
                ),
                rest=" ".join(rest),
                word=word,
            )
    if move is not None and kind in ("touch_move",):
        raise CommandError.of(N_("a touch-move claim names no move"))
    return ClaimCmd(kind, move, side)


def _declare(rest: list[str]) -> DeclareCmd:
    if not rest:
        raise CommandError.of(N_("declare needs a result: 1-0, 0-1 or 1/2-1/2"))
    word = {"½-½": "1/2-1/2", "draw": "1/2-1/2"}.get(rest[0], rest[0])
    result = next((r for r in RESULTS if r == word), None)
    if result is None:
        raise CommandError.of(
            N_("declare {word!r}: the result is 1-0, 0-1 or 1/2-1/2"), word=rest[0]
        )
    reason = "_".join(rest[1:]) or None
    return DeclareCmd(result, reason)


def _takeback(rest: list[str]) -> TakebackCmd:
    if not rest:
        return TakebackCmd(1)
    if len(rest) == 1 and rest[0].isdigit() and 0 < int(rest[0]) <= 1000:
        return TakebackCmd(int(rest[0]))
    raise CommandError.of(
        N_("takeback takes the number of plies to take back, e.g. takeback 2")
    )


def _seconds(word: str) -> float:
    """`1:30:00`, `5:00` or `300` as seconds."""
    parts = word.split(":")
    try:
        if len(parts) > 3 or not all(p.replace(".", "", 1).isdigit() for p in parts):
            raise ValueError
        value = 0.0
        for part in parts:
            value = value * 60 + float(part)
    except ValueError:
        raise CommandError.of(
            N_("{word!r} is not a time: write 5:00, 1:30:00 or seconds"), word=word
        ) from None
    if value > MAX_CLOCK_S:
        raise CommandError.of(N_("{word!r} is more than 100 hours"), word=word)
    return value


def mover(game: Game) -> Side:
    """The player having the move."""
    return "white" if game.board.turn else "black"


def event_for(cmd: GameCommand, game: Game, t: float) -> Event | None:
    """The contract event `cmd` stands for at `t` in `game`; None for nothing to do.

    Raises:
        CommandError: the command does not fit the game now (no offer to accept).
    """
    to_move = mover(game)
    match cmd:
        case PressCmd(side=side) if side is not None:
            return Press(t=t, side=side)
        case PressCmd():
            if not game.timed:
                return Press(t=t, side=untimed_presser(game, to_move))
            running = game.clock.running
            if running is None or game.clock.paused:
                raise CommandError.of(N_("no clock runs: there is nothing to press"))
            return Press(t=t, side=running)
        case ClaimCmd(kind=kind, move=move, side=side):
            return Claim(t=t, side=side or to_move, kind=kind, move=move)
        case PlayerCmd(word="accept" | "decline", side=side):
            offered = game.offer
            if offered is None:
                raise CommandError.of(N_("{word}: no draw offer stands"), word=cmd.word)
            answer = side or ("black" if offered == "white" else "white")
            return (Accept if cmd.word == "accept" else Decline)(t=t, side=answer)
        case PlayerCmd(word="offer", side=side):
            return Offer(t=t, side=side or to_move)
        case PlayerCmd(word="resign", side=side):
            return Resign(t=t, side=side or to_move)
        case PlayerCmd(word="adjust", side=side):
            return Adjust(t=t, side=side or to_move)
        case DeclareCmd(result=result, reason=reason):
            return Declare(t=t, result=result, reason=reason)
        case TakebackCmd(plies=plies):
            return Takeback(t=t, plies=plies)
        case SetClockCmd(white=white, black=black):
            return SetClock(t=t, white=white, black=black)
        case AddTimeCmd(side=side, seconds=seconds):
            return AddTime(t=t, side=side, seconds=seconds)
        case PauseCmd(resume=resume):
            if resume:
                return Resume(t=t) if game.clock.paused else None
            return None if game.clock.paused else PauseClocks(t=t)
        case VerdictCmd(valid=valid):
            if open_claim(game) is None:
                raise CommandError.of(
                    N_("there is no claim to rule on: a move or the game's end came after it")
                )
            return ClaimVerdict(t=t, valid=valid)
        case QuitCmd():
            return None
    return None
