"""Board localisation under changed pictures: rotation, size, blur, light, perspective, clutter.

The labelled photos show few cameras, sizes and lights; the product will meet others. This
bench applies one realistic change at a time to each labelled still (`labels.json`), maps the
labelled corners through the same geometric transform, runs `vision.detect.locate` and reports
per kind of change: found / pictures, median and worst max-corner error (fraction of the board
side), how many within 2 %, how many "wrong boards" (over 5 %: far beyond the labels' own
error, a median 0.7 % and at most about 2 %), how many the unchanged picture found but the
changed one did not, and the median CPU seconds. The first row is the unchanged baseline; the
labels are off by themselves, so read each row against it, not against zero.

The error is taken over the four cyclic matchings of found and labelled corners: after a
45-degree turn "top-left" is ambiguous and either naming describes the same board.

    python bench/corners_stress.py [--kinds rot45,jpeg40] [--every N] [--only SUBSTRING]
                                   [--jobs N] [--verbose] [--json OUT.json]

`--every 3` takes every third picture (a quick look); `--jobs` runs pictures in parallel
processes (CPU time is per picture either way).
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
import zlib  # noqa: E402
from collections.abc import Callable  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.corners import DATA  # noqa: E402
from vision.detect import locate  # noqa: E402
from vision.errors import CalibrationError  # noqa: E402
from vision.geometry import board_side_px  # noqa: E402
from vision.sources import read_image  # noqa: E402
from vision.synth import turn_whole  # noqa: E402

#: a picture and its labelled corners (TL, TR, BR, BL, image pixels, float64 4 x 2)
Sample = tuple[Any, Any]
#: one kind of change: (picture, corners, per-picture seed) -> changed picture and corners
Change = Callable[[Any, Any, int], Sample]

#: beyond this error (fraction of the side) a found board is a wrong board, not a label's slip
WRONG = 0.05


def _map(m: Any, corners: Any) -> Any:
    """Corners through a 3x3 homography (or a 2x3 affine map)."""
    m = np.asarray(m, dtype="float64")
    if m.shape == (2, 3):
        m = np.vstack([m, [0.0, 0.0, 1.0]])
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), m).reshape(-1, 2)


def _fill(img: Any) -> tuple[int, int, int]:
    """The picture's median colour: what a canvas grown around it is filled with."""
    med = np.median(img.reshape(-1, 3), axis=0)
    return (int(med[0]), int(med[1]), int(med[2]))


def rotate(deg: float) -> Change:
    """The whole picture turned by `deg` degrees about its centre, the canvas enlarged so that
    nothing is cut (a camera mounted with any roll)."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        out, m = turn_whole(img, deg)
        return out, _map(m, corners)

    return change


def downscale(box_w: int, box_h: int) -> Change:
    """The picture shrunk to fit a box_w x box_h frame (aspect kept): a small webcam mode."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        hgt, wid = img.shape[:2]
        # a portrait picture fits the box turned
        scale = min(1.0, max(box_w, box_h) / max(wid, hgt), min(box_w, box_h) / min(wid, hgt))
        if scale >= 1.0:
            return img, corners
        size = (round(wid * scale), round(hgt * scale))
        out = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
        sx, sy = size[0] / wid, size[1] / hgt
        # pixel centres: x' + 0.5 = (x + 0.5) * s
        m = np.array([[sx, 0, 0.5 * sx - 0.5], [0, sy, 0.5 * sy - 0.5]])
        return out, _map(m, corners)

    return change


def jpeg(quality: int) -> Change:
    """Re-encoded as JPEG at `quality` (a streaming camera's heavy compression)."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), corners

    return change


def gaussian_blur(sigma: float) -> Change:
    """Out of focus: a Gaussian blur of `sigma` pixels."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        return cv2.GaussianBlur(img, (0, 0), sigma), corners

    return change


def motion_blur(length: int, deg: float) -> Change:
    """Camera shake: a straight blur `length` px long at `deg` degrees."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        k = np.zeros((length, length), np.float32)
        k[length // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D(((length - 1) / 2.0, (length - 1) / 2.0), deg, 1.0)
        k = cv2.warpAffine(k, rot, (length, length))
        return cv2.filter2D(img, -1, k / k.sum()), corners

    return change


def brightness(factor: float) -> Change:
    """Every channel times `factor`, clipped: under- or over-exposure."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        return np.clip(img.astype(np.float32) * factor, 0, 255).astype(np.uint8), corners

    return change


def gamma(g: float) -> Change:
    """A tone curve: out = 255 (in / 255) ** g (another camera's contrast curve)."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        lut = np.clip(255.0 * (np.arange(256) / 255.0) ** g + 0.5, 0, 255).astype(np.uint8)
        return cv2.LUT(img, lut), corners

    return change


def vignette(strength: float) -> Change:
    """Light falling off toward the picture's corners: at a corner times 1 - strength."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        hgt, wid = img.shape[:2]
        y, x = np.mgrid[0:hgt, 0:wid].astype(np.float32)
        r2 = ((x - wid / 2) / (wid / 2)) ** 2 + ((y - hgt / 2) / (hgt / 2)) ** 2
        gain = 1.0 - strength * r2 / 2.0
        out = img.astype(np.float32) * gain[..., None]
        return np.clip(out, 0, 255).astype(np.uint8), corners

    return change


def warm_cast() -> Change:
    """A tungsten-lit room with daylight white balance: blue weak, red strong (BGR gains)."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        gains = np.array([0.55, 0.85, 1.15], np.float32)
        return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8), corners

    return change


def noise(sigma: float) -> Change:
    """Sensor noise: Gaussian, `sigma` grey levels per channel, seeded per picture."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        rng = np.random.default_rng(seed)
        out = img.astype(np.float32) + rng.normal(0.0, sigma, img.shape).astype(np.float32)
        return np.clip(out, 0, 255).astype(np.uint8), corners

    return change


def tilt(shrink: float) -> Change:
    """A stronger perspective: the picture's top edge shrunk by `shrink` of its width about its
    centre (the camera tilted further from overhead), the canvas fitted to the result."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        hgt, wid = img.shape[:2]
        src = np.float32([[0, 0], [wid, 0], [wid, hgt], [0, hgt]])
        dx = shrink * wid / 2.0
        dst = np.float32([[dx, 0], [wid - dx, 0], [wid, hgt], [0, hgt]])
        m = cv2.getPerspectiveTransform(src, dst)
        out = cv2.warpPerspective(
            img, m, (wid, hgt), flags=cv2.INTER_LINEAR, borderValue=_fill(img)
        )
        return out, _map(m, corners)

    return change


def clutter(grow: float) -> Change:
    """The picture pasted off-centre into a frame `grow` times larger, with shapes, lines,
    text and a textured table around it (seeded per picture)."""

    def change(img: Any, corners: Any, seed: int) -> Sample:
        rng = np.random.default_rng(seed)
        hgt, wid = img.shape[:2]
        big_h, big_w = int(hgt * grow), int(wid * grow)
        base = rng.integers(60, 200, 3)
        canvas = np.empty((big_h, big_w, 3), np.uint8)
        canvas[:] = base.astype(np.uint8)
        grain = rng.normal(0, 12, (big_h // 8 + 1, big_w // 8 + 1)).astype(np.float32)
        grain = cv2.resize(grain, (big_w, big_h), interpolation=cv2.INTER_CUBIC)
        canvas = np.clip(canvas.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
        unit = max(big_w, big_h)
        for _ in range(40):
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            kind = rng.integers(0, 4)
            x, y = int(rng.integers(0, big_w)), int(rng.integers(0, big_h))
            size = int(rng.integers(unit // 60, unit // 10))
            if kind == 0:
                cv2.rectangle(canvas, (x, y), (x + size, y + size // 2), colour, -1)
            elif kind == 1:
                cv2.circle(canvas, (x, y), size // 2, colour, -1)
            elif kind == 2:
                x2, y2 = int(rng.integers(0, big_w)), int(rng.integers(0, big_h))
                cv2.line(canvas, (x, y), (x2, y2), colour, max(1, unit // 400))
            else:
                cv2.putText(
                    canvas, "Arbiter 12:05", (x, y), cv2.FONT_HERSHEY_SIMPLEX, size / 60, colour, 2
                )
        x0 = int(rng.integers(0, big_w - wid + 1))
        y0 = int(rng.integers(0, big_h - hgt + 1))
        canvas[y0 : y0 + hgt, x0 : x0 + wid] = img
        return canvas, corners + np.array([x0, y0], dtype="float64")

    return change


def _identity(img: Any, corners: Any, seed: int) -> Sample:
    return img, corners


#: every kind of change, in report order; "none" is the unchanged baseline
KINDS: dict[str, Change] = {
    "none": _identity,
    "rot15": rotate(15),
    "rot30": rotate(30),
    "rot45": rotate(45),
    "rot90": rotate(90),
    "rot-60": rotate(-60),
    "fit640x480": downscale(640, 480),
    "fit320x240": downscale(320, 240),
    "jpeg40": jpeg(40),
    "blur1.5": gaussian_blur(1.5),
    "motion9": motion_blur(9, 20),
    "bright0.5": brightness(0.5),
    "bright1.6": brightness(1.6),
    "gamma0.6": gamma(0.6),
    "gamma1.6": gamma(1.6),
    "vignette": vignette(0.7),
    "tungsten": warm_cast(),
    "noise12": noise(12.0),
    "tilt": tilt(0.35),
    "clutter": clutter(1.8),
}


def corner_error(found: Any, truth: Any) -> float:
    """Largest corner distance over the labelled board side, for the best of the four cyclic
    matchings (the names TL..BL are ambiguous for a board turned by about 45 degrees)."""
    f = np.asarray(found, dtype="float64")
    t = np.asarray(truth, dtype="float64")
    worst = min(float(np.hypot(*(np.roll(f, k, axis=0) - t).T).max()) for k in range(4))
    return worst / board_side_px([(float(x), float(y)) for x, y in t])


def _seed(kind: str, name: str) -> int:
    return zlib.crc32(f"{kind}:{name}".encode())


def changed(kind: str, img: Any, corners: Any, name: str) -> Sample:
    """Picture `img` (labelled `corners`, 4 x 2) under the change `kind`."""
    return KINDS[kind](img, np.asarray(corners, dtype="float64"), _seed(kind, name))


def _run(job: tuple[str, str, str, list[list[float]]]) -> tuple[str, str, float | None, float]:
    kind, data, name, corners = job
    img, truth = changed(kind, read_image(str(Path(data) / name)), corners, name)
    t0 = time.process_time()
    try:
        err: float | None = corner_error(locate(img).corners, truth)
    except CalibrationError:
        err = None
    return kind, name, err, time.process_time() - t0


def _row(
    kind: str, res: dict[str, float | None], base: dict[str, float | None], cpu: list[float]
) -> dict[str, Any]:
    errs = sorted(e for e in res.values() if e is not None)
    return {
        "kind": kind,
        "found": len(errs),
        "pictures": len(res),
        "median_pct": round(100 * statistics.median(errs), 2) if errs else None,
        "within_2pct": sum(e <= 0.02 for e in errs),
        "worst_pct": round(100 * errs[-1], 2) if errs else None,
        "wrong": sum(e > WRONG for e in errs),
        "lost": sum(1 for k, e in res.items() if e is None and base.get(k) is not None),
        "cpu_s_median": round(statistics.median(cpu), 3) if cpu else None,
        "cpu_s_max": round(max(cpu), 3) if cpu else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA), help="the labelled data folder")
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: all)")
    parser.add_argument("--every", type=int, default=1, help="take every N-th picture")
    parser.add_argument("--only", default="", help="only pictures whose name contains this")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--verbose", action="store_true", help="one line per changed picture")
    parser.add_argument("--json", metavar="OUT", help="write the per-picture results here")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k] or list(KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; known: {', '.join(KINDS)}")
    if "none" not in kinds:
        kinds.insert(0, "none")
    labels = json.loads((Path(args.data) / "labels.json").read_text(encoding="utf-8"))
    items = [i for i in labels["images"] if args.only in i["file"]][:: args.every]
    jobs = [(k, args.data, i["file"], i["corners"]) for k in kinds for i in items]
    results: dict[str, dict[str, float | None]] = {k: {} for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for kind, name, err, sec in pool.map(_run, jobs, chunksize=1):
            results[kind][name] = err
            cpu[kind].append(sec)
            if args.verbose:
                text = "not found" if err is None else f"{100 * err:5.2f} %"
                print(f"{kind:11s} {name:32s} {text}  {sec:5.2f} s", flush=True)
    rows = [_row(k, results[k], results["none"], cpu[k]) for k in kinds]
    print(f"{'kind':11s} {'found':>7s} {'median':>7s} {'<=2%':>5s} {'worst':>7s}", end="")
    print(f" {'wrong':>5s} {'lost':>4s} {'cpu med':>8s} {'cpu max':>8s}")
    for r in rows:
        med = "-" if r["median_pct"] is None else f"{r['median_pct']:.2f}%"
        worst = "-" if r["worst_pct"] is None else f"{r['worst_pct']:.2f}%"
        found = f"{r['found']}/{r['pictures']}"
        print(f"{r['kind']:11s} {found:>7s} {med:>7s} {r['within_2pct']:>5d} {worst:>7s}", end="")
        print(f" {r['wrong']:>5d} {r['lost']:>4d} {r['cpu_s_median']:>8.3f} {r['cpu_s_max']:>8.3f}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"summary": rows, "errors": results}, indent=1) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
