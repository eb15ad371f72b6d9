"""Per-square accuracy on synthetic variations of the real photos: a measuring stick for
setups the data does not show (other board and piece colours, light from above, a shadow
after calibration, dimmer light, a flatter view, a poor camera).

Each variation is applied to the calibration photo and the scored photos alike (a new setup,
calibrated on itself), or only to the scored ones where it happens during play (a shadow,
light dimming). Errors are counted by kind:

- `missed white` / `missed black`: a piece read as an empty square (a light pawn seen from
  above on a light square, a dark piece on a dark square);
- `colour`: a piece read as the other colour;
- `behind tall piece`: an empty square read as a piece while the square in front of it
  (toward the camera) holds one: the piece in front leans over it in the picture;
- `phantom`: any other empty square read as a piece (a print, a grain, a reflection);
- `in shadow`: of all these, the ones under the added shadow.

Sets: `uschess` (calibrated on IMG_4755, the 74 others scored; the camera is at White's side)
and the video's clean frames (every 4th; calibrated on frame 3; top-down).

    python bench/vision_variations.py [--only NAME]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import synth  # noqa: E402
from vision.calibration import calibrate  # noqa: E402
from vision.classify import classify  # noqa: E402
from vision.errors import CalibrationError  # noqa: E402
from vision.placement import to_grid  # noqa: E402
from vision.sources import read_image, video_frames  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "vision"
Corners = list[tuple[float, float]]
#: (picture, corners) -> (picture, corners)
Change = Callable[[Any, Corners], tuple[Any, Corners]]


def _same(img: Any, corners: Corners) -> tuple[Any, Corners]:
    return img, corners


def _hue(degrees: float) -> Change:
    def change(img: Any, corners: Corners) -> tuple[Any, Corners]:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(int) + int(degrees / 2)) % 180).astype(np.uint8)
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), corners

    return change


def _saturation(factor: float) -> Change:
    def change(img: Any, corners: Corners) -> tuple[Any, Corners]:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 1] = np.clip(hsv[..., 1] * factor, 0, 255)
        return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR), corners

    return change


def _lamp_above(img: Any, corners: Corners) -> tuple[Any, Corners]:
    """A lamp over the board's middle: x1.25 at the centre, x0.75 at the picture's corners."""
    h, w = img.shape[:2]
    cx, cy = np.mean([p[0] for p in corners]), np.mean([p[1] for p in corners])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.hypot(xx - cx, yy - cy) / np.hypot(w, h) * 2
    gain = np.clip(1.25 - 0.5 * r, 0.7, 1.25)
    return cv2.convertScaleAbs(img.astype(np.float32) * gain[..., None]), corners


def _dim(img: Any, corners: Corners) -> tuple[Any, Corners]:
    return synth.brightness(img, 0.7), corners


def _shadow_mask(img: Any, corners: Corners) -> Any:
    """A soft shadow over about two squares near the board's right-hand near corner."""
    pts = np.asarray(corners, np.float32)
    h, w = img.shape[:2]
    m = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [8, 0], [8, 8], [0, 8]]), pts.astype(np.float32)
    )
    poly = np.float32([[5.2, 6.0], [7.6, 5.6], [7.9, 7.9], [5.5, 7.8]]).reshape(-1, 1, 2)
    img_poly = cv2.perspectiveTransform(poly, m).reshape(-1, 2).astype(np.int32)
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, img_poly, 1.0)
    return cv2.GaussianBlur(mask, (0, 0), max(2.0, 0.004 * w))


def _shadow(img: Any, corners: Corners) -> tuple[Any, Corners]:
    gain = 1.0 - 0.45 * _shadow_mask(img, corners)
    return cv2.convertScaleAbs(img.astype(np.float32) * gain[..., None]), corners


def _flatter(img: Any, corners: Corners) -> tuple[Any, Corners]:
    """The picture squeezed to 75 % of its height: the board seen at a flatter angle (the
    pieces' parallax stays as photographed)."""
    h, w = img.shape[:2]
    out = cv2.resize(img, (w, int(h * 0.75)), interpolation=cv2.INTER_AREA)
    return out, [(x, y * 0.75) for x, y in corners]


def _poor_camera(img: Any, corners: Corners) -> tuple[Any, Corners]:
    """Half the resolution, blurred, JPEG quality 35."""
    h, w = img.shape[:2]
    small = cv2.GaussianBlur(cv2.resize(img, (w // 2, h // 2)), (0, 0), 0.8)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 35])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), [(x / 2, y / 2) for x, y in corners]


#: name -> (change, also applied to the calibration photo)
VARIATIONS: dict[str, tuple[Change, bool]] = {
    "as photographed": (_same, True),
    "board and set hue +40 deg": (_hue(40), True),
    "board and set hue +120 deg": (_hue(120), True),
    "washed-out colours (saturation x0.4)": (_saturation(0.4), True),
    "lamp above the board": (_lamp_above, True),
    "flatter view (height x0.75)": (_flatter, True),
    "poor camera (half size, blur, JPEG 35)": (_poor_camera, True),
    "light dims x0.7 after calibration": (_dim, False),
    "shadow over two squares after calibration": (_shadow, False),
}


def _fronts(cal: Any) -> dict[tuple[int, int], tuple[int, int]]:
    """Each square's neighbour toward the camera (grid row, column), from the camera's pose
    (`geometry.toward_camera`, diagonal where the camera looks across the board); none for
    a camera nearly above the board (`geometry.tilted`), where pieces lean over nothing."""
    from vision import geometry

    h = cal.homography()
    if not geometry.tilted(h, cal.frame_size):
        return {}
    toward = geometry.toward_camera(h, cal.frame_size)
    out = {}
    for row in range(8):
        for col in range(8):
            fr = row + round(float(toward[row, col, 1]))
            fc = col + round(float(toward[row, col, 0]))
            if 0 <= fr < 8 and 0 <= fc < 8 and (fr, fc) != (row, col):
                out[(row, col)] = (fr, fc)
    return out


def _kinds(
    truth: str, read: str, shadowed: Any, fronts: dict[tuple[int, int], tuple[int, int]]
) -> dict[str, int]:
    t, r = to_grid(truth), to_grid(read)
    out: dict[str, int] = {}

    def add(kind: str) -> None:
        out[kind] = out.get(kind, 0) + 1

    for row in range(8):
        for col in range(8):
            a, b = t[row][col], r[row][col]
            if a == b:
                continue
            if b == ".":
                add("missed white" if a == "X" else "missed black")
            elif a != ".":
                add("colour")
            elif (row, col) in fronts and t[fronts[row, col][0]][fronts[row, col][1]] != ".":
                add("behind tall piece")
            else:
                add("phantom")
            if shadowed is not None and shadowed[row, col]:
                add("in shadow")
    return out


def _shadowed_squares(img: Any, corners: Corners, cal: Any) -> Any:
    """(8, 8) bool: squares (grid order) at least a quarter under the added shadow."""
    from vision import geometry

    mask = _shadow_mask(img, corners)
    board = geometry.warp(
        (mask * 255).astype(np.uint8), cal.with_corners(corners, img.shape[1::-1]).homography()
    )
    side = board.shape[0] // 8
    cells = board[: side * 8, : side * 8].reshape(8, side, 8, side).mean(axis=(1, 3))
    return cells > 0.25 * 255


def _score(
    name: str,
    ref: tuple[Any, Corners, str],
    scored: list[tuple[Any, Corners, str]],
) -> dict[str, Any]:
    change, on_calibration = VARIATIONS[name]
    img, corners, fen = ref
    cal_img, cal_corners = change(img, corners) if on_calibration else (img, corners)
    try:
        cal = calibrate(cal_img, cal_corners, None, fen)
    except CalibrationError as exc:
        return {"calibration": f"refused: {exc}"}
    errors = squares = 0
    kinds: dict[str, int] = {}
    for pic, pic_corners, truth in scored:
        changed, moved = change(pic, pic_corners)
        here = cal.with_corners(moved, (changed.shape[1], changed.shape[0]))
        read, _ = classify(changed, here)
        shadowed = _shadowed_squares(pic, pic_corners, here) if change is _shadow else None
        for k, v in _kinds(truth, read, shadowed, _fronts(here)).items():
            kinds[k] = kinds.get(k, 0) + v
        squares += 64
        errors += sum(
            a != b
            for ra, rb in zip(to_grid(truth), to_grid(read), strict=True)
            for a, b in zip(ra, rb, strict=True)
        )
    return {
        "white_at": cal.white_at,
        "squares": squares,
        "errors": errors,
        "accuracy": round(1 - errors / squares, 4),
        "by_kind": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one variation by name")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    labels = json.loads((DATA / "labels.json").read_text())
    images = {i["file"]: i for i in labels["images"]}

    def pic(label: dict[str, Any]) -> tuple[Any, Corners, str]:
        corners = [(float(x), float(y)) for x, y in label["corners"]]
        return read_image(str(DATA / label["file"])), corners, label["fen"]

    us_ref = pic(images["uschess/IMG_4755.jpg"])
    us = [
        pic(i)
        for f, i in sorted(images.items())
        if f.startswith("uschess/") and f != "uschess/IMG_4755.jpg"
    ]
    video = next(v for v in labels["videos"] if v["file"].endswith("scholarsmate.avi"))
    frames = [f for _, f in video_frames(str(DATA / video["file"]))]
    vc = [(float(x), float(y)) for x, y in video["corners"]]
    v_ref = (frames[3], vc, video["segments"][1]["fen"])
    v_scored = [
        (frames[k], vc, seg["fen"])
        for seg in video["segments"]
        if seg["clean"]
        for k in range(seg["from_frame"], seg["to_frame"] + 1, 4)
    ]
    out: dict[str, Any] = {}
    for name in VARIATIONS:
        if args.only and name != args.only:
            continue
        out[name] = {
            "uschess (IMG_4755)": _score(name, us_ref, us),
            "video clean frames": _score(name, v_ref, v_scored),
        }
        print(name, json.dumps(out[name]), flush=True)
    (ROOT / "out").mkdir(exist_ok=True)
    (ROOT / "out" / "vision_variations.json").write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
