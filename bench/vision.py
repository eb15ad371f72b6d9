"""Benchmark of the camera path on the real video, on one core.

Reports milliseconds per 640x480 frame for the per-frame path (grey copy, light
normalisation, motion against the previous frame) and for a full snapshot (re-registration
by phase correlation and ECC, arm-over-edge check, the hand-over-board check against the last
hand-free scene, warp and the 64 squares' two-pass classification with its `?`), median and
p99, plus the calibration time and the whole `SnapshotTracker.feed` per frame. Times are the
process's CPU time (one thread), so that other programs on a busy machine do not inflate them;
wall-clock figures are given beside them. On a loaded machine CPU time still grows (shared
caches and cores), so the per-frame path and the snapshot are also given as ratios to a
`baseline` timed in the same run (one board warp + Lab means); the snapshot's target is
`SNAPSHOT_TARGET_RATIO`. `snapshot_parts_median_ms` says where the snapshot's time goes.

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
from typing import Any  # noqa: E402

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


#: the 25 ms snapshot target as a multiple of `baseline`: 25 ms over the baseline's least
#: CPU time in 200 runs on this machine (3.17 ms, 2026-12-03, load 18; the least of many runs
#: is the nearest to a quiet machine this loaded one gave; the median was 3.68 ms)
SNAPSHOT_TARGET_RATIO = 25 / 3.17


def baseline(frame: Any, homography: Any) -> float:
    """The least work any reading of a frame does, timed in the same run as the camera path
    so that a loaded or slower machine shows as a ratio, not as a miss: the 640x480 frame
    warped to the 320 px top-down board (the same call the classifier starts with), turned to
    Lab and averaged per square."""
    top = geometry.warp(frame, homography)
    lab = cv2.cvtColor(top, cv2.COLOR_BGR2LAB).astype(np.float32)
    return float(lab.reshape(8, 40, 8, 40, 3).mean(axis=(1, 3)).sum())


def ratio(timer: Timer, base: Timer) -> dict[str, float]:
    """Median and p99 CPU time of `timer` over the baseline's median CPU time."""
    b = max(base.stats()["median_ms"], 1e-6)
    return {k: round(timer.stats()[k] / b, 2) for k in ("median_ms", "p99_ms")}


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
    per_frame, snapshot, feed, base = Timer(), Timer(), Timer(), Timer()
    parts = {name: Timer() for name in ("register", "arm_edge", "hand", "classify")}
    homography = cal.homography()
    for _ in range(args.repeat):
        prev = normalise(small0, masks.board)
        for frame in frames:
            with base:
                baseline(frame, homography)
            with per_frame:
                small, _ = small_grey(frame)
                small = normalise(small, masks.board)
                changed_fraction(prev, small, masks.board, 14)
            with snapshot:
                with parts["register"]:
                    if registrar is not None:
                        registrar.align(frame, reg_mask)
                with parts["arm_edge"]:
                    arm_across_edge(prev, small, masks, 14)
                with parts["hand"]:
                    occlusion(scene_ref, ringed(frame, cal.corners, cal.white_at))
                with parts["classify"]:
                    _, _, post = classify_board(geometry.warp(frame, homography), cal)
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
        "snapshot_parts_median_ms": {k: t.stats()["median_ms"] for k, t in parts.items()},
        "baseline": base.stats(),
        "ratio_to_baseline": {
            "per_frame": ratio(per_frame, base),
            "snapshot": ratio(snapshot, base),
            "snapshot_target": round(SNAPSHOT_TARGET_RATIO, 1),
        },
        "tracker_feed": feed.stats(),
        "calibration": cal_t.stats(),
        "calibration_finding_corners": auto_t.stats(),
        "targets": {"per_frame_ms": 8, "snapshot_ms": 25, "calibration_ms": 2000},
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
