"""Per-square accuracy on `uschess` calibrated on each of 8 photos in turn, each scored on the
74 others: the per-calibration range (how much a reading depends on the calibration photo).

    python bench/vision_calibrations.py
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.calibration import calibrate  # noqa: E402
from vision.classify import classify  # noqa: E402
from vision.placement import differences  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"
CALIBRATIONS = ("4755", "4768", "4806", "4821", "4750", "4776", "4812", "4762")


def main() -> int:
    labels = json.loads((DATA / "labels.json").read_text())
    photos = {
        i["file"]: (read_image(str(DATA / i["file"])), [tuple(p) for p in i["corners"]], i["fen"])
        for i in labels["images"]
        if i["file"].startswith("uschess/")
    }
    out: dict[str, dict[str, float | int]] = {}
    total = 0
    for key in CALIBRATIONS:
        ref = next(f for f in photos if key in f)
        img, corners, fen = photos[ref]
        cal = calibrate(img, corners, None, fen)
        wrong = 0
        for f, (pic, pic_corners, truth) in photos.items():
            if f != ref:
                read, _ = classify(pic, cal.with_corners(pic_corners))
                wrong += len(differences(read, truth))
        squares = 64 * (len(photos) - 1)
        out[ref] = {"errors": wrong, "accuracy": round(1 - wrong / squares, 4)}
        total += wrong
        print(ref, out[ref], flush=True)
    accs = [v["accuracy"] for v in out.values()]
    print(json.dumps({"total_errors": total, "range": [min(accs), max(accs)]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
