"""`arbiter teach --pupil NAME`: touch-move drills at the keyboard, judged by the rules core.

Six situations of Articles 4 and 7 (`arbiter.teach`), each set up and described in the
pupil's language (`--lang`); the pupil types a move; the rulings say what the Law asks.
The score is appended to the summary file (`--summary`), and the pupil's earlier sessions
are shown, so that a teacher sees progress over the weeks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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


def run(args: argparse.Namespace) -> int:
    from arbiter.i18n import gettext, language_for
    from arbiter.teach.drills import PROGRESS, SAVED, SCORE, SESSION_LINE, run_drills, save_summary

    language = language_for()
    out = sys.stdout

    def read() -> str | None:
        line = sys.stdin.readline()
        return line if line else None

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
