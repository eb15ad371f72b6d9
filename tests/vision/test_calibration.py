"""Calibration: orientation from the start position, persistence, clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vision.calibration import Calibration, calibrate
from vision.classify import classify
from vision.errors import CalibrationError
from vision.sources import read_image

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def test_orientation_on_every_start_position_still(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    stills = {
        f: i for f, i in images.items() if f.startswith("pcwawc/chessBoard") and i["fen"] == START
    }
    assert len(stills) == 6
    found = {}
    for f, i in stills.items():
        cal = calibrate(read_image(str(vision_data / f)), [tuple(p) for p in i["corners"]])
        found[f] = cal.white_at
    assert found == {f: i["white_at"] for f, i in stills.items()}
    assert sorted(set(found.values())) == ["bottom", "left", "right", "top"]


def test_orientation_of_the_video(video_cal: Any, video: dict[str, Any]) -> None:
    assert video_cal.white_at == video["white_at"]


def test_save_and_load_give_the_same_answers(
    video_cal: Any, frames: list[Any], tmp_path: Path
) -> None:
    path = tmp_path / "cal.json"
    video_cal.save(path)
    again = Calibration.load(path)
    assert again.corners == video_cal.corners and again.white_at == video_cal.white_at
    assert classify(frames[120], again) == classify(frames[120], video_cal)


def test_errors_name_the_problem(frames: list[Any], video: dict[str, Any], tmp_path: Path) -> None:
    corners = [tuple(p) for p in video["corners"]]
    with pytest.raises(CalibrationError, match="corners"):
        calibrate(frames[3][:, :200])  # no board in this strip
    with pytest.raises(CalibrationError, match="white piece"):
        calibrate(frames[3], corners, "right", "8/8/8/8/8/8/8/8")
    with pytest.raises(CalibrationError, match="several sides"):
        calibrate(frames[3], corners, None, "8/8/8/8/8/8/8/8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(CalibrationError, match=r"bad\.json"):
        Calibration.load(bad)


def test_a_calibration_of_an_older_version_asks_to_recalibrate(
    video_cal: Any, tmp_path: Path
) -> None:
    """Version 3 classifies with other features than version 2: an old file cannot be read
    with the new model, and the message says what to do."""
    import json

    old = video_cal.to_dict() | {"version": 2}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    with pytest.raises(CalibrationError, match=r"old\.json: calibration version 2.*recalibrate"):
        Calibration.load(path)
