"""Frame sources: times stamped by the source (injected clock), clean errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.errors import VisionError
from vision.sources import _camera_loop, image_frames, open_source, video_frames


class FakeCapture:
    """A camera that gives `n` frames, then fails; records what the source sets."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.settings: list[tuple[int, float]] = []
        self.released = False

    def read(self) -> tuple[bool, Any]:
        if self.n == 0:
            return False, None
        self.n -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def set(self, prop: int, value: float) -> bool:
        self.settings.append((prop, value))
        return True

    def release(self) -> None:
        self.released = True


def test_camera_times_come_from_the_injected_clock_and_light_is_locked() -> None:
    import cv2

    ticks = iter(100.0 + 0.05 * k for k in range(100))
    cap = FakeCapture(20)
    frames = _camera_loop(cap, 0, lambda: next(ticks))
    times = [next(frames)[0] for _ in range(20)]
    assert times == pytest.approx([0.05 * k for k in range(20)])
    assert (cv2.CAP_PROP_AUTO_EXPOSURE, 1) in cap.settings
    assert (cv2.CAP_PROP_AUTO_WB, 0) in cap.settings
    with pytest.raises(VisionError, match="camera 0"):
        next(frames)
    assert cap.released


def test_image_folder_in_name_order(tmp_path: Path) -> None:
    import cv2

    for name, level in (("b.png", 200), ("a.png", 100)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), level, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    got = [(t, int(f[0, 0, 0])) for t, f in image_frames(str(tmp_path), fps=2.0)]
    assert got == [(0.0, 100), (0.5, 200)]


def test_video_times_from_frame_index(vision_data: Path) -> None:
    frames = video_frames(str(vision_data / "pcwawc" / "emptyBoard001.avi"))
    times = [t for t, _ in frames]
    assert len(times) == 52 and times[:3] == [0.0, 0.05, 0.1]


def test_errors_name_the_source(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="exactly one"):
        open_source(camera=0, video="x.avi")
    with pytest.raises(VisionError, match="no such video"):
        open_source(video=str(tmp_path / "missing.avi"))
    with pytest.raises(VisionError, match="no images"):
        open_source(images=str(tmp_path))
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"not a video")
    with pytest.raises(VisionError, match=r"bad\.avi"):
        list(open_source(video=str(bad)))
