"""The Raspberry Pi camera module through `picamera2`, and how a `--camera` value is read.

`--camera N` is an OpenCV `VideoCapture` device (a USB webcam, or the Pi camera through
V4L2 on older systems); `--camera picam` is the Pi camera through libcamera's `picamera2`,
the way Raspberry Pi OS (Bookworm and later) drives it.

Install on Raspberry Pi OS: `sudo apt install python3-picamera2` (it is not on PyPI in a
form that works there, as it needs the system's libcamera); a virtual environment must see
the system's packages: `python3 -m venv --system-site-packages .venv`. Nothing here imports
picamera2 until a `picam` source is opened.

Frames are 3-channel BGR arrays like OpenCV's (picamera2's "RGB888" format is stored in
that byte order). Exposure and white balance are locked after a warm-up, as for a webcam:
a camera that re-adjusts during a game changes the look of every square at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from vision import messages as said
from vision.errors import CameraValueError, VisionError

PICAM = "picam"  #: the `--camera` value of the Pi camera module
WARM_UP = 15  #: frames before exposure and white balance are locked

Frames = Iterator[tuple[float, Any]]


def camera_arg(text: str) -> int | str:
    """A `--camera` value: a device number or `picam` (for argparse's `type=`).

    Raises:
        ValueError: neither (argparse turns it into a usage error naming the value).
    """
    text = text.strip().lower()
    if text == PICAM:
        return PICAM
    if text.isdigit():
        return int(text)
    raise CameraValueError.of(said.CAMERA_VALUE, picam=PICAM, value=text)


def _picamera2_class() -> Any:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError:
        raise VisionError.of(said.PICAM_MISSING) from None
    return Picamera2


def picam_frames(
    *,
    width: int = 640,
    height: int = 480,
    clock: Callable[[], float] = time.monotonic,
    factory: Callable[[], Any] | None = None,
) -> Frames:
    """Frames of the Pi camera module, stamped by `clock` from the first frame.

    `factory` makes the camera object (default `picamera2.Picamera2`); tests pass a fake
    with the same methods (`create_video_configuration`, `configure`, `start`,
    `capture_array`, `set_controls`, `stop`, `close`).

    Raises:
        VisionError: picamera2 is missing, the camera cannot be opened, or it gives no frame.
    """
    make = factory or _picamera2_class()
    try:
        cam = make()
        config = cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"})
        cam.configure(config)
        cam.start()
    except (RuntimeError, OSError, IndexError) as exc:
        raise VisionError.of(said.PICAM_CANNOT_OPEN, reason=exc) from None
    return _picam_loop(cam, clock)


def _picam_loop(cam: Any, clock: Callable[[], float]) -> Frames:
    try:
        t0: float | None = None
        for count in range(1, 1 << 62):
            try:
                frame = cam.capture_array()
            except (RuntimeError, OSError) as exc:
                raise VisionError.of(said.PICAM_NO_FRAME, reason=exc) from None
            now = clock()
            if frame is None or getattr(frame, "ndim", 0) != 3:
                raise VisionError.of(said.PICAM_DISCONNECTED)
            if count == WARM_UP:
                cam.set_controls({"AeEnable": False, "AwbEnable": False})
            if t0 is None:
                t0 = now
            yield now - t0, frame[:, :, :3]
    finally:
        cam.stop()
        cam.close()
