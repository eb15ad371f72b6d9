"""Think times for a simulated game: from the PGN's `[%clk]` comments, or made up to fit.

The clock of the side to move starts at `start` (t = 0, FIDE 6.6) and every press starts the
other one (6.2.1). A move's *think time* runs from the press that started the mover's clock to
the mover's own press, so the presses fall at the running sum of think times.

With `[%clk]` on every move the think times reproduce those clocks: think = time left before the
move + what the press credits (the Fischer increment, and a new period's time, 6.3.1) − the
clock shown after the move. The arithmetic is `rules.clock.GameClock`'s, the same the rules core
uses, so a replay shows the PGN's clocks again. A move the hand cannot show in its think time
(a premove of 0.0 s that captures, on a board that must see the square empty) takes up to
`CLK_SLACK_MS` more, which that player's next move gives back: the clocks stay within a tenth.

Without them, think times are drawn from a seeded generator and sized to the clock: each move
takes a share of the time left, never more than half of it, so nobody's flag falls, except the
flag that decides a game lost on time (6.9), which falls after the last move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from arbiter.errors import SimulateError
from arbiter.i18n import Localized, gettext
from rules.clock import GameClock
from rules.errors import TimeControlError
from rules.i18n import N_
from rules.timecontrol import TimeControl

__all__ = ["PlyClock", "PlyName", "Timeline", "plan_times", "time_control_of"]

#: untimed games: a move takes this many seconds, drawn uniformly
UNTIMED_THINK_S = (2.0, 20.0)
#: how far (ms) a move may run past its `[%clk]` think time when the hand needs a moment more
#: (the PGN shows tenths; the next think time of that player makes it up)
CLK_SLACK_MS = 95
#: what a `[%clk 0:00:00]` reading stands for: lichess shows whole seconds cut down, so 0
#: means under a second left, yet the player's press came in time (the flag had not fallen:
#: the game went on, or was lost on time later). Half a second, or half what was left.
ZERO_READING_S = 0.5


def side_name(color: chess.Color) -> str:
    """'white' or 'black', the contract's side names."""
    return "white" if color == chess.WHITE else "black"


def time_control_of(tag: str | None) -> tuple[str, TimeControl]:
    """The contract `time_control` text and value for a PGN `TimeControl` tag.

    A readable tag is kept as written (``60+0`` stays ``60+0``: the syntax allows ``+0``).
    Absent, ``?``, ``-``, unreadable, or a daily/correspondence control (a period of one move,
    e.g. ``1/259200``: no over-the-board clock runs it) give the untimed control ``-``.
    """
    try:
        control = TimeControl.parse(tag)
    except TimeControlError:
        return "-", TimeControl()
    if control.untimed or any(period.moves == 1 for period in control.periods):
        return "-", TimeControl()
    assert tag is not None
    return tag.strip(), control


def _reproducible(control: TimeControl) -> bool:
    """True when a `[%clk]` reading fixes the think time (no delay, give-back, cap, hourglass)."""
    return (
        not control.untimed
        and not control.hourglass
        and all(p.delay == 0 and p.bronstein == 0 and p.move_cap is None for p in control.periods)
    )


#: a ply in an error message
PLY_NAME = N_("move {number}{dots} {san}")


class PlyName:
    """A ply's name in an error message ("move 12... Nf6"), written only when one is raised:
    its SAN needs the legal moves of the position, and most plies of a corpus raise nothing
    (writing it for every ply was some 2 % of a corpus pass)."""

    __slots__ = ("_index", "_moves", "_start")

    def __init__(self, start: chess.Board, moves: Sequence[chess.Move], index: int) -> None:
        self._start = start  # the game's first position, not changed afterwards
        self._moves = moves
        self._index = index

    def __str__(self) -> str:
        return self.said("en")

    def said(self, language: str) -> str:
        """`move 12... Nf6` in `language` (the move in SAN, as the PGN writes it)."""
        board = self._start.copy(stack=False)
        for move in self._moves[: self._index]:
            board.push(move)
        return gettext(PLY_NAME, language).format(
            number=board.fullmove_number,
            dots="." if board.turn else "...",
            san=board.san(self._moves[self._index]),
        )


@dataclass(frozen=True, slots=True)
class PlyClock:
    """One ply's clock facts: who moves, the PGN's `[%clk]` after it, a name for errors, and
    the least think time (ms) in which the hand can show the move on the sensor."""

    color: chess.Color
    clk: float | None
    label: str | PlyName
    min_think_ms: int = 0


@dataclass(slots=True)
class Timeline:
    """Think times (ms) of every ply, and the clock as it stands after the last press."""

    thinks_ms: list[int]
    clock: GameClock
    from_clk: bool

    @property
    def last_press_ms(self) -> int:
        return sum(self.thinks_ms)

    def remaining_s(self, color: chess.Color) -> float:
        """Seconds `color` has left at the last press (infinite when untimed)."""
        if self.clock.control.untimed:
            return float("inf")
        return self.clock.remaining(side_name(color), self.last_press_ms / 1000)

    def flag_ms(self) -> int | None:
        """When the side to move after the last press runs out of time (ms), None if never."""
        flag = self.clock.flag_at()
        return None if flag is None else math.ceil(round(flag[1] * 1000, 6))


def _ply_field(label: str | PlyName) -> object:
    """A ply's name as a field of an error: said in the reader's language when it is a
    `PlyName`."""
    return Localized(label.said) if isinstance(label, PlyName) else label


def plan_times(
    plies: list[PlyClock],
    control: TimeControl,
    rng: random.Random,
    *,
    flag_side: chess.Color | None,
    where: object,
) -> Timeline:
    """Think times for `plies`; from `[%clk]` when every ply has one and the control allows.

    `flag_side` is the player whose time must run out after the last move (a game lost or
    drawn on time); it may use more of its time than the others. `where` names the game in
    errors.

    Raises:
        SimulateError: a clock that rose over a move (not a FIDE clock's doing).
    """
    first = plies[0].color if plies else chess.WHITE
    clock = GameClock(control, t=0.0, running=side_name(first))
    use_clk = bool(plies) and _reproducible(control) and all(p.clk is not None for p in plies)
    left = {chess.WHITE: 0, chess.BLACK: 0}
    for ply in plies:
        left[ply.color] += 1
    share = {
        color: 0.95 if color == flag_side else rng.uniform(0.45, 0.8)
        for color in (chess.WHITE, chess.BLACK)
    }
    thinks: list[int] = []
    now_ms = 0
    ideal = {chess.WHITE: control.periods[0].seconds if use_clk else 0.0}
    ideal[chess.BLACK] = ideal[chess.WHITE]
    for ply in plies:
        side = side_name(ply.color)
        before = clock.remaining(side, now_ms / 1000)
        if use_clk:
            assert ply.clk is not None
            period, following = control.period_of_move(clock.moves_completed(side) + 1)
            credit = period.increment + (following.seconds if following else 0.0)
            if ideal[ply.color] + credit - ply.clk < -0.0005:
                raise SimulateError.of(
                    N_(
                        "{where}: {ply}: the clock rose from {before:.1f} s to {after:.1f} s over"
                        " the move (more than the {credit:g} s a press credits); no FIDE clock"
                        " does that, so the stream cannot reproduce it"
                    ),
                    where=where,
                    ply=_ply_field(ply.label),
                    before=ideal[ply.color],
                    after=ply.clk,
                    credit=credit,
                )
            target = ply.clk
            if target == 0:
                target = min(ZERO_READING_S, (before + credit) / 2)
            ideal[ply.color] = target
            exact_ms = round((before + credit - target) * 1000)
            think_ms = max(exact_ms, 0)
            if ply.min_think_ms - exact_ms <= CLK_SLACK_MS:
                think_ms = max(think_ms, ply.min_think_ms)
        elif control.untimed:
            think_ms = max(round(rng.uniform(*UNTIMED_THINK_S) * 1000), ply.min_think_ms)
        else:
            period, _ = control.period_of_move(clock.moves_completed(side) + 1)
            think = before / left[ply.color] * share[ply.color] * rng.uniform(0.3, 1.7)
            think += share[ply.color] * period.increment
            think_ms = max(0, min(round(think * 1000), int(before * 500)))
            think_ms = max(think_ms, ply.min_think_ms)
        left[ply.color] -= 1
        now_ms += think_ms
        clock.press(side, now_ms / 1000)
        if use_clk:
            assert ply.clk is not None
            shown = clock.remaining(side, now_ms / 1000)
            if abs(shown - ideal[ply.color]) > (CLK_SLACK_MS + 2) / 1000:  # pragma: no cover
                raise SimulateError(f"{where}: {ply.label}: clock {shown:.3f} s, PGN {ply.clk} s")
        thinks.append(think_ms)
    return Timeline(thinks, clock, use_clk)
