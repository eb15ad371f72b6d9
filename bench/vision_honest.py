"""Silent misreads and `?` on `uschess`, calibrated on each of 8 photos in turn, each scored
on the 74 others as the live tracker reads them (`classify.reading` at the tracker's least
confidence): a square read as a definite wrong state is a silent misread; `?` is honest.

Per calibration: silent misreads by kind (`behind`: an empty square read as a piece while
the square in front of it, toward the camera, holds one; `missed`: a piece read empty;
`colour`; `phantom`: any other empty square read as a piece) and the `?` squares, split by
whether a piece or nothing stood there; `right` squares, and per calibration the share of
squares read right and the share silently misread. The camera's pose decides which square
is in front (`geometry.toward_camera`).

With `--known previous` each photo is read as the live tracker reads it once the rules
hold a position: the previous photo of its sequence (by name; `game A`, `game B`) stands
for the position the rules confirmed before it (`classify.posteriors(known=...)`: a square
a tall piece in front hides is `?`). The first photo of a sequence and the set-ups are read
without one.

    python bench/vision_honest.py [--calibrations 4755,4768] [--known none|previous]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import geometry  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.classify import posteriors, reading  # noqa: E402
from vision.placement import to_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402
from vision.tracker import TrackerSettings  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"
CALIBRATIONS = ("4755", "4768", "4806", "4821", "4750", "4776", "4812", "4762")


def _front(cal: Any, row: int, col: int) -> tuple[int, int] | None:
    toward = geometry.toward_camera(cal.homography(), cal.frame_size)
    fr = row + round(float(toward[row, col, 1]))
    fc = col + round(float(toward[row, col, 0]))
    return (fr, fc) if 0 <= fr < 8 and 0 <= fc < 8 and (fr, fc) != (row, col) else None


def score(cal: Any, photos: list[tuple[Any, Any, str, str | None]], least: float) -> dict[str, int]:
    """Counts of silent misreads by kind and of `?` squares over `photos` (picture,
    corners, FEN, the position known before it or None)."""
    out: dict[str, int] = {}

    def add(kind: str) -> None:
        out[kind] = out.get(kind, 0) + 1

    for img, corners, fen, known in photos:
        here = cal.with_corners(corners, (img.shape[1], img.shape[0]))
        board = geometry.warp(img, here.homography())
        seen = reading(posteriors(board, here, known, frame=img), least)
        truth, read = to_grid(fen), to_grid(seen.placement)
        for r in range(8):
            for c in range(8):
                t, s = truth[r][c], read[r][c]
                if s == "?":
                    add("? on a piece" if t != "." else "? on empty")
                elif s == t:
                    continue
                elif s == ".":
                    add("missed")
                elif t != ".":
                    add("colour")
                else:
                    front = _front(here, r, c)
                    add("behind" if front and truth[front[0]][front[1]] != "." else "phantom")
    out["silent"] = sum(v for k, v in out.items() if not k.startswith("?"))
    unsure = out.get("? on a piece", 0) + out.get("? on empty", 0)
    out["right"] = 64 * len(photos) - out["silent"] - unsure
    return dict(sorted(out.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibrations", default=",".join(CALIBRATIONS))
    parser.add_argument("--known", choices=("none", "previous"), default="none")
    args = parser.parse_args()
    labels = json.loads((DATA / "labels.json").read_text())
    items = sorted(
        (i for i in labels["images"] if i["file"].startswith("uschess/")), key=lambda i: i["file"]
    )
    before: dict[str, str | None] = {}
    last: dict[str, str] = {}
    for i in items:
        seq = i.get("sequence") or "setup"
        known = last.get(seq) if args.known == "previous" and seq != "setup" else None
        before[i["file"]] = known
        last[seq] = i["fen"]
    photos = {
        i["file"]: (
            read_image(str(DATA / i["file"])),
            [tuple(p) for p in i["corners"]],
            i["fen"],
            before[i["file"]],
        )
        for i in items
    }
    least = TrackerSettings().min_confidence
    out = {}
    for key in args.calibrations.split(","):
        ref = next(f for f in photos if key in f)
        img, corners, fen, _ = photos[ref]
        cal = calibrate(img, corners, None, fen)
        out[key] = score(cal, [p for f, p in sorted(photos.items()) if f != ref], least)
        print(key, json.dumps(out[key]), flush=True)
    total: dict[str, int] = {}
    for counts in out.values():
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    print("all", json.dumps(dict(sorted(total.items()))))
    for key, counts in out.items():
        squares = counts["right"] + counts["silent"] + counts.get("? on a piece", 0)
        squares += counts.get("? on empty", 0)
        right, wrong = counts["right"] / squares, counts["silent"] / squares
        print(f"{key}: right {100 * right:.2f} %, silent misreads {100 * wrong:.2f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
