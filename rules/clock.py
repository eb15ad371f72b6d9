"""The game clock: pure arithmetic on the event times passed in (FIDE Article 6).

`GameClock` never reads a clock. Each call carries the event time `t` (seconds since the stream
began), and the clock keeps, per side, the main time at the start of the current running
segment, so that nothing is rounded along the way (rounding happens only in `state`). Hundreds of
presses therefore reproduce a real game's clock to well under 0.1 s.

Conventions the rules core relies on:

- only one clock runs (6.1); `running` names it, and stays set during an arbiter pause (6.11),
  when `paused` is true and nothing runs;
- a side's move begins when the opponent's press starts its clock; its simple delay (6.3.2),
  per-move cap and Bronstein give-back are accounted over that move, across pauses, and across
  `start` (a reinstated position is the same move going on, 7.5.1);
- flags are not decided here: `flag_at` says when the running side's time runs out, and the
  rules core compares it with its events (6.9);
- an untimed game (`-`) keeps track of presses and moves but shows 0.0 on both sides and never
  flags.
"""

from __future__ import annotations

import math
from typing import Any

from rules.errors import TimeControlError
from rules.timecontrol import Period, TimeControl
from rules.types import SIDES, Side
from rules.types import other as _other

__all__ = ["GameClock"]


class GameClock:
    """A two-sided chess clock driven by event times (FIDE 6.1-6.12).

    Both players get the first period's seconds; the clock of `running` starts at `t` (6.6);
    `running=None` leaves both stopped.
    """

    def __init__(self, control: TimeControl, *, t: float, running: Side | None = "white") -> None:
        if not isinstance(control, TimeControl):
            raise TimeControlError(f"clock: control must be a TimeControl, not {control!r}")
        if running is not None:
            self._check_side(running)
        _check_number(t, "start time")
        self.control = control
        self._untimed = control.untimed  # asked at every reading: plain attributes
        self._hourglass = control.hourglass
        first = control.periods[0].seconds if control.periods else 0.0
        self._main: dict[Side, float] = {"white": float(first), "black": float(first)}
        self._moves: dict[Side, int] = {"white": 0, "black": 0}
        # Time used on the side's current move before the current running segment began.
        self._used: dict[Side, float] = {"white": 0.0, "black": 0.0}
        self._running: Side | None = running
        self._paused = False
        self._since = float(t)
        self._last_t = float(t)
        # `control.period_of_move(n)` by move number n (asked at every press and reading)
        self._periods: dict[int, tuple[Period, Period | None]] = {}
        # `flag_at` until the clock's state changes (the rules core asks at every event)
        self._flag: tuple[Side, float] | bool | None = False  # False: not known yet
        self._shown: dict[float, float] = {}  # seconds left -> as shown (`_show`)

    # ----------------------------------------------------------------- queries

    @property
    def running(self) -> Side | None:
        """Whose clock runs ('white' or 'black'), None when both are stopped."""
        return self._running

    @property
    def paused(self) -> bool:
        """True while the arbiter has paused the clock (6.11, 6.12)."""
        return self._paused

    def moves_completed(self, side: Side) -> int:
        """How many moves `side` has completed by a press, counted from the stream's start."""
        self._check_side(side)
        return self._moves[side]

    def remaining(self, side: Side, t: float) -> float:
        """The main time on `side`'s display at `t`, never below 0.

        With a simple delay the main time does not move during the first `delay` seconds of a
        move (6.3.2). In an hourglass, the time the running side has used so far shows on the
        other side. Untimed: 0.0.
        """
        self._check_side(side)
        self._check_time(t)
        if self._untimed:
            return 0.0
        main = self._main[side]
        if self._ticking():
            assert self._running is not None
            charge = self._charge(self._running, t)
            if side == self._running:
                main -= charge
            elif self._hourglass:
                main += charge
        return max(0.0, main)

    def flag_at(self) -> tuple[Side, float] | None:
        """(side, event time) at which the running side's time runs out, or None.

        The time runs out when the main time reaches 0 (after the move's simple delay) or when
        the move reaches its per-move cap, whichever comes first (6.1.1, 6.9; `900m60`). The time
        is returned even when it has passed: the caller compares it with its events. None when
        no clock runs, the clock is paused, the game is untimed, or the running side's time had
        already run out before its clock last started (that flag is in the past).
        """
        flag = self._flag
        if flag is False:
            flag = self._flag = self._flag_at()
        assert flag is not True
        return flag

    def _flag_at(self) -> tuple[Side, float] | None:
        if not self._ticking() or self._untimed:
            return None
        side = self._running
        assert side is not None
        period = self._current_period(side)
        used = self._used[side]
        at = self._since + max(0.0, period.delay - used) + self._main[side]
        if period.move_cap is not None:
            at = min(at, self._since + period.move_cap - used)
        if at <= self._since:
            return None
        return side, at

    def reading(self, t: float) -> tuple[float, float, Side | None, bool]:
        """(white, black, running, paused) at `t`: `state`'s fields, without building a dict.

        `remaining` of both sides (3 decimals), the running segment charged once.
        """
        self._check_time(t)
        running = self._running
        if self._untimed:
            white = black = 0.0
        else:
            white, black = self._main["white"], self._main["black"]
            # (nothing to charge at the moment the running segment began: a press's reading)
            if running is not None and not self._paused and t != self._since:
                charge = self._charge(running, t)
                if running == "white":
                    white -= charge
                    if self._hourglass:
                        black += charge
                else:
                    black -= charge
                    if self._hourglass:
                        white += charge
        shown = self._shown
        white_shown = shown.get(white)
        if white_shown is None:
            white_shown = self._show(white)
        black_shown = shown.get(black)
        if black_shown is None:
            black_shown = self._show(black)
        return white_shown, black_shown, running, self._paused

    def _show(self, seconds: float) -> float:
        """Seconds left as a reading shows them: not below 0, to 3 decimals; kept in
        `_shown`, since a press's reading shows the opponent's time as the last one did."""
        if len(self._shown) >= _SHOWN_KEPT:
            self._shown.clear()
        shown = self._shown[seconds] = round(max(0.0, seconds), 3)
        return shown

    def state(self, t: float) -> dict[str, Any]:
        """The contract's `clock` ruling fields: seconds left (3 decimals), running, paused."""
        white, black, running, paused = self.reading(t)
        return {"white": white, "black": black, "running": running, "paused": paused}

    # ----------------------------------------------------------------- presses

    def press(self, side: Side, t: float, *, completed_move: bool = True) -> float:
        """`side` presses its clock at `t` (6.2.1); return the seconds credited for the move.

        If `side`'s clock is not running (or the clock is paused), nothing changes and 0.0 comes
        back. Else its time used is charged, its clock stops and the opponent's starts at `t`.
        With `completed_move`, the move counts for `side`: the period's Fischer increment and
        Bronstein give-back (the time used on the move, at most the delay) are credited, and a
        press completing a period's last move adds the next period's time (6.3.1; a repeating
        last period adds itself again). The returned credit is increment + give-back, not the
        period's time: after an illegal move the caller takes it back (7.5.5, Manual).
        A press after the time ran out still credits: the flag is the rules core's to rule.
        """
        if side not in SIDES:
            self._check_side(side)
        self._check_time(t)
        if self._running != side or self._paused:
            return 0.0
        # `_settle(t)`, the clock ticking for `side`
        used = self._used[side] + (t - self._since)
        charge = self._charge(side, t)
        main = self._main
        main[side] -= charge
        if self._hourglass:
            main[_other(side)] += charge
        self._used[side] = used
        self._since = t
        self._last_t = t
        credit = 0.0
        if completed_move:
            self._moves[side] += 1
            if not self._untimed:
                period, following = self._period_of_move(self._moves[side])
                credit = period.increment + min(used, period.bronstein)
                self._main[side] += credit
                if following is not None:
                    self._main[side] += following.seconds
        opponent = _other(side)
        self._used[opponent] = 0.0
        self._running = opponent
        self._flag = False
        return credit

    def start(self, side: Side, t: float) -> None:
        """Stop the other clock at `t` (charging it) and run `side`'s from `t`.

        Used on reinstatement (7.5.1, events.md Supervision): the offender's clock runs again,
        and the move it makes is the same move going on, so the time already used on it counts
        for its delay and per-move cap. During an arbiter pause the clock stays paused: `side`'s
        runs from the `resume`.
        """
        self._check_side(side)
        self._check_time(t)
        self._settle(t)
        self._running = side
        self._flag = False

    def stop(self, t: float) -> None:
        """Stop whatever runs at `t` (the game is over); a pause ends with it."""
        self._check_time(t)
        self._settle(t)
        self._running = None
        self._paused = False
        self._flag = False

    def pause(self, t: float) -> None:
        """The arbiter pauses the clock at `t` (6.11, 6.12); the move's accounting is kept."""
        self._check_time(t)
        self._settle(t)
        self._paused = True
        self._flag = False

    def resume(self, t: float) -> None:
        """The arbiter restarts the paused clock at `t`; the same side's clock runs on."""
        self._check_time(t)
        self._settle(t)
        self._paused = False
        self._flag = False

    # ----------------------------------------------------------------- arbiter

    def add(self, side: Side, seconds: float, t: float) -> None:
        """Add `seconds` to `side`'s main time at `t`; negative deducts, down to 0 at most.

        For penalties (7.5.5, 9.5.3: time added to the opponent; increment removed) and the
        arbiter's `add_time` (6.10, 12.9.2-3).
        """
        self._check_side(side)
        _check_number(seconds, "seconds to add")
        self._check_time(t)
        self._settle(t)
        self._main[side] = max(0.0, self._main[side] + seconds)
        self._flag = False

    def set(self, white: float, black: float, t: float) -> None:
        """The arbiter sets both main times at `t` (`set_clock`, 6.10, 7.1)."""
        _check_number(white, "white's time")
        _check_number(black, "black's time")
        if white < 0 or black < 0:
            raise TimeControlError(f"clock: set_clock times must not be negative: {white}, {black}")
        self._check_time(t)
        self._settle(t)
        self._main["white"] = float(white)
        self._main["black"] = float(black)
        self._flag = False

    def uncount_move(self, side: Side) -> None:
        """A completed move of `side` no longer counts toward its period (7.5.1, takeback).

        If that move completed a period (e.g. an illegal 40th move), the period time its press
        added is taken back too, down to 0 at most, so that the true 40th move earns it once.
        The increment is not touched: `press` returned it for the caller to remove.
        """
        self._check_side(side)
        if self._moves[side] < 1:
            raise TimeControlError(f"clock: {side} has no completed move to uncount")
        if not self._untimed:
            _, following = self._period_of_move(self._moves[side])
            if following is not None:
                self._main[side] = max(0.0, self._main[side] - following.seconds)
        self._moves[side] -= 1
        self._flag = False

    # ----------------------------------------------------------------- internals

    def _ticking(self) -> bool:
        return self._running is not None and not self._paused

    def _current_period(self, side: Side) -> Period:
        """The period of the move `side` is making now."""
        period, _ = self._period_of_move(self._moves[side] + 1)
        return period

    def _period_of_move(self, number: int) -> tuple[Period, Period | None]:
        """`control.period_of_move(number)`, kept: the control never changes."""
        found = self._periods.get(number)
        if found is None:
            found = self._periods[number] = self.control.period_of_move(number)
        return found

    def _charge(self, side: Side, t: float) -> float:
        """Main time `side` has used in the segment from `_since` to `t` (not below 0 left).

        The main time used on a move is its time beyond the simple delay; the segment's share is
        the difference of that amount at its end and at its start. An hourglass moves only the
        time the side still had, so the two clocks' sum stays constant.
        """
        elapsed = t - self._since
        if self._untimed or elapsed == 0.0:
            return 0.0  # (a reading at the press that began the segment: nothing used yet)
        number = self._moves[side] + 1  # `_current_period`, without its two calls
        found = self._periods.get(number)
        delay = (found if found is not None else self._period_of_move(number))[0].delay
        before = self._used[side]
        charge = max(0.0, before + elapsed - delay) - max(0.0, before - delay)
        return min(charge, max(0.0, self._main[side]))

    def _settle(self, t: float) -> None:
        """Charge the running segment up to `t` and begin a new one there."""
        if self._ticking():
            side = self._running
            assert side is not None
            charge = self._charge(side, t)
            self._main[side] -= charge
            if self._hourglass:
                self._main[_other(side)] += charge
            self._used[side] += t - self._since
        self._since = t
        self._last_t = t
        self._flag = False

    def _check_time(self, t: float) -> None:
        if type(t) is not float:  # a float is a number; is it finite? (the usual case, fast)
            _check_number(t, "event time")
        elif t - t != 0.0:
            _check_number(t, "event time")  # inf or nan: the error names it
        if t < self._last_t:
            raise TimeControlError(
                f"clock: event time {t} runs backwards (the clock is already at {self._last_t})"
            )

    @staticmethod
    def _check_side(side: object) -> None:
        if side not in SIDES:
            raise TimeControlError(f'clock: side must be "white" or "black", not {side!r}')


#: how many readings a clock keeps as shown (`GameClock._show`; `round` is the dearer part)
_SHOWN_KEPT = 64


def _check_number(value: object, what: str) -> None:
    """Event times and seconds are finite numbers; anything else is the caller's mistake."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TimeControlError(f"clock: {what} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise TimeControlError(f"clock: {what} must be finite, not {value!r}")
