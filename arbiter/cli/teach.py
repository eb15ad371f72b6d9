"""`arbiter teach --pupil NAME [--board SPEC | --camera N --calibration FILE]`: touch-move
drills, judged by the rules core.

Six situations of Articles 4 and 7 (`arbiter.teach.drills`), each set up and described in
the pupil's language (`--lang`); the pupil types a move, or with `--board` sets the
situation up on a board and moves there (`arbiter.teach.on_board`), or with `--camera` or
`--video` on an ordinary board under a camera (`arbiter.teach.on_camera`); the rulings say
what the Law asks.
The score is appended to the summary file (`--summary`), and the pupil's earlier sessions
are shown, so that a teacher sees progress over the weeks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from arbiter.errors import SourceError
from rules.i18n import N_

HELP = (
    "touch-move drills for pupils, at the keyboard or on a board, with a score kept over the weeks"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pupil", default="pupil", help="the pupil's name (in the summary)")
    parser.add_argument(
        "--summary",
        default="arbiter-teach/summary.jsonl",
        metavar="FILE",
        help="the summary file, one line a session (default ./arbiter-teach/summary.jsonl)",
    )
    parser.add_argument(
        "--board",
        metavar="PROTOCOL:DEVICE",
        help="drill on a board instead of the keyboard: an e-board as `arbiter play --board`"
        " takes it (dgt:/dev/ttyUSB0, or a virtual one played with typed hand movements:"
        " dgt-sim, millennium-sim, certabo-sim); each situation is set up on it and the"
        " pupil's hands are read from it",
    )
    parser.add_argument(
        "--camera",
        type=_camera_value,
        help="a camera (with --calibration): device number, or picam for the Pi camera",
    )
    parser.add_argument("--video", metavar="FILE", help="a video file (with --calibration)")
    parser.add_argument(
        "--calibration",
        metavar="FILE",
        help="the camera's calibration, made by `arbiter calibrate`; the pupil sets each"
        " situation up on an ordinary board under the camera, and the press is typed",
    )


def _camera_value(text: str) -> int | str:
    """`--camera`: as `arbiter play --camera` reads it."""
    from arbiter.cli.play import _camera_value as play_camera_value

    return play_camera_value(text)


def _camera_source(args: argparse.Namespace) -> Any:
    """The camera source `--camera`/`--video` with `--calibration` name, as `arbiter play`
    opens it; None without either.

    Raises:
        SourceError: both given, no calibration, or no camera support in this build.
    """
    camera, video = getattr(args, "camera", None), getattr(args, "video", None)
    if camera is None and video is None:
        return None
    if args.board:
        raise SourceError.of(N_("--board and --camera/--video: give one of them, not both"))
    from arbiter.live.setup import camera_source

    return camera_source(args.calibration, camera, video)


def run(args: argparse.Namespace) -> int:
    from arbiter.i18n import gettext, language_for
    from arbiter.teach.drills import PROGRESS, SAVED, SCORE, SESSION_LINE, run_drills, save_summary

    language = language_for()
    out = sys.stdout

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

    camera = _camera_source(args)
    if camera is not None:
        from arbiter.teach.on_camera import run_camera_drills

        session = run_camera_drills(camera, args.pupil, language, read, out)
    elif args.board:
        from arbiter.teach.on_board import run_board_drills

        session = run_board_drills(args.board, args.pupil, language, read, out)
    else:
        session = run_drills(args.pupil, language, read, out)
    total = len(session.results)
    score = gettext(SCORE, language).format(pupil=args.pupil, score=session.score, total=total)
    out.write("\n" + score + "\n")
    path = Path(args.summary)
    history = save_summary(session, path)
    out.write(gettext(SAVED, language).format(path=path) + "\n")
    out.write(gettext(PROGRESS, language).format(pupil=args.pupil) + "\n")
    line = gettext(SESSION_LINE, language)
    for item in history:
        fields = {k: item.get(k) for k in ("date", "score", "total")}
        out.write("  " + line.format(**fields) + "\n")
    out.flush()
    return 0
