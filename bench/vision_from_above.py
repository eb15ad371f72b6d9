"""Pieces seen from straight above, synthetic: how many are read as empty squares?

From straight above a pawn is a disc about half a square wide; a white one on a light square
differs from the square only by its rim, its shading and its shadow (issue 16: every error on
phone photos from above was such a pawn). The data has no such photo, so discs are painted
on the empty squares of the video's clean frames (its camera looks nearly straight down),
on the top-down board the classifier reads, one kind at a time on the empty squares of one
square colour in every other 2x2 block (so that most empty squares stay empty, as in play),
and the board is classified with the calibration of frame 3. `other squares` counts the
unpainted squares then read wrong (the discs upset the light mapping).

Kinds: white plastic and light wood pawn heads (radius 0.28 square), each with its rim and a
soft shadow or as a flat disc with neither (contrast with the square alone), white plastic
also with a faint rim and shadow (softer light), and a black plastic one. Each disc is
counted as read right, as the wrong colour, as `?` (said it cannot read: honest) or as
empty (a silent misread).

Then the real photos (no paint), per source, read as `arbiter snapshot` reads them: right,
`?` (what saying "cannot read" costs on ordinary squares) and wrong (silent misreads).

    python bench/vision_from_above.py [--step K]
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

import cv2  # noqa: E402

from vision import geometry  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.classify import classify_board, reading  # noqa: E402
from vision.placement import to_grid, to_sensed  # noqa: E402
from vision.sources import read_image, video_frames  # noqa: E402
from vision.synth import pawn_head  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"
MIN_CONFIDENCE = 0.6  #: as `arbiter snapshot` and the tracker

#: name: (BGR colour, expected state, share of light its rim and its shadow take; (0, 0):
#: a flat disc). The faint kind (a rim and a shadow a third to a half as strong) stands for
#: softer light than the lamp above one side of the others
KINDS: dict[str, tuple[tuple[int, int, int], str, tuple[float, float]]] = {
    "white plastic, rim + shadow": ((232, 236, 238), "X", (0.35, 0.45)),
    "white plastic, faint rim + shadow": ((232, 236, 238), "X", (0.12, 0.2)),
    "white plastic, flat": ((232, 236, 238), "X", (0.0, 0.0)),
    "light wood, rim + shadow": ((140, 185, 222), "X", (0.35, 0.45)),
    "light wood, flat": ((140, 185, 222), "X", (0.0, 0.0)),
    "black plastic, rim + shadow": ((38, 38, 42), "x", (0.35, 0.45)),
}


def paint_disc(
    board: Any, row: int, col: int, bgr: tuple[int, int, int], relief: tuple[float, float]
) -> None:
    """A pawn's head seen from above on square (row, col), in place (`vision.synth`)."""
    rim, shadow = relief
    board[:] = pawn_head(board, row, col, bgr, rim > 0 or shadow > 0, rim=rim, shadow=shadow)


def _tally(read: str, truth: str, tally: dict[str, int]) -> None:
    for got, want in zip(
        (s for row in to_grid(read) for s in row),
        (s for row in to_grid(truth) for s in row),
        strict=True,
    ):
        tally["right" if got == want else "?" if got == "?" else "wrong"] += 1


def real_photos(
    labels: dict[str, Any], frames: list[Any], cal: Any, step: int
) -> dict[str, dict[str, int]]:
    """Per source, the real squares read as `arbiter snapshot` reads them: right, `?` (the
    cost of saying "cannot read") and wrong (silent misreads)."""
    images = {i["file"]: i for i in labels["images"]}
    video = next(v for v in labels["videos"] if v["file"].endswith("scholarsmate.avi"))
    out: dict[str, dict[str, int]] = {}

    def read(frame: Any, here: Any) -> str:
        _, _, post = classify_board(geometry.warp(frame, here.homography()), here, frame=frame)
        return reading(post, MIN_CONFIDENCE).placement

    tally = out.setdefault("video clean frames", {"right": 0, "?": 0, "wrong": 0})
    for seg in video["segments"]:
        if seg["clean"]:
            for k in range(seg["from_frame"], seg["to_frame"] + 1, max(1, step // 4)):
                _tally(read(frames[k], cal), to_sensed(seg["fen"]), tally)
    tally = out.setdefault("pcwawc start stills (each on itself)", {"right": 0, "?": 0, "wrong": 0})
    for f, i in images.items():
        if f.startswith("pcwawc/chessBoard") and "/8/8/8/8/" in i["fen"] and "p" in i["fen"]:
            img = read_image(str(DATA / f))
            _tally(read(img, calibrate(img, [tuple(p) for p in i["corners"]])), i["fen"], tally)
    for ref in ("IMG_4755", "IMG_4768"):
        r = images[f"uschess/{ref}.jpg"]
        ucal = calibrate(
            read_image(str(DATA / r["file"])), [tuple(p) for p in r["corners"]], None, r["fen"]
        )
        tally = out.setdefault(f"uschess on {ref} (held out)", {"right": 0, "?": 0, "wrong": 0})
        for f, i in sorted(images.items()):
            if f.startswith("uschess/") and f != r["file"]:
                here = ucal.with_corners([tuple(p) for p in i["corners"]])
                _tally(read(read_image(str(DATA / f)), here), i["fen"], tally)
    for name, tally in out.items():
        print("real:", name, json.dumps(tally), flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=12, help="every K-th clean frame")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    labels = json.loads((DATA / "labels.json").read_text())
    video = next(v for v in labels["videos"] if v["file"].endswith("scholarsmate.avi"))
    frames = [f for _, f in video_frames(str(DATA / video["file"]))]
    cal = calibrate(frames[3], [tuple(p) for p in video["corners"]])
    h = cal.homography()
    scored = [
        (frames[k], to_sensed(seg["fen"]))
        for seg in video["segments"]
        if seg["clean"]
        for k in range(seg["from_frame"], seg["to_frame"] + 1, args.step)
    ]
    out: dict[str, Any] = {"frames": len(scored)}
    for name, (bgr, want, relief) in KINDS.items():
        counts = {
            colour: {"right": 0, "wrong colour": 0, "?": 0, "empty": 0, "other squares": 0}
            for colour in ("light", "dark")
        }
        for frame, truth in scored:
            grid = to_grid(truth)
            for parity, colour in ((0, "light"), (1, "dark")):
                board = geometry.warp(frame, h)
                painted = [
                    (r, c)
                    for r in range(8)
                    for c in range(8)
                    if grid[r][c] == "." and (r + c) % 2 == parity and (r // 2 + c // 2) % 2 == 0
                ]
                for r, c in painted:
                    paint_disc(board, r, c, bgr, relief)
                _, _, post = classify_board(board, cal)
                read = to_grid(reading(post, MIN_CONFIDENCE).placement)
                tally = counts[colour]
                for r in range(8):
                    for c in range(8):
                        if (r, c) in painted:
                            got = read[r][c]
                            key = "right" if got == want else "empty" if got == "." else got
                            tally["wrong colour" if key in "Xx" else key] += 1
                        elif read[r][c] != grid[r][c]:
                            tally["other squares"] += 1
        out[name] = counts
        print(name, json.dumps(counts), flush=True)
    out["real photos"] = real_photos(labels, frames, cal, args.step)
    (ROOT / "out").mkdir(exist_ok=True)
    (ROOT / "out" / "vision_from_above.json").write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
