"""The composition root of a live game: settings in, a running `Session` out.

`open_sources` turns the settings (`arbiter.live.config`) into input sources,
`reopen_sources` turns the names a journal's `start.sources` recorded back into sources (so
a game restarted by systemd after a crash goes on with the same inputs), `new_game` and
`resume_game` build the `Session`, and `run_session` runs it, with SIGTERM and Ctrl-C as a
clean stop, and writes the PGN. `arbiter play`, `arbiter resume` and `arbiter demo` start
their games here.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import signal
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from arbiter.clock import Clock, MonotonicClock
from arbiter.demo import SIM_BOARDS
from arbiter.errors import JournalError, SessionError, SourceError
from arbiter.i18n import Localized, Said, error_text, gettext
from arbiter.inputs.base import DEMO_SOURCES, Source
from arbiter.inputs.board import BoardAdapter
from arbiter.inputs.camera import CameraSource
from arbiter.inputs.gpio import GpioSource
from arbiter.inputs.keyboard import KeyboardSource
from arbiter.inputs.stream import StreamSource
from arbiter.live.commands import COMMANDS_HELP
from arbiter.live.config import PLAY_KEYS, Settings, load_config, merge
from arbiter.live.records import RecordInfo, load_info, save_info, tags_of
from arbiter.live.session import VERDICT_WAIT_S, Session, rebuild
from arbiter.live.virtual_play import CommandSource, open_virtual_board
from arbiter.outputs.display import Display, say
from arbiter.records.journal import JournalWriter, read_journal
from rules.errors import ArbiterError
from rules.events import Event, Start
from rules.i18n import N_
from rules.library_reasons import reason_of

#: seconds a finished game waits for the hall's station to confirm it holds the whole game
PUBLISH_LINGER_S = 10.0
#: the settings that name an input source
SOURCE_KEYS = ("events", "gpio", "board", "camera", "video")
#: `--board gpio-matrix`: a reed-switch board on the Pi's GPIO instead of a serial e-board
GPIO_MATRIX = "gpio-matrix"
#: `--board gpio-matrix` with no `--gpio`, where the Pi's GPIO library cannot be had
NO_PI_FOR_MATRIX = N_(
    "--board gpio-matrix reads a reed-switch board wired to a Raspberry Pi's GPIO: {error}."
    " Elsewhere, --gpio fake plays it from the keyboard"
)
#: how a source's name in `start.sources` carries its calibration file (a camera, a Certabo
#: board), so that `arbiter resume` uses it again
CALIBRATION_TAG = " calibration="


def _available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def _panel_mode(strict: bool, feedback: bool) -> Any:
    from rules.supervision import PanelMode

    return PanelMode(strict=strict, feedback=feedback)


def open_sources(
    settings: Settings, clock: Clock, strict: bool | None = None, placement: str | None = None
) -> tuple[list[Source], Start | None]:
    """The sources the settings name, and the `start` of an `--events` stream if it has one.

    `strict` (the resumed game's own) decides what the panel may show; else the settings.
    `placement`: where the pieces of a resumed game stand (a virtual board is set up so).
    """
    if strict is None:
        strict = bool(settings.start_fields().get("strict"))
    sources: list[Source] = []
    stream_start: Start | None = None
    events = settings.get("events")
    if events is not None:
        stream = StreamSource.open(events)
        stream_start = stream.first_start()
        sources.append(stream)
    gpio = settings.get("gpio", "none")
    board = settings.get("board")
    matrix = settings.matrix()
    pi_for_matrix = False  # the Pi's own GPIO taken for `--board gpio-matrix`, none being given
    if board == GPIO_MATRIX:
        # the reed-switch board of hardware_docs/reed-matrix.md, wired to the Pi's header
        from firmware_bridge.gpio.pins import MatrixSettings

        board, matrix = None, matrix or MatrixSettings()
        if gpio == "none":
            gpio, pi_for_matrix = "rpi", True
    if gpio != "none":
        from firmware_bridge.errors import GpioUnavailable

        mode = _panel_mode(strict, settings.get("feedback", False))
        try:
            sources.append(GpioSource(gpio, settings.pin_map(), mode, matrix=matrix))
        except GpioUnavailable as exc:
            if not pi_for_matrix:
                raise
            raise SourceError.of(NO_PI_FOR_MATRIX, error=exc) from None  # trial row 21
    virtual = None
    if board in SIM_BOARDS:
        # a virtual board played by hand with typed commands (arbiter.live.virtual_play)
        virtual = open_virtual_board(board, clock, placement)
        sources.append(virtual)
    elif board is not None:
        mode = strict or bool(settings.get("feedback", False))
        sources.append(_board(board, clock, settings, feedback=mode))
    camera, video = settings.get("camera"), settings.get("video")
    if camera is not None or video is not None:
        sources.append(camera_source(settings.get("calibration"), camera, video))
    if virtual is not None and settings.get("keyboard") is not False and events != "-":
        sources.append(CommandSource(virtual))
    elif _keyboard_wanted(settings, events):
        sources.append(KeyboardSource())
    return sources, stream_start


def _keyboard_wanted(settings: Settings, events: str | None) -> bool:
    wanted = settings.get("keyboard")
    if wanted is False or events == "-":
        return False
    return KeyboardSource.usable()


def _board(
    spec: str,
    clock: Clock,
    settings: Settings,
    *,
    feedback: bool,
    calibration: str | None = None,
) -> Source:
    """The e-board of `--board`, with its calibration (Certabo: `calibration`, else the
    settings'), capture file, DGT 3000 orientation, and whether it may show duties and moves
    (strict mode or `--feedback`).

    A Certabo board's calibration goes into its name, so that `arbiter resume` reads the
    pieces with it again (without it the board would tell only where pieces stand)."""
    if not _available("firmware_bridge.source"):
        raise SourceError.of(
            N_("--board {spec}: e-boards are not available in this build"), spec=spec
        )
    calibration = calibration or settings.get("calibration")
    try:
        source = BoardAdapter(
            spec,
            clock,
            calibration,
            capture=settings.get("capture"),
            clock_white=settings.get("clock_white"),
            feedback=feedback,
        )
    except ArbiterError as exc:
        raise _with_all_boards(exc) from None
    if calibration is not None and getattr(source.board.codec, "calibration", None) is not None:
        source.name += f"{CALIBRATION_TAG}{os.path.abspath(calibration)}"
    return source


def _with_all_boards(exc: ArbiterError) -> ArbiterError:
    """A bad `--board` names every protocol of the e-board codecs: add what `play` knows
    besides (trial row 21: the reed-switch board on the Pi's GPIO and the virtual boards)."""
    fields = getattr(exc, "fields", None)
    if exc.template is None or not isinstance(fields, dict) or "known" not in fields:
        return exc
    known = ", ".join([fields["known"], GPIO_MATRIX, *SIM_BOARDS])
    return type(exc).of(exc.template, **{**fields, "known": known})


def camera_source(calibration: str | None, camera: int | str | None, video: str | None) -> Source:
    """The camera `--camera`/`--video` name, read with `--calibration` (also `arbiter teach`'s).

    Raises:
        SourceError: both given, no calibration, or no camera support in this build.
    """
    if camera is not None and video is not None:
        raise SourceError.of(N_("--camera and --video: give one of them, not both"))
    if not (_available("vision.sources") and _available("vision.tracker")):
        raise SourceError.of(N_("--camera/--video: the camera is not available in this build"))
    if calibration is None:
        raise SourceError.of(
            N_("--camera/--video need --calibration FILE (made by `arbiter calibrate`)")
        )
    source = CameraSource(calibration, camera, video)
    source.name += f"{CALIBRATION_TAG}{os.path.abspath(calibration)}"
    return source


def reopen_sources(
    names: Sequence[str], settings: Settings, clock: Clock, strict: bool = False
) -> list[Source]:
    """The sources a journal's `start.sources` named (see `Source.name`); `strict` is the
    game's own, for what the panel may show."""
    sources: list[Source] = []
    for name in names:
        kind, _, rest = name.partition(":")
        if kind == "events":
            stream = StreamSource.open(rest or "-")
            stream.first_start()
            sources.append(stream)
        elif kind == "gpio":
            mode = _panel_mode(strict, settings.get("feedback", False))
            backend, _, extra = rest.partition("+")
            matrix = settings.matrix() if extra == "matrix" else None
            if extra == "matrix" and matrix is None:
                from firmware_bridge.gpio.pins import MatrixSettings

                matrix = MatrixSettings()  # the journal's game had a reed board: keep it
            sources.append(GpioSource(backend, settings.pin_map(), mode, matrix=matrix))
        elif kind == "board":
            mode = strict or bool(settings.get("feedback", False))
            spec, _, cal = rest.partition(CALIBRATION_TAG)
            _refuse_remote(spec)
            sources.append(_board(spec, clock, settings, feedback=mode, calibration=cal or None))
        elif kind in ("camera", "video"):
            where, _, cal = rest.partition(CALIBRATION_TAG)
            camera = int(where) if kind == "camera" else None
            video = where if kind == "video" else None
            sources.append(camera_source(cal or settings.get("calibration"), camera, video))
        elif kind == "commands":
            continue  # typed commands drove a virtual board, which cannot be reopened
        elif kind == "keyboard":
            if settings.get("keyboard") is not False and KeyboardSource.usable():
                sources.append(KeyboardSource())
        else:
            raise SourceError.of(
                N_("the journal names a source this build does not know: {name!r}"), name=name
            )
    if not any(isinstance(s, KeyboardSource) for s in sources) and _keyboard_wanted(
        settings, None if "events:-" not in names else "-"
    ):
        sources.append(KeyboardSource())
    return sources


def _refuse_remote(spec: str) -> None:
    """A journal names only local devices: a URL (`socket://`, `rfc2217://`, ...) that
    pyserial would connect to is opened only when the command line names it (`--board`),
    so that a journal from elsewhere cannot make `arbiter resume` reach the network."""
    _, _, device = spec.partition(":")
    if "://" in device:
        raise SourceError.of(
            N_(
                "the journal names the board {spec!r}, a network address, not a local device;"
                " a journal is not trusted to open connections: name it with --board if you"
                " mean it"
            ),
            spec=spec,
        )


def gone_inputs(names: Sequence[str]) -> Said | None:
    """Why the inputs a journal's `start.sources` names cannot be reopened, or None (the
    English, keeping the error that says it in the user's language).

    The demo's own inputs (its stream, the presses beside its virtual board) and a virtual
    board (a pseudo-terminal in a temporary folder, `firmware_bridge.virtual`) lived only as
    long as the program that played the game. Reopening them would fail with a puzzling error,
    or go on with nothing that could move a piece until a flag fell.
    """
    from firmware_bridge.virtual import is_virtual_path

    if any(name in DEMO_SOURCES for name in names):
        if any(name.startswith("board:") for name in names):
            return Said(
                SessionError.of(
                    N_(
                        "its game was played by `arbiter demo` on a virtual e-board, and the "
                        "demo's inputs ended with it: they cannot be reopened"
                    )
                )
            )
        return Said(
            SessionError.of(
                N_(
                    "its game was played by `arbiter demo`, and the demo's inputs ended with "
                    "it: they cannot be reopened"
                )
            )
        )
    for name in names:
        kind, _, spec = name.partition(":")
        device = spec.partition(CALIBRATION_TAG)[0].partition(":")[2]
        # the board's folder lives as long as the program that made it; while it is there,
        # the board is only unplugged (its symlink gone) and is waited for like a real one
        folder = os.path.dirname(device)
        if kind == "board" and is_virtual_path(device) and not os.path.exists(folder):
            return Said(
                SessionError.of(
                    N_(
                        "its game was played on a virtual board ({device}), which ended with "
                        "the program that made it: it cannot be reopened"
                    ),
                    device=device,
                )
            )
    return None


def names_a_source(settings: Settings) -> bool:
    """Do the settings name any input (else a resume takes the journal's)?"""
    return any(settings.get(k) not in (None, "none") for k in SOURCE_KEYS)


def start_of(settings: Settings, sources: Sequence[Source], stream_start: Start | None) -> Start:
    """The game's `start`: the stream's own, the sources' sensor settings, then the settings."""
    fields: dict[str, Any] = {}
    if stream_start is not None:
        fields.update(stream_start.to_dict())
        for key in ("t", "type", "sources"):
            fields.pop(key, None)
    for source in sources:
        extra = getattr(source, "start_settings", None)
        if callable(extra):
            fields.update(extra())
    fields.update(settings.start_fields())
    # the record's tags go in the journal itself (docs/events.md `start.tags`), so that a
    # journal copied anywhere gives the same PGN headers (`arbiter pgn`)
    tags = {"Date": f"{datetime.now():%Y.%m.%d}", **(fields.get("tags") or {})}
    tags.update(tags_of(settings.play))
    fields["tags"] = tags
    return Start(t=0.0, sources=[s.name for s in sources], **fields)


def make_display(settings: Settings, start: Start, sources: Sequence[Source]) -> Display:
    """The terminal display (full screen on a terminal, plain lines otherwise)."""
    choice = settings.get("display", "auto")
    tty = None if choice == "auto" else choice == "full"
    from arbiter.i18n import commands_line, game_title, keys_line, language_for

    language = language_for(start.rules)
    extras = [start.rules or "fide-2023"] + (["strict"] if start.strict else [])
    title = game_title(start.white, start.black, start.time_control, extras, language)
    keyboard = any(isinstance(s, KeyboardSource) for s in sources)
    speaker = None
    if settings.get("speak"):
        from arbiter.outputs.speech import open_speaker

        mode = _panel_mode(bool(start.strict), bool(settings.get("feedback")))
        speaker = open_speaker(language, mode)
    typed = any(isinstance(s, CommandSource) for s in sources)
    keys = keys_line(language) if keyboard else ""
    idle = commands_line(COMMANDS_HELP, language) if typed else keys
    display = Display(tty=tty, title=title, footer=idle, language=language, speaker=speaker)

    def prompt(line: str) -> None:
        display.footer = f"> {line}" if line else idle

    for source in sources:
        if isinstance(source, KeyboardSource | CommandSource):
            source.prompt = prompt
    return display


#: when a new live game's clocks start unless told (`--clock-start`): at Black's press, as on
#: a DGT 3000 (issue 12 item 7; White's first move made before it starts Black's clock)
DEFAULT_CLOCK_START = "black_press"


def new_game(settings: Settings, journal_path: Path, clock: Clock | None = None) -> Session:
    """A new live game, its `start` journaled first (`clock`: a test's, else real time)."""
    clock = clock if clock is not None else MonotonicClock()
    sources, stream_start = open_sources(settings, clock)
    start = start_of(settings, sources, stream_start)
    display = make_display(settings, start, sources)
    session = Session.new(start, journal_path, clock, sources=sources, display=display)
    wait_for_verdicts(session)
    clock_start = settings.get("clock_start") or DEFAULT_CLOCK_START
    if clock_start in ("black_press", "white_move") and session.game.timed and not stream_start:
        session.wait_for_start(clock_start)  # a scripted stream has its own presses
    return session


def load_unfinished(path: Path) -> tuple[list[Event], list[str]] | None:
    """The events of the journal at `path` if it holds a game still going on, else None."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    events, warnings = read_journal(path)
    game, _ = rebuild(events)
    return None if game.over else (events, warnings)


def archive(path: Path) -> Path:
    """Move a finished game's journal aside (`NAME.1.jsonl`, `.2`, ...) for a new game."""
    n = 1
    while True:
        target = path.with_name(f"{path.stem}.{n}{path.suffix}")
        if not target.exists():
            break
        n += 1
    try:
        path.rename(target)
    except OSError as exc:
        raise SessionError.of(
            N_("journal {path}: cannot be moved to {target} ({reason})"),
            path=path,
            target=target,
            reason=reason_of(exc),
        ) from None
    return target


def resume_game(
    path: Path,
    history: list[Event],
    settings: Settings,
    *,
    gap_s: float | None = None,
    counted: bool = False,
) -> Session:
    """Continue the game of the journal at `path` (events.md `restart`)."""
    start = history[0]
    assert isinstance(start, Start)
    last_t = history[-1].t
    t0 = last_t + (gap_s if counted and gap_s is not None else 0.0)
    clock = MonotonicClock(t0)
    gone = None if names_a_source(settings) else gone_inputs(start.sources or [])
    if gone is not None:
        raise SessionError.of(
            N_(
                "journal {path}: {gone}. The journal keeps the game as far as it went "
                "(`arbiter pgn {path}` writes its record); to play it on, name the inputs, e.g."
                " `arbiter resume {path} --board dgt:/dev/ttyACM0` or `--events FILE`"
            ),
            path=path,
            gone=gone.error,
        )
    if names_a_source(settings):
        placement = rebuild(history)[0].board.board_fen()  # for a virtual board
        sources, _ = open_sources(settings, clock, strict=start.strict, placement=placement)
    else:
        sources = reopen_sources(start.sources or [], settings, clock, strict=start.strict)
    for source in sources:
        if isinstance(source, StreamSource):
            source.skip_through(last_t, history)
        elif isinstance(source, BoardAdapter):
            # the game goes on: a board not plugged in yet is waited for, as after a pulled
            # cable, so that a service restarted at boot does not fail before the board is up;
            # what it sent while nobody read it gives way to its first full report
            source.wait_for_port = True
            source.after_restart = True
    display = make_display(settings, start, sources)
    session = Session.resume(
        history,
        JournalWriter(path),
        lambda t: clock,
        gap_s=gap_s,
        counted=counted,
        sources=sources,
        display=display,
    )
    wait_for_verdicts(session)
    return session


def wait_for_verdicts(session: Session) -> None:
    """A game the arbiter plays at a keyboard (typed commands, keys) waits, after a claim
    the rules upheld ended it, for the arbiter's verdict (`Session.verdict_wait_s`)."""
    if any(isinstance(s, CommandSource | KeyboardSource) for s in session.sources):
        session.verdict_wait_s = VERDICT_WAIT_S


def run_session(session: Session, info: RecordInfo) -> tuple[str, Path | None]:
    """Run `session`, rewriting the PGN of `info` as it goes; returns how it ended.

    SIGTERM (systemd) and Ctrl-C (SIGINT) stop it cleanly, as the `q` key does: the PGN so
    far is written and the journal stays resumable. A second Ctrl-C interrupts at once. A
    SIGINT the program was started to ignore (a background job) stays ignored.
    """
    pgn = info.pgn
    previous_int = signal.getsignal(signal.SIGINT)
    if previous_int is None:  # set outside Python: put back the default at the end
        previous_int = signal.SIG_DFL

    def on_stop(signum: int, frame: object) -> None:
        session.stop()
        if signum == signal.SIGINT:
            signal.signal(signal.SIGINT, previous_int)  # the next Ctrl-C is not so patient

    session.keep_pgn(pgn, info.date, info.tags)
    previous_term = signal.signal(signal.SIGTERM, on_stop)
    if previous_int is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, on_stop)
    date = info.date
    try:
        session.run()
    except JournalError as exc:
        # a full disk (ENOSPC) or a file-size limit (EFBIG): nothing unjournaled was ruled on,
        # so the game stops here with its record kept; the journal resumes it exactly
        saved = save_record(session, pgn, date, info.tags)
        raise SessionError.of(
            N_(
                "{error}: the game stops here. {saved} Free some space, then `arbiter resume"
                " {journal}` goes on from the last event the journal holds."
            ),
            error=exc,
            saved=saved,
            journal=session.journal_path(),
        ) from None
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        signal.signal(signal.SIGINT, previous_int)
    written = session.write_pgn(pgn, date=info.date, tags=info.tags) if pgn else None
    game = session.game
    from arbiter.i18n import STOPPED, game_over_line, gettext

    if game.over:
        return game_over_line(str(game.result), str(game.reason), session.language), written
    return gettext(STOPPED, session.language), written


#: where the record of a game stopped by its journal went (`save_record`)
PGN_SO_FAR = N_("The PGN so far is in {path}.")
PGN_PRINTED = N_("the PGN so far is printed above.")
PGN_NOT_WRITTEN = N_("{error}; the PGN so far is printed above.")


def save_record(
    session: Session, pgn: str | None, date: str, tags: dict[str, str] | None = None
) -> Localized:
    """Keep the record of a game the journal can no longer follow (D9): the PGN so far goes
    to `pgn` if it can be written there, else to standard output. Says where it went, in
    the reader's language."""
    failed: SessionError | None = None
    if pgn:
        try:
            written = session.write_pgn(pgn, date=date, tags=tags)
            return Localized(lambda language: gettext(PGN_SO_FAR, language).format(path=written))
        except SessionError as exc:
            failed = exc
    from arbiter.records.pgn import pgn_from_rulings

    text = pgn_from_rulings(session.game.start, session.rulings, date=date, tags=tags)
    with contextlib.suppress(OSError):
        sys.stdout.write(f"\n{text}\n")
        sys.stdout.flush()
    if failed is None:
        return Localized(lambda language: gettext(PGN_PRINTED, language))
    error = failed
    return Localized(
        lambda language: gettext(PGN_NOT_WRITTEN, language).format(
            error=error_text(error, language)
        )
    )


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings: the config file, then the options given on the command line."""
    base = load_config(args.config) if args.config else Settings()
    options = {k: getattr(args, k) for k in PLAY_KEYS if hasattr(args, k)}
    return merge(base, options, getattr(args, "set", []))


def default_journal() -> Path:
    """`./arbiter-games/game-YYYYMMDD-HHMMSS.jsonl` (the wall clock only names the file)."""
    return Path("arbiter-games") / f"game-{datetime.now():%Y%m%d-%H%M%S}.jsonl"


def record_info(settings: Settings, journal: Path, start: Start, *, resumed: bool) -> RecordInfo:
    """The game's record settings (`arbiter.live.records.RecordInfo`), kept beside the
    journal: the tags journaled in `start.tags` (the options' and today's date, for a new
    game); on a resume those kept beside it over them, then the options given now (a warning
    if the kept ones could not be read)."""
    journaled = dict(start.tags or {})
    begun = journaled.pop("Date", None)
    kept = None
    if resumed:
        kept, warning = load_info(journal)
        if warning is not None:
            from arbiter.i18n import WARNING, language_for, said_in

            language = language_for(settings.get("rules"))
            text = gettext(WARNING, language).format(message=said_in(warning, language))
            sys.stderr.write(f"arbiter: {text}\n")
    pgn = settings.get("pgn")
    info = RecordInfo(
        pgn=str(Path(pgn).resolve()) if pgn else kept.pgn if kept else None,
        date=kept.date if kept else begun or f"{datetime.now():%Y.%m.%d}",
        tags={**journaled, **(kept.tags if kept else {}), **tags_of(settings.play)},
    )
    save_info(journal, info)
    return info


def report(session: Session, info: RecordInfo, path: Path, publish: str | None = None) -> int:
    """Run the session, then say how it ended and where the files are; with `publish`, the
    game goes to the hall's broker as it is played (`arbiter.hall.publisher`)."""
    publisher = None
    if publish:
        from arbiter.hall.publisher import publish_session

        publisher = publish_session(session, publish, path)
    try:
        ended, written = run_session(session, info)
    finally:
        if publisher is not None:
            over = session.game.over
            held = publisher.close(linger_s=PUBLISH_LINGER_S if over else 0.0)
            if over and not held:
                sys.stderr.write(
                    "arbiter: the hall's station did not confirm that it holds the whole game;"
                    f" the journal {path} holds it all (`arbiter pgn {path}` writes its PGN)\n"
                )
    from arbiter.i18n import JOURNAL_AT, PGN_AT, gettext

    said = gettext(JOURNAL_AT, session.language).format(path=path)
    if written is not None:
        said += "\n" + gettext(PGN_AT, session.language).format(path=written)
    say(f"{ended}\n{said}")
    return 0
