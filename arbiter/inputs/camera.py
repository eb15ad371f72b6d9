"""A camera or a video file (vision.sources, vision.tracker) as a live source of snapshots."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from arbiter.clock import Clock
from arbiter.inputs.base import Emit, Source, SourceDone, SourceFailed
from rules.errors import ArbiterError
from rules.events import Event
from rules.rulings import MoveStands, Reinstate

if TYPE_CHECKING:
    from rules.rulings import Ruling


#: the contract's sensor settings for a camera (events.md: values to start from)
CAMERA_SETTINGS = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


def _expectation(fen: str) -> Any:
    """What the rules say may change next (vision.expectations), or None for a FEN without
    the side to move (then the tracker has no second opinion)."""
    from vision.errors import VisionError
    from vision.expectations import Expectation

    try:
        return Expectation.after(fen) if len(fen.split()) >= 2 else None
    except VisionError:
        return None


class CameraSource(Source):
    """A camera or a video file (vision.sources, vision.tracker) as a source of snapshots.

    Frames are stamped by their source from its first frame; the first frame is taken to be
    seen at the session time it arrived, and later ones keep their spacing. A video file is
    played at its own pace. The tracker turns still scenes into `snapshot` events.

    `follow` passes the position after each move that stands to the tracker, which learns
    the empty squares' looks from the frame of the snapshot that showed it
    (`SnapshotTracker.confirm`): light that drifts over a long game, and squares that held
    a piece at calibration, are then judged by what they looked like empty in this game.
    It also tells the tracker which squares a legal continuation can touch
    (`SnapshotTracker.expect`): another square read otherwise is reported only if it lasts.
    """

    def __init__(
        self, calibration: str, camera: int | str | None = None, video: str | None = None
    ) -> None:
        self.name = (
            f"camera:{camera}" if camera is not None else f"video:{os.path.abspath(video or '')}"
        )
        self.camera, self.video, self.calibration = camera, video, calibration
        self.finite = video is not None
        from vision.calibration import Calibration

        self.cal = Calibration.load(calibration)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: positions the rules accepted, for the tracker's thread to learn from
        self._confirmed: queue.SimpleQueue[str] = queue.SimpleQueue()
        #: how many confirmed positions taught the tracker (for the display and tests)
        self.learned = 0
        #: the session time of the last frame the tracker has looked at (-inf before the
        #: first): whatever the camera saw until then has been emitted
        self.seen_until = float("-inf")

    def start_settings(self) -> dict[str, Any]:
        return dict(CAMERA_SETTINGS)

    def start(self, emit: Emit, clock: Clock) -> None:
        from vision.sources import open_source

        frames = open_source(camera=self.camera, video=self.video)
        self._thread = threading.Thread(
            target=self._run, args=(frames, emit, clock), name=self.name, daemon=True
        )
        self._thread.start()

    def _run(self, frames: Iterator[tuple[float, Any]], emit: Emit, clock: Clock) -> None:
        from vision.tracker import SnapshotTracker

        tracker = SnapshotTracker(self.cal, known=self.cal.placement)
        offset: float | None = None
        try:
            for t, frame in frames:
                if self._stop.is_set():
                    return
                if offset is None:
                    offset = clock.now() - t
                wait = clock.real_delay(offset + t - clock.now())
                if wait > 0 and self._stop.wait(wait):
                    return
                while not self._confirmed.empty():
                    fen = self._confirmed.get_nowait()
                    self.learned += tracker.confirm(fen.split()[0])
                    tracker.expect(_expectation(fen))
                for event in tracker.feed(frame, t):
                    emit(_shifted(event, offset))
                self.seen_until = offset + t
            emit(SourceDone(self.name))
        except ArbiterError as exc:
            emit(SourceFailed.on(self.name, exc))
        finally:
            close = getattr(frames, "close", None)
            if callable(close):
                close()  # releases the capture in this thread, before the program ends

    def follow(self, rulings: list[Ruling], t: float) -> None:
        """Hand the position after the last move that stands to the tracker's thread."""
        fen = None
        for ruling in rulings:
            if isinstance(ruling, MoveStands | Reinstate):
                fen = ruling.fen
        if fen is not None:
            self._confirmed.put(fen)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)  # OpenCV must not be torn down mid-frame


def _shifted(event: Event, offset: float) -> Event:
    """`event` with its times (`t`, `seen_at`) moved by `offset` into session time."""
    import dataclasses

    changes: dict[str, Any] = {"t": max(0.0, event.t + offset)}
    seen_at = getattr(event, "seen_at", None)
    if seen_at is not None:
        changes["seen_at"] = max(0.0, seen_at + offset)
    return dataclasses.replace(event, **changes)  # type: ignore[type-var]
