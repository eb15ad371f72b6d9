"""Bad input seen in the newcomer trial (issue 12 item 10, row 22): a picture too small to
hold a board is refused with our message, not an OpenCV traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_calibrate_refuses_a_tiny_picture_with_a_message(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2", reason="the camera extra (opencv) is not installed")
    import numpy as np

    picture = tmp_path / "tiny.png"
    cv2.imwrite(str(picture), np.zeros((3, 3, 3), np.uint8))
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "calibrate", "--image", str(picture),
         "--out", str(tmp_path / "cal.json")],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "the picture is 3x3 pixels: too small to find a board in" in done.stderr
