"""`arbiter calibrate`: learn where the board is and what its squares look like, save it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arbiter.cli.localize import argv_error
from arbiter.i18n import WARNING, error_text, gettext, language_for
from rules.i18n import N_

HELP = "calibrate the camera on a picture of a known position (default: the initial one)"

#: the placement of an empty board (`--empty`)
EMPTY = "8/8/8/8/8/8/8/8"
#: default port of the corner picker (`--pick`); kept here so `--help` needs no vision import
PICK_PORT = 8765


def _camera_value(text: str) -> int | str:
    """`--camera`: a device number or `picam` (vision.camera_sources says which is which)."""
    from vision.camera_sources import camera_arg

    try:
        return camera_arg(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(argv_error(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--camera",
        type=_camera_value,
        metavar="N|picam",
        help="camera device number, or picam for the Raspberry Pi camera (picamera2)",
    )
    src.add_argument("--image", metavar="FILE", help="a still picture of the board")
    src.add_argument("--video", metavar="FILE", help="a video; its first still frame is used")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--corners",
        metavar='"x,y x,y x,y x,y"',
        help="the playing area's corners: image top-left, top-right, bottom-right, bottom-left "
        "(default: found in the picture)",
    )
    where.add_argument(
        "--pick",
        action="store_true",
        help="click the corners in a web browser: serves a page with the frame and prints "
        "its address (for a headless Pi: open it from another computer with --host 0.0.0.0)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=PICK_PORT,
        metavar="N",
        help=f"port of the --pick page (default {PICK_PORT}; 0 = any free port)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDR",
        help="address the --pick page listens on (default 127.0.0.1: this machine only; "
        "0.0.0.0: every computer on the network may open it)",
    )
    parser.add_argument(
        "--pick-timeout",
        type=float,
        default=None,
        metavar="S",
        help="give up waiting for clicks after S seconds (default: wait until Ctrl-C)",
    )
    parser.add_argument(
        "--white-at",
        choices=("bottom", "top", "left", "right"),
        help="image edge White's side is at (default: found from the position)",
    )
    parser.add_argument(
        "--fen", metavar="PLACEMENT", help="the position on the picture (default: initial)"
    )
    parser.add_argument(
        "--empty",
        metavar="FILE",
        help="a picture (or video) of the same board empty, from the same camera position: "
        "every square learns its own empty look (a printed logo, an odd grain of wood), "
        "also the squares the calibration position covers",
    )
    parser.add_argument(
        "--accept-misread",
        action="store_true",
        help="keep a calibration that reads its own photo wrong on some squares (by default "
        "it is refused, naming them: those squares would be misread in play too)",
    )
    parser.add_argument("--out", required=True, metavar="CAL.json", help="calibration to write")
    parser.add_argument(
        "--preview",
        metavar="FILE",
        help="picture with the grid and classes drawn (default: next to --out, .png)",
    )


def _first_still(frames: Iterable[tuple[float, Any]], skip: int = 0, max_frames: int = 200) -> Any:
    """The first frame (after `skip`, a camera's warm-up) that equals the one before it (no
    hand moving), else the last one read."""
    from vision.cvload import np

    prev = None
    frame = None
    for i, (_, frame) in enumerate(frames):
        if i < skip:
            continue
        if prev is not None and float(np().mean(np().abs(frame.astype("int16") - prev))) < 2.0:
            return frame
        prev = frame.astype("int16")
        if i >= max_frames:
            break
    return frame


#: file suffixes `--empty` reads as a video (its first still frame), not as a picture
VIDEO_SUFFIXES = frozenset({".avi", ".mp4", ".mkv", ".mov", ".webm", ".h264", ".mjpeg"})


def _empty_board(path: str, size: tuple[int, ...]) -> Any:
    """The frame of `--empty`: a picture, or a video's first still frame, of `size`."""
    from vision import messages as said
    from vision.errors import VisionError
    from vision.sources import NO_VIDEO, open_source, read_image

    if Path(path).suffix.lower() in VIDEO_SUFFIXES:
        if not Path(path).is_file():
            raise VisionError.of(NO_VIDEO, path=path)
        frame = _first_still(open_source(video=path))
        if frame is None:
            raise VisionError.of(said.VIDEO_NO_FRAME, path=path)
    else:
        frame = read_image(path)
    if frame.shape[:2] != size[:2]:
        raise VisionError.of(
            said.EMPTY_OTHER_SIZE,
            path=path,
            width=frame.shape[1],
            height=frame.shape[0],
            cal_width=size[1],
            cal_height=size[0],
        )
    return frame


def _pick(frame: Any, args: argparse.Namespace) -> Any:
    """The corners clicked in the browser page (`vision.pick`); the URLs go to stderr, as
    stdout carries the command's JSON result."""
    from vision.pick import pick_corners

    language = language_for()

    def announce(urls: list[str]) -> None:
        lines = [f"arbiter calibrate: {gettext(PICK_AT, language)}"]
        lines += [f"  {u}" for u in urls]
        if args.host in ("127.0.0.1", "localhost", "::1"):
            lines.append(f"  ({gettext(PICK_THIS_MACHINE, language)})")
        lines.append(f"  {gettext(PICK_WAITING, language)}")
        print("\n".join(lines), file=sys.stderr, flush=True)

    corners = pick_corners(
        frame,
        host=args.host,
        port=args.port,
        timeout=args.pick_timeout,
        announce=announce,
        say=lambda error: error_text(error, language),
        words=lambda text: gettext(text, language),
        language=language,
    )
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
    received = gettext(CORNERS_RECEIVED, language).format(corners=f'--corners "{text}"')
    print(f"arbiter calibrate: {received}", file=sys.stderr, flush=True)
    return corners


#: the lines of `--pick` while it waits for the corners' clicks
PICK_AT = N_(
    "click the playing area's corners (top-left, top-right, bottom-right, bottom-left) "
    "on the page at:"
)
PICK_THIS_MACHINE = N_(
    "only from this machine; to open it from another computer on the network, add --host 0.0.0.0"
)
PICK_WAITING = N_("waiting for the corners (Ctrl-C to give up)")
CORNERS_RECEIVED = N_("corners received: {corners}")

#: the smallest picture side a board can be found in (8 squares of 8 pixels)
MIN_SIDE_PX = 64


def run(args: argparse.Namespace) -> int:
    from vision.cvload import cv2, np

    cv2(), np()  # without the camera extra, say how to install it before anything else
    from vision import messages as said
    from vision.calibration import calibrate
    from vision.classify import classify, learn_position
    from vision.errors import CalibrationMisread, VisionError
    from vision.geometry import parse_corners
    from vision.placement import INITIAL
    from vision.preview import draw
    from vision.selfcheck import misread_squares
    from vision.sources import open_source, read_image

    if args.image:
        frame = read_image(args.image)
    else:
        # a camera settles its exposure and white balance (then locked) in its first frames
        skip = 20 if args.camera is not None else 0
        frame = _first_still(open_source(camera=args.camera, video=args.video), skip=skip)
        if frame is None:
            raise VisionError.of(said.SOURCE_NO_FRAME)
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE_PX:
        raise VisionError.of(said.TOO_SMALL, width=width, height=height, least=MIN_SIDE_PX)
    if args.pick:
        corners = _pick(frame, args)
    else:
        corners = parse_corners(args.corners) if args.corners else None
    cal = calibrate(frame, corners, args.white_at, args.fen or INITIAL)
    if args.empty:
        # the camera has not moved: the same grid, and every square's look when empty
        cal = learn_position(_empty_board(args.empty, frame.shape), cal, EMPTY, weight=1.0)
    misread = misread_squares(frame, cal)
    if misread and not args.accept_misread:
        raise CalibrationMisread(misread)
    if misread:
        warning = gettext(WARNING, language_for()).format(
            message=error_text(CalibrationMisread(misread), language_for())
        )
        print(f"arbiter calibrate: {warning}", file=sys.stderr)
    cal.save(args.out)
    placement, confidence = classify(frame, cal)
    preview = Path(args.preview) if args.preview else Path(args.out).with_suffix(".png")
    cv2().imwrite(str(preview), draw(frame, cal, placement))
    sys.stdout.write(
        json.dumps(
            {
                "calibration": str(args.out),
                "preview": str(preview),
                "white_at": cal.white_at,
                "board": placement,
                "confidence": round(confidence, 3),
                "empty_learned": bool(args.empty),
                "misread": [sq for sq, _, _ in misread],
            }
        )
        + "\n"
    )
    return 0
