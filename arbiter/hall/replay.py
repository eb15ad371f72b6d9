"""One board's game at the station: its journal's events, in `seq` order, replayed through
the rules core, so that the station holds the same game (and PGN) as the board.

Events may arrive twice, late or out of order (QoS 1, resends after a broker went away):
each is taken once, in `seq` order; those ahead of a gap wait in `pending` until the gap is
filled. `missing()` says which `seq` the station should ask the board for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import chess

from rules.errors import ArbiterError
from rules.events import Event, Lift, Place, Snapshot, Start, parse_event
from rules.game import Game
from rules.i18n import N_
from rules.placement import Sensed, sensed_from_placement
from rules.rulings import ClockState, GameOver, Ruling

#: events held ahead of a gap, at most (a board far ahead is asked again later)
MAX_PENDING = 20000


@dataclass
class Step:
    """What one event did: its `seq`, the rulings the station's replay gave, whether the
    board's own rulings (sent with a live event) were the same, and, while no move had stood
    before it, the squares a hand had changed since the board was set up, this event's too
    (`BoardReplay.handled`; None once a move stood)."""

    seq: int
    event: Event
    rulings: list[Ruling]
    handled: frozenset[int] | None = None
    agrees: bool | None = None


@dataclass
class BoardReplay:
    """One game of one board, as the station rebuilds it."""

    board: str
    game_key: str
    events: list[Event] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    pending: dict[int, tuple[dict[str, Any], list[Any] | None]] = field(default_factory=dict)
    #: the highest `seq` the board said it holds (its `state`, or any event seen)
    known_last: int = 0
    game: Game | None = None
    broken: ArbiterError | None = None
    last_clock: ClockState | None = None
    disagreements: int = 0
    #: until the first move stands, the squares a hand changed since the board was set up: a
    #: lift's, a place's, a square a whole-board report changed from the report before (the
    #: first report shows the board as set up); None once a move stood. A `mismatch` on
    #: them comes from a move attempt, one elsewhere from the set-up (`alarms.ruling_alarms`)
    handled: set[int] | None = field(default_factory=set)
    #: the last whole-board report while `handled` is kept
    scene: Sensed | None = None

    @property
    def start(self) -> Start | None:
        first = self.events[0] if self.events else None
        return first if isinstance(first, Start) else None

    @property
    def next_seq(self) -> int:
        return len(self.events) + 1

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def complete(self) -> bool:
        """The station holds every event the board said it has."""
        return self.broken is None and self.next_seq > self.known_last

    def offer(self, seq: int, event: dict[str, Any], board_rulings: list[Any] | None) -> list[Step]:
        """Take the event `seq` (a JSON object) if it is new; the steps it made possible, in
        order (none while a gap before it is open)."""
        self.known_last = max(self.known_last, seq)
        if seq < self.next_seq or self.broken is not None:
            return []
        if seq > self.next_seq:
            if len(self.pending) < MAX_PENDING:
                self.pending[seq] = (event, board_rulings)
            return []
        steps = [self._apply(seq, event, board_rulings)]
        while self.broken is None and self.next_seq in self.pending:
            seq = self.next_seq
            event, board_rulings = self.pending.pop(seq)
            steps.append(self._apply(seq, event, board_rulings))
        return [s for s in steps if s is not None]

    def missing(self) -> tuple[int, int] | None:
        """What to ask for: (from, to) `seq`, from the first event missing to the last one
        missing, or None. One request covers every gap (the board sends again what the
        station already holds between two gaps: duplicates are ignored), so the station
        converges in one round trip however many messages were lost; the events held at the
        end (the live ones that came after the gaps) are not asked for again."""
        if self.broken is not None or self.next_seq > self.known_last:
            return None
        last = self.known_last
        while last in self.pending:
            last -= 1
        return self.next_seq, last

    def _apply(self, seq: int, data: dict[str, Any], board_rulings: list[Any] | None) -> Any:
        try:
            event = parse_event(data)
            if seq == 1:
                if not isinstance(event, Start):
                    raise ArbiterError.of(N_("the first event of the game is not 'start'"))
                self.game = Game(event)
                rulings: list[Ruling] = []
            else:
                if self.game is None:
                    raise ArbiterError.of(N_("an event came before the game's 'start'"))
                rulings = self.game.handle(event)
        except ArbiterError as exc:
            self.broken = ArbiterError.of(
                N_("event {seq} cannot be replayed: {error}"), seq=seq, error=exc
            )
            return None
        self.events.append(event)
        self.rulings.extend(rulings)
        handled = self._hands(event)
        if self.game is not None and self.game.ply > 0:
            self.handled, self.scene = None, None  # a move stood: the set-up is behind
        for r in rulings:
            if isinstance(r, ClockState):
                self.last_clock = r
        agrees = None
        if board_rulings is not None:
            agrees = [r.to_dict() for r in rulings] == board_rulings
            if not agrees:
                self.disagreements += 1
        return Step(seq, event, rulings, handled, agrees)

    def _hands(self, event: Event) -> frozenset[int] | None:
        """`handled` with what `event` changed, as it stands after it (None: a move stood)."""
        if self.handled is None:
            return None
        if isinstance(event, Lift | Place):
            self.handled.add(chess.parse_square(event.square))
        elif isinstance(event, Snapshot):
            scene = sensed_from_placement(event.board)
            if self.scene is not None:
                self.handled.update(sq for sq in range(64) if scene[sq] != self.scene[sq])
            self.scene = scene
        return frozenset(self.handled)

    def result(self) -> str:
        """The game's result as PGN writes it (`*` while it goes on)."""
        for r in reversed(self.rulings):
            if isinstance(r, GameOver):
                return r.result
        return "*"
