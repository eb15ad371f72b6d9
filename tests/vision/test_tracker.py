"""The live path on the real video: still scenes in, exactly the game's positions out.

Also with the frames brightened, darkened and shifted by a few pixels (synthetic changes of
the real frames), and with a camera bump in the middle of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from rules.events import Sensor, Snapshot
from vision import synth
from vision.placement import to_sensed
from vision.tracker import SnapshotTracker

FPS = 20.0


def segment_of(video: dict[str, Any], frame: int) -> dict[str, Any]:
    return next(s for s in video["segments"] if s["from_frame"] <= frame <= s["to_frame"])


def _run(frames: list[Any], cal: Any, change: Callable[[int, Any], Any] | None = None) -> list:
    tracker = SnapshotTracker(cal)
    out = []
    for k, frame in enumerate(frames):
        img = change(k, frame) if change else frame
        out.extend((k, e) for e in tracker.feed(img, k / FPS))
    return out


def _expected(video: dict[str, Any]) -> list[str]:
    """The distinct positions of the clean segments, in order."""
    out: list[str] = []
    for seg in video["segments"]:
        if seg["clean"] and (not out or out[-1] != to_sensed(seg["fen"])):
            out.append(to_sensed(seg["fen"]))
    return out


def _check(events: list, video: dict[str, Any]) -> None:
    snaps = [(k, e) for k, e in events if isinstance(e, Snapshot)]
    assert [e.board for _, e in snaps] == _expected(video)
    for k, e in snaps:
        seg = segment_of(video, k)
        assert seg["clean"], f"snapshot at frame {k}, in a frame with a hand or a moving shadow"
        assert e.board == to_sensed(seg["fen"])
        # seen_at: the first frame of the still scene (the frame before the clean segment
        # may already show it, as the hand leaves)
        assert (seg["from_frame"] - 1) / FPS <= e.seen_at <= e.t
    latencies = [e.t - segment_of(video, k)["from_frame"] / FPS for k, e in snaps]
    assert float(np.median(latencies)) <= 0.5 and max(latencies) <= 1.0


def test_the_game_comes_out_exactly(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    events = _run(frames, video_cal)
    _check(events, video)
    assert not [e for _, e in events if isinstance(e, Sensor)]
    # two plies without a clean frame between them: one snapshot, after 1...e5
    assert [e.board for _, e in events][1] == "xxxxxxxx/xxxx1xxx/8/4x3/4X3/8/XXXX1XXX/XXXXXXXX"
    # the capture that keeps the square occupied: f7 turns from black to white
    assert events[-1][1].board.split("/")[1] == "xxxx1Xxx"


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda k, f: synth.brightness(f, 1.3), id="brighter x1.3"),
        pytest.param(lambda k, f: synth.brightness(f, 0.65), id="darker x0.65"),
        pytest.param(lambda k, f: synth.gamma(f, 1.4), id="gamma 1.4"),
        pytest.param(lambda k, f: synth.shift(f, 4, -3), id="shifted 4,-3 px"),
    ],
)
def test_the_game_survives_light_and_shifts(
    frames: list[Any], video: dict[str, Any], video_cal: Any, change: Callable[[int, Any], Any]
) -> None:
    events = _run(frames, video_cal, change)
    _check(events, video)


@pytest.mark.parametrize(
    "bumped",
    [
        pytest.param(lambda f: synth.shift(f, 9, 6), id="shift 9,6 px"),
        pytest.param(lambda f: synth.rotate(f, 2.0), id="rotate 2 degrees"),
        pytest.param(lambda f: synth.rotate(f, -2.0, 12, -6), id="rotate -2 and shift 12,-6"),
    ],
)
def test_a_camera_bump_is_reported_and_re_registered(
    frames: list[Any], video: dict[str, Any], video_cal: Any, bumped: Callable[[Any], Any]
) -> None:
    bump = 120  # during the still scene after 2...Nc6

    def change(k: int, frame: Any) -> Any:
        return bumped(frame) if k >= bump else frame

    events = _run(frames, video_cal, change)
    _check(events, video)
    sensors = [(k, e) for k, e in events if isinstance(e, Sensor)]
    assert [e.status for _, e in sensors] == ["camera_moved", "recalibrated"]
    assert all(bump <= k <= bump + FPS for k, _ in sensors)  # within 1 s


def test_a_big_camera_move_is_followed_when_the_fit_is_sure(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    bump = 120

    def change(k: int, frame: Any) -> Any:
        return synth.shift(frame, 60, 45) if k >= bump else frame  # 75 px, 1.6 squares

    events = _run(frames, video_cal, change)
    _check(events, video)
    sensors = [(k, e) for k, e in events if isinstance(e, Sensor)]
    assert [e.status for _, e in sensors] == ["camera_moved", "recalibrated"]
    assert all(bump <= k <= bump + FPS for k, _ in sensors)


def test_a_move_that_cannot_be_followed_stops_snapshots(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """Turned by 8 degrees and moved by 50 px: said at once, and no false move after it."""
    bump = 120

    def change(k: int, frame: Any) -> Any:
        return synth.rotate(frame, 8.0, 40, -30) if k >= bump else frame

    events = _run(frames, video_cal, change)
    sensors = [(k, e) for k, e in events if isinstance(e, Sensor)]
    assert [e.status for _, e in sensors] == ["camera_moved"]
    assert bump <= sensors[0][0] <= bump + FPS
    snaps = [e.board for k, e in events if isinstance(e, Snapshot)]
    assert snaps == _expected(video)[:4]


def test_pasted_shadows_emit_nothing(frames: list[Any], video_cal: Any) -> None:
    """A soft dark polygon drifting over a still position: no snapshot but the first."""
    still = frames[120]
    tracker = SnapshotTracker(video_cal)
    events = []
    for k in range(60):
        img = still if k < 10 else synth.shadow(still, k - 10, strength=0.45)
        events.extend(tracker.feed(img, k / FPS))
    assert len(events) == 1 and isinstance(events[0], Snapshot)


def test_nothing_comes_out_of_the_shadow_and_hand_frames(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """The clean start, then only the frames with hands or moving shadows: no new snapshot."""
    tracker = SnapshotTracker(video_cal)
    first = [e for k in range(1, 6) for e in tracker.feed(frames[k], k / FPS)]
    assert [e.board for e in first if isinstance(e, Snapshot)] == [_expected(video)[0]]
    out = []
    for seg in video["segments"]:
        if seg["clean"] or seg["from_frame"] == 0:
            continue
        tracker.last_board = to_sensed(seg["fen"])  # the last completed position
        for k in range(seg["from_frame"], seg["to_frame"] + 1):
            out.extend((k, e) for e in tracker.feed(frames[k], k / FPS))
    assert [(k, e) for k, e in out if isinstance(e, Snapshot)] == []


def test_the_stream_helper_runs_a_video_file(vision_data: Any, video: dict[str, Any]) -> None:
    """`camera_events` over `open_source(video=...)`, as `arbiter play --video` runs it."""
    from vision.calibration import calibrate
    from vision.sources import open_source
    from vision.stream import CAMERA_SETTINGS, camera_events

    frames = list(open_source(video=str(vision_data / video["file"])))
    assert frames[1][0] == pytest.approx(1 / FPS)
    cal = calibrate(frames[3][1], [tuple(p) for p in video["corners"]])
    events = list(camera_events(frames, cal, known=to_sensed(video["segments"][1]["fen"])))
    assert [e.board for e in events if isinstance(e, Snapshot)] == _expected(video)[1:]
    assert CAMERA_SETTINGS == {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


@pytest.mark.parametrize("how", ["resized", "cropped"])
def test_frames_of_another_size_or_crop_find_the_board_again(
    frames: list[Any], video: dict[str, Any], video_cal: Any, how: str
) -> None:
    """The same camera set to 480x360, or its stream cropped: the game comes out exactly."""
    import cv2

    def change(_: int, f: Any) -> Any:
        return (
            cv2.resize(f, (480, 360), interpolation=cv2.INTER_AREA)
            if how == "resized"
            else (f[20:470, 60:620])
        )

    _check(_run(frames, video_cal, change), video)


def test_frames_of_another_board_and_size_are_refused(
    images: dict[str, Any], vision_data: Any, video_cal: Any
) -> None:
    import cv2

    from vision.errors import VisionError

    other = cv2.imread(str(vision_data / "pcwawc" / "chessBoard012.jpg"))
    tracker = SnapshotTracker(video_cal)
    with pytest.raises(VisionError, match="640x480"):
        tracker.feed(cv2.rotate(other, cv2.ROTATE_90_CLOCKWISE)[10:-10, 40:-40], 0.0)


def test_the_known_position_may_be_given_with_piece_letters(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """As the live session does (`known=cal.placement`): the start is not reported again."""
    tracker = SnapshotTracker(video_cal, known=video_cal.placement)
    events = [e for k in range(1, 30) for e in tracker.feed(frames[k], k / FPS)]
    assert video_cal.placement == video["segments"][1]["fen"]
    assert events == []


def test_confirmed_positions_teach_their_empty_squares_and_the_game_stays_exact(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """Each snapshot confirmed with its labelled position teaches the tracker; a position
    that no recent snapshot showed teaches nothing. The game still comes out exactly."""
    tracker = SnapshotTracker(video_cal)
    events, learned = [], []
    assert not tracker.confirm(video["segments"][-1]["fen"])  # nothing seen yet
    for k, frame in enumerate(frames):
        for event in tracker.feed(frame, k / FPS):
            events.append((k, event))
            if isinstance(event, Snapshot):
                fen = segment_of(video, k)["fen"]
                assert not tracker.confirm("8/8/8/8/8/8/8/8")  # not what was seen
                model = tracker.cal.model
                learned.append(tracker.confirm(fen))
                assert tracker.cal.model is not model and tracker.base.model is tracker.cal.model
    _check(events, video)
    assert learned and all(learned)
    # e2 held a pawn at calibration: after 1.e4 it has an empty look of its own
    assert tracker.base.model != video_cal.model
