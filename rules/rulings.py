"""Rulings: the output half of the event contract (`docs/events.md`), one class per type.

A ruling is what the arbiter decided at time `t`: a move that stands, a duty, a violation,
an illegal move, a penalty, a flag, the end of the game. Each is a frozen value with typed
fields (sides as `Side`, squares as `chess.Square`, moves as `chess.Move`, kinds and reasons
as `Literal`s) and the FIDE article it applies. A ruling holds no prose: its sentence is made
from its fields, when it is read, by the one formatter `rules.messages.format_ruling`.

`to_dict(message)` gives the contract's JSON object, keys in the contract's order (`t`,
`type`, `side`, the type's own fields, `article`, `message`); `parse_ruling` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, get_args

import chess

from rules.errors import EventError
from rules.i18n import N_
from rules.types import Result, Side, Square
from rules.values import quick_init

if TYPE_CHECKING:
    from rules.winnability.explain import CannotMate

__all__ = [
    "RULING_CLASSES",
    "RULING_TYPES",
    "ArbiterDid",
    "ArbiterDoing",
    "ClaimKind",
    "ClaimRuling",
    "ClockState",
    "Defect",
    "DrawOffer",
    "Flag",
    "GameOver",
    "Illegal",
    "Mismatch",
    "MoveStands",
    "Note",
    "NoteTopic",
    "Obligation",
    "ObligationKind",
    "Penalty",
    "PenaltyKind",
    "PieceOn",
    "Reason",
    "Reinstate",
    "ReinstateReason",
    "Ruling",
    "Violation",
    "ViolationKind",
    "parse_ruling",
]

ObligationKind: TypeAlias = Literal[
    "move_piece", "capture_piece", "castle", "king_move", "declared_move", "none"
]
ViolationKind: TypeAlias = Literal[
    "touch_move", "castling_rook_first", "released", "promotion_choice", "not_your_move"
]
Defect: TypeAlias = Literal[
    "unreachable", "in_check", "no_move", "not_promoted", "two_hands", "other"
]
ReinstateReason: TypeAlias = Literal["illegal_move", "claim_upheld", "strict", "arbiter"]
PenaltyKind: TypeAlias = Literal[
    "time_added", "increment_removed", "time_deducted", "warning", "game_lost"
]
ClaimKind: TypeAlias = Literal["threefold", "fifty", "touch_move", "any"]
Reason: TypeAlias = Literal[
    "checkmate",
    "stalemate",
    "fivefold_repetition",
    "seventyfive_moves",
    "dead_position",
    "threefold_repetition",
    "fifty_moves",
    "agreement",
    "resignation",
    "resignation_dead_position",
    "time",
    "time_dead_position",
    "illegal_moves",
    "illegal_moves_dead_position",
    "profile",
    "arbiter_decision",
]
#: what the arbiter did to the clocks (`arbiter_action`, a project extension, docs/events.md)
ArbiterDoing: TypeAlias = Literal[
    "pause", "resume", "add_time", "set_clock", "uphold_claim", "reject_claim", "confirm_claim",
    "hold_start", "start_clocks",
]
#: what a `note` is about (a project extension of the contract, docs/events.md)
NoteTopic: TypeAlias = Literal[
    "draw_before_both_moved", "resignation_undecided", "illegal_moves_undecided", "flag_undecided",
    "no_claim_to_rule",
]

#: a ruling's sentence, made from its fields (`rules.messages.format_ruling`)
Formatter: TypeAlias = Callable[["Ruling"], str]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling:
    """What every ruling has: when it was decided, whom it concerns, under which article."""

    type: ClassVar[str] = ""
    t: float
    side: Side | None = None
    article: str | None = None

    def fields(self) -> dict[str, Any]:
        """The type's own fields as the contract writes them (between `side` and `article`)."""
        return {}

    def to_dict(self, message: Formatter | None = None) -> dict[str, Any]:
        """The contract's JSON object; with `message`, its sentence under `"message"`."""
        out: dict[str, Any] = {"t": round(self.t, 6), "type": self.type}
        if self.side is not None:
            out["side"] = self.side
        out.update(self.fields())
        if self.article is not None:
            out["article"] = self.article
        if message is not None:
            out["message"] = message(self)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveStands(Ruling):
    """`move`: a move was made and stands (4.7); `made_at` counts against a flag (6.9)."""

    type: ClassVar[str] = "move"
    ply: int
    move: chess.Move
    san: str
    fen: str
    made_at: float
    inferred: bool = False

    @property
    def uci(self) -> str:
        return self.move.uci()

    def fields(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "uci": self.move.uci(),
            "san": self.san,
            "fen": self.fen,
            "made_at": self.made_at,
            "inferred": self.inferred,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Obligation(Ruling):
    """`obligation`: a duty under Article 4 (or 9.5.3) began, changed or lapsed (`none`)."""

    type: ClassVar[str] = "obligation"
    kind: ObligationKind
    square: Square | None = None
    with_square: Square | None = None
    rook: Square | None = None
    move: chess.Move | None = None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.square is not None:
            out["square"] = chess.SQUARE_NAMES[self.square]
        if self.with_square is not None:
            out["with"] = chess.SQUARE_NAMES[self.with_square]
        if self.rook is not None:
            out["rook"] = chess.SQUARE_NAMES[self.rook]
        if self.move is not None:
            out["move"] = self.move.uci()
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Violation(Ruling):
    """`violation`: Article 4 was broken on `square`."""

    type: ClassVar[str] = "violation"
    kind: ViolationKind
    square: Square

    def fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "square": chess.SQUARE_NAMES[self.square]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Illegal(Ruling):
    """`illegal`: a move no legal move explains; `completed` once the clock was pressed (7.5)."""

    type: ClassVar[str] = "illegal"
    completed: bool
    defect: Defect
    count: int
    move: chess.Move | None = None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "completed": self.completed,
            "defect": self.defect,
            "count": self.count,
        }
        if self.move is not None:
            out["move"] = self.move.uci()
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Reinstate(Ruling):
    """`reinstate`: the position goes back to `fen`, with `ply` plies standing."""

    type: ClassVar[str] = "reinstate"
    fen: str
    ply: int
    reason: ReinstateReason

    def fields(self) -> dict[str, Any]:
        return {"fen": self.fen, "ply": self.ply, "reason": self.reason}


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty(Ruling):
    """`penalty`: `side` is penalised; `seconds` for the kinds that move time."""

    type: ClassVar[str] = "penalty"
    kind: PenaltyKind
    seconds: float | None = None

    def fields(self) -> dict[str, Any]:
        if self.seconds is None:
            return {"kind": self.kind}
        return {"kind": self.kind, "seconds": self.seconds}


@dataclass(frozen=True, slots=True)
class PieceOn:
    """A piece (FEN letter, or `X`/`x`/`?` as sensed) on a square: an entry of a `mismatch`."""

    square: Square
    piece: str

    def to_dict(self) -> dict[str, str]:
        return {"square": chess.SQUARE_NAMES[self.square], "piece": self.piece}


@dataclass(frozen=True, slots=True, kw_only=True)
class Mismatch(Ruling):
    """`mismatch`: what the game's position has where the board lacks it, and what is extra."""

    type: ClassVar[str] = "mismatch"
    missing: tuple[PieceOn, ...]
    extra: tuple[PieceOn, ...]

    def fields(self) -> dict[str, Any]:
        return {
            "missing": [p.to_dict() for p in self.missing],
            "extra": [p.to_dict() for p in self.extra],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimRuling(Ruling):
    """`claim`: the ruling on a claim; article 9.4 marks one made after touching a piece."""

    type: ClassVar[str] = "claim"
    kind: ClaimKind
    valid: bool

    @property
    def admissible(self) -> bool:
        """False for a claim made after the claimant touched a piece (9.4)."""
        return self.article != "9.4"

    def fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "valid": self.valid}


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockState(Ruling):
    """`clock`: the seconds left on both clocks, which one runs, and whether they are paused."""

    type: ClassVar[str] = "clock"
    white: float
    black: float
    running: Side | None
    paused: bool

    def left(self, side: Side) -> float:
        return self.white if side == "white" else self.black

    def fields(self) -> dict[str, Any]:
        return {
            "white": self.white,
            "black": self.black,
            "running": self.running,
            "paused": self.paused,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Flag(Ruling):
    """`flag`: `side`'s time ran out at `at` (6.9)."""

    type: ClassVar[str] = "flag"
    at: float

    def fields(self) -> dict[str, Any]:
        return {"at": self.at}


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawOffer(Ruling):
    """`draw_offer`: `side` offered a draw (9.1.2)."""

    type: ClassVar[str] = "draw_offer"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(Ruling):
    """`game_over`: the game ended with `result` for `reason`."""

    type: ClassVar[str] = "game_over"
    result: Result
    reason: Reason
    #: project extension (docs/events.md): why the side that would win cannot mate
    explanation: str | None = None
    #: the same reasons typed (`rules.winnability.explain`), for the formatter to say them in
    #: the players' language; not in the contract's JSON (a ruling read back from JSON has the
    #: English `explanation` only), so not compared
    why: tuple[CannotMate, ...] = field(default=(), compare=False)

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": self.result, "reason": self.reason}
        if self.explanation is not None:
            out["explanation"] = self.explanation
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ArbiterDid(Ruling):
    """`arbiter_action` (project extension, docs/events.md): the arbiter acted on the clocks,
    or gave his own verdict on `side`'s claim.

    Stopping and restarting the clocks (6.11.1), adding time to `side`'s clock (6.11.3),
    setting both clocks (6.10.2), upholding, rejecting or confirming a claim (9.5, 4.8;
    `rules.verdicts`): a ruling of its own, so that it is on the screen, on the
    page's list and in the PGN where it happened. (The arbiter's other actions have their
    rulings already: a take-back or a position set up is a `reinstate` by the arbiter, a
    declared result a `game_over`, a penalty a `penalty`.)
    """

    type: ClassVar[str] = "arbiter_action"
    action: ArbiterDoing
    #: `add_time`: the seconds added to `side`'s clock
    seconds: float | None = None
    #: `set_clock`: the times set
    white: float | None = None
    black: float | None = None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        for key in ("seconds", "white", "black"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Note(Ruling):
    """`note` (project extension): what an arbiter should know that is no violation or penalty.

    On the wire its sentence is written twice, as `text` and as `message` (docs/events.md);
    `to_dict` writes `text` only when it is given the formatter.
    """

    type: ClassVar[str] = "note"
    topic: NoteTopic

    def to_dict(self, message: Formatter | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.t, 6), "type": self.type}
        if self.side is not None:
            out["side"] = self.side
        text = None if message is None else message(self)
        if text is not None:
            out["text"] = text
        if self.article is not None:
            out["article"] = self.article
        if text is not None:
            out["message"] = text
        return out


RULING_CLASSES: dict[str, type[Ruling]] = {
    cls.type: cls
    for cls in (
        MoveStands,
        Obligation,
        Violation,
        Illegal,
        Reinstate,
        Penalty,
        Mismatch,
        ClaimRuling,
        ClockState,
        Flag,
        DrawOffer,
        GameOver,
        Note,
        ArbiterDid,
    )
}
RULING_TYPES = tuple(RULING_CLASSES)

# a ruling or two is made per event: each is built with one store per field (`rules.values`)
for _cls in (Ruling, PieceOn, *RULING_CLASSES.values()):
    quick_init(_cls)


def _number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    return None if value is None else float(value)


def _square(data: Mapping[str, Any], key: str) -> Square | None:
    name = data.get(key)
    return None if name is None else chess.parse_square(str(name))


def _move(data: Mapping[str, Any], key: str) -> chess.Move | None:
    uci = data.get(key)
    return None if uci is None else chess.Move.from_uci(str(uci))


def _pieces(items: Any) -> tuple[PieceOn, ...]:
    return tuple(PieceOn(chess.parse_square(p["square"]), str(p["piece"])) for p in items)


def parse_ruling(data: Mapping[str, Any], formatter: Formatter | None = None) -> Ruling:
    """The ruling a contract JSON object describes (`message` is ignored: it is made anew).

    A `note` names no topic on the wire; with `formatter`, the topic whose sentence is its
    `text` is taken, else the first. Raises `EventError` on an unknown type or a bad field.
    """
    rtype = data.get("type")
    cls = RULING_CLASSES.get(str(rtype))
    if cls is None:
        raise EventError.of(N_("unknown ruling type {kind!r}"), kind=rtype)
    common: dict[str, Any] = {"t": float(data["t"]), "side": data.get("side")}
    common["article"] = data.get("article")
    try:
        return _parse(cls, data, common, formatter)
    except (KeyError, ValueError, TypeError) as exc:
        raise EventError.of(
            N_("a {kind!r} ruling with a bad or missing field ({reason})"), kind=rtype, reason=exc
        ) from None


def _parse(
    cls: type[Ruling], d: Mapping[str, Any], common: dict[str, Any], formatter: Formatter | None
) -> Ruling:
    if cls is MoveStands:
        return MoveStands(
            **common,
            ply=int(d["ply"]),
            move=chess.Move.from_uci(d["uci"]),
            san=d["san"],
            fen=d["fen"],
            made_at=d["made_at"],
            inferred=bool(d.get("inferred", False)),
        )
    if cls is Obligation:
        return Obligation(
            **common,
            kind=d["kind"],
            square=_square(d, "square"),
            with_square=_square(d, "with"),
            rook=_square(d, "rook"),
            move=_move(d, "move"),
        )
    if cls is Violation:
        return Violation(**common, kind=d["kind"], square=chess.parse_square(d["square"]))
    if cls is Illegal:
        return Illegal(
            **common,
            completed=bool(d["completed"]),
            defect=d["defect"],
            count=int(d["count"]),
            move=_move(d, "move"),
        )
    if cls is Reinstate:
        return Reinstate(**common, fen=d["fen"], ply=int(d["ply"]), reason=d["reason"])
    if cls is Penalty:
        return Penalty(**common, kind=d["kind"], seconds=d.get("seconds"))
    if cls is Mismatch:
        return Mismatch(**common, missing=_pieces(d["missing"]), extra=_pieces(d["extra"]))
    if cls is ClaimRuling:
        return ClaimRuling(**common, kind=d["kind"], valid=bool(d["valid"]))
    if cls is ClockState:
        return ClockState(
            **common,
            white=d["white"],
            black=d["black"],
            running=d.get("running"),
            paused=bool(d["paused"]),
        )
    if cls is Flag:
        return Flag(**common, at=d["at"])
    if cls is GameOver:
        return GameOver(
            **common, result=d["result"], reason=d["reason"], explanation=d.get("explanation")
        )
    if cls is ArbiterDid:
        return ArbiterDid(
            **common,
            action=d["action"],
            seconds=_number(d, "seconds"),
            white=_number(d, "white"),
            black=_number(d, "black"),
        )
    if cls is Note:
        topics: tuple[NoteTopic, ...] = get_args(NoteTopic)
        for topic in topics:
            note = Note(**common, topic=topic)
            if formatter is None or formatter(note) == d.get("text"):
                return note
        return Note(**common, topic=topics[0])
    return cls(**common)
