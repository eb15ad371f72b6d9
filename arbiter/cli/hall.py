"""`arbiter hall`: the arbiter's station for a hall of boards over an MQTT broker (issue 14).

    arbiter hall --demo 16                       sixteen simulated boards, embedded broker
    arbiter hall --broker mqtt://hall.local --pairings round3.trf --export /srv/live

The station subscribes to every board's topic tree (docs/hall.md), keeps each board's game
by replaying its events through the rules core, shows the grid and the alarms on the
terminal, writes the broadcast folder (`--export`) as the round goes on, and the round's
results (`--results`, TRF-16 or CSV) at the end. Boards publish with
`arbiter play --publish mqtt://HOST[:PORT]/BOARD`.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from rules.i18n import N_, localized, number
from rules.library_reasons import reason_of

HELP = "the arbiter's station: every board of a hall over an MQTT broker (--demo N to try it)"
#: seconds (real) between two redraws of the grid and two writes of the export folder
REFRESH_S = 1.0
#: boards one demo process plays at most: each board holds about five file descriptors (its
#: MQTT client's socket and wake-up pair, the broker's side, its journal), and paho's network
#: loop uses select(), which takes descriptors below 1024
MAX_DEMO = 150
#: the demo's default speed: its game (about 4 minutes) plays in about a minute
DEMO_SPEED = 4.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--broker", metavar="mqtt://HOST[:PORT]",
        help="the hall's broker (default mqtt://localhost; with --demo an embedded one)",
    )  # fmt: skip
    parser.add_argument("--prefix", default=None, help="the hall's topic prefix (arbiter/hall)")
    parser.add_argument("--demo", type=int, metavar="N", help="play N simulated boards (1-150)")
    parser.add_argument(
        "--speed", type=float, default=DEMO_SPEED,
        help=f"--demo: how much faster than real time the boards play (default {DEMO_SPEED:g})",
    )  # fmt: skip
    parser.add_argument(
        "--journals", metavar="DIR", help="--demo: keep the boards' journals here",
    )  # fmt: skip
    parser.add_argument(
        "--board", action="append", default=[], metavar="[NAME=]PROTOCOL:DEVICE",
        help="an e-board attached to this computer, e.g. 3=dgt:/dev/ttyACM0 (repeatable);"
        " its journal goes to --journals (default ./arbiter-games)",
    )  # fmt: skip
    parser.add_argument(
        "--tc", help="--board: the time control of the attached boards' games (seconds form)",
    )  # fmt: skip
    parser.add_argument("--pairings", metavar="FILE", help="the round's pairings: TRF-16 or .csv")
    parser.add_argument("--round", type=int, metavar="N", help="the round of a TRF file")
    parser.add_argument(
        "--export", metavar="DIR", help="write the broadcast folder (LiveChess layout) here",
    )  # fmt: skip
    parser.add_argument(
        "--results", metavar="FILE", help="write the round's results here at the end (.csv or"
        " TRF-16)",
    )  # fmt: skip
    parser.add_argument(
        "--web", metavar="[HOST:]PORT",
        help="serve the hall's page (grid, alarms, each board's controls) on this port, on this"
        " machine only unless a HOST is given; the address and the token are printed at start",
    )  # fmt: skip
    parser.add_argument("--display", default="auto", help="auto, full or plain")
    parser.add_argument(
        "--duration", type=float, metavar="S", help="stop after S seconds (default: at the end"
        " of a demo; else Ctrl-C)",
    )  # fmt: skip
    parser.add_argument(
        "--silent", type=float, default=45.0, metavar="S",
        help="seconds without a message after which a board is silent (default 45)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from arbiter.hall.errors import HallError
    from arbiter.hall.topics import DEFAULT_PREFIX, BrokerAddress, parse_address

    prefix = args.prefix or DEFAULT_PREFIX
    if args.demo is not None and not 1 <= args.demo <= MAX_DEMO:
        raise HallError.of(
            N_("--demo {demo}: give 1 to {most} boards"), demo=args.demo, most=MAX_DEMO
        )
    if not args.speed > 0:
        raise HallError.of(N_("--speed {speed}: must be above 0"), speed=args.speed)
    rnd = None
    if args.pairings:
        from arbiter.hall.pairings import read_pairings

        rnd = read_pairings(Path(args.pairings), args.round)
    _check_results(args, rnd)
    broker = None
    if args.broker:
        address = parse_address(args.broker, prefix=prefix)
    elif args.demo is not None or args.board:
        from arbiter.hall.broker import EmbeddedBroker

        broker = EmbeddedBroker().start()
        address = BrokerAddress(broker.host, broker.port, prefix=prefix)
        _say(_words(EMBEDDED_BROKER).format(host=broker.host, port=broker.port))
    else:
        address = parse_address("mqtt://localhost", prefix=prefix)
    try:
        return _station(args, address, rnd)
    finally:
        if broker is not None:
            broker.stop()


#: the station's own lines (issue 15: in the user's language)
EMBEDDED_BROKER = N_("embedded broker (amqtt) on {host}:{port}")
SIMULATED_BOARDS = N_("{count} simulated boards at {speed:g}x; journals in {folder}")
LOCAL_BOARD = N_("board {name}: {source}, journal {journal}")
ALARM_LINE = N_("alarm: board {board}{when} {kind}: {text}")
SUMMARY = N_("{boards} boards, {alarms} alarms")
RESULTS_AT = N_("results: {path}")


def _words(message: str) -> str:
    """`message` (marked with `N_`) in the user's language (`--lang`, the environment)."""
    from arbiter.i18n import gettext, language_for

    return gettext(message, language_for())


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _station(args: argparse.Namespace, address: Any, rnd: Any) -> int:
    from arbiter.hall.station import Station

    station = Station(address, silent_s=args.silent).start()
    try:
        page = _page(args, station)  # a port in use stops the command before any board starts
    except BaseException:
        station.close()
        raise
    boards: list[Any] = []
    if args.demo is not None:
        boards = _demo_boards(args, address)
        if rnd is None:
            rnd = _demo_round(boards)
    boards += _local_boards(args, address, len(boards))
    names = {str(p.board): (p.white, p.black) for p in rnd.pairings} if rnd else None
    if page is not None:
        page.names = names
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *a: stop.set())
    tty = sys.stdout.isatty() if args.display == "auto" else args.display == "full"
    began = time.monotonic()
    shown = 0
    try:
        while not stop.is_set():
            if _done(args.duration, boards, time.monotonic() - began):
                break
            failed = [b for b in boards if getattr(b, "error", None) is not None]
            if failed:
                from arbiter.hall.errors import HallError

                raise HallError.of(
                    N_("board {board}: {error}"), board=failed[0].name, error=failed[0].error
                )
            shown = _draw(station, names, tty, shown)
            _export(args, station, rnd)
            stop.wait(REFRESH_S)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for board in boards:
            board.stop(linger_s=10)
        _draw(station, names, tty, shown)
        _export(args, station, rnd)
        _results(args, station, rnd)
        if page is not None:
            page.stop()
        station.close()
    if tty:
        from arbiter.hall.view import render
        from arbiter.i18n import language_for

        _say(render(station, names, language_for()))
    _say(_words(SUMMARY).format(boards=len(station.boards), alarms=len(station.alarms)))
    return 0


def _done(duration: float | None, boards: list[Any], elapsed: float) -> bool:
    """Whether the station stops now: after `duration` seconds when it is given (the boards'
    games may end before: the grid and the page keep showing their results until then),
    else when every board of this process has stopped (a demo's end; Ctrl-C otherwise)."""
    if duration is not None:
        return elapsed >= duration
    return bool(boards) and all(not b.running for b in boards)


def _demo_boards(args: argparse.Namespace, address: Any) -> list[Any]:
    from arbiter.hall.demo import SimulatedBoard, demo_streams, start_all
    from arbiter.i18n import language_for

    folder = Path(args.journals) if args.journals else Path(tempfile.mkdtemp(prefix="hall-"))
    boards = [
        SimulatedBoard(str(n), events, address, folder, speed=args.speed, fsync=False)
        for n, events in enumerate(demo_streams(args.demo), start=1)
    ]
    fields = {"count": len(boards), "speed": args.speed, "folder": folder}
    _say(_words(SIMULATED_BOARDS).format_map(localized(fields, language_for())))
    start_all(boards)
    return boards


def _page(args: argparse.Namespace, station: Any) -> Any:
    """`--web`: the hall's page, served; its address, the controls' token and the address
    of its LiveChess-style WebSocket feed printed, in the user's language."""
    if not args.web:
        return None
    from arbiter.hall.livechess import PATH as LIVECHESS_PATH
    from arbiter.hall.web import HallPage
    from arbiter.i18n import HALL_PAGE_AT, LIVECHESS_FEED_AT, gettext, language_for
    from arbiter.web.app import new_token
    from arbiter.web.server import parse_address

    host, port = parse_address(args.web)
    token = new_token()
    page = HallPage(station, token=token).start(host, port)
    language = language_for()
    _say(gettext(HALL_PAGE_AT, language).format(url=page.url, token=token))
    feed = "ws://" + page.url.removeprefix("http://").rstrip("/") + LIVECHESS_PATH
    _say(gettext(LIVECHESS_FEED_AT, language).format(url=feed))
    return page


def _local_boards(args: argparse.Namespace, address: Any, taken: int) -> list[Any]:
    """The boards attached to this computer (`--board`), started."""
    if not args.board:
        return []
    from arbiter.hall.local import LocalBoard, parse_board

    folder = Path(args.journals or "arbiter-games")
    options = {"tc": args.tc} if args.tc else {}
    boards = []
    try:
        for n, spec in enumerate(args.board, start=taken + 1):
            name, device = parse_board(spec, str(n))
            boards.append(LocalBoard(name, device, address, folder, options))
    except BaseException:
        for board in boards:
            board.session.close()
        raise
    for board in boards:
        board.start()
        source = board.session.sources[0].name
        _say(_words(LOCAL_BOARD).format(name=board.name, source=source, journal=board.journal_path))
    return boards


def _demo_round(boards: list[Any]) -> Any:
    from arbiter.hall.pairings import Pairing, Round

    pairings = []
    for board in boards:
        start = board.session.game.start
        pairings.append(Pairing(int(board.name), start.white or "?", start.black or "?"))
    return Round(1, pairings, "Demo hall")


def _draw(station: Any, names: Any, tty: bool, shown: int) -> int:
    """Redraw the grid (a terminal), or print the alarms not printed yet (plain lines)."""
    from arbiter.hall.alarms import kind_word
    from arbiter.hall.view import render
    from arbiter.i18n import language_for

    if tty:
        sys.stdout.write("\x1b[H\x1b[2J" + render(station, names, language_for()) + "\n")
        sys.stdout.flush()
        return shown
    with station.lock:
        fresh = station.alarms[shown:] if shown <= len(station.alarms) else []
        total = len(station.alarms)
    language = language_for()
    for a in fresh:
        when = f" t={number(a.t, language, '.1f')}" if a.t is not None else ""
        kind, text = kind_word(a.kind, language), a.text_in(language)
        _say(_words(ALARM_LINE).format(board=a.board, when=when, kind=kind, text=text))
    return total


def _export(args: argparse.Namespace, station: Any, rnd: Any) -> None:
    if not args.export or rnd is None:
        return
    from arbiter.hall.export import write_round

    with station.lock:
        replays = {name: link.replay for name, link in station.boards.items()}
        write_round(Path(args.export), rnd, replays)


def _check_results(args: argparse.Namespace, rnd: Any) -> None:
    """`--results` checked before the round begins, not found wrong at its end."""
    from arbiter.hall.errors import HallError

    if not args.results:
        return
    if rnd is None and args.demo is None:
        raise HallError.of(N_("--results needs the round's pairings (--pairings FILE)"))
    if not args.results.lower().endswith(".csv") and (rnd is None or rnd.trf_lines is None):
        raise HallError.of(
            N_("--results {path}: TRF results need TRF pairings; name a .csv file instead"),
            path=args.results,
        )


def _results(args: argparse.Namespace, station: Any, rnd: Any) -> None:
    if not args.results:
        return
    from arbiter.hall.errors import HallError
    from arbiter.hall.pairings import results_csv, results_trf

    if rnd is None:
        raise HallError.of(N_("--results needs the round's pairings (--pairings, or --demo)"))
    with station.lock:
        results = {name: link.replay.result() for name, link in station.boards.items()}
    path = Path(args.results)
    if path.suffix.lower() == ".csv":
        text, encoding = results_csv(rnd, results), "utf-8"
    else:
        text, encoding = results_trf(rnd, results), rnd.encoding  # as the program wrote it
    try:
        path.write_text(text, encoding=encoding, errors="replace")
    except OSError as exc:
        raise HallError.of(
            N_("--results {path}: cannot be written ({reason})"), path=path, reason=reason_of(exc)
        ) from None
    _say(_words(RESULTS_AT).format(path=path))
