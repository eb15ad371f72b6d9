"""Frame sources behind one interface: a camera, a video file or a folder of images.

Each yields (t, frame): `t` in seconds from the source's first frame, stamped by the source
(the camera by a monotonic clock that can be injected, a file by frame index / fps), so the
tracker's logic never reads a clock itself.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from vision import messages as said
from vision.camera_sources import PICAM, picam_frames
from vision.cvload import cv2
from vision.errors import VisionError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")

Frames = Iterator[tuple[float, Any]]

#: errors a user sees, as templates of `ArbiterError.of`: the `arbiter` command says them in
#: the user's language (its catalogue marks the same English: arbiter/i18n.py VISION_ERRORS)
CAMERA_CANNOT_OPEN = "camera {index}: cannot open it (is it connected and free?)"
CAMERA_NO_FRAME = "camera {index}: no frame (disconnected?)"
NO_VIDEO = "{path}: no such video file"
BAD_VIDEO = "{path}: cannot read this video (unknown format?)"


def open_source(
    camera: int | str | None = None,
    video: str | None = None,
    images: str | None = None,
    *,
    fps: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Frames:
    """Frames from exactly one of `camera` (device number, or "picam" for the Pi camera
    module through picamera2: `vision.camera_sources`), `video` (file) or `images`.

    `fps` sets the time step for a folder of images (default 1 frame a second) and overrides
    a video file's own rate when given.

    Raises:
        VisionError: none or several sources given, or the source cannot be opened.
    """
    given = [x is not None for x in (camera, video, images)]
    if sum(given) != 1:
        raise VisionError("give exactly one source: a camera number, a video file or a folder")
    if camera == PICAM:
        return picam_frames(clock=clock)
    if isinstance(camera, str):
        raise VisionError.of(said.CAMERA_VALUE, picam=PICAM, value=camera)
    if camera is not None:
        return camera_frames(camera, clock=clock)
    if video is not None:
        return video_frames(video, fps=fps)
    assert images is not None
    return image_frames(images, fps=fps or 1.0)


def camera_frames(
    index: int, *, width: int = 640, height: int = 480, clock: Callable[[], float] = time.monotonic
) -> Frames:
    """Frames of camera `index` (on Linux, a Pi's camera module through V4L2).

    Exposure and white balance are locked where the driver allows it, after a short warm-up
    so they settle on the scene first: a camera that re-adjusts during a game changes the
    look of every square at once.
    """
    c = cv2()
    backend = c.CAP_V4L2 if sys.platform.startswith("linux") else c.CAP_ANY
    cap = c.VideoCapture(index, backend)
    if not cap.isOpened():
        raise VisionError.of(CAMERA_CANNOT_OPEN, index=index)
    cap.set(c.CAP_PROP_FRAME_WIDTH, width)
    cap.set(c.CAP_PROP_FRAME_HEIGHT, height)
    return _camera_loop(cap, index, clock)


def _camera_loop(cap: Any, index: int, clock: Callable[[], float]) -> Frames:
    c = cv2()
    try:
        t0: float | None = None
        warm = 0
        while True:
            ok, frame = cap.read()
            now = clock()
            if not ok or frame is None:
                raise VisionError.of(CAMERA_NO_FRAME, index=index)
            warm += 1
            if warm == 15:  # auto exposure and white balance have settled: lock them
                cap.set(c.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 = manual exposure
                cap.set(c.CAP_PROP_AUTO_WB, 0)
            if t0 is None:
                t0 = now
            yield now - t0, frame
    finally:
        cap.release()


def video_frames(path: str, *, fps: float | None = None) -> Frames:
    """Frames of a video file; t = frame index / fps (the file's rate unless `fps` is given)."""
    c = cv2()
    if not Path(path).is_file():
        raise VisionError.of(NO_VIDEO, path=path)
    cap = c.VideoCapture(str(path))
    if not cap.isOpened():
        raise VisionError.of(BAD_VIDEO, path=path)
    rate = fps or cap.get(c.CAP_PROP_FPS) or 0.0
    if rate <= 0:
        cap.release()
        raise VisionError.of(said.NO_FRAME_RATE, path=path)
    return _video_loop(cap, rate)


def _video_loop(cap: Any, rate: float) -> Frames:
    try:
        i = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield i / rate, frame
            i += 1
    finally:
        cap.release()


def image_frames(folder: str, *, fps: float = 1.0) -> Frames:
    """Frames of the images in a folder, in name order; t = index / fps."""
    root = Path(folder)
    if not root.is_dir():
        raise VisionError.of(said.NO_FOLDER, path=folder)
    files = sorted(p for p in root.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise VisionError.of(said.NO_IMAGES, path=folder, suffixes=", ".join(IMAGE_SUFFIXES))
    return _image_loop(files, fps)


def _image_loop(files: list[Path], fps: float) -> Frames:
    for i, path in enumerate(files):
        yield i / fps, read_image(str(path))


def read_image(path: str) -> Any:
    """One colour image from a file.

    Raises:
        VisionError: the file is missing or not an image OpenCV can read.
    """
    if not Path(path).is_file():
        raise VisionError.of(said.NO_IMAGE, path=path)
    img = cv2().imread(str(path), cv2().IMREAD_COLOR)
    if img is None:
        raise VisionError.of(said.BAD_IMAGE, path=path)
    return img
