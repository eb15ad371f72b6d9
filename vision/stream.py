"""From a frame source to contract events: what `arbiter play --camera/--video` runs.

The live session puts `CAMERA_SETTINGS` in its `start` event (a camera reports only still
scenes, late, and may carry several plies in one report) and passes every event of
`camera_events` on to the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rules.events import Event
from vision.calibration import Calibration
from vision.tracker import SnapshotTracker, TrackerSettings

#: the sensor settings of a camera source, for the stream's `start` (events.md)
CAMERA_SETTINGS: dict[str, float | int] = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


def camera_events(
    frames: Iterable[tuple[float, Any]],
    cal: Calibration,
    *,
    known: str | None = None,
    settings: TrackerSettings | None = None,
) -> Iterator[Event]:
    """`Snapshot` and `Sensor` events from (t, frame) pairs, as the tracker emits them."""
    tracker = SnapshotTracker(cal, known=known, settings=settings)
    for t, frame in frames:
        yield from tracker.feed(frame, t)
