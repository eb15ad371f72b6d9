"""`arbiter demo --board NAME-sim` (`SIM_BOARDS`): the demo on a virtual e-board.

The demo's stream (`arbiter.demo`) is played by a virtual board of that protocol behind a
pseudo-terminal, or for a Bluetooth LE board (`pegasus-sim`, `chessnut-ble-sim`,
`millennium-ble-sim`) behind a fake peripheral (`firmware_bridge.virtual`); the session reads
it back through the real pyserial or Bluetooth LE transport, the same `BoardAdapter` as
`arbiter play --board PROTOCOL:DEVICE`. The stream's
presses and claims are not the board's business: the virtual board hands them over when they
fall due (`VirtualBoard.others`), and `BesideTheBoard` passes them on as a clock beside the
board would, stamped at the moment they fell due.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

from arbiter.clock import Clock
from arbiter.demo import SIM_BOARDS
from arbiter.inputs.base import BESIDE_SOURCE, Emit, Source, SourceFailed
from arbiter.inputs.board import BoardAdapter
from firmware_bridge.virtual import VirtualBoard
from rules.events import Event

#: real seconds between two looks at the virtual board's hand-overs
POLL_S = 0.003
#: real seconds the game may take to end once the stream is played out
GRACE_S = 10.0


class BesideTheBoard(Source):
    """The stream's presses and claims, from a virtual board's hand-overs; it starts the
    virtual board (after the board's port was opened: list it after the `BoardAdapter`).

    If the stream is played out and the game is still not over `GRACE_S` later, it fails:
    the board path lost or misread something, and the demo must say so, not hang.
    """

    name = BESIDE_SOURCE

    def __init__(self, virtual: VirtualBoard) -> None:
        self.virtual = virtual
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, emit: Emit, clock: Clock) -> None:
        self.virtual.start()
        self._thread = threading.Thread(
            target=self._run, args=(emit, clock), name=self.name, daemon=True
        )
        self._thread.start()

    def _run(self, emit: Emit, clock: Clock) -> None:
        handed = 0
        finished_at: float | None = None
        while not self._stop.wait(POLL_S):
            others = self.virtual.others
            while handed < len(others):
                mono, event = others[handed]
                handed += 1
                emit(_at(event, clock.stream(mono)))
            if finished_at is None and self.virtual.wait_done(0):
                finished_at = time.monotonic()
            if finished_at is not None and time.monotonic() - finished_at > GRACE_S:
                emit(
                    SourceFailed(
                        f"the virtual {self.virtual.protocol} board played the whole game "
                        f"but the game did not end ({len(self.virtual.skipped)} events skipped)"
                    )
                )
                return

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)


def _at(event: Event, t: float) -> Event:
    return dataclasses.replace(event, t=max(0.0, round(t, 6)))  # type: ignore[type-var]


def open_virtual_sources(
    sim: str, events: list[Event], clock: Clock, speed: float
) -> tuple[list[Source], VirtualBoard]:
    """The sources of the demo on the virtual board `sim` (one of `SIM_BOARDS`): the board
    read through the real serial path, and the presses and claims beside it.

    `events` is the stream without its `start`. Close the returned virtual board at the end.
    """
    protocol = sim.removesuffix("-sim")
    virtual = VirtualBoard(protocol, events, speed=speed)
    try:
        calibration = None
        if protocol == "certabo":
            # in the virtual board's own folder, removed with it
            calibration = str(Path(virtual.path).parent / "certabo-calibration.json")
            virtual.save_calibration(calibration)
        board = BoardAdapter(f"{virtual.board_protocol}:{virtual.path}", clock, calibration)
    except BaseException:
        virtual.close()
        raise
    return [board, BesideTheBoard(virtual)], virtual


__all__ = [
    "SIM_BOARDS",
    "BesideTheBoard",
    "open_virtual_sources",
]
