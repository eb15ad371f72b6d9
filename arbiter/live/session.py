"""The live session: sources -> journal -> rules -> display and clock panel, in real time.

Every input (a source's event, or a key or button whose meaning depends on the game, such as
"the player whose clock runs presses") becomes a contract event with a time `t` from the
session's monotonic clock. It is written to the journal (flushed and fsynced) *before* the
rules see it, so a crash loses nothing already ruled on, and the journal replays to the same
rulings (events.md).

Time decides things too: a piece released after `slide_s` (4.7), a press matched after
`latency_s`, a flag fall (6.9), the per-move cap of `900m60`. The loop sleeps until the
earliest of the next input, the rules' `next_deadline()`, the display's next redraw and the
panel's next blink; when a deadline passes with no input, it journals a `tick` at that
moment and lets the rules decide, so the flag falls when the time runs out, not at the next
event, and a replay of the journal rules it at the same moment.

On a resume (`Session.resume`) the journal's events are ruled on again to rebuild the game,
and a `restart` event continues it: with `counted=false` (an unattended restart, whose gap no
trusted clock knows) the clocks stand as they stood at the last event. When a source reports
the whole board (an e-board, a camera, a reed board), the restart is journaled between a
`sensor disconnected` and a `sensor reconnected` (events.md): the players may have gone on
while the program was down, so the board's first full report is reconciled with the game as
after a pulled cable (a move, or up to `max_plies`, recognised; else a `mismatch`), and
nothing made meanwhile is ruled a touch, an illegal move or a press without a move
(docs/journal.md, "A restart with the board plugged in").
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arbiter.clock import Clock
from arbiter.errors import SessionError, SourceError
from arbiter.i18n import error_text, gettext
from arbiter.inputs.base import (
    KEY_COMMANDS,
    BadLine,
    KeyCommand,
    Notice,
    Source,
    SourceDone,
    SourceFailed,
    Typed,
)
from arbiter.inputs.board import BoardAdapter
from arbiter.inputs.camera import CameraSource
from arbiter.inputs.gpio import GpioSource
from arbiter.live.commands import (
    HAND_NEEDS_BOARD,
    CommandError,
    HandMove,
    HandStep,
    PressCmd,
    QuitCmd,
    event_for,
    parse_command,
)
from arbiter.live.records import write_atomic
from arbiter.live.start_check import setup_difference, waiting_note
from arbiter.records.journal import JournalWriter, restart_event
from firmware_bridge.gpio.devices import DrawHold
from rules import ending, verdicts
from rules.errors import ArbiterError, EventError
from rules.events import (
    Decline,
    Event,
    PauseClocks,
    Press,
    Resume,
    Sensor,
    SetPosition,
    Start,
    Tick,
)
from rules.game import Game
from rules.i18n import N_, number
from rules.library_reasons import Reason, reason_of
from rules.rulings import MoveStands, Ruling
from rules.sensed import Match
from rules.types import SIDE

#: seconds added to a clock by the keyboard's `w` and `b` (an arbiter's add-time, 6.10-6.11)
ADD_TIME_S = 60.0
#: the longest the loop blocks, in real seconds, so a stop request is seen promptly
MAX_BLOCK_S = 0.5
#: positions the winnability search expands per idle slice (about 0.1-0.2 ms each here): an
#: input arriving meanwhile waits at most that slice (rules.ending.work_ahead)
AHEAD_NODES = 50
#: a tick is dated just after the deadline it decides, so a replay decides it at that tick
TICK_EPSILON = 1e-6
#: the longest `wait_idle` waits, and how often it looks whether the loop ended (real s)
IDLE_TIMEOUT_S = 30.0
IDLE_POLL_S = 0.05



#: how long (session seconds) a game ended by a claim the rules upheld stays open for the
#: arbiter's verdict (`uphold` / `reject`, rules.verdicts) when nobody gives it, in a game
#: the arbiter can act on (typed commands, keys, the page's controls: `verdict_wait_s`); the
#: loop ends then, as it does at once after the arbiter's verdict or `quit`
VERDICT_WAIT_S = 300.0

#: rulings that do not change the PGN (it is not rewritten for them)
ROUTINE = frozenset({"clock", "obligation", "note"})

RulingSink = Callable[[list[Ruling], float], None]

#: the `sensor` details journaled around a restart (see the module docstring)
DOWN_DETAIL = "the arbiter was not running (a crash or a power cut)"
#: the `sensor` detail journaled when the screen cannot be written (`Display.on_quiet`)
DISPLAY_LOST = "the screen (standard output) cannot be written; the game goes on, journaled"
BACK_DETAIL = "the arbiter restarted"


class Session:
    """One live game: see the module docstring.

    Args:
        game: the rules core, already holding the journal's history on a resume.
        journal: where every event goes before it is ruled on (None: nowhere, for tests).
        clock: the session's clock (`MonotonicClock`; `FakeClock` in tests).
        sources: the inputs; started by `run`.
        display: the terminal display (`arbiter.outputs.display.Display`), or None.
        sinks: more receivers of every step's rulings (`sink(rulings, t)`).
        events: the events of the stream so far (start included), for the PGN.
        rulings: the rulings so far.
    """

    def __init__(
        self,
        game: Game,
        journal: JournalWriter | None,
        clock: Clock,
        *,
        sources: Sequence[Source] = (),
        display: Any = None,
        sinks: Sequence[RulingSink] = (),
        events: list[Event] | None = None,
        rulings: list[Ruling] | None = None,
    ) -> None:
        self.game = game
        #: a flag is ruled at once, its verdict (6.9) between inputs (`_settle`): the search
        #: that decides it never delays the flag (docs/winnability.md, "The live limit")
        game.defer_verdicts = True
        self.journal = journal
        self.clock = clock
        self.sources = list(sources)
        self.display = display
        self.sinks = list(sinks)
        self.events: list[Event] = events if events is not None else [game.start]
        self.rulings: list[Ruling] = rulings if rulings is not None else []
        self.last_t = self.events[-1].t if self.events else game.start.t
        self.queue: queue.Queue[Any] = queue.Queue()
        self.stopped = False
        self._closed = False
        self.done: set[str] = set()
        self.panels = [s for s in self.sources if isinstance(s, GpioSource)]
        #: e-boards, which show what the rulings allow (LEDs under FIDE 12.6, a DGT 3000),
        #: and cameras, which learn from the positions the rules accept
        self.boards: list[BoardAdapter | CameraSource] = [
            s for s in self.sources if isinstance(s, BoardAdapter | CameraSource)
        ]
        self._next_refresh = 0.0
        self._restore: list[Ruling] | None = None  # a resumed game's rulings, for the panel
        self._stuck: float | None = None
        #: how long a game ended by an upheld claim waits for the arbiter's verdict: 0 (a
        #: scripted demo, the hall's boards: nobody to give one) unless the arbiter can act
        #: (`arbiter.live.setup.wait_for_verdicts`, the page's controls: `VERDICT_WAIT_S`)
        self.verdict_wait_s = 0.0
        #: until when a game ended by an upheld claim waits for the arbiter's verdict
        self._verdict_until: float | None = None
        #: the clocks wait for Black's press on a board set up right (`wait_for_start`)
        self.setting_up = False
        #: the clocks wait for White's first move (`wait_for_start("white_move")`)
        self.first_move_starts = False
        #: the PGN rewritten after every move (`keep_pgn`), and its Date tag
        self.pgn_path: Path | None = None
        self.pgn_date = "????.??.??"
        self.pgn_tags: dict[str, str] = {}
        self._pgn_failed = False
        if display is not None:
            display.attach(game)
            if hasattr(display, "on_quiet"):
                display.on_quiet = self._display_lost
                if display.lost is not None:  # before the game, or its title
                    self._display_lost(display.lost)

    def _display_lost(self, reason: str) -> None:
        """The screen can no longer be written: one note in the journal (a `sensor` event
        `display_lost`, docs/events.md), taken at the loop's next turn; the game goes on."""
        detail = f"{DISPLAY_LOST} ({reason})"
        self.queue.put(Sensor(t=self.last_t, status="display_lost", detail=detail))

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(
        cls, start: Start, journal: JournalWriter | Path | None, clock: Clock, **kw: Any
    ) -> Session:
        """A new game from `start`: checked by the rules first (a bad FEN, time control or
        profile leaves no journal behind), then journaled first of all."""
        game = Game(start)
        if isinstance(journal, Path):
            journal = JournalWriter(journal)
        if journal is not None:
            journal.append(start)
        return cls(game, journal, clock, events=[start], **kw)

    @classmethod
    def resume(
        cls,
        history: list[Event],
        journal: JournalWriter | None,
        clock_at: Callable[[float], Clock],
        *,
        gap_s: float | None = None,
        counted: bool = False,
        **kw: Any,
    ) -> Session:
        """Continue the game of a journal's events (events.md `restart`).

        The events are ruled on again (without `finish`: a resumed game goes on); a
        `restart` is journaled and ruled; `clock_at(t)` builds the clock that stands at the
        restart's `t`, so the clocks go on exactly as they stood at the last event (or after
        the counted gap).
        """
        game, rulings = rebuild(history)
        if game.over:
            raise SessionError.of(
                N_("the game is already over ({result}); there is nothing to resume"),
                result=game.result,
            )
        restart = restart_event(history[-1].t, gap_s, counted)
        session = cls(
            game, journal, clock_at(restart.t), events=list(history), rulings=rulings, **kw
        )
        if session.display is not None:
            session.display.show(rulings, restart.t, history=True)
        outage = any(reports_whole_board(s) for s in session.sources)
        if outage:
            session.submit(Sensor(t=history[-1].t, status="disconnected", detail=DOWN_DETAIL))
        session.submit(restart)
        if outage:
            session.submit(Sensor(t=restart.t, status="reconnected", detail=BACK_DETAIL))
        session._restore = rulings
        return session

    # ------------------------------------------------------------------ one step

    def take(self, item: Any) -> list[Ruling]:
        """Take one item of a source: an event, or an intent the game's state turns into one."""
        if isinstance(item, SourceFailed):
            if item.error is not None:  # said in the user's language
                raise SourceError.of("{error}", error=item.error)
            raise SourceError(item.message)
        if isinstance(item, SourceDone):
            self.done.add(item.name)
            return []
        if isinstance(item, BadLine):
            return self._bad_line(item)
        event = self.resolve(item)
        if event is None:
            return []
        rulings = self.submit(event)
        if (
            not rulings
            and isinstance(item, Typed | KeyCommand)
            and self.display is not None
            and not self._held(event)
        ):
            # what was typed is seen to be taken
            self.display.note(quiet_note(event, self.language))
        return rulings

    def _held(self, event: Event) -> bool:
        """Is `event` a press the rules hold for the board's late report (`latency_s`)? Its
        ruling comes a moment later: the screen must not say it had nothing to rule."""
        return isinstance(event, Press) and any(t == event.t for _, t in self.game.waiting_presses)

    def _bad_line(self, item: BadLine) -> list[Ruling]:
        """A line a source could not read (issue 17 item 2): its note journaled (the rules
        take it as a note: nothing is ruled), the fault said on the screen, and the game goes
        on with the source's next lines and the other inputs."""
        rulings = self.submit(item.event)
        if self.display is not None:
            error = error_text(item.error, self.language)
            self.display.note(gettext(BAD_LINE_SKIPPED, self.language).format(error=error))
        return rulings

    def resolve(self, item: Any) -> Event | None:
        """The contract event an input stands for at this moment of the game, or None."""
        if isinstance(item, Press) and self.setting_up:
            return self._start_clocks(item.t, item.side)
        if isinstance(item, Press) and self.first_move_starts:
            return self._first_move_press(item.t, item.side)
        if isinstance(item, Event):
            return item
        game = self.game
        if isinstance(item, KeyCommand):
            if item.key == "p":  # one key toggles the clocks
                return Resume(t=item.t) if game.clock.paused else PauseClocks(t=item.t)
            text = KEY_COMMANDS.get(item.key)
            return None if text is None else self._typed(Typed(item.t, text))
        if isinstance(item, Typed):
            return self._typed(item)
        if isinstance(item, Notice):
            if self.display is not None:
                error = item.error
                self.display.note(item.text if error is None else error_text(error, self.language))
            return None
        if isinstance(item, DrawHold):  # a claim button held: offer, or accept the offer
            return item.to_action(game.offer)
        to_action = getattr(item, "to_action", None)  # the pause button's toggle
        if callable(to_action):
            made = to_action(game.clock.paused)
            return made if isinstance(made, Event) else None
        raise SessionError(f"a source sent something that is not an input: {item!r}")

    def _typed(self, item: Typed) -> Event | None:
        """A typed command (`arbiter.live.commands`) as the event it stands for now; one
        that does not fit the game is shown on the screen, and nothing is journaled."""
        try:
            cmd = parse_command(item.text)
            if isinstance(cmd, HandMove | HandStep):
                raise CommandError.of(HAND_NEEDS_BOARD)
            if isinstance(cmd, QuitCmd):
                self.stop()
                return None
            if isinstance(cmd, PressCmd) and self.setting_up:
                return self._start_clocks(item.t, "black")  # one key for both players
            if isinstance(cmd, PressCmd) and self.first_move_starts:
                return self._first_move_press(item.t, "white")
            return event_for(cmd, self.game, item.t)
        except ArbiterError as exc:
            if self.display is not None:
                self.display.note(error_text(exc, self.language))
            return None

    @property
    def language(self) -> str:
        """The game's language: the display's (English without a display)."""
        return str(getattr(self.display, "language", "en"))

    def wait_for_start(self, how: str) -> None:
        """A new game's first step: stop the clocks (a journaled `pause` at the start) until
        Black's press starts them on a board set up right (`black_press`,
        `arbiter.live.start_check`), or until White's first move is made (`white_move`:
        White's press after it starts Black's clock, or the move itself on a board without a
        clock, `auto_press`; White's first move costs no time)."""
        if how == "white_move":
            self.first_move_starts = True
        else:
            self.setting_up = True
        self.submit(PauseClocks(t=self.last_t))
        if self.display is not None:
            note = gettext(self._white_move_note(), self.language) if how == "white_move" else None
            self.display.note(note or waiting_note(self.game, self.language))

    def _first_move_press(self, t: float, side: str) -> Event | None:
        """A press while the clocks wait for White's first move: once White has moved
        (the board differs from the start, or the move already stands), the clocks are
        restarted at the press (journaled) and the press completes the move; before, it is
        only answered on the screen."""
        moved = bool(self.game.records) or bool(self.game.diff())
        if side != "white" or not moved:
            if self.display is not None:
                self.display.note(gettext(self._white_move_note(), self.language))
            return None
        self.first_move_starts = False
        self.submit(Resume(t=t))
        return Press(t=t, side="white")

    def _white_move_note(self) -> str:
        """What the screen says while the clocks wait for White's first move (`white_move`)."""
        return WHITE_MOVE_MADE_STARTS if self.game.start.auto_press else WHITE_MOVE_STARTS

    def _first_move_made(self, rulings: list[Ruling]) -> None:
        """With `auto_press` (a board without a clock: a completed move is its press), White's
        first move, once it stands, starts the clocks waiting for it (`white_move`): the
        clocks restart (journaled) and White's press completes the move at that moment, so
        Black's clock runs from it and White's first move costs no time (its increment is
        credited as at any press)."""
        if not (self.first_move_starts and self.game.start.auto_press):
            return
        made = next((r for r in rulings if isinstance(r, MoveStands) and r.side == "white"), None)
        if made is None or self.game.over:
            return
        self.first_move_starts = False
        self.submit(Resume(t=self.last_t))
        self.submit(Press(t=self.last_t, side="white"))

    def _start_clocks(self, t: float, side: str) -> Event | None:
        """A press while the clocks wait: Black's starts them if the pieces stand right.

        If White's first move was made while they waited (it stands in the game, or the board
        shows it made and not yet standing), that is no wrong set-up, and the clock that runs
        from the press is Black's, who has the move (6.5, 6.2.1): the clocks are restarted and
        White's press, journaled at that moment, completes the move, as with `white_move`
        (White's move cost no time). Without this, White's clock ran while Black thought and
        every later press was a half-move out of step, or each press was refused as a wrong
        set-up while the game went on with its clocks stopped (trial row 19 re-run: a newcomer
        types `e2e4` first).
        """
        running = self.game.clock.reading(t)[2]
        moved = side == "black" and self._moved_while_waiting(running)
        note = None
        if side != "black":
            note = gettext(BLACK_STARTS, self.language)
        elif not moved:
            wrong = setup_difference(self.game, t, self.language)
            if wrong is not None:
                note = gettext(SET_UP_FIRST, self.language).format(wrong=wrong)
        if note is not None:
            if self.display is not None:
                self.display.note(note)
            return None
        self.setting_up = False
        if moved and running is not None:
            if self.game.clock.paused:
                self.submit(Resume(t=t))
            return Press(t=t, side=running)  # its clock line says whose clock runs now
        if self.display is not None:
            self.display.note(gettext(CLOCKS_STARTED, self.language))
        return Resume(t=t) if self.game.clock.paused else None

    def _moved_while_waiting(self, running: str | None) -> bool:
        """While the clocks wait for Black's press: has the player whose clock the press
        would run (White, at the start) already moved? Either the move stands in the game
        (and Black has the move), or the board shows it made and not yet standing (a legal
        move of that player explains the board: the press completes it, 4.7)."""
        game = self.game
        if running is None:
            return False
        if game.records and running != SIDE[game.board.turn]:
            return True
        if running != SIDE[game.board.turn] or not game.diff():
            return False
        match = game.match(1)
        return isinstance(match, Match) and len(match.moves) == 1

    def submit(self, event: Event) -> list[Ruling]:
        """Journal `event` (never before the last one in time), then rule on it.

        An event the rules refuse whatever the game's state (a second `start`, a
        `set_position` whose FEN cannot be read or is no legal position) is refused before it
        is journaled: journaled, it would stop every `resume` of the journal (issue 17).
        """
        if event.t < self.last_t:
            event = dataclasses.replace(event, t=self.last_t)  # type: ignore[type-var]
        if isinstance(event, Start | SetPosition):
            refused_before_journal(self.game, event)
        if self.journal is not None:
            self.journal.append(event)
        self.events.append(event)
        self.last_t = event.t
        rulings = self.game.handle(event)
        if isinstance(event, Sensor) and self.display is not None:
            text = sensor_note(event, self.language)
            if text:
                self.display.note(text)
        self._deliver(rulings, event.t)
        self._first_move_made(rulings)
        return rulings

    def advance(self, now: float) -> list[Ruling]:
        """At `now`: if a deadline of the rules has passed, journal a `tick` and rule on it.

        The tick is dated just after the deadline it decides, not at `now`: it stands for
        "time reached the deadline", and an input dated between the deadline and `now` (a
        button stamped at its interrupt, read a moment later) keeps its own time.
        """
        due = self._deadline()
        if due is None or now < due:
            return []
        horizon = self._horizon()
        if horizon is not None and due >= horizon:
            return []  # a scripted event comes first: take it, then decide
        if due + TICK_EPSILON <= self.last_t:
            self._stuck = due  # already ticked past it: the rules keep it; never spin on it
            return []
        t = due + TICK_EPSILON
        tick = Tick(t=t)
        if self.journal is not None:
            self.journal.append(tick)
        self.events.append(tick)
        self.last_t = t
        rulings = self.game.handle(tick) + self.game.advance(t)
        self._deliver(rulings, t)
        self._first_move_made(rulings)
        return rulings

    def _deadline(self) -> float | None:
        due = self.game.next_deadline()
        return None if due is not None and due == self._stuck else due

    def _horizon(self) -> float | None:
        """The earliest `t` a scripted source is about to send (see `StreamSource.horizon`)."""
        times = [getattr(s, "horizon", None) for s in self.sources]
        pending = [t for t in times if t is not None]
        return min(pending) if pending else None

    def _deliver(self, rulings: list[Ruling], t: float) -> None:
        self.rulings.extend(rulings)
        self._record(rulings)
        if self.display is not None:
            self.display.show(rulings, t)
        for panel in self.panels:
            panel.follow(rulings, t)
        for board in self.boards:
            board.follow(rulings, t)
        for sink in self.sinks:
            sink(rulings, t)

    def journal_path(self) -> Path | None:
        """Where the journal is written (None: nowhere)."""
        return self.journal.path if self.journal is not None else None

    def stop(self) -> None:
        """End the loop at its next turn (the journal stays resumable)."""
        self.stopped = True

    # ------------------------------------------------------------------ the loop

    def wake_at(self, now: float) -> float | None:
        """The next stream time the loop has work without input: deadline, redraw, blink."""
        due = self._deadline()
        horizon = self._horizon()
        if due is not None and horizon is not None and due >= horizon:
            due = None  # the scripted event wakes the loop first
        times = [due]
        if self.display is not None and getattr(self.display, "tty", False):
            times.append(self._next_refresh)
        times += [panel.next_due(now) for panel in self.panels]
        pending = [t for t in times if t is not None]
        return min(pending) if pending else None

    def _settle(self) -> None:
        """One slice of the search the verdict of a flag, a resignation or a losing illegal
        move waits for (`Game.settle`); its rulings (`game_over`, or the note that the arbiter
        decides, and the clocks) once it is known."""
        rulings = self.game.settle(AHEAD_NODES)
        if rulings:
            self._deliver(rulings, self.last_t)

    def finished_inputs(self) -> bool:
        """Every source has ended and nothing more can happen by time alone (nor is a flag's
        verdict still being worked out)."""
        if self.game.awaiting_verdict is not None:
            return False
        if not self.sources or any(
            not getattr(s, "finite", False) or s.name not in self.done for s in self.sources
        ):
            return False
        return self.game.next_deadline() is None

    def start_sources(self) -> None:
        """Start every source, feeding the session's queue."""
        for source in self.sources:
            source.start(self.queue.put, self.clock)
            if isinstance(source, GpioSource):
                clock = self.game.clock
                running = None if clock.paused or self.game.over else clock.running
                source.begin(running, self.last_t, self._restore)

    def run(self) -> None:
        """Run until the game is over, the inputs are spent, or `stop()`; closes the sources."""
        clock = self.clock
        period = clock.real_delay(1.0)
        refresh_t = 0.1 / period if period > 0 else 0.1  # 10 Hz real time, in stream seconds
        try:
            self.start_sources()
            while not self.ended() and not self.stopped:
                self._drain()  # inputs already waiting are older than any deadline now due
                now = clock.now()
                while not self.game.over and self.advance(now):
                    pass
                if self.ended() or self.stopped:
                    break
                for panel in self.panels:
                    panel.update(now)
                if self.display is not None and now >= self._next_refresh:
                    self.display.refresh(now)
                    self._next_refresh = now + refresh_t
                if self.finished_inputs():
                    break
                if self.queue.empty() and self.game.awaiting_verdict is not None:
                    self._settle()  # a slice of a verdict left waiting (6.9, 5.1.2, 7.5.5)
                    continue
                if self.queue.empty() and ending.work_ahead(self.game, AHEAD_NODES):
                    continue  # idle: a slice of what a flag would need (6.9), inputs first
                wake = self.wake_at(now)
                timeout = MAX_BLOCK_S
                if wake is not None:
                    timeout = min(timeout, clock.real_delay(wake - clock.now()))
                if timeout <= 0:
                    continue
                try:
                    item = self.queue.get(timeout=timeout)
                except queue.Empty:
                    continue
                self._take_queued(item)
        finally:
            self.close()

    def ended(self) -> bool:
        """The game is over and no verdict of the arbiter can change that any more.

        A game ended by a claim the rules upheld stays open for the arbiter's verdict
        (`rules.verdicts`): until it is given, `quit`, or `verdict_wait_s` passes; a verdict
        that rejects the claim lets the game go on.
        """
        game = self.game
        if not game.over:
            self._verdict_until = None
            return False
        if self.verdict_wait_s <= 0 or verdicts.open_claim(game) is None:
            return True
        now = self.clock.now()
        if self._verdict_until is None:
            self._verdict_until = now + self.verdict_wait_s
            if self.display is not None:
                minutes = number(self.verdict_wait_s / 60, self.language, "g")
                self.display.note(gettext(VERDICT_OPEN, self.language).format(minutes=minutes))
        return now >= self._verdict_until

    def _drain(self) -> None:
        while not self.ended() and not self.stopped:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return
            self._take_queued(item)

    def _take_queued(self, item: Any) -> None:
        try:
            self.take(item)
        finally:
            self.queue.task_done()

    def wait_idle(self, timeout: float = IDLE_TIMEOUT_S) -> bool:
        """Wait (real seconds) until every input queued so far has been taken, or the loop
        has ended; True if so. A source that moves a test's clock calls it first, so that no
        input waits in the queue while the clock jumps past it."""
        until = time.monotonic() + timeout
        done = self.queue.all_tasks_done
        with done:
            while self.queue.unfinished_tasks and not (self.stopped or self._closed):
                left = until - time.monotonic()
                if left <= 0:
                    return False
                done.wait(min(left, IDLE_POLL_S))
        return True

    def close(self) -> None:
        """Close the sources, draw the last screen, close the journal."""
        self._closed = True
        for source in self.sources:
            with contextlib.suppress(ArbiterError):
                source.close()
        if self.display is not None:
            self.display.close(max(self.last_t, self.clock.now()))
        if self.journal is not None:
            self.journal.close()

    # ------------------------------------------------------------------ files

    def write_pgn(
        self, path: str | Path, date: str = "????.??.??", tags: Mapping[str, str] | None = None
    ) -> Path:
        """Write the game's record (Article 8; `arbiter.records.pgn`) to `path`.

        The record comes from the rulings, so a resumed game gives the same PGN as one that
        never stopped. `date` is the PGN Date tag (YYYY.MM.DD), for the record only.
        """
        from arbiter.records.pgn import pgn_from_rulings

        text = pgn_from_rulings(
            self.game.start, self.rulings, date=date, tags=tags, language=self.language,
        )  # fmt: skip
        p = Path(path)
        try:
            write_atomic(p, text)
        except OSError as exc:
            raise SessionError.of(
                N_("PGN {path}: cannot be written ({reason})"), path=p, reason=reason_of(exc)
            ) from None
        return p

    def keep_pgn(
        self, path: str | Path | None, date: str, tags: Mapping[str, str] | None = None
    ) -> None:
        """Rewrite the PGN at `path` after every step that changes the record (a move, a
        penalty, a claim, the end), so that the record is never more than a step behind."""
        self.pgn_path = None if path is None else Path(path)
        self.pgn_date = date
        self.pgn_tags = dict(tags or {})

    def _record(self, rulings: list[Ruling]) -> None:
        if self.pgn_path is None or not any(r.type not in ROUTINE for r in rulings):
            return
        try:
            self.write_pgn(self.pgn_path, date=self.pgn_date, tags=self.pgn_tags)
        except SessionError as exc:
            if not self._pgn_failed and self.display is not None:
                error = error_text(exc, self.language)
                self.display.note(gettext(PGN_RETRIED, self.language).format(error=error))
            self._pgn_failed = True
        else:
            self._pgn_failed = False


#: what the arbiter's screen says when a source reports on itself (events.md `sensor`); the
#: detail is the source's own words
SENSOR_NOTES = {
    "disconnected": N_(
        "the board is not connected ({detail}); waiting for it: moves made "
        "meanwhile are checked when it is back"
    ),
    "reconnected": N_(
        "the board is connected again ({detail}); its position is checked against the game"
    ),
    "camera_moved": N_("the camera moved: {detail}"),
    "recalibrated": N_("the camera found the board again: {detail}"),
}
NO_DETAIL = N_("no detail")
#: the screen's line for a line of an `--events` stream that cannot be read (`BadLine`)
BAD_LINE_SKIPPED = N_("{error}: the line is skipped; the game goes on")
#: the screen's lines while the clocks wait for Black's press (`arbiter.live.start_check`)
BLACK_STARTS = N_("Black presses to start the clocks")
SET_UP_FIRST = N_("{wrong} The clocks start when that is done and Black presses.")
CLOCKS_STARTED = N_("Black pressed: White's clock runs")
WHITE_MOVE_STARTS = N_("the clocks start when White has made the first move and presses")
#: the same on a board without a clock (`auto_press`), where the move itself is the press
WHITE_MOVE_MADE_STARTS = N_("the clocks start when White's first move is made")
VERDICT_OPEN = N_(
    "the arbiter may overrule the ruling on the claim: type uphold or reject"
    " (the session ends after {minutes} min, or at quit)"
)
PGN_RETRIED = N_("{error}; the journal keeps the game, and it is tried again")
#: a typed command the rules took without a ruling (`quiet_note`)
DECLINED = {
    "white": N_("White declines the draw offer (Art. 9.1.2.1)."),
    "black": N_("Black declines the draw offer (Art. 9.1.2.1)."),
}
NOTHING_TO_RULE = N_("{type} recorded at {t}: nothing to rule")
RESUMED = N_("resumed the game of {path} at t={t}")


def sensor_note(event: Sensor, language: str = "en") -> str | None:
    """The screen's line for a source's report on itself; None for dropped bytes (the
    codecs resynchronise, and a noisy line would fill the screen)."""
    text = SENSOR_NOTES.get(event.status)
    if text is None:
        return None
    detail: str | None = event.detail
    if isinstance(detail, Reason):  # a transport's, with the library's reason: in our words
        detail = detail.say(language, lambda field: _said_field(field, language))
    return gettext(text, language).format(detail=detail or gettext(NO_DETAIL, language))


def _said_field(value: object, language: str) -> object:
    """A field of a link's detail that is an error of ours (the port that could not be
    opened), in `language`."""
    return error_text(value, language) if isinstance(value, BaseException) else value


def resumed_note(path: object, t: float, language: str = "en") -> str:
    """The screen's line when a game is resumed from its journal at stream time `t`."""
    return gettext(RESUMED, language).format(path=path, t=number(t, language, ".2f"))


def quiet_note(event: Event, language: str = "en") -> str:
    """The screen's line for a typed command the rules took without a ruling."""
    side = getattr(event, "side", None)
    if isinstance(event, Decline) and side in DECLINED:
        return gettext(DECLINED[side], language)
    text = gettext(NOTHING_TO_RULE, language)
    return text.format(type=event.type, t=number(event.t, language, ".2f"))


def reports_whole_board(source: Source) -> bool:
    """Does `source` report where the pieces stand (an e-board, a camera, a reed board)?

    Such a source's first full report after a restart shows what the players did while the
    program was down; a stream, the keyboard and clock buttons report only what happens."""
    if isinstance(source, BoardAdapter | CameraSource):
        return True
    return isinstance(source, GpioSource) and source.reed is not None


def refused_before_journal(game: Game, event: Start | SetPosition) -> None:
    """Raise the rules' own error for `event` if they would refuse it, leaving `game` as it
    was: a `start` within a game, or a `set_position` tried on a copy of the game (such events
    are rare, so the copy costs nothing in play)."""
    if isinstance(event, Start):
        raise EventError.of(N_("a second 'start' event in the same stream"))
    copy.deepcopy(game).handle(event)


def rebuild(history: Sequence[Event]) -> tuple[Game, list[Ruling]]:
    """The game of a journal's events, ruled on again (no `finish`: the game goes on)."""
    if not history or not isinstance(history[0], Start):
        raise SessionError("a journal must begin with a 'start' event")
    game = Game(history[0])
    rulings: list[Ruling] = []
    for event in history[1:]:
        rulings.extend(game.handle(event))
    return game, rulings


__all__ = ["ADD_TIME_S", "Session", "SessionError", "rebuild", "reports_whole_board"]
