"""Shared fixtures of the vision tests: the labelled data, the video's frames, calibrations.

Loading and calibrating take a moment, so they are session-scoped; tests that need OpenCV are
skipped with a clear reason when the camera extra is not installed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

cv2 = pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def vision_data(shared: Path) -> Path:
    return shared / "data" / "vision"


@pytest.fixture(scope="session")
def labels(vision_data: Path) -> dict[str, Any]:
    return json.loads((vision_data / "labels.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def images(labels: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["file"]: i for i in labels["images"]}


@pytest.fixture(scope="session")
def video(labels: dict[str, Any]) -> dict[str, Any]:
    return next(v for v in labels["videos"] if v["file"].endswith("scholarsmate.avi"))


@pytest.fixture(scope="session")
def frames(vision_data: Path, video: dict[str, Any]) -> list[Any]:
    from vision.sources import video_frames

    out = [f for _, f in video_frames(str(vision_data / video["file"]))]
    assert len(out) == video["frames"]
    return out


@pytest.fixture(scope="session")
def video_cal(frames: list[Any], video: dict[str, Any]) -> Any:
    """Calibrated on frame 3 (a clean start-position frame), orientation found, not given."""
    from vision.calibration import calibrate

    return calibrate(frames[3], [tuple(p) for p in video["corners"]])


@pytest.fixture(scope="session")
def failures_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where failure images go: out/vision-failures (gitignored), else the pytest tmp dir."""
    out = ROOT / "out" / "vision-failures"
    try:
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.png"):  # from an earlier run (accuracy.json: entries replaced)
            old.unlink(missing_ok=True)
    except OSError:
        out = tmp_path_factory.mktemp("vision-failures")
    return out
