"""`arbiter snapshot`: the board one picture shows, as a FEN placement with X and x.

A square that cannot be read is `?`: a piece of doubtful colour, a doubtful occupancy, or a
square under a hand or arm (seen against the calibration's own frame, with or without
`--corners`, when the picture comes from the calibration's camera); the JSON names them. A
hand or arm over more squares than a move changes gives no reading: one line on stderr and
exit status 3 (`HAND_EXIT`), so that a script takes the picture again.
"""

from __future__ import annotations

import argparse
import json
import sys

from arbiter.i18n import error_text, gettext, language_for
from rules.i18n import N_, Numeral

HELP = "classify one picture's squares (empty / white / black) with a calibration"
HAND_EXIT = 3  #: exit status when a hand or arm over the board hides the position
#: the plain line's notes after the placement (`--json` keeps the contract's field names)
CONFIDENCE = N_("confidence {confidence:.2f}")
HIDDEN = N_("a hand or arm hides {squares}")
UNSURE = N_("not read for sure: {squares}")


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
    from vision.errors import HandOverBoard
    from vision.geometry import parse_corners
    from vision.picture import read_picture
    from vision.sources import read_image

    cal = Calibration.load(args.calibration)
    frame = read_image(args.image)
    try:
        got = read_picture(frame, cal, parse_corners(args.corners) if args.corners else None)
    except HandOverBoard as exc:
        sys.stderr.write(f"arbiter snapshot: {error_text(exc, language_for())}\n")
        return HAND_EXIT
    out: dict[str, object] = {}
    if got.located is not None:
        out["located"] = got.located
    if got.moved_px is not None:
        out["moved_px"] = round(got.moved_px, 1)
    out.update(
        board=got.board,
        confidence=round(got.confidence, 4),
        complete=got.complete,
        hidden=list(got.hidden),
        unreadable=list(got.unreadable),
        unsure_colour=list(got.unsure_colour),
    )
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        language = language_for()
        note = ""
        if got.hidden:
            note += "; " + gettext(HIDDEN, language).format(squares=", ".join(got.hidden))
        if got.unreadable or got.unsure_colour:
            unsure = ", ".join(got.unreadable + got.unsure_colour)
            note += "; " + gettext(UNSURE, language).format(squares=unsure)
        confidence = gettext(CONFIDENCE, language).format(
            confidence=Numeral(got.confidence, language)
        )
        sys.stdout.write(f"{got.board}  ({confidence}{note})\n")
    return 0
