"""`arbiter snapshot`: the board one picture shows, as a FEN placement with X and x.

A square that cannot be read is `?`: a piece of doubtful colour, a doubtful occupancy, or a
square under a hand or arm (seen against the calibration's own frame); the JSON names them.
"""

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
    from vision import geometry
    from vision.calibration import Calibration
    from vision.classify import classify_board, reading
    from vision.errors import CalibrationError
    from vision.follow import locate
    from vision.occlusion import occlusion, ringed
    from vision.placement import from_grid, to_grid
    from vision.registration import REF_WIDTH, decode
    from vision.selfcheck import colours_swapped
    from vision.sources import read_image
    from vision.tracker import TrackerSettings

    base = cal = Calibration.load(args.calibration)
    frame = read_image(args.image)
    out: dict[str, object] = {}
    if args.corners:
        corners = geometry.parse_corners(args.corners)
        geometry.check_in_frame(corners, frame.shape[1], frame.shape[0])
        cal = cal.with_corners(corners, (frame.shape[1], frame.shape[0]))
        if colours_swapped(geometry.warp(frame, cal.homography())):
            raise CalibrationError(
                "with these corners the squares at the players' right are dark: they are a "
                "quarter turn off; give the picture's top-left, top-right, bottom-right, "
                "bottom-left corners of the playing area"
            )
    else:
        cal, how, moved = locate(frame, cal)  # a bumped camera, a resized or cropped picture
        out["located"] = how
        if moved is not None:
            out["moved_px"] = round(moved, 1)
    _, _, post = classify_board(geometry.warp(frame, cal.homography()), cal)
    seen = reading(post, TrackerSettings().min_confidence)
    hidden: tuple[str, ...] = ()
    if cal.reference and not args.corners:
        ref = ringed(
            decode(cal.reference),
            base.corners,
            cal.white_at,
            scale=REF_WIDTH / max(base.frame_size[0], 1),
        )
        hidden = occlusion(ref, ringed(frame, cal.corners, cal.white_at)).squares
    grid = to_grid(seen.placement)
    for sq in hidden:
        grid[8 - int(sq[1])]["abcdefgh".index(sq[0])] = "?"
    board = from_grid(grid)
    out.update(
        board=board,
        confidence=round(seen.confidence, 4),
        complete=not hidden and seen.complete and not seen.unsure_colour,
        hidden=list(hidden),
        unreadable=list(seen.unreadable),
        unsure_colour=list(seen.unsure_colour),
    )
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        note = ""
        if hidden:
            note += f"; a hand or arm hides {', '.join(hidden)}"
        if seen.unreadable or seen.unsure_colour:
            note += f"; not read for sure: {', '.join(seen.unreadable + seen.unsure_colour)}"
        sys.stdout.write(f"{board}  (confidence {seen.confidence:.2f}{note})\n")
    return 0
