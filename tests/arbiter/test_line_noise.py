"""Line noise reported once a second (issue 17, D8): `arbiter.inputs.line_noise.NoiseFilter`."""

from __future__ import annotations

import chess

from arbiter.inputs.line_noise import MERGE_S, NoiseFilter
from rules.events import Lift, Place, Sensor, Snapshot

START = chess.STARTING_BOARD_FEN


def drop(t: float, n: int = 60) -> Sensor:
    return Sensor(t=t, status="dropped", bytes=n, detail="garbage")


def run(events: list, step: float = 0.02) -> list:
    """Feed the events `step` s apart, flushing as a reader loop does; what goes out."""
    noise, out, now = NoiseFilter(), [], 0.0
    for event in events:
        out += noise.flush(now)
        out += noise.take(event, now)
        now += step
    out += noise.flush(now + MERGE_S)
    return out


def test_fifty_reads_of_noise_a_second_make_one_report_a_second_with_every_byte() -> None:
    events = [drop(i * 0.02) for i in range(250)]  # 5 s at 50 reads a second
    out = run(events)
    assert 5 <= len(out) <= 7
    assert sum(e.bytes for e in out) == 250 * 60  # no byte goes unreported
    assert out[0] == events[0]  # the first goes out at once
    assert "reads in the last 1 s; garbage" in out[1].detail


def test_repeated_dumps_during_noise_are_held_back_but_a_change_goes_through() -> None:
    after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    events = [Snapshot(t=0, board=START)]
    for _ in range(20):
        events += [drop(0), Snapshot(t=0, board=START)]
    events += [Lift(t=0, square="e2"), Place(t=0, square="e4"), Snapshot(t=0, board=after)]
    events += [drop(0), Snapshot(t=0, board=after)]
    out = run(events)
    snapshots = [e.board for e in out if isinstance(e, Snapshot)]
    assert snapshots == [START, after]
    assert [e.type for e in out if not isinstance(e, Sensor | Snapshot)] == ["lift", "place"]


def test_on_a_quiet_line_every_snapshot_and_drop_goes_through() -> None:
    events = [Snapshot(t=0, board=START), Snapshot(t=0, board=START), drop(0)]
    assert run(events, step=1.5) == events


def test_the_first_report_after_a_reconnection_always_goes_through() -> None:
    events = [Snapshot(t=0, board=START), drop(0), Sensor(t=0, status="reconnected")]
    events += [drop(0), Snapshot(t=0, board=START)]
    out = run(events)
    assert [e.board for e in out if isinstance(e, Snapshot)] == [START, START]
