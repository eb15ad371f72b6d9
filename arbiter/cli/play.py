"""`arbiter play`: a live game, from its sources to the journal, the rules and the display.

    arbiter play --tc 300+2 --gpio rpi --journal game.jsonl --pgn game.pgn
    arbiter play --events scripted.jsonl --gpio fake --set auto_press=true

Options come from the command line over a TOML config (`--config`, `arbiter.live.config`).
Every input is journaled (fsynced) before it is ruled on. Given a `--journal` that holds a
game still going on, `arbiter play` resumes it (events.md `restart`, nothing of the lost
time counted), so a systemd unit that restarts it after a crash continues the game; a
finished game's journal is moved aside (`NAME.1.jsonl`) and a new game begins. The game is
built by the composition root, `arbiter.live.setup`, imported only when the game starts, so
that `--help` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arbiter.cli.localize import argv_error
from rules.i18n import N_

if TYPE_CHECKING:
    from arbiter.live.config import Settings
    from rules.events import Start


def _camera_value(text: str) -> int | str:
    """`--camera`: a device number or `picam` (the Pi camera); in a build without vision,
    a number (the source then says the camera is not available)."""
    try:
        from vision.camera_sources import camera_arg
    except ImportError:
        return int(text)
    try:
        return camera_arg(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(argv_error(exc)) from None


HELP = "play a live game: clock, GPIO buttons and LEDs, keyboard, scripted stream, journal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--journal",
        metavar="PATH",
        help="the journal (JSON Lines); one that holds a game still going on is resumed",
    )
    g = parser.add_argument_group("the game")
    g.add_argument(
        "--tc",
        help="time control. Club forms: 3+2 (3 min + 2 s a move), 90+30, G/90;inc30, G/60;d5"
        " (US delay); B+I is minutes when B < 60, or B <= 180 with I > B/10, else seconds"
        " (300+2, 180+2, 60+1). In words: '90 min/40 moves + 30 min, 30 s per move'."
        " Other forms are in seconds: 300, 5400d5, 900m60, *180,"
        " 40/5400+30:1800+30. The reading is printed before the game (docs/time-controls.md)",
    )
    g.add_argument(
        "--force-tc", dest="force_tc", action="store_true",
        help="play a control of under a minute or over a day in all (e.g. --tc 30) instead of"
        " refusing it",
    )  # fmt: skip
    g.add_argument(
        "--clock-start", dest="clock_start", type=lambda v: v.replace("-", "_"),
        choices=("now", "black_press", "white_move"), metavar="now|black-press|white-move",
        help="when the clocks start: when Black presses once the pieces stand in the start"
        " position, as on a DGT 3000 (default; what is wrong, and where, is said before; a"
        " move White makes first starts Black's clock); when White's first move is made"
        " (White's press starts Black's clock); or now",
    )  # fmt: skip
    g.add_argument("--mode", help="standard, rapid or blitz (default: from the time control)")
    g.add_argument("--rules", help="rule profile: fide-2023 (default), bs, pl, cs")
    g.add_argument("--strict", action="store_true", default=None, help="teaching mode")
    g.add_argument("--white", help="White's name")
    g.add_argument("--black", help="Black's name")
    r = parser.add_argument_group("the record (PGN tags; kept for resume and `arbiter pgn`)")
    r.add_argument("--event", help="the event (PGN Event)")
    r.add_argument("--site", help="where it is played (PGN Site)")
    r.add_argument("--round", help="the round (PGN Round), e.g. 3 or 3.1")
    r.add_argument("--board-number", dest="board_number", metavar="N", help="PGN Board")
    r.add_argument("--white-elo", dest="white_elo", type=int, metavar="N", help="PGN WhiteElo")
    r.add_argument("--black-elo", dest="black_elo", type=int, metavar="N", help="PGN BlackElo")
    r.add_argument("--white-fide-id", dest="white_fide_id", metavar="ID", help="PGN WhiteFideId")
    r.add_argument("--black-fide-id", dest="black_fide_id", metavar="ID", help="PGN BlackFideId")
    g.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any setting of the 'start' event, e.g. auto_press=true, noise_s=0.3 (repeatable)",
    )


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `arbiter play` and `arbiter resume` share: sources, outputs, config."""
    s = parser.add_argument_group("inputs")
    s.add_argument("--events", metavar="FILE", help="a stream played in real time ('-': stdin)")
    s.add_argument("--gpio", help="the clock panel's GPIO: rpi, fake or none (default none)")
    s.add_argument(
        "--board",
        metavar="PROTOCOL:DEVICE",
        help="an e-board, e.g. dgt:/dev/ttyUSB0, chessnut:/dev/hidraw0, pegasus:ADDRESS"
        " (Bluetooth LE; `arbiter boards` lists them; auto:DEVICE detects the protocol, auto"
        " alone takes the one board found), gpio-matrix for a reed-switch board on the"
        " Pi's GPIO (with --gpio rpi|fake), or a virtual board played by hand with typed"
        " moves: dgt-sim, millennium-sim, certabo-sim (e2e4, lift e2, place e4, claim,"
        " resign...: docs/live-play.md)",
    )
    s.add_argument(
        "--camera",
        type=_camera_value,
        metavar="N|picam",
        help="a camera (with --calibration): device number, or picam for the Pi camera",
    )
    s.add_argument("--video", metavar="FILE", help="a video file (with --calibration)")
    s.add_argument(
        "--calibration", metavar="FILE",
        help="the camera's calibration, or a Certabo board's (which tag is which piece)",
    )  # fmt: skip
    s.add_argument(
        "--capture", metavar="FILE",
        help="record every byte the e-board sends and receives (timestamped JSON Lines)",
    )  # fmt: skip
    s.add_argument(
        "--clock-white", dest="clock_white", choices=("left", "right"),
        help="a DGT 3000 on a DGT board: which side, seen from its front, is White's",
    )  # fmt: skip
    s.add_argument(
        "--no-keyboard", dest="keyboard", action="store_false", default=None,
        help="do not read keys from the terminal",
    )  # fmt: skip
    o = parser.add_argument_group("outputs")
    o.add_argument(
        "--pgn", metavar="PATH",
        help="the game's PGN, rewritten after every move (a new game moves an older one aside)",
    )  # fmt: skip
    o.add_argument(
        "--feedback", action="store_true", default=None,
        help="the LEDs and buzzer may show duties and violations (12.6 lifted)",
    )  # fmt: skip
    o.add_argument("--display", help="auto (default), full or plain (lines, for logs)")
    o.add_argument(
        "--publish", metavar="mqtt://HOST[:PORT]/BOARD",
        help="publish the game to the hall's broker as board BOARD (docs/hall.md)",
    )  # fmt: skip
    o.add_argument(
        "--web", metavar="[HOST:]PORT",
        help="serve the game's web page (arbiter's view, players' clock, teaching view) on"
        " this port, on this machine only unless a HOST is given (e.g. 0.0.0.0:8080); the"
        " address and the controls' token are printed at start",
    )  # fmt: skip
    o.add_argument(
        "--speak", action="store_true", default=None,
        help="say the rulings the players may hear (FIDE 12.6), in the game's language,"
        " through espeak-ng",
    )  # fmt: skip
    parser.add_argument(
        "--config", metavar="FILE", help="a TOML config file: every key in docs/config.md"
    )


def run(args: argparse.Namespace) -> int:
    from arbiter.i18n import gettext, language_for, said_in
    from arbiter.live.records import discard_unplayed, lock_journal, set_aside
    from arbiter.live.session import resumed_note
    from arbiter.live.setup import (
        archive,
        default_journal,
        load_unfinished,
        new_game,
        record_info,
        resume_game,
        settings_of,
    )
    from arbiter.outputs.display import say
    from arbiter.records.paths import check_distinct
    from rules.events import Start

    settings = settings_of(args)  # a time control is read as clubs write it (config.py)
    reading = None
    standard = settings.start_fields().get("time_control")
    if standard:
        from arbiter.i18n import TIME_CONTROL_READ
        from arbiter.live.club_time import describe
        from rules.timecontrol import TimeControl

        language = language_for(settings.get("rules"))
        said = describe(TimeControl.parse(standard), language)
        reading = gettext(TIME_CONTROL_READ, language).format(reading=said, standard=standard)
    check_publish(settings.get("publish"))  # a bad --publish stops before anything is journaled
    path = Path(settings.get("journal") or default_journal())
    check_distinct(files_of(path, settings))
    lock = lock_journal(path)  # held until the program ends
    say_repaired("arbiter play", path)
    web = reserve_page(settings)
    going_on = load_unfinished(path)
    if going_on is not None:
        history, warnings = going_on
        for warning in warnings:
            said = said_in(warning, language_for(settings.get("rules")))
            sys.stderr.write(f"arbiter play: {said}\n")
        start = history[0]
        assert isinstance(start, Start)  # load_unfinished rebuilt the game from it
        session = resume_game(path, history, settings)
        language = session.language
        differ = options_not_applied(start, settings)
        sys.stderr.write(f"arbiter play: {not_applied(path, start, differ, language)}\n")
        session.display.note(resumed_note(path, history[-1].t, language))
        if differ and session.display.tty:  # the full screen's redraw wipes the stderr line
            note = gettext(NOT_APPLIED_NOTE, language).format(options=", ".join(differ))
            session.display.note(note)
    else:
        if path.exists() and path.stat().st_size > 0:
            moved = archive(path)
            sys.stderr.write(f"arbiter play: the finished game's journal is now {moved}\n")
        pgn = settings.get("pgn")
        aside = set_aside(Path(pgn)) if pgn else None
        if aside is not None:
            sys.stderr.write(f"arbiter play: the earlier game's PGN {pgn} is now {aside}\n")
        if reading is not None:
            say(reading)  # a screen that cannot be written does not stop the game
        session = new_game(settings, path)
    info = record_info(settings, path, session.game.start, resumed=going_on is not None)
    try:
        return report_with_page(session, settings, path, web, info)
    except Exception:
        if going_on is None:
            discard_unplayed(path)  # the game never began: leave no journal to resume
        raise
    finally:
        lock.close()


def reserve_page(settings: Settings) -> Any:
    """`--web`: its port, bound before the game begins (a port in use stops the command
    before anything is journaled); None without `--web`."""
    if settings.get("web") is None:
        return None
    from arbiter.web.live import reserve

    return reserve(settings.get("web"))


def _say(line: str) -> None:
    from arbiter.outputs.display import say

    say(line)


def report_with_page(session: Any, settings: Settings, path: Path, web: Any, info: Any) -> int:
    """Run the session with its web page (on the socket `reserve_page` bound), then report."""
    from arbiter.live.setup import report

    page = None
    if web is not None:
        from arbiter.web.live import serve_session

        page = serve_session(
            session, settings.get("web"), token=settings.get("web_token"), journal=path,
            say=_say, sock=web,
        )  # fmt: skip
    try:
        return report(session, info, path, publish=settings.get("publish"))
    finally:
        if page is not None:
            page.stop()


def check_publish(url: str | None) -> None:
    """`--publish`: the broker's address checked (a HallError saying what is wrong)."""
    if url:
        from arbiter.hall.topics import parse_address

        parse_address(url)


def options_not_applied(start: Start, settings: Settings) -> list[str]:
    """The options given (`--tc 600+5`) that differ from the resumed game's own settings."""
    from arbiter.live.config import PLAY_TO_START

    option = {start_key: key for key, start_key in PLAY_TO_START.items()}
    return [
        f"{settings.where.get(key) or settings.where.get(option.get(key, key), key)} {value}"
        for key, value in settings.start_fields().items()
        if getattr(start, key, None) != value
    ]


#: what `play --journal J` says of a game still going on in J, and of the options not applied
RESUMED_GAME = N_(
    "journal {journal} holds a game still going on ({players}, {control}): it is resumed"
)
NOT_APPLIED = N_(
    "{resumed}. Not applied to it: {options} (a game keeps its own settings; for a new game"
    " give another --journal)"
)
NOT_APPLIED_NOTE = N_("not applied to the resumed game: {options}")


def not_applied(journal: Path, start: Start, differ: list[str], language: str = "en") -> str:
    """What `arbiter play --journal J` says when J holds a game still going on: that game is
    resumed, and which of the options given differ from its own settings (`differ`, from
    `options_not_applied`: they are not applied, a game keeps the settings it began with)."""
    from arbiter.i18n import gettext

    players = gettext("{white} v {black}", language).format(
        white=start.white or gettext("White", language),
        black=start.black or gettext("Black", language),
    )
    control = start.time_control or gettext("no clock", language)
    said = gettext(RESUMED_GAME, language).format(
        journal=journal, players=players, control=control
    )
    if not differ:
        return said
    return gettext(NOT_APPLIED, language).format(resumed=said, options=", ".join(differ))


def files_of(journal: Path, settings: Settings) -> dict[str, str | Path | None]:
    """The files a live game reads or writes, by option name (for `check_distinct`)."""
    return {
        "journal": journal,
        "pgn": settings.get("pgn"),
        "capture": settings.get("capture"),
        "events": settings.get("events"),
    }


def say_repaired(command: str, journal: Path) -> None:
    """Move a journal's torn last line aside (a crash's), and say so (D6, D7)."""
    from arbiter.records.journal import repair_torn_tail

    if journal.exists():
        moved = repair_torn_tail(journal)
        if moved is not None:
            sys.stderr.write(
                f"{command}: journal {journal}: its last line was cut short by a crash; it is"
                f" kept in {moved} and the journal goes on without it\n"
            )
