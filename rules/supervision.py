"""FIDE 12.6 as a function: what the players' LEDs and buzzer may show, from the rulings.

Article 12.6 forbids anything that distracts or disturbs the players, and the contract
(`events.md`, Supervision) draws the line for the board's own lights and sounds: nothing a
player sees or hears may tell them that the opponent has moved or that they must act. An
arbiter standing at the board would not point at a touched piece or cough when a move is
illegal-but-not-yet-completed; neither may the panel.

So, in the default mode:

* an LED shows only what a chess clock shows anyway: that its player's clock runs (ON), and
  that its player's flag has fallen (BLINK), which the clock display shows too (6.9 is ruled
  at once, publicly);
* the buzzer sounds only for what the arbiter has already ruled in public: a flag fall, a
  completed illegal move (7.5: ruled at once, with a penalty), and the end of the game.

It stays silent on moves (that would tell a player "the opponent has moved"), on touch-move
obligations and violations (that would tell a player "you must move that piece", or the
opponent "you may claim"), on an illegal move not yet completed by a press (the player may
still correct it, 7.5.1; telling them would be help), on claims, offers and mismatches.

In strict (teaching) mode, or with `feedback=True`, the panel may guide: the LED of a player
with a touch-move duty pulses slowly, a violation of Article 4 gives a double beep, and an
illegal move released but not completed gives a short beep.

`PanelState` is folded from rulings (`state.after(rulings)`), `indications(state, mode)` is
pure; the clock panel applies the result to the pins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from rules.rulings import (
    ClockState,
    Flag,
    GameOver,
    Illegal,
    MoveStands,
    Obligation,
    Ruling,
    Violation,
)

SIDES = ("white", "black")


class LedShow(Enum):
    """What one player's LED does."""

    OFF = "off"
    ON = "on"  # this player's clock runs
    BLINK = "blink"  # this player's flag has fallen (fast, 4 Hz)
    PULSE = "pulse"  # strict/feedback only: this player has a touch-move duty (slow, 1 Hz)


#: blink rates of the LED shows, in Hz
BLINK_HZ = {LedShow.BLINK: 4.0, LedShow.PULSE: 1.0}


@dataclass(frozen=True, slots=True)
class BeepPattern:
    """A named buzzer pattern: (on seconds, off seconds) pairs played in order."""

    name: str
    segments: tuple[tuple[float, float], ...]

    @property
    def duration(self) -> float:
        return sum(on + off for on, off in self.segments)


FLAG_BEEP = BeepPattern("flag", ((1.0, 0.0),))
ILLEGAL_BEEP = BeepPattern("illegal", ((0.15, 0.1), (0.15, 0.1), (0.15, 0.0)))
GAME_END_BEEP = BeepPattern("game_end", ((0.4, 0.2), (0.8, 0.0)))
#: strict/feedback only
VIOLATION_BEEP = BeepPattern("violation", ((0.08, 0.08), (0.08, 0.0)))
PENDING_ILLEGAL_BEEP = BeepPattern("illegal_pending", ((0.3, 0.0),))


@dataclass(frozen=True, slots=True)
class PanelMode:
    """`strict`: the game's teaching mode; `feedback`: the `--feedback` option."""

    strict: bool = False
    feedback: bool = False

    @property
    def guides(self) -> bool:
        """May the panel show obligations and violations (12.6 lifted for teaching)?"""
        return self.strict or self.feedback


#: the default: FIDE 12.6 in full, no guidance
DEFAULT_MODE = PanelMode()


@dataclass(frozen=True, slots=True)
class PanelState:
    """What the panel needs to know of the game, and what the latest step ruled (`news`)."""

    running: str | None = None
    paused: bool = False
    flagged: frozenset[str] = frozenset()
    over: bool = False
    duties: frozenset[str] = frozenset()
    news: tuple[Ruling, ...] = field(default=())

    def after(self, rulings: Iterable[Ruling]) -> PanelState:
        """The state once `rulings` (one step's worth) are taken; they become the `news`."""
        state = replace(self, news=())
        news: list[Ruling] = []
        for r in rulings:
            news.append(r)
            state = state._take(r)
        return replace(state, news=tuple(news))

    def _take(self, r: Ruling) -> PanelState:
        match r:
            case ClockState(running=running, paused=paused):
                return replace(self, running=running, paused=paused)
            case Flag(side=side) if side is not None:
                return replace(self, flagged=self.flagged | {side})
            case GameOver():
                return replace(self, over=True, running=None, duties=frozenset())
            case Obligation(side=side, kind=kind) if side is not None:
                if kind == "none":
                    return replace(self, duties=self.duties - {side})
                return replace(self, duties=self.duties | {side})
            case MoveStands(side=side, fen=fen):
                mover = side or _mover_from_fen(fen)
                gone = {mover} if mover else set(SIDES)
                return replace(self, duties=self.duties - gone)
        return self


def _mover_from_fen(fen: object) -> str | None:
    """Who made the move that led to `fen`: the side *not* to move in it."""
    if not isinstance(fen, str) or len(fen.split()) < 2:
        return None
    return {"w": "black", "b": "white"}.get(fen.split()[1])


@dataclass(frozen=True, slots=True)
class Indications:
    """What the panel shows: each player's LED, and the beeps to play now, in order."""

    white: LedShow = LedShow.OFF
    black: LedShow = LedShow.OFF
    beeps: tuple[BeepPattern, ...] = ()

    def led(self, side: str) -> LedShow:
        return self.white if side == "white" else self.black


def indications(state: PanelState, mode: PanelMode = DEFAULT_MODE) -> Indications:
    """The LEDs and beeps for `state` under `mode`; see the module docstring for why."""
    leds = {side: _led(state, side, mode) for side in SIDES}
    beeps: list[BeepPattern] = []
    for r in state.news:
        beep = _beep(r, mode)
        if beep is GAME_END_BEEP and FLAG_BEEP in beeps:
            continue  # the flag's beep already announces the end of a game lost on time
        if beep is ILLEGAL_BEEP and PENDING_ILLEGAL_BEEP in beeps:
            beeps.remove(PENDING_ILLEGAL_BEEP)  # released and pressed at once: completed
        if beep is not None and beep not in beeps:  # one moment, one pattern of a kind
            beeps.append(beep)
    return Indications(white=leds["white"], black=leds["black"], beeps=tuple(beeps))


def _led(state: PanelState, side: str, mode: PanelMode) -> LedShow:
    if side in state.flagged:
        return LedShow.BLINK
    if mode.guides and side in state.duties and not state.over:
        return LedShow.PULSE
    if state.running == side and not state.paused and not state.over:
        return LedShow.ON
    return LedShow.OFF


def _beep(r: Ruling, mode: PanelMode) -> BeepPattern | None:
    match r:
        case Flag():
            return FLAG_BEEP
        case GameOver():
            return GAME_END_BEEP
        case Illegal(completed=completed):
            if completed:
                return ILLEGAL_BEEP
            return PENDING_ILLEGAL_BEEP if mode.guides else None
        case Violation() if mode.guides:
            return VIOLATION_BEEP
    return None


__all__ = [
    "BLINK_HZ",
    "DEFAULT_MODE",
    "FLAG_BEEP",
    "GAME_END_BEEP",
    "ILLEGAL_BEEP",
    "PENDING_ILLEGAL_BEEP",
    "VIOLATION_BEEP",
    "BeepPattern",
    "Indications",
    "LedShow",
    "PanelMode",
    "PanelState",
    "indications",
]
