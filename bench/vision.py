"""Benchmark of the camera path on the real video, on one core.

Reports milliseconds per 640x480 frame for the per-frame path (grey copy, light
normalisation, motion against the previous frame) and for a full snapshot (re-registration
by phase correlation and ECC, arm-over-edge check, the hand-over-board check against the last
hand-free scene, warp and the 64 squares' two-pass classification with its `?`), median and
p99, plus the calibration time and the whole `SnapshotTracker.feed` per frame. Times are the
process's CPU time (one thread), so that other programs on a busy machine do not inflate them;
wall-clock figures are given beside them.

    python bench/vision.py [--video FILE] [--repeat N]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import geometry  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.classify import classify_board, reading  # noqa: E402
from vision.motion import Masks, arm_across_edge, changed_fraction, normalise, small_grey  # noqa: E402
from vision.occlusion import occlusion, ringed  # noqa: E402
from vision.registration import Registrar, board_mask, decode  # noqa: E402
from vision.sources import video_frames  # noqa: E402
from vision.tracker import REGISTER_MARGIN, SnapshotTracker  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"


class Timer:
    """Collects CPU and wall-clock milliseconds of repeated sections."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def __enter__(self) -> Timer:
        self._c, self._w = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu.append((time.process_time() - self._c) * 1000)
        self.wall.append((time.perf_counter() - self._w) * 1000)

    def stats(self) -> dict[str, float]:
        c, w = np.asarray(self.cpu), np.asarray(self.wall)
        return {
            "median_ms": round(float(np.median(c)), 3),
            "p99_ms": round(float(np.percentile(c, 99)), 3),
            "wall_median_ms": round(float(np.median(w)), 3),
            "wall_p99_ms": round(float(np.percentile(w, 99)), 3),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", default=str(DATA / "pcwawc" / "scholarsmate.avi"))
    parser.add_argument("--repeat", type=int, default=3, help="passes over the video")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    labels = json.loads((DATA / "labels.json").read_text())
    video = next(v for v in labels["videos"] if v["file"].endswith("scholarsmate.avi"))
    corners = [tuple(p) for p in video["corners"]]
    frames = [f for _, f in video_frames(args.video)]

    cal_t, auto_t = Timer(), Timer()
    for _ in range(5):
        with cal_t:
            cal = calibrate(frames[3], corners)
        with auto_t:
            calibrate(frames[3])  # corners found automatically

    small0, scale = small_grey(frames[0])
    masks = Masks.build(cal.corners, scale, small0.shape)
    registrar = Registrar(decode(cal.reference)) if cal.reference else None
    reg_mask = (
        board_mask(cal.corners, cal.frame_size[0], registrar.shape, REGISTER_MARGIN)
        if registrar
        else None
    )
    scene_ref = ringed(frames[3], cal.corners, cal.white_at)
    per_frame, snapshot, feed = Timer(), Timer(), Timer()
    for _ in range(args.repeat):
        prev = normalise(small0, masks.board)
        for frame in frames:
            with per_frame:
                small, _ = small_grey(frame)
                small = normalise(small, masks.board)
                changed_fraction(prev, small, masks.board, 14)
            with snapshot:
                if registrar is not None:
                    registrar.align(frame, reg_mask)
                arm_across_edge(prev, small, masks, 14)
                occlusion(scene_ref, ringed(frame, cal.corners, cal.white_at))
                _, _, post = classify_board(geometry.warp(frame, cal.homography()), cal)
                reading(post, 0.6)
            prev = small
        tracker = SnapshotTracker(cal)
        for k, frame in enumerate(frames):
            with feed:
                tracker.feed(frame, k / 20.0)

    result = {
        "video": Path(args.video).name,
        "frames": len(frames) * args.repeat,
        "frame_size": list(frames[0].shape[1::-1]),
        "threads": 1,
        "per_frame_path": per_frame.stats(),
        "full_snapshot": snapshot.stats(),
        "tracker_feed": feed.stats(),
        "calibration": cal_t.stats(),
        "calibration_finding_corners": auto_t.stats(),
        "targets": {"per_frame_ms": 8, "snapshot_ms": 25, "calibration_ms": 2000},
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
