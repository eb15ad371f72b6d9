"""`arbiter resume JOURNAL`: continue a live game after a crash or a power cut.

The journal's events are ruled on again, which rebuilds the position, the clocks and every
ruling; a `restart` event (events.md) continues the stream. A Pi has no battery clock, so by
default nothing of the time lost is counted and the clocks stand as they stood at the last
event; with a trusted clock the arbiter may count the gap (`--gap S --counted`), and may
add or set time once the game runs (keys `w`/`b`, FIDE 6.10-6.11). The sources are those the
journal's `start` names (a stream file, GPIO, a board), unless options name others. Inputs
that ended with the program that played the game (`arbiter demo`'s stream, a virtual board's
pty) are not reopened: resume says so and asks for inputs (`--board`, `--events`, ...).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from arbiter.cli.play import (
    add_common_arguments,
    check_publish,
    files_of,
    report_with_page,
    reserve_page,
    say_repaired,
)
from rules.i18n import N_

HELP = "continue a live game from its journal (after a crash or power loss)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal_file", metavar="JOURNAL", help="the journal of the game")
    parser.add_argument(
        "--gap",
        type=float,
        metavar="S",
        help="seconds the game was down, where a trusted clock says so",
    )
    parser.add_argument(
        "--counted",
        action="store_true",
        help="count the gap against the player whose clock ran (needs --gap)",
    )
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from arbiter.errors import SessionError
    from arbiter.i18n import language_for, said_in
    from arbiter.live.records import lock_journal
    from arbiter.live.session import rebuild, resumed_note
    from arbiter.live.setup import record_info, resume_game, settings_of
    from arbiter.records.journal import read_journal
    from arbiter.records.paths import check_distinct

    if args.counted and args.gap is None:
        raise SessionError.of(N_("--counted needs --gap S: how long the game was down"))
    if args.gap is not None and not 0 <= args.gap < math.inf:  # nan and inf too
        raise SessionError.of(N_("--gap must be 0 or more seconds, not {gap}"), gap=args.gap)
    path = Path(args.journal_file)
    settings = settings_of(args)
    check_publish(settings.get("publish"))  # a bad --publish stops before anything is journaled
    check_distinct(files_of(path, settings))
    lock = lock_journal(path)  # held until the program ends
    say_repaired("arbiter resume", path)
    history, warnings = read_journal(path)
    for warning in warnings:
        sys.stderr.write(f"arbiter resume: {said_in(warning, language_for())}\n")
    game, _ = rebuild(history)
    if game.over:
        raise SessionError.of(
            N_("journal {path}: the game is already over ({result})"), path=path, result=game.result
        )
    web = reserve_page(settings)
    session = resume_game(path, history, settings, gap_s=args.gap, counted=args.counted)
    session.display.note(resumed_note(path, history[-1].t, session.language))
    info = record_info(settings, path, session.game.start, resumed=True)
    try:
        return report_with_page(session, settings, path, web, info)
    finally:
        lock.close()
