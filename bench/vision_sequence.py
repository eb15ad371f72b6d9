"""Per-square accuracy along the `uschess` photo sequences, with and without change evidence.

Calibrated on `uschess/IMG_4755.jpg` (its labelled FEN, its labelled corners, White found),
as `tests/vision/test_accuracy.py` does. Each game is then walked in file-name order, every
photo rectified with its own labelled corners (the camera moved a little between photos):

- game A from the calibration photo on: the previous placement at the start is the
  calibration photo's label (as the tracker's `known`), its board image the reference;
- game B from its first photo, `IMG_4806`: the same, with that photo's label as the previous
  placement for the first step only (so `IMG_4806` itself is not scored);
- after that the previous placement is what the walk itself reported for the previous
  photo (with revision: the revised placement; never a label), and the previous board image
  the previous photo's. The `setup` photos are not a game and are not walked.

"without" is the classifier alone (`classify_board`), "with" is `changes.revise` of its
posteriors with `changes.square_changes` against the previous photo. A sweep of the two
thresholds is printed too, so that a result does not hang on one choice.

    python bench/vision_sequence.py [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import geometry  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.changes import FLIP_ABOVE, KEEP_BELOW, revise, square_changes  # noqa: E402
from vision.classify import classify_board  # noqa: E402
from vision.placement import differences, to_grid, to_sensed  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"
CALIBRATION = "uschess/IMG_4755.jpg"
STARTS = {"game A": CALIBRATION, "game B": "uschess/IMG_4806.jpg"}


def _load(data: Path) -> tuple[dict[str, dict[str, Any]], Any]:
    labels = json.loads((data / "labels.json").read_text(encoding="utf-8"))
    images = {i["file"]: i for i in labels["images"] if i["file"].startswith("uschess/")}
    ref = images[CALIBRATION]
    cal = calibrate(
        read_image(str(data / ref["file"])), [tuple(p) for p in ref["corners"]], None, ref["fen"]
    )
    return images, cal


def _walks(data: Path, images: dict[str, dict[str, Any]], cal: Any) -> list[list[dict[str, Any]]]:
    """Per game, per photo in order: file, label, classifier posteriors and placement, and
    the change scores against the previous photo (None for the start)."""
    out = []
    for seq, start in STARTS.items():
        files = sorted(f for f, i in images.items() if i.get("sequence") == seq and f >= start)
        walk: list[dict[str, Any]] = []
        prev_board = None
        for f in files:
            here = cal.with_corners([tuple(p) for p in images[f]["corners"]])
            board = geometry.warp(read_image(str(data / f)), here.homography())
            placement, _, post = classify_board(board, here)
            t0 = time.process_time()
            changes = None if prev_board is None else square_changes(prev_board, board)
            dt = time.process_time() - t0
            walk.append(
                {
                    "file": f,
                    "truth": to_sensed(images[f]["fen"]),
                    "placement": placement,
                    "post": post,
                    "changes": changes,
                    "ms": dt * 1000,
                }
            )
            prev_board = board
        out.append(walk)
    return out


def score(walks: list[list[dict[str, Any]]], keep: float | None, flip: float | None) -> dict:
    """Errors of the walks; `keep`/`flip` None: the classifier alone."""
    squares = errors = 0
    by_square: dict[str, int] = {}
    by_photo: dict[str, list[str]] = {}
    confusion: dict[str, int] = {}  # "truth->read" counts of the wrong squares
    for walk in walks:
        prev = walk[0]["truth"]  # the start's label, for the first step only
        for step in walk[1:]:
            if keep is None or flip is None:
                seen = step["placement"]
            else:
                seen = revise(step["post"], prev, step["changes"], keep_below=keep, flip_above=flip)
            wrong = differences(seen, step["truth"])
            for name in wrong:
                key = f"{_state(step['truth'], name)}->{_state(seen, name)}"
                confusion[key] = confusion.get(key, 0) + 1
            squares += 64
            errors += len(wrong)
            for name in wrong:
                by_square[name] = by_square.get(name, 0) + 1
            if wrong:
                by_photo[Path(step["file"]).stem] = wrong
            prev = seen
    return {
        "photos": squares // 64,
        "squares": squares,
        "errors": errors,
        "accuracy": round(1 - errors / squares, 4),
        "errors_by_square": dict(sorted(by_square.items(), key=lambda kv: -kv[1])),
        "errors_by_photo": by_photo,
        "truth_to_read": dict(sorted(confusion.items(), key=lambda kv: -kv[1])),
    }


def _state(placement: str, name: str) -> str:
    """The sensed state ('.', 'X', 'x') of square `name` (e.g. "h1") in `placement`."""
    return to_grid(placement)[8 - int(name[1])]["abcdefgh".index(name[0])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(DATA), help="the labelled data folder")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    data = Path(args.data)
    images, cal = _load(data)
    walks = _walks(data, images, cal)
    without = score(walks, None, None)
    with_ = score(walks, KEEP_BELOW, FLIP_ABOVE)
    sweep = {
        f"keep<={k:g} flip>={f:g}": score(walks, k, f)["errors"]
        for k in (-1.0, 3.0, KEEP_BELOW, 7.0)
        for f in (15.0, FLIP_ABOVE, 30.0, 60.0, 1e9)
    }
    ms = sorted(s["ms"] for w in walks for s in w if s["changes"] is not None)
    figures = {
        "without": without,
        f"with (keep<={KEEP_BELOW:g}, flip>={FLIP_ABOVE:g})": with_,
        "sweep_errors": sweep,
        "square_changes_ms_cpu_median": round(ms[len(ms) // 2], 2),
    }
    for name in ("without", f"with (keep<={KEEP_BELOW:g}, flip>={FLIP_ABOVE:g})"):
        f = figures[name]
        print(
            f"{name}: {f['errors']} wrong of {f['squares']} ({f['photos']} photos), "
            f"{100 * f['accuracy']:.2f} %; by square {f['errors_by_square']}; "
            f"truth->read {f['truth_to_read']}"
        )
    print("threshold sweep (errors; flip>=1e9 is keep only, keep<=-1 flip only):")
    for k, v in sweep.items():
        print(f"  {k}: {v}")
    print(f"square_changes: {figures['square_changes_ms_cpu_median']} ms CPU median")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
