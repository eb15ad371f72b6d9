"""Automatic board localisation on every labelled picture: how many found, how close.

For each still in `shared/data/vision/labels.json` (and, with `--frames`, no more), runs
`vision.detect.find_corners` and reports the worst of the four corners' distances to the
labelled corners, as a fraction of the board side (the spec's figure: within 2 %). Prints one
line per picture (`--verbose`) and a summary: found / total, median and worst error, how many
within 2 %, and which pictures were found off by more than 2 %.

The labels are hand clicks, so they have errors of their own: for each found picture the
bench also reports how far the inner corners that detection verified (sub-pixel X-corners of
the squares) lie from the lattice the *labelled* corners imply, and from the lattice the
*detected* corners imply (median, % of the board side). Where the label's figure is near
1 % and the detection's a few tenths, the label disagrees with the squares by about as much
as the 2 % tolerance allows at the corners, and a "miss" there is the label's. (Checked
independently of the X-corners on every picture over 2 %, by the sub-pixel position of the
real square edges along all 18 lattice lines of both quadrilaterals: the detected lines lie
on them within 0.1-0.2 % on average, the labelled inner lines 0.3-0.9 %, up to 1.6 %.)

    python bench/corners.py [--verbose] [--json OUT.json] [--only SUBSTRING]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from vision.detect import locate  # noqa: E402
from vision.errors import CalibrationError  # noqa: E402
from vision.geometry import board_side_px  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"


def corner_error(found: list[tuple[float, float]], truth: list[list[float]]) -> float:
    """Largest distance between a found and its labelled corner, over the board side."""
    worst = max(
        float(np.hypot(a[0] - b[0], a[1] - b[1])) for a, b in zip(found, truth, strict=True)
    )
    return worst / board_side_px([(float(p[0]), float(p[1])) for p in truth])


def lattice_deviation(
    points: dict[tuple[int, int], tuple[float, float]], quad_corners: Sequence[Sequence[float]]
) -> float:
    """Median distance of verified inner corners from the lattice a quadrilateral (TL, TR,
    BR, BL) implies (each point to its nearest lattice crossing), as a fraction of the board
    side (8 squares): how well that quadrilateral's 9x9 grid sits on the squares."""
    import cv2

    quad = np.array(quad_corners, dtype="float32")
    h = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [8, 0], [8, 8], [0, 8]]))
    img = np.array(list(points.values()), dtype="float64").reshape(-1, 1, 2)
    b = cv2.perspectiveTransform(img, h).reshape(-1, 2)
    return float(np.median(np.hypot(*(b - np.round(b)).T))) / 8.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA), help="the labelled data folder")
    parser.add_argument("--verbose", action="store_true", help="one line per picture")
    parser.add_argument("--only", default="", help="only pictures whose name contains this")
    parser.add_argument("--json", metavar="OUT", help="write the per-picture results here")
    args = parser.parse_args(argv)
    data = Path(args.data)
    labels = json.loads((data / "labels.json").read_text(encoding="utf-8"))
    results: dict[str, float | None] = {}
    label_dev: dict[str, float] = {}
    found_dev: dict[str, float] = {}
    seconds: list[float] = []
    for item in labels["images"]:
        name = item["file"]
        if args.only not in name:
            continue
        frame = read_image(str(data / name))
        t0 = time.process_time()
        try:
            found = locate(frame)
        except CalibrationError:
            results[name] = None
        else:
            results[name] = corner_error(found.corners, item["corners"])
            label_dev[name] = lattice_deviation(found.points, item["corners"])
            found_dev[name] = lattice_deviation(found.points, found.corners)
        seconds.append(time.process_time() - t0)
        if args.verbose:
            e = results[name]
            text = "not found" if e is None else f"{100 * e:5.2f} %"
            if name in label_dev:
                text += f"   label vs squares {100 * label_dev[name]:4.2f} %"
                text += f"   detected vs squares {100 * found_dev[name]:4.2f} %"
            print(f"{name:32s} {text}", flush=True)
    found = {k: v for k, v in results.items() if v is not None}
    errs = sorted(found.values())
    summary = {
        "pictures": len(results),
        "found": len(found),
        "found_pcwawc_stills": sum("chessBoard" in k for k in found),
        "found_video_frames": sum("scholarsmate" in k for k in found),
        "found_uschess": sum("uschess" in k for k in found),
        "median_pct": round(100 * statistics.median(errs), 2) if errs else None,
        "worst_pct": round(100 * errs[-1], 2) if errs else None,
        "within_2pct": sum(e <= 0.02 for e in errs),
        "over_2pct": {
            k: {
                "error_pct": round(100 * v, 2),
                "label_vs_squares_pct": round(100 * label_dev[k], 2),
                "detected_vs_squares_pct": round(100 * found_dev[k], 2),
            }
            for k, v in found.items()
            if v > 0.02
        },
        "label_vs_squares_pct_median": (
            round(100 * statistics.median(label_dev.values()), 2) if label_dev else None
        ),
        "detected_vs_squares_pct_median": (
            round(100 * statistics.median(found_dev.values()), 2) if found_dev else None
        ),
        "cpu_s_median": round(statistics.median(seconds), 3) if seconds else None,
        "cpu_s_max": round(max(seconds), 3) if seconds else None,
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "summary": summary,
                    "errors": results,
                    "label_vs_squares": label_dev,
                    "detected_vs_squares": found_dev,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
