"""`arbiter play --video FILE --calibration FILE`: a real webcam video, played live to mate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.clock import FakeClock
from arbiter.inputs.camera import CameraSource
from arbiter.records.journal import read_journal
from rules.events import Event, Start
from rules.game import Game

pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")

ROOT = Path(__file__).resolve().parents[2]
CORNERS = [(140, 10), (507, 10), (507, 377), (140, 377)]  # labels.json: scholarsmate.avi


def test_a_webcam_video_is_played_live_to_the_mate(shared: Path, tmp_path: Path) -> None:
    from vision.calibration import calibrate
    from vision.sources import video_frames

    video = shared / "data" / "vision" / "pcwawc" / "scholarsmate.avi"
    frames = [f for _, f in video_frames(str(video))]
    calibration = tmp_path / "cal.json"
    calibrate(frames[3], CORNERS).save(calibration)
    journal = tmp_path / "j.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "play", "--video", str(video),
         "--calibration", str(calibration), "--set", "auto_press=true",
         "--journal", str(journal), "--display", "plain"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no abort from OpenCV torn down mid-frame
    assert "White played Qxf7#." in done.stdout and "1-0 (checkmate)" in done.stdout
    events, _ = read_journal(journal)
    start = events[0].to_dict()
    assert start["slide_s"] == 0.0 and start["latency_s"] == 1.0 and start["max_plies"] == 4
    assert start["sources"][0].startswith(f"video:{video}")
    assert {e.type for e in events[1:]} <= {"snapshot", "tick", "sensor"}


class _NoWaitClock(FakeClock):
    """Frames as fast as the test reads them."""

    def real_delay(self, dt: float) -> float:
        return 0.0


def test_the_camera_learns_from_each_position_the_rules_accept(
    shared: Path, tmp_path: Path
) -> None:
    """The session hands every accepted position to the camera source (`follow`); its
    tracker learns each one from the frame that showed it, and the game is unchanged."""
    from vision.calibration import calibrate
    from vision.sources import video_frames

    video = shared / "data" / "vision" / "pcwawc" / "scholarsmate.avi"
    frames = list(video_frames(str(video)))
    calibration = tmp_path / "cal.json"
    calibrate(frames[3][1], CORNERS).save(calibration)
    source = CameraSource(str(calibration), video=str(video))
    game = Game(Start(t=0.0, auto_press=True, **source.start_settings()))
    moves: list[str] = []

    def emit(item: object) -> None:
        if isinstance(item, Event):
            rulings = game.handle(item)
            moves.extend(r.uci for r in rulings if r.type == "move")
            source.follow(rulings, item.t)

    source._run(iter(frames), emit, _NoWaitClock())
    assert moves == ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
    # one snapshot carried two plies (1.e4 e5): six accepted positions, each learned
    assert source.learned == 6
    source.follow([], 0.0)  # no move: nothing to learn
    assert source._confirmed.empty()
