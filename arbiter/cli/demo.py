"""`arbiter demo [--speed X] [--out DIR]`: a real game, live, with no hardware.

Plays the bundled game (`arbiter.demo`) through a simulated board in accelerated real time:
the live session (`arbiter.live.session`) journals every event, rules on it, lets the clocks run
and shows the terminal display; at the end it writes the PGN and the journal and says where
they are. By default the game (about 4 minutes of play) takes about 20 seconds.

With `--board NAME-sim` (`arbiter.demo.SIM_BOARDS`) the pieces are moved on a virtual e-board
of that protocol behind a pseudo-terminal, or a fake Bluetooth LE peripheral for `pegasus-sim`,
`chessnut-ble-sim` and `millennium-ble-sim`, and read back through the real serial or
Bluetooth LE transport, as `arbiter play --board PROTOCOL:DEVICE` reads a real board; the
presses and claims come in beside the board (`arbiter.demo.board`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.demo import SIM_BOARDS
from rules.i18n import N_, number
from rules.library_reasons import reason_of

if TYPE_CHECKING:
    from arbiter.clock import Clock

HELP = "play a real game with a few arbiter incidents on a simulated board (no hardware needed)"

JOURNAL_NAME = "demo-journal.jsonl"
PGN_NAME = "demo-game.pgn"
#: where `arbiter demo` serves its page unless told otherwise (a free port near it if taken)
DEMO_WEB = "8000"

TITLE = N_("arbiter demo: {white} v {black}, {control} s, {site}  (×{speed})")
ON_BOARD = N_("  on a virtual {board} board")
SUMMARY = N_(
    "Result:  {result}\nJournal: {journal}\nPGN:     {pgn}\n"
    "Replay it with: arbiter replay {journal}\n"
)
UNFINISHED = N_("unfinished")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--speed",
        type=float,
        default=None,
        metavar="X",
        help="how many times faster than real time (default: the game takes about 20 s)",
    )
    parser.add_argument(
        "--out",
        default="arbiter-demo",
        metavar="DIR",
        help="where to write the journal and the PGN (default ./arbiter-demo)",
    )
    parser.add_argument(
        "--board",
        choices=SIM_BOARDS,
        help="play it on a virtual e-board of that protocol (over a pseudo-terminal, or a fake "
        "Bluetooth LE radio), read back through the real transport (as `arbiter play --board "
        "PROTOCOL:DEVICE`)",
    )
    parser.add_argument(
        "--web",
        default=DEMO_WEB,
        metavar="[HOST:]PORT",
        help=f"serve the game's web page here (default {DEMO_WEB}, the next free port if it"
        " is taken; this machine only unless a HOST is given)",
    )
    parser.add_argument(
        "--no-web", dest="web", action="store_const", const=None, help="serve no web page"
    )
    parser.add_argument(
        "--speak",
        action="store_true",
        help="say the rulings the players may hear (FIDE 12.6) through espeak-ng",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="plain lines instead of the full-screen display (the default without a terminal)",
    )


def run(args: argparse.Namespace, clock: Clock | None = None) -> int:
    """Play the demo; `clock`: a test's (`FakeClock`), else real time at the demo's speed."""
    from arbiter.clock import MonotonicClock, PacedClock
    from arbiter.demo.board import follow, open_virtual_sources
    from arbiter.demo.game import default_speed, demo_events, demo_game
    from arbiter.errors import DemoError
    from arbiter.i18n import gettext, language_for
    from arbiter.inputs.base import DEMO_SOURCE, Source
    from arbiter.inputs.stream import StreamSource
    from arbiter.live.session import Session
    from arbiter.outputs.display import Display
    from arbiter.records.journal import JournalWriter
    from rules.events import Start
    from rules.i18n import translations
    from rules.messages import REASONS

    events = demo_events()
    speed = args.speed if args.speed is not None else default_speed(events)
    if not speed > 0 or speed > 10_000:
        raise DemoError.of(
            N_("--speed must be above 0 and at most 10000, not {speed}"), speed=args.speed
        )
    start = events[0]
    assert isinstance(start, Start)
    out_dir = Path(args.out).resolve()
    journal_path = out_dir / JOURNAL_NAME
    pgn_path = out_dir / PGN_NAME
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        journal_path.unlink(missing_ok=True)  # a new demo, a new journal
    except OSError as exc:
        raise DemoError.of(
            N_("{path}: cannot be written ({reason})"), path=out_dir, reason=reason_of(exc)
        ) from None
    language = language_for(start.rules)
    title = gettext(TITLE, language).format(
        white=start.white, black=start.black, control=start.time_control, site=start.site,
        speed=number(speed, language, "g"),
    )  # fmt: skip
    if args.web is not None:
        from arbiter.web.live import preload

        preload()  # before the clock starts: the import must not eat the game's first seconds
    if clock is None:  # on a virtual board, its reports are stamped at their script's times
        clock = PacedClock(speed=speed) if args.board is not None else MonotonicClock(speed=speed)
    virtual = None
    sources: list[Source] = [StreamSource(events[1:], name=DEMO_SOURCE)]
    settings: dict[str, float] = {}
    if args.board is not None:
        sources, virtual = open_virtual_sources(args.board, events[1:], clock, speed)
        settings = sources[0].start_settings()  # type: ignore[attr-defined]
        title += gettext(ON_BOARD, language).format(board=args.board.removesuffix("-sim"))
    # the journal names the demo's inputs, so that `arbiter resume` can say why it cannot
    # reopen them (they end with the demo) instead of going on with nothing to move a piece
    start = dataclasses.replace(start, sources=[s.name for s in sources], **settings)
    speaker = None
    if getattr(args, "speak", False):
        from arbiter.outputs.speech import open_speaker
        from rules.supervision import PanelMode

        speaker = open_speaker(language, PanelMode(strict=bool(start.strict)))
    display = Display(
        tty=False if args.plain else None, title=title, language=language, speaker=speaker
    )
    page = None
    try:
        session = Session.new(
            start, JournalWriter(journal_path), clock, sources=sources, display=display
        )
        follow(sources, session)
        if args.web is not None:
            from arbiter.web.live import serve_session

            page = serve_session(session, args.web, journal=journal_path, near=True, say=_say)
        session.run()
        if page is not None and sys.stdin.isatty():
            _linger(page.url)
    finally:
        if page is not None:
            page.stop()
        if virtual is not None:
            virtual.close()
    session.write_pgn(pgn_path, date=demo_game().headers.get("Date", "????.??.??"))
    game = session.game
    result = gettext(UNFINISHED, language)
    if game.over:
        reason = REASONS.get(game.reason or "")
        why = game.reason if reason is None else translations(language).gettext(reason)
        result = f"{game.result} ({why})"
    summary = gettext(SUMMARY, language)
    sys.stdout.write(summary.format(result=result, journal=journal_path, pgn=pgn_path))
    sys.stdout.flush()
    return 0 if game.over else 1


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _linger(url: str) -> None:
    """Keep the finished game's page up until the user presses Enter (on a terminal)."""
    _say(f"the game is over; its page stays at {url} until you press Enter")
    with contextlib.suppress(KeyboardInterrupt, EOFError):
        sys.stdin.readline()
