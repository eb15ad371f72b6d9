"""`arbiter snapshot`: the board one picture shows, as a FEN placement with X and x."""

from __future__ import annotations

import argparse
import json
import sys

HELP = "classify one picture's squares (empty / white / black) with a calibration"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--image", required=True, metavar="FILE", help="the picture")
    parser.add_argument(
        "--calibration", required=True, metavar="CAL.json", help="from 'arbiter calibrate'"
    )
    parser.add_argument(
        "--corners",
        metavar='"x,y x,y x,y x,y"',
        help="the board's corners in this picture (default: found near the calibration's)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")


def run(args: argparse.Namespace) -> int:
    from vision.cvload import cv2, np

    cv2(), np()  # without the camera extra, say how to install it before anything else
    from vision.calibration import Calibration
    from vision.classify import classify
    from vision.follow import follow
    from vision.geometry import check_in_frame, parse_corners
    from vision.sources import read_image

    cal = Calibration.load(args.calibration)
    frame = read_image(args.image)
    moved = None
    if args.corners:
        corners = parse_corners(args.corners)
        check_in_frame(corners, frame.shape[1], frame.shape[0])
        cal = cal.with_corners(corners, (frame.shape[1], frame.shape[0]))
    else:
        cal, moved = follow(frame, cal)  # a camera bumped a little since the calibration
    board, confidence = classify(frame, cal)
    out: dict[str, object] = {"board": board, "confidence": round(confidence, 4)}
    if moved is not None:
        out["moved_px"] = round(moved, 1)
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(f"{board}  (confidence {confidence:.2f})\n")
    return 0
