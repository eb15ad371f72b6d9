"""The Pi camera source (`--camera picam`) with a fake picamera2 object, and `--camera` values."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import numpy as np
import pytest

from vision.camera_sources import PICAM, WARM_UP, camera_arg, picam_frames
from vision.errors import VisionError
from vision.sources import open_source


class FakePicamera2:
    """What the source uses of picamera2.Picamera2, recording the calls."""

    def __init__(self, frames: int = 40, fail_open: bool = False) -> None:
        self.calls: list[Any] = []
        self.frames = frames
        self.fail_open = fail_open

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(("config", main))
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        if self.fail_open:
            raise RuntimeError("Camera __init__ sequence did not complete")
        self.calls.append("start")

    def capture_array(self) -> Any:
        if self.frames == 0:
            raise RuntimeError("camera gone")
        self.frames -= 1
        w, h = self.calls[0][1]["size"]
        return np.full((h, w, 4), 100, np.uint8)  # XRGB8888-like: 4 channels

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("controls", controls))

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def test_frames_are_bgr_stamped_by_the_clock_and_exposure_is_locked_after_warm_up() -> None:
    cam = FakePicamera2()
    ticks = itertools.count(10.0, 0.05)
    frames = picam_frames(width=320, height=240, clock=lambda: next(ticks), factory=lambda: cam)
    got = [next(frames) for _ in range(WARM_UP + 2)]
    assert [round(t, 2) for t, _ in got[:3]] == [0.0, 0.05, 0.1]
    assert got[0][1].shape == (240, 320, 3)
    assert cam.calls[0] == ("config", {"size": (320, 240), "format": "RGB888"})
    assert ("controls", {"AeEnable": False, "AwbEnable": False}) in cam.calls
    locked = cam.calls.index(("controls", {"AeEnable": False, "AwbEnable": False}))
    assert locked == 3  # config, configure, start, then the lock once warm
    frames.close()
    assert cam.calls[-2:] == ["stop", "close"]


def test_a_lost_camera_or_one_that_will_not_open_is_one_clear_error() -> None:
    cam = FakePicamera2(frames=2)
    frames = picam_frames(factory=lambda: cam)
    next(frames), next(frames)
    with pytest.raises(VisionError, match="Pi camera: no frame"):
        next(frames)
    assert cam.calls[-2:] == ["stop", "close"]
    with pytest.raises(VisionError, match="cannot open"):
        picam_frames(factory=lambda: FakePicamera2(fail_open=True))


def test_without_picamera2_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as if not installed
    with pytest.raises(VisionError, match="apt install python3-picamera2"):
        open_source(camera=PICAM)


def test_camera_values() -> None:
    assert camera_arg("0") == 0 and camera_arg("2") == 2 and camera_arg(" PiCam ") == PICAM
    with pytest.raises(ValueError, match="device number"):
        camera_arg("usb")
    with pytest.raises(VisionError, match="device number"):
        open_source(camera="usb")


def test_the_command_line_takes_picam_or_a_number(capsys: pytest.CaptureFixture[str]) -> None:
    from arbiter.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["calibrate", "--camera", "usb", "--out", "x.json"])
    assert stop.value.code == 2
    assert "camera must be a device number or 'picam'" in capsys.readouterr().err


def test_calibrate_with_picam_without_picamera2_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from arbiter.cli import main

    monkeypatch.setitem(sys.modules, "picamera2", None)
    assert main(["calibrate", "--camera", "picam", "--out", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "apt install python3-picamera2" in err and "\n" not in err.strip()
