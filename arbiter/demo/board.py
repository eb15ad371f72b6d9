"""`arbiter demo --board NAME-sim` (`SIM_BOARDS`): the demo on a virtual e-board.

The demo's stream (`arbiter.demo`) is played by a virtual board of that protocol behind a
pseudo-terminal, or for a Bluetooth LE board (`pegasus-sim`, `chessnut-ble-sim`,
`millennium-ble-sim`) behind a fake peripheral (`firmware_bridge.virtual`); the session reads
it back through the real pyserial or Bluetooth LE transport, the same `BoardAdapter` as
`arbiter play --board PROTOCOL:DEVICE`. `PlayedOnTheBoard` plays the stream's lifts and
places on the virtual board one at a time, each waited for, and hands on its presses and
claims as a clock beside the board would. With an injected clock (`FakeClock`) the demo on
every virtual board gives the same PGN every run (tests/arbiter/test_demo_repeatable.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from arbiter.clock import Clock
from arbiter.demo import SIM_BOARDS
from arbiter.errors import SourceError
from arbiter.inputs.base import BESIDE_SOURCE, Emit, Source, SourceFailed
from arbiter.live.virtual_play import VirtualBoardAdapter, open_virtual_board
from firmware_bridge.virtual import VirtualBoard
from rules.events import Event, Lift, Place, Snapshot
from rules.i18n import N_
from rules.placement import sensed_from_placement

#: seconds (stream, then real) the game may take to end once the stream is played out
GRACE_S = 10.0



class PlayedOnTheBoard(Source):
    """The demo's stream played on a virtual board one event at a time, each at its time.

    A lift or a place is done on the virtual board when the session's clock reaches its
    stream time, and the next event waits until the board has reported it through the real
    serial (or Bluetooth LE) path, so no two hand movements are ever read as one. The
    stream's presses and claims are handed on as a clock beside the board would report them,
    stamped with their stream time. (The board's adapter starts the virtual board.)

    On a clock that can be set (`FakeClock`, in tests) it moves the clock itself, once the
    session has ruled on everything sent before: the board's reports are then stamped at
    exactly their stream times and every run gives the same journal and PGN. On a
    `PacedClock` (`arbiter demo --board`) it does the same, and waits in real time for each
    event's moment: the same PGN every run, played at the demo's pace. On a plain real-time
    clock it waits for each event's moment. If the stream is played out and the game is still not
    over `GRACE_S` later, it fails: the board path lost or misread something, and the demo
    must say so, not hang.

    Args:
        virtual: the virtual board (no stream of its own: this source plays it).
        board: the adapter reading it, whose reports are waited for.
        events: the demo's stream without its `start`.
        idle: waits until the session has taken every input sent so far (`Session.wait_idle`);
            set once the session exists.
    """

    name = BESIDE_SOURCE

    def __init__(self, virtual: VirtualBoard, board: VirtualBoardAdapter, events: list[Event]):
        self.virtual = virtual
        self.board = board
        self.events = events
        self.idle: Callable[[], object] = lambda: None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, emit: Emit, clock: Clock) -> None:
        self._thread = threading.Thread(
            target=self._run, args=(emit, clock), name=self.name, daemon=True
        )
        self._thread.start()

    def _wait_until(self, clock: Clock, t: float, *, move: bool = True) -> bool:
        """Let the clock reach stream time `t`; False if the source was closed meanwhile.

        On a clock that can be set, it is moved only for what the board reports (`move`),
        right before the board acts: the link judges silence on this clock (a board quiet for
        `silence_s` is gone), so the board's bytes must follow the jump at once. A press or
        a claim carries its own time and needs no move of the clock."""
        jump = getattr(clock, "set", None)
        paced = getattr(clock, "until", None)  # `PacedClock`: the real time to get there
        if callable(jump):
            self.idle()
            if (move or callable(paced)) and clock.now() < t:
                jump(t)
                if callable(paced) and self._stop.wait(paced(t)):
                    return False
            return not self._stop.is_set()
        return not self._stop.wait(clock.real_delay(t - clock.now()))

    def _run(self, emit: Emit, clock: Clock) -> None:
        if not self.board.wait_report(None, 0):
            error = SourceError.of(
                N_("the virtual {protocol} board never reported"), protocol=self.virtual.protocol
            )
            emit(SourceFailed(str(error), error))
            return
        for event in self.events:
            sensed = isinstance(event, Lift | Place | Snapshot)
            if not self._wait_until(clock, event.t, move=sensed):
                return
            if not isinstance(event, Lift | Place | Snapshot):
                emit(event)
                continue
            before = len(self.board.delivered)
            self.virtual.act(event)
            wanted = reports(event, self.virtual.placement())
            if event not in self.virtual.skipped and not self.board.wait_event(wanted, before):
                error = SourceError.of(
                    N_("the virtual {protocol} board did not report {kind} at t={t:g}"),
                    protocol=self.virtual.protocol,
                    kind=event.type,
                    t=event.t,
                )
                emit(SourceFailed(str(error), error))
                return
        last = self.events[-1].t if self.events else 0.0
        if self._wait_until(clock, last + GRACE_S) and not self._stop.wait(GRACE_S):
            emit(
                SourceFailed(
                    f"the virtual {self.virtual.protocol} board played the whole game "
                    f"but the game did not end ({len(self.virtual.skipped)} events skipped)"
                )
            )

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)


def reports(event: Lift | Place | Snapshot, placement: str) -> Callable[[Event], bool]:
    """Whether a board's report is the one of `event`, played on the virtual board, whose
    pieces now stand as `placement`: a lift or place on its square, or a whole-board report
    showing the board as it now is (so a late report of an earlier movement is never taken
    for it)."""
    now = [letter is not None for letter in sensed_from_placement(placement)]

    def wanted(report: Event) -> bool:
        if isinstance(report, Snapshot):
            seen = sensed_from_placement(report.board)
            return [letter is not None for letter in seen] == now
        if isinstance(event, Snapshot):
            return False
        return type(report) is type(event) and getattr(report, "square", None) == event.square

    return wanted


def open_virtual_sources(
    sim: str, events: list[Event], clock: Clock, speed: float = 1.0
) -> tuple[list[Source], VirtualBoard]:
    """The sources of the demo on the virtual board `sim` (one of `SIM_BOARDS`): the board
    read through the real serial path, and the stream played on it (`PlayedOnTheBoard`).

    `events` is the stream without its `start`; `speed` the board's own pace (the demo's).
    Close the returned virtual board at the end (closing the board's adapter closes it too).
    Once the session exists, `follow` lets the stream wait for it.
    """
    board = open_virtual_board(sim, clock, speed=speed)
    virtual = board.virtual
    return [board, PlayedOnTheBoard(virtual, board, events)], virtual


def follow(sources: list[Source], session: Any) -> None:
    """Let the stream's player wait for `session` to rule on what it sent (`wait_idle`)."""
    for source in sources:
        if isinstance(source, PlayedOnTheBoard):
            source.idle = session.wait_idle


__all__ = [
    "SIM_BOARDS",
    "PlayedOnTheBoard",
    "follow",
    "open_virtual_sources",
]
