"""Per-square accuracy (empty / white / black) on the real photos and the video's still scenes.

Every photo with a wrong square gets a failure image (the wrong squares outlined in red) in
`out/vision-failures/`; the figures are written to `accuracy.json` there and printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vision.calibration import calibrate
from vision.classify import classify, learn_position
from vision.cvload import cv2
from vision.placement import to_grid
from vision.preview import draw
from vision.sources import read_image


def _wrong(pred: str, truth: str) -> list[tuple[int, int]]:
    a, b = to_grid(pred), to_grid(truth)
    return [(r, c) for r in range(8) for c in range(8) if a[r][c] != b[r][c]]


def _report(failures_dir: Path, name: str, figures: dict[str, Any]) -> None:
    """Add `figures` to `accuracy.json` under `name`. Tests on several xdist workers write it
    at once: one at a time (a lock), each by an atomic replace, so that no reader meets half a
    file (a full run failed so, five tests at once, when the suite went to 4 workers)."""
    import fcntl
    import os

    path = failures_dir / "accuracy.json"
    with open(failures_dir / ".accuracy.lock", "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            data = {}
        data[name] = figures
        written = path.with_name(f".{path.name}.{os.getpid()}")
        written.write_text(json.dumps(data, indent=1))
        os.replace(written, path)
    print(name, json.dumps({k: v for k, v in figures.items() if k != "per_image"}))


def test_video_still_scenes(
    frames: list[Any], video: dict[str, Any], video_cal: Any, failures_dir: Path
) -> None:
    squares = errors = 0
    bad_frames = {}
    for seg in video["segments"]:
        if not seg["clean"]:
            continue
        for k in range(seg["from_frame"], seg["to_frame"] + 1):
            pred, _ = classify(frames[k], video_cal)
            wrong = _wrong(pred, seg["fen"])
            squares += 64
            errors += len(wrong)
            if wrong:
                bad_frames[k] = len(wrong)
                cv2().imwrite(
                    str(failures_dir / f"scholarsmate_{k:03d}.png"),
                    draw(frames[k], video_cal, pred, wrong),
                )
    accuracy = 1 - errors / squares
    _report(
        failures_dir,
        "scholarsmate clean frames",
        {"squares": squares, "errors": errors, "accuracy": accuracy, "per_image": bad_frames},
    )
    assert accuracy >= 0.999


def test_video_frames_as_photos(
    images: dict[str, dict[str, Any]], vision_data: Path, video_cal: Any, failures_dir: Path
) -> None:
    """The 14 JPEG frames (re-encoded, so not pixel-identical to the video): clean ones scored."""
    squares = errors = 0
    per = {}
    for f, i in images.items():
        if not f.startswith("pcwawc/scholarsmate_"):
            continue
        img = read_image(str(vision_data / f))
        pred, conf = classify(img, video_cal)
        wrong = _wrong(pred, i["fen"])
        per[f] = {"clean": i["clean"], "wrong": len(wrong), "confidence": round(conf, 3)}
        if i["clean"]:
            squares += 64
            errors += len(wrong)
        if wrong:
            cv2().imwrite(
                str(failures_dir / Path(f).with_suffix(".png").name),
                draw(img, video_cal, pred, wrong),
            )
    _report(
        failures_dir,
        "scholarsmate jpeg frames (clean)",
        {"squares": squares, "errors": errors, "accuracy": 1 - errors / squares, "per_image": per},
    )
    assert errors / squares <= 0.001


def _uschess(
    ref_file: str,
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    failures_dir: Path | None,
    *,
    learn: bool = False,
) -> tuple[int, int, dict[str, int], dict[str, int], Any]:
    """Calibrate on one `uschess` photo (its labelled FEN, White found, not given) and score
    every other photo on its own: (errors, squares, errors by square, errors by photo, the
    calibration at the end).

    With `learn`, as the live path does (`SnapshotTracker.confirm`): a later photo of the
    games that was classified exactly, so that the rules core would accept it, then teaches
    its empty squares (`learn_position`); a photo with an error teaches nothing."""
    ref = images[ref_file]
    cal = calibrate(
        read_image(str(vision_data / ref["file"])),
        [tuple(p) for p in ref["corners"]],
        None,
        ref["fen"],
    )
    assert cal.white_at == "bottom"
    squares = errors = 0
    per: dict[str, int] = {}
    by_square: dict[str, int] = {}
    for f, i in sorted(images.items()):
        if not f.startswith("uschess/") or f == ref["file"]:
            continue
        img = read_image(str(vision_data / f))
        here = cal.with_corners([tuple(p) for p in i["corners"]])
        pred, _ = classify(img, here)
        wrong = _wrong(pred, i["fen"])
        squares += 64
        errors += len(wrong)
        if learn and f > ref["file"] and not wrong:
            cal = learn_position(img, here, i["fen"])
        if wrong:
            per[f] = len(wrong)
            for r, c in wrong:
                name = "abcdefgh"[c] + str(8 - r)
                by_square[name] = by_square.get(name, 0) + 1
            if failures_dir is not None:
                cv2().imwrite(
                    str(failures_dir / Path(f).with_suffix(".png").name),
                    draw(img, here, pred, wrong),
                )
    return errors, squares, dict(sorted(by_square.items(), key=lambda kv: -kv[1])), per, cal


def test_uschess_calibrated_on_img_4755(
    images: dict[str, dict[str, Any]], vision_data: Path, failures_dir: Path
) -> None:
    errors, squares, by_square, per, _ = _uschess(
        "uschess/IMG_4755.jpg", images, vision_data, failures_dir
    )
    accuracy = 1 - errors / squares
    photos = squares // 64
    without_h1 = 1 - (errors - by_square.get("h1", 0)) / (squares - photos)
    _report(
        failures_dir,
        "uschess calibrated on IMG_4755",
        {
            "photos": photos,
            "squares": squares,
            "errors": errors,
            "accuracy": accuracy,
            "accuracy_without_h1": without_h1,
            "errors_by_square": by_square,
            "per_image": per,
        },
    )
    # The spec's goal: 99 % on all squares. h1 carries the printed US Chess logo and holds a
    # rook in the calibration photo; the printed look (`vision.marks`) reads it as empty.
    # Without that look, h1 alone takes 55 errors.
    assert accuracy >= 0.994  # measured 99.56 % (21 wrong)
    assert by_square.get("h1", 0) <= 4  # measured 2
    assert without_h1 >= 0.994  # measured 99.59 %


def test_uschess_calibrated_where_the_logo_square_is_empty(
    images: dict[str, dict[str, Any]], vision_data: Path, failures_dir: Path
) -> None:
    """Calibrated on IMG_4768 (h1 empty there), the square's own empty look is kept: the logo
    counts as empty. Measured 33 errors of 4736 (99.30 %), h1 3; before the per-square empty
    look (and Lflat), 107 (97.7 %), h1 54."""
    errors, squares, by_square, _, _ = _uschess("uschess/IMG_4768.jpg", images, vision_data, None)
    _report(
        failures_dir,
        "uschess calibrated on IMG_4768",
        {
            "squares": squares,
            "errors": errors,
            "accuracy": 1 - errors / squares,
            "errors_by_square": by_square,
        },
    )
    assert by_square.get("h1", 0) <= 6
    assert 1 - errors / squares >= 0.99


def test_uschess_learning_each_confirmed_position(
    images: dict[str, dict[str, Any]], vision_data: Path, failures_dir: Path, tmp_path: Path
) -> None:
    """The live path: calibrated on IMG_4755, each later photo is scored, and one the
    tracker would have reported exactly (so the rules core accepts it) teaches its empty
    squares. Measured: 20 of 4736 wrong (99.58 %), against 21 without learning. (Before the
    printed look, 93: the logo on h1 was taken for a piece, so no photo showing it empty was
    read exactly and it was never learned.) A learned calibration saved and loaded
    classifies the same."""
    from vision.calibration import Calibration

    errors, squares, by_square, _, cal = _uschess(
        "uschess/IMG_4755.jpg", images, vision_data, None, learn=True
    )
    _report(
        failures_dir,
        "uschess calibrated on IMG_4755, learning each confirmed position",
        {
            "squares": squares,
            "errors": errors,
            "accuracy": 1 - errors / squares,
            "errors_by_square": dict(sorted(by_square.items(), key=lambda kv: -kv[1])),
        },
    )
    assert errors <= 25  # measured 20
    cal.save(tmp_path / "learned.json")
    loaded = Calibration.load(tmp_path / "learned.json")
    last = images["uschess/IMG_4846.jpg"]
    img = read_image(str(vision_data / last["file"]))
    corners = [tuple(p) for p in last["corners"]]
    pred, conf = classify(img, cal.with_corners(corners))
    assert classify(img, loaded.with_corners(corners)) == (pred, conf)


def test_pcwawc_start_position_stills(
    images: dict[str, dict[str, Any]], vision_data: Path, failures_dir: Path
) -> None:
    """Each start-position still calibrated on itself (in-sample: the model's fit), and the
    three photos of the walnut board (005-007, light changed between them) across each other.

    The empty-board stills cannot be scored: with no pieces, there is nothing to learn the
    piece classes from (calibration refuses such a position).
    """
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    stills = {f: i for f, i in images.items() if f.startswith("pcwawc/chessBoard")}
    cals = {}
    in_sample = {}
    for f, i in stills.items():
        if i["fen"] != start:
            continue
        img = read_image(str(vision_data / f))
        cals[f] = calibrate(img, [tuple(p) for p in i["corners"]])
        pred, _ = classify(img, cals[f])
        in_sample[f] = len(_wrong(pred, i["fen"]))
    walnut = [f"pcwawc/chessBoard00{k}.jpg" for k in (5, 6, 7)]
    cross = {}
    for a in walnut:
        for b in walnut:
            if a == b:
                continue
            img = read_image(str(vision_data / b))
            here = cals[a].with_corners([tuple(p) for p in stills[b]["corners"]])
            pred, _ = classify(img, here)
            wrong = _wrong(pred, stills[b]["fen"])
            cross[f"{Path(a).stem} -> {Path(b).stem}"] = len(wrong)
            if wrong:
                name = f"{Path(a).stem}_on_{Path(b).stem}.png"
                cv2().imwrite(str(failures_dir / name), draw(img, here, pred, wrong))
    cross_acc = 1 - sum(cross.values()) / (64 * len(cross))
    in_acc = 1 - sum(in_sample.values()) / (64 * len(in_sample))
    _report(
        failures_dir,
        "pcwawc start-position stills",
        {
            "in_sample_accuracy": in_acc,
            "in_sample_errors": in_sample,
            "walnut_cross_accuracy": cross_acc,
            "walnut_cross_errors": cross,
        },
    )
    assert in_acc >= 0.995
    assert cross_acc >= 0.985


def test_empty_board_video_with_the_game_calibration(
    vision_data: Path, video_cal: Any, failures_dir: Path
) -> None:
    """`emptyBoard001.avi`: the same board and camera, empty, at another exposure, classified
    with the calibration from the game video. Measured: g1 (whose grain is lighter than the
    other dark squares', and which held a knight at calibration) is taken for a white piece
    in every frame; the other 63 squares are right in every frame but one (h2, once in 52
    frames)."""
    from vision.sources import video_frames

    squares = errors = 0
    wrong_squares: dict[str, int] = {}
    last = None
    for _, frame in video_frames(str(vision_data / "pcwawc" / "emptyBoard001.avi")):
        pred, _ = classify(frame, video_cal)
        wrong = _wrong(pred, "8/8/8/8/8/8/8/8")
        squares += 64
        errors += len(wrong)
        for r, c in wrong:
            name = "abcdefgh"[c] + str(8 - r)
            wrong_squares[name] = wrong_squares.get(name, 0) + 1
        if wrong:
            last = (frame, pred, wrong)
    if last:
        cv2().imwrite(str(failures_dir / "emptyBoard001.png"), draw(last[0], video_cal, *last[1:]))
    _report(
        failures_dir,
        "emptyBoard001 with the game calibration",
        {
            "squares": squares,
            "errors": errors,
            "accuracy": 1 - errors / squares,
            "wrong": wrong_squares,
        },
    )
    assert sum(v for k, v in wrong_squares.items() if k != "g1") <= 1  # measured: h2 once
    assert 1 - errors / squares >= 0.98


def test_uschess_turned_a_quarter_half_and_three_quarters(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """The same photos taken sideways or upside down (calibration and photos turned alike,
    White found at the left, top, right) read exactly as upright ones: the side of a square
    toward the camera comes from the homography, not from the bottom of the picture.
    Before, 101, 200 and 94 wrong of 4736 against 42 upright (then). A subset keeps it quick."""
    import numpy as np

    subset = ["uschess/IMG_4768.jpg", "uschess/IMG_4789.jpg", "uschess/IMG_4821.jpg"]
    ref = images["uschess/IMG_4755.jpg"]

    def turned(f: str, k: int) -> tuple[Any, list[tuple[float, float]]]:
        img = read_image(str(vision_data / f))
        pts = [(float(x), float(y)) for x, y in images[f]["corners"]]
        for _ in range(k):
            h = img.shape[0]
            img = np.ascontiguousarray(np.rot90(img, -1))
            pts = [(h - 1 - y, x) for x, y in pts]
            pts = [pts[3], pts[0], pts[1], pts[2]]
        return img, pts

    upright = None
    for k, side in enumerate(("bottom", "left", "top", "right")):
        img, pts = turned(ref["file"], k)
        cal = calibrate(img, pts, None, ref["fen"])
        assert cal.white_at == side
        read = []
        for f in subset:
            img, pts = turned(f, k)
            read.append(classify(img, cal.with_corners(pts))[0])
        if upright is None:
            upright = read
        assert read == upright, side
