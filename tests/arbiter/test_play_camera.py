"""`arbiter play --video FILE --calibration FILE`: a real webcam video, played live to mate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.journal import read_journal

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
