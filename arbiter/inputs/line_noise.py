"""Line noise reported once a second, not once a read (issue 17, D8).

A loose connector or a wrong baud rate can make a board's line talk nonsense for hours. The
codecs resynchronise and report what they threw away as `sensor dropped` events, one per
read; a DGT codec also asks the board for a fresh dump after each garbled read, since a lost
field update may hide in it. Every event is a fsynced journal line, so 3 KB/s of noise wrote
30-50 lines a second (16-19 MB an hour, and as many SD card syncs).

`NoiseFilter` sits between a board and the session:

- `dropped` reports are merged: the first after a quiet spell goes out at once (the arbiter
  sees at once that the line is bad); later ones are summed and go out as one report per
  `MERGE_S` with the bytes of all of them and how many reads they came in.
- while the line is noisy (a drop in the last `MERGE_S`), a snapshot that shows the board
  exactly as the last reports left it tells the rules nothing and is not passed on. The
  first snapshot after a (re)connection always is: it is the one the rules reconcile.

So noise that forms no message costs at most one journal line a second (docs/journal.md
states the bound); every change of the pieces still goes through at once.
"""

from __future__ import annotations

from rules.events import Event, Lift, Place, Sensor, Snapshot

#: seconds over which dropped-byte reports are merged into one
MERGE_S = 1.0
#: the longest `detail` a merged report keeps from the codec's own
DETAIL_CHARS = 160


class NoiseFilter:
    """Merges a board's dropped-byte reports and holds back repeated board dumps while the
    line is noisy; see the module docstring. Not thread-safe: one reader thread uses it."""

    def __init__(self) -> None:
        #: the placement of the last snapshot passed on, while no change came after it
        self._shown: str | None = None
        self._last_drop: float | None = None  # when the last drop report went out
        self._bytes = 0  # merged since then, not yet out
        self._reads = 0
        self._detail = ""
        #: snapshots not passed on because they repeated the board during noise
        self.repeats = 0

    def take(self, event: Event, now: float) -> list[Event]:
        """The events to pass on for `event`, read at `now` (session time)."""
        if isinstance(event, Sensor):
            if event.status == "dropped":
                return self._dropped(event, now)
            if event.status in ("disconnected", "reconnected"):
                self._shown = None  # the next full report is the one to reconcile
        elif isinstance(event, Snapshot):
            if self._noisy(now) and event.board == self._shown:
                self.repeats += 1
                return []
            self._shown = event.board
        elif isinstance(event, Lift | Place):
            self._shown = None  # a change: the next snapshot goes out whatever it shows
        return [event]

    def flush(self, now: float) -> list[Event]:
        """The merged drop report once its second is over (call it regularly)."""
        if self._reads and self._last_drop is not None and now - self._last_drop >= MERGE_S:
            return [self._merged(now)]
        return []

    def _noisy(self, now: float) -> bool:
        return self._last_drop is not None and now - self._last_drop < MERGE_S

    def _dropped(self, event: Sensor, now: float) -> list[Event]:
        if not self._noisy(now) and not self._reads:
            self._last_drop = now  # the first after a quiet spell: at once
            return [event]
        self._bytes += event.bytes or 0
        self._reads += 1
        if not self._detail and event.detail:
            self._detail = event.detail[:DETAIL_CHARS]
        return self.flush(now)

    def _merged(self, now: float) -> Sensor:
        detail = f"{self._reads} reads in the last {MERGE_S:g} s"
        if self._detail:
            detail += f"; {self._detail}"
        merged = Sensor(t=now, status="dropped", bytes=self._bytes, detail=detail)
        self._last_drop = now
        self._bytes = self._reads = 0
        self._detail = ""
        return merged
