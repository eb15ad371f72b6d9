"""The rules core: physical events in, rulings out (events.md), under the FIDE Laws 2023.

`Game(start)` takes the stream's `start`; `handle(event)` takes each later event and returns
the rulings it (and the time that passed before it) decided; `finish()` decides what is still
pending at the end of a stream. No I/O, no threads, no clock: time comes only from events.

How a move is recognised: the core keeps the board as sensed (`rules.sensed`) and, each time
the mover's last piece is released (it stood `slide_s`, or the clock was pressed) with no own
piece left in the hand, asks which legal move (or, for late sensors, which sequence of up to
`max_plies`) explains it. What no legal move explains is an illegal move in progress (Art. 4.7,
7.5) or a displaced piece (`mismatch`, Art. 7.4). Touches are tracked for Article 4.

`Game` is the facade over its `GameState` (`rules.state`: the one owner of the game's state
and of its phase, `rules.phases`): it dispatches each event by its class to the engine
module that rules on it, and decides in time order what time alone decides (releases,
presses waiting for a report, flags). The engine modules, lowest first: `hands` (whose hand,
touches, Art. 4 duties), `clocking` (6.2.1: a press completes a move), `ending` (5, 6.9,
9.6), `illegal` (7.5), `moves` (4.7: when a move is made), `presses` (6.2.1, 7.5.3),
`claims` (4.8, 9.1 to 9.5), `arbiter_actions` (the arbiter's interventions) and
`board_reports` (lifts, places, snapshots, touches, the source's state).
"""

from __future__ import annotations

from typing import Any

from rules import arbiter_actions, board_reports, claims, ending, moves, presses, verdicts
from rules.errors import EventError, EventOrderError
from rules.events import (
    ARBITER_ACTION_TYPES,
    Accept,
    Adjust,
    ArbiterAction,
    Claim,
    Decline,
    Event,
    Lift,
    Offer,
    Place,
    Press,
    Promote,
    Resign,
    Restart,
    Sensor,
    Snapshot,
    Start,
    Tick,
    Touch,
)
from rules.i18n import N_
from rules.rulings import ClockState, Ruling
from rules.state import GameState


class Game(GameState):
    """One game under the Laws, driven by the contract's physical events."""

    # ------------------------------------------------------------------ public API

    def handle(self, event: Event) -> list[Ruling]:
        """Rule on one physical event (and on what time decided before it)."""
        t = event.t
        if isinstance(event, Start):
            raise EventError.of(N_("a second 'start' event in the same stream"))
        if t < self.t:
            raise EventOrderError.of(
                N_(
                    "the {kind!r} event at t={t} comes before the previous one"
                    " (t={before}): times must not run backwards"
                ),
                kind=event.type,
                t=t,
                before=self.t,
            )
        out: list[Ruling] = []
        acts = isinstance(event, ArbiterAction)
        if acts and self.awaiting_verdict is not None:
            ending.settle(self, None, out)  # the arbiter acts on the verdict: it comes first
        # whether `_advance` may find anything due (it decides exactly what, and when)
        due = bool(self._waiting)
        if not due and self.pending:
            slide = self.start.slide_s  # a release falls due when it stood `slide_s`
            for placed, _hand in self.pending.values():
                if placed + slide <= t:
                    due = True
                    break
        if not due:
            # `flag_due` with no press waiting: the running side's flag, unless one waits
            flag = self.clock.flag_at() if self.timed and self.flag_wait is None else None
            due = flag is not None and flag[1] + self.flag_grace() <= t
        if due:
            # a tick says that time reached t: what falls due at t itself is decided too
            self._advance(t, out, strict_before=not isinstance(event, Tick))
            if acts and self.awaiting_verdict is not None:
                ending.settle(self, None, out)  # the action is ruled in the ending's aftermath
        self.time_reaches(t)
        if not self.rules_events or self.held or self.awaiting_verdict is not None:
            # over, held for the arbiter, or its verdict awaited (a game that is over or held
            # once it is known): only the arbiter's actions are ruled
            if isinstance(event, ArbiterAction):
                arbiter_actions.arbiter_action(self, event, out)
        else:
            handler = _HANDLERS.get(type(event))
            if handler is not None:
                handler(self, event, out)
        if len(out) < 2:
            return out
        a, b = out[0], out[1]
        if len(out) == 2 and (
            a.t < b.t or (a.t == b.t and (type(b) is ClockState or type(a) is not ClockState))
        ):
            return out  # already in order (`_ordered`), the usual pair: a ruling, the clock
        return self._ordered(out)

    def advance(self, t: float) -> list[Ruling]:
        """Take every decision that falls due up to `t` (live sessions call this on timers)."""
        out: list[Ruling] = []
        if t >= self.t:  # a verdict still awaited (`settle`) holds back what follows it
            self._advance(t, out, strict_before=False)
            self.time_reaches(t)
        return self._ordered(out)

    def settle(self, nodes: int | None = None) -> list[Ruling] | None:
        """The verdict of a flag, resignation or losing illegal move ruled while
        `defer_verdicts` is on (6.9, 5.1.2, 7.5.5), worked out at most `nodes` positions
        further (None: to the end): its rulings once known (empty when nothing awaits), None
        while more work is left. The live session calls it between inputs.

        Meanwhile the game is ending either way (lost, drawn, or held for the arbiter): board
        events, presses, claims and ticks are ruled as after the end (nothing), without
        waiting; an arbiter's action settles the verdict first. So the rulings and their
        order are those of a replay, which rules the verdict with its ending."""
        out: list[Ruling] = []
        if not ending.settle(self, nodes, out):
            return None
        return self._ordered(out)

    def next_deadline(self) -> float | None:
        """The next moment time alone decides something (a release, a flag, a press window)."""
        if self.over or self.awaiting_verdict is not None:
            return None
        times = [self.release_due(sq) for sq in self.pending]
        for _, t in self.waiting_presses:
            due = self.press_due(t)
            if due is not None:
                times.append(due)
        flag = self.flag_due()
        if flag is not None:
            times.append(flag[1] + self.flag_grace())
        return min(times) if times else None

    def finish(self) -> list[Ruling]:
        """End of a stream: pending placements are released as though time had passed."""
        out: list[Ruling] = []
        if self.awaiting_verdict is not None:
            ending.settle(self, None, out)
        if self.over:
            return self._ordered(out)
        while self.pending and not self.over:
            sq = min(self.pending, key=self.release_due)
            due = max(self.t, self.release_due(sq))
            moves.release(self, sq, due, out)
        for side, t in list(self.waiting_presses):
            if self.over:
                break
            window = self.press_due(t)
            presses.resolve(
                self,
                side,
                t,
                max(self.t, window if window is not None else self.t),
                out,
                final=True,
            )
        self.forget_presses()
        return self._ordered(out)

    def _advance(self, until: float, out: list[Ruling], *, strict_before: bool) -> None:
        """Decide, in time order, what fell due before `until` (releases, presses, flags).

        `strict_before`: only what falls due before `until`, not at `until` itself.
        """
        while not self.over and self.awaiting_verdict is None:
            # the earliest due: releases (in the order put down), then a press, then the flag
            best: float | None = None
            kind = -1  # 0 a release, 1 a press, 2 the flag
            which = 0
            if self.pending:
                slide = self.start.slide_s
                for sq, (placed, _hand) in self.pending.items():
                    when = placed + slide  # `release_due`
                    if (when < until if strict_before else when <= until) and (
                        best is None or when < best
                    ):
                        best, kind, which = when, 0, sq
            if self.waiting_presses:
                # presses resolve in order; whether one waits for a report is the game's
                # state, not the press's (`press_due`), so the first one tells
                d = self.press_due(self.waiting_presses[0][1])
                if (
                    d is not None
                    and (d < until if strict_before else d <= until)
                    and (best is None or d < best)
                ):
                    best, kind = d, 1
            flag = self.flag_due()
            if flag is not None:
                when = flag[1] + self.flag_grace()
                if (when < until if strict_before else when <= until) and (
                    best is None or when < best
                ):
                    best, kind = when, 2
            if best is None:
                return
            if kind == 0:
                moves.release(self, which, best, out)
            elif kind == 1:
                side, t = self.take_waiting_press()
                presses.resolve(self, side, t, best, out)
            else:
                assert flag is not None
                ending.flag(self, flag[0], flag[1], best, out)

    # ------------------------------------------------------------------ rulings

    @staticmethod
    def _ordered(out: list[Ruling]) -> list[Ruling]:
        """Non-decreasing t, and at one t the clock comes last (events.md)."""
        return sorted(out, key=lambda r: (r.t, isinstance(r, ClockState)))

    # ------------------------------------------------------------------ other events

    def _restart(self, ev: Restart, out: list[Ruling]) -> None:
        """A crash or power loss: the clocks stand as they were unless the gap is counted."""

    def _tick(self, ev: Tick, out: list[Ruling]) -> None:
        """Time passed; `_advance` already decided what fell due."""


_HANDLERS: dict[type, Any] = {
    Lift: board_reports.lift,
    Place: board_reports.place,
    Snapshot: board_reports.snapshot,
    Press: presses.press,
    Touch: board_reports.touch,
    Adjust: board_reports.adjust,
    Promote: board_reports.promote,
    Claim: verdicts.claim,
    Offer: claims.offer,
    Accept: claims.accept,
    Decline: claims.decline,
    Resign: ending.resign,
    Sensor: board_reports.sensor,
    Restart: Game._restart,
    Tick: Game._tick,
    **{cls: arbiter_actions.arbiter_action for cls in ARBITER_ACTION_TYPES.values()},
}
