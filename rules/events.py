"""Physical events: the input half of the event contract (`docs/events.md`).

Every source (an e-board codec, the camera, GPIO buttons, a keyboard, a file) produces these
objects, and the rules core consumes them. They are frozen, slotted, keyword-only dataclasses,
validated when built, so a bad value is caught at the edge with a message naming the field.
`parse_event` reads the contract's JSON shape; `Event.to_dict` writes it back.
"""

from __future__ import annotations

import json
import math
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from rules.errors import EventError
from rules.i18n import N_, Word
from rules.library_reasons import reason_of
from rules.placement import SENSED_LETTERS, check_placement
from rules.rulings import ClaimKind
from rules.types import Result, Side

SIDES = ("white", "black")
PROMOTION_LETTERS = frozenset("NBRQnbrq")
SQUARE_NAMES = frozenset(f + r for f in "abcdefgh" for r in "12345678")
CLAIM_KINDS = ("threefold", "fifty", "touch_move", "any")
SENSOR_STATUSES = (
    "disconnected", "reconnected", "dropped", "camera_moved", "recalibrated",
    "display_lost",  # project extension (docs/events.md): the screen cannot be written
    "bad_line",  # project extension (docs/events.md): a live source skipped an unreadable line
)  # fmt: skip
RESULTS: tuple[Result, ...] = ("1-0", "0-1", "1/2-1/2")
#: project extension (docs/events.md): the PGN tags a `start` may carry beyond its own fields
RECORD_TAGS = ("Date", "Board", "WhiteElo", "BlackElo", "WhiteFideId", "BlackFideId")
MODES = ("standard", "rapid", "blitz")
#: the error of an arbiter's action whose `action` word is unknown
NESTED_TOO_DEEPLY = Word(N_("nested too deeply"))
ACTION_CHOICES = N_("'action' must be one of {choices}, not {value!r}")


def _check_side(value: object, name: str = "side") -> None:
    # a JSON list or object is no side, and cannot be looked up in a set (unhashable)
    if not isinstance(value, str) or value not in SIDES:
        raise EventError.of(
            N_('\'{name}\' must be "white" or "black", not {value!r}'), name=name, value=value
        )


def _check_square(value: object, name: str = "square") -> None:
    if not isinstance(value, str) or value not in SQUARE_NAMES:
        raise EventError.of(
            N_("'{name}' must be a square name such as \"e4\", not {value!r}"),
            name=name,
            value=value,
        )


def _check_piece(value: object, allowed: frozenset[str] = SENSED_LETTERS) -> None:
    if value is not None and (not isinstance(value, str) or value not in allowed):
        raise EventError.of(
            N_("'piece' must be one of {letters}, not {value!r}"),
            letters="".join(sorted(allowed)),
            value=value,
        )


def _check_number(value: object, name: str, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not _finite(value):
        shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:30]}... (too large)"
        raise EventError.of(
            N_("'{name}' must be a finite number, not {shown}"), name=name, shown=shown
        )


#: no clock holds more than this (100 hours): an `add_time` or `set_clock` beyond it is a
#: typing error, and refusing it keeps the clock's arithmetic finite
MAX_CLOCK_S = 360_000.0


def _check_clock_seconds(value: float, name: str) -> None:
    _check_number(value, name)
    if abs(value) > MAX_CLOCK_S:
        raise EventError.of(
            N_("'{name}' must be at most 100 hours ({limit:.0f} s), not {value}"),
            name=name,
            limit=MAX_CLOCK_S,
            value=value,
        )


def _finite(value: float) -> bool:
    """Finite, and (an int) small enough for a float: no OverflowError escapes."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """A physical event at time `t` (seconds since the stream began, monotonic)."""

    type: ClassVar[str] = ""
    t: float

    def __post_init__(self) -> None:
        _check_number(self.t, "t")
        if self.t < 0:
            raise EventError.of(N_("'t' must not be negative, not {t!r}"), t=self.t)

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON object for this event (fields left at None are omitted)."""
        out: dict[str, Any] = {"t": self.t, "type": self.type}
        for f in fields(self):
            if f.name == "t":
                continue
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "))


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Event):
    """First line of a stream: the game's settings (events.md `start`)."""

    type: ClassVar[str] = "start"
    fen: str | None = None
    time_control: str | None = None
    mode: str | None = None
    rules: str | None = None
    strict: bool = False
    auto_press: bool = False
    max_plies: int = 2
    noise_s: float = 0.1
    slide_s: float = 0.25
    latency_s: float = 0.0
    white: str | None = None
    black: str | None = None
    event: str | None = None
    round: str | None = None
    site: str | None = None
    sources: list[str] | None = None
    #: project extension (docs/events.md): PGN tags of `RECORD_TAGS` the game was begun with
    tags: dict[str, str] | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        for name in ("noise_s", "slide_s", "latency_s"):
            _check_number(getattr(self, name), name)
            if getattr(self, name) < 0:
                raise EventError.of(N_("'{name}' must not be negative"), name=name)
        if isinstance(self.max_plies, bool) or not isinstance(self.max_plies, int):
            raise EventError.of(
                N_("'max_plies' must be a whole number, not {value!r}"), value=self.max_plies
            )
        if not 1 <= self.max_plies <= 8:
            raise EventError.of(
                N_("'max_plies' must be between 1 and 8, not {value}"), value=self.max_plies
            )
        for name in ("strict", "auto_press"):
            if not isinstance(getattr(self, name), bool):
                raise EventError.of(N_("'{name}' must be true or false"), name=name)
        if self.mode is not None and self.mode not in MODES:
            raise EventError.of(
                N_("'mode' must be one of {choices}, not {value!r}"),
                choices=", ".join(MODES),
                value=self.mode,
            )
        for name in ("fen", "time_control", "rules", "white", "black", "event", "round", "site"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise EventError.of(
                    N_("'{name}' must be a string, not {value!r}"), name=name, value=value
                )
        if self.sources is not None and (
            not isinstance(self.sources, list) or not all(isinstance(s, str) for s in self.sources)
        ):
            raise EventError.of(N_("'sources' must be a list of strings"))
        if self.tags is not None and (
            not isinstance(self.tags, dict)
            or not all(k in RECORD_TAGS and isinstance(v, str) for k, v in self.tags.items())
        ):
            raise EventError.of(
                N_("'tags' must map PGN tags ({choices}) to strings"),
                choices=", ".join(RECORD_TAGS),
            )

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        defaults = {"strict": False, "auto_press": False, "max_plies": 2}
        for key, default in defaults.items():
            if out.get(key) == default:
                del out[key]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class _SquareEvent(Event):
    square: str
    piece: str | None = None
    side: Side | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_square(self.square)
        _check_piece(self.piece)
        if self.side is not None:
            _check_side(self.side)


@dataclass(frozen=True, slots=True, kw_only=True)
class Lift(_SquareEvent):
    """A piece left `square` (by the hand of `side`, where the source can tell)."""

    type: ClassVar[str] = "lift"


@dataclass(frozen=True, slots=True, kw_only=True)
class Place(_SquareEvent):
    """A piece was put down on `square`; a piece still there was taken off first."""

    type: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot(Event):
    """The whole board as a sensor sees it (FEN placement; X, x, ? for unknown kinds)."""

    type: ClassVar[str] = "snapshot"
    board: str
    seen_at: float | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        check_placement(self.board)
        _check_number(self.seen_at, "seen_at", allow_none=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class _SideEvent(Event):
    side: Side

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)


@dataclass(frozen=True, slots=True, kw_only=True)
class Press(_SideEvent):
    """That player pressed their clock button (stopping their own clock)."""

    type: ClassVar[str] = "press"


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjust(_SideEvent):
    """That player declared "j'adoube" (4.2.1)."""

    type: ClassVar[str] = "adjust"


@dataclass(frozen=True, slots=True, kw_only=True)
class Touch(_SideEvent):
    """A piece was touched without being lifted (camera, or entered by the arbiter)."""

    type: ClassVar[str] = "touch"
    square: str

    def __post_init__(self) -> None:
        _SideEvent.__post_init__(self)
        _check_square(self.square)


@dataclass(frozen=True, slots=True, kw_only=True)
class Promote(_SideEvent):
    """The piece a player promotes to, for sensors that cannot tell."""

    type: ClassVar[str] = "promote"
    piece: str

    def __post_init__(self) -> None:
        _SideEvent.__post_init__(self)
        _check_piece(self.piece, PROMOTION_LETTERS)


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(_SideEvent):
    """A claim to the arbiter (9.2, 9.3, 4.8), optionally with the intended move."""

    type: ClassVar[str] = "claim"
    kind: ClaimKind = "any"
    move: str | None = None

    def __post_init__(self) -> None:
        _SideEvent.__post_init__(self)
        if self.kind not in CLAIM_KINDS:
            raise EventError.of(
                N_("'kind' must be one of {choices}, not {value!r}"),
                choices=", ".join(CLAIM_KINDS),
                value=self.kind,
            )
        if self.move is not None and not _is_uci(self.move):
            raise EventError.of(
                N_("'move' must be a move in UCI such as \"e2e4\", not {value!r}"), value=self.move
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Offer(_SideEvent):
    """A draw offer (9.1.2)."""

    type: ClassVar[str] = "offer"


@dataclass(frozen=True, slots=True, kw_only=True)
class Accept(_SideEvent):
    """Acceptance of the opponent's draw offer."""

    type: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True, kw_only=True)
class Decline(_SideEvent):
    """Rejection of the opponent's draw offer."""

    type: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True, kw_only=True)
class Resign(_SideEvent):
    """That player resigned (5.1.2)."""

    type: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True, kw_only=True)
class ArbiterAction(Event):
    """An arbiter's intervention: one subclass per `action` of the contract (events.md).

    On the wire every action is `{"type": "arbiter", "action": ..., its fields}`;
    `parse_event` chooses the class by the pair (type, action).
    """

    type: ClassVar[str] = "arbiter"
    action: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "type": self.type, "action": self.action}
        for f in fields(self):
            if f.name == "t":
                continue
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class PauseClocks(ArbiterAction):
    """`pause`: the arbiter stops both clocks (6.11.1)."""

    action: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(ArbiterAction):
    """`resume`: the clocks go on from where they were paused."""

    action: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True, kw_only=True)
class AddTime(ArbiterAction):
    """`add_time`: `seconds` more on `side`'s clock (6.11.3, after a disturbance or restart)."""

    action: ClassVar[str] = "add_time"
    side: Side
    seconds: float

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)
        _check_clock_seconds(self.seconds, "seconds")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetClock(ArbiterAction):
    """`set_clock`: the clocks are set to `white` and `black` seconds (6.10.2)."""

    action: ClassVar[str] = "set_clock"
    white: float
    black: float

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_clock_seconds(self.white, "white")
        _check_clock_seconds(self.black, "black")
        if self.white < 0 or self.black < 0:
            raise EventError.of(N_("'set_clock' times must not be negative"))


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPosition(ArbiterAction):
    """`set_position`: the arbiter sets up `fen` (7.1, 7.2); the record starts again from it."""

    action: ClassVar[str] = "set_position"
    fen: str

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if not isinstance(self.fen, str):
            raise EventError.of(N_("'set_position' needs a 'fen'"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Takeback(ArbiterAction):
    """`takeback`: the last `plies` moves are taken back (7.1, 7.5)."""

    action: ClassVar[str] = "takeback"
    plies: int

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if isinstance(self.plies, bool) or not isinstance(self.plies, int) or self.plies < 1:
            raise EventError.of(
                N_("'takeback' needs 'plies' (a whole number, 1 or more), not {value!r}"),
                value=self.plies,
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalise(ArbiterAction):
    """`penalty`: a penalty of 12.9 for `side`; `kind` a `penalty` ruling's (default
    `time_added`, which any other word also means), `seconds` where time moves."""

    action: ClassVar[str] = "penalty"
    side: Side
    seconds: float | None = None
    kind: str | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)
        _check_number(self.seconds, "seconds", allow_none=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Warn(ArbiterAction):
    """`warning`: the arbiter warns `side` (12.9.1)."""

    action: ClassVar[str] = "warning"
    side: Side

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)


@dataclass(frozen=True, slots=True, kw_only=True)
class TwoHands(ArbiterAction):
    """`two_hands`: `side` used two hands for one move (4.1; 7.5.4 once it was completed)."""

    action: ClassVar[str] = "two_hands"
    side: Side

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)


@dataclass(frozen=True, slots=True, kw_only=True)
class Accident(ArbiterAction):
    """`accident`: `side`'s touch of `square` was accidental; its duty lapses (4.2.2)."""

    action: ClassVar[str] = "accident"
    side: Side
    square: str

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_side(self.side)
        _check_square(self.square)


@dataclass(frozen=True, slots=True, kw_only=True)
class Declare(ArbiterAction):
    """`declare`: the arbiter declares the game over with `result`, for `reason` (a
    `game_over` reason; any other word is ruled `arbiter_decision`)."""

    action: ClassVar[str] = "declare"
    result: Result
    reason: str | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if self.result not in RESULTS:
            raise EventError.of(
                N_("'declare' needs 'result', one of {choices}"), choices=", ".join(RESULTS)
            )
        if self.reason is not None and not isinstance(self.reason, str):
            raise EventError.of(N_("'reason' must be a string"))


#: the arbiter's actions by their `action` word
@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimVerdict(ArbiterAction):
    """`claim_verdict` (project extension, docs/events.md): the arbiter's own verdict on the
    last claim (9.5, 4.8): `valid` true upholds it, false rejects it, whatever the rules
    core ruled; the same verdict as the core's confirms it."""

    action: ClassVar[str] = "claim_verdict"
    valid: bool

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if not isinstance(self.valid, bool):
            raise EventError.of(N_("'claim_verdict' needs 'valid', true or false"))


ARBITER_ACTION_TYPES: dict[str, type[ArbiterAction]] = {
    cls.action: cls
    for cls in (
        PauseClocks,
        Resume,
        AddTime,
        SetClock,
        SetPosition,
        Takeback,
        Penalise,
        Warn,
        TwoHands,
        Accident,
        Declare,
        ClaimVerdict,
    )
}
ARBITER_ACTIONS = tuple(ARBITER_ACTION_TYPES)


def arbiter_action(t: float, action: str, **fields: Any) -> ArbiterAction:
    """The arbiter's action named `action` at `t`, with its fields (as on the wire)."""
    cls = ARBITER_ACTION_TYPES.get(action)
    if cls is None:
        raise EventError.of(ACTION_CHOICES, choices=", ".join(ARBITER_ACTIONS), value=action)
    return cls(t=t, **fields)


@dataclass(frozen=True, slots=True, kw_only=True)
class Sensor(Event):
    """What a source says about itself (disconnected, reconnected, dropped bytes, ...)."""

    type: ClassVar[str] = "sensor"
    status: str
    detail: str | None = None
    bytes: int | None = None

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if self.status not in SENSOR_STATUSES:
            raise EventError.of(
                N_("'status' must be one of {choices}, not {value!r}"),
                choices=", ".join(SENSOR_STATUSES),
                value=self.status,
            )
        if self.bytes is not None and (
            isinstance(self.bytes, bool) or not isinstance(self.bytes, int)
        ):
            raise EventError.of(
                N_("'bytes' must be a whole number, not {value!r}"), value=self.bytes
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class Restart(Event):
    """The stream goes on after a crash or power loss; see events.md `restart`."""

    type: ClassVar[str] = "restart"
    gap_s: float | None = None
    counted: bool = False

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        _check_number(self.gap_s, "gap_s", allow_none=True)
        if not isinstance(self.counted, bool):
            raise EventError.of(N_("'{name}' must be true or false"), name="counted")


@dataclass(frozen=True, slots=True, kw_only=True)
class Tick(Event):
    """Project extension (docs/events.md): the source's time reached `t` and nothing happened.

    A stream file cannot wait; a tick lets it say that time passed, so that what time decides
    (a flag fall, a release after `slide_s`) is ruled at the right moment on replay.
    """

    type: ClassVar[str] = "tick"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        Start,
        Lift,
        Place,
        Snapshot,
        Press,
        Adjust,
        Touch,
        Promote,
        Claim,
        Offer,
        Accept,
        Decline,
        Resign,
        ArbiterAction,
        Sensor,
        Restart,
        Tick,
    )
}

_FIELD_NAMES: dict[type[Event], frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls))
    for cls in (*EVENT_TYPES.values(), *ARBITER_ACTION_TYPES.values())
}


def _is_uci(text: object) -> bool:
    return (
        isinstance(text, str)
        and len(text) in (4, 5)
        and text[:2] in SQUARE_NAMES
        and text[2:4] in SQUARE_NAMES
        and text[:2] != text[2:4]
        and (len(text) == 4 or text[4] in "nbrq")
    )


def parse_event(obj: object, *, line: int | None = None) -> Event:
    """Build an event from the contract's JSON object; unknown fields are ignored.

    Raises:
        EventError: naming `line` (when given) and the field at fault.
    """
    try:
        if not isinstance(obj, dict):
            raise EventError.of(
                N_("an event must be a JSON object, not {kind}"), kind=type(obj).__name__
            )
        kind = obj.get("type")
        if kind is None:
            raise EventError.of(N_("the event has no 'type'"))
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise EventError.of(N_("unknown event type {kind!r}"), kind=kind)
        if cls is ArbiterAction:
            action = obj.get("action")
            found = ARBITER_ACTION_TYPES.get(action) if isinstance(action, str) else None
            if found is None:
                raise EventError.of(
                    ACTION_CHOICES, choices=", ".join(ARBITER_ACTIONS), value=action
                )
            cls = found
        if "t" not in obj:
            raise EventError.of(N_("the {kind!r} event has no time 't'"), kind=kind)
        names = _FIELD_NAMES[cls]
        kwargs = {k: v for k, v in obj.items() if k in names}
        try:
            return cls(**kwargs)
        except TypeError as exc:  # a required field is missing
            missing = sorted(
                f.name
                for f in fields(cls)
                if f.name not in kwargs and f.default is MISSING and f.default_factory is MISSING
            )
            if not missing:
                raise EventError.of(N_("the {kind!r} event lacks a field"), kind=kind) from exc
            raise EventError.of(
                N_("the {kind!r} event lacks {names}"),
                kind=kind,
                names=", ".join(repr(m) for m in missing),
            ) from exc
    except EventError as exc:
        if line is not None and exc.line is None:
            raise exc.at_line(line) from None
        raise


def parse_line(text: str, *, line: int | None = None) -> Event:
    """Parse one JSON Lines line of a stream."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:  # ValueError: also a number of 4,300+ digits
        reason: str
        reason = reason_of(exc)  # a decoder's fault, nesting or too many digits, said
        if reason.template is None:  # Python's advice after ';' is not the user's
            reason = str(exc).split(";")[0]
        err = EventError.of(N_("not valid JSON ({reason})"), reason=reason)
        raise (err if line is None else err.at_line(line)) from None
    return parse_event(obj, line=line)


__all__ = [
    "ARBITER_ACTIONS",
    "ARBITER_ACTION_TYPES",
    "EVENT_TYPES",
    "SIDES",
    "Accept",
    "Accident",
    "AddTime",
    "Adjust",
    "ArbiterAction",
    "Claim",
    "ClaimVerdict",
    "Declare",
    "Decline",
    "Event",
    "Lift",
    "Offer",
    "PauseClocks",
    "Penalise",
    "Place",
    "Press",
    "Promote",
    "Resign",
    "Restart",
    "Resume",
    "Sensor",
    "SetClock",
    "SetPosition",
    "Snapshot",
    "Start",
    "Takeback",
    "Tick",
    "Touch",
    "TwoHands",
    "Warn",
    "arbiter_action",
    "check_placement",
    "parse_event",
    "parse_line",
]
