"""`arbiter pgn FILE.jsonl`: the game record of an event stream or a journal, as PGN.

For a journal of `arbiter play`, the date and the PGN tags its events do not hold (Board,
ratings, FIDE ids) come from the record settings kept beside it (`arbiter.live.records`), so
that the PGN is the one the live game wrote.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator

from rules.i18n import N_
from rules.library_reasons import reason_of

RECORD_STOPS = N_("(the record stops here: the stream is broken after this point: {error})")

HELP = "write the PGN of an event stream or journal (moves, clocks, rulings, result)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the event stream or journal (JSON Lines; '-' for stdin)")
    parser.add_argument("--out", "-o", help="write the PGN to this file instead of stdout")


def run(args: argparse.Namespace) -> int:
    from arbiter.errors import StreamFileError
    from arbiter.i18n import gettext, language_for
    from arbiter.records.pgn import pgn_from_rulings
    from arbiter.records.stream import ReadPlace, open_stream, read_events
    from rules.errors import ArbiterError, EventError, EventOrderError
    from rules.events import Event, Start
    from rules.replay import iter_rulings, replay
    from rules.rulings import Ruling

    """Write the PGN; a stream broken part-way still gives the record of what came before.

    The error is then reported as usual (exit status 2) and the PGN says where it stops,
    so that nothing already read is lost.
    """
    name = "stdin" if args.file == "-" else args.file
    events: list[Event] = []
    rulings: list[Ruling] = []
    broken: EventError | None = None
    place = ReadPlace()

    def kept(stream: Iterable[Event]) -> Iterator[Event]:
        for event in stream:
            events.append(event)
            yield event

    handle = open_stream(args.file)
    try:
        read = read_events(handle, name, torn="tail", warn=_warn, place=place)
        rulings.extend(iter_rulings(kept(read)))
    except ArbiterError as exc:
        if place.failed and not isinstance(exc, EventError):
            raise  # the file cannot be read at all
        if place.failed:  # the reader's own error names file and line
            broken = exc
        else:  # the rules could not take the event read last: the record stops before it
            broken = place.locate(exc, name)
            if events:
                events.pop()
        if not (events and isinstance(events[0], Start)):
            raise broken from None
        rulings = replay(events)  # the events before the fault, ruled to their end
    start = events[0]
    if not isinstance(start, Start):  # replay has refused such a stream already
        raise EventOrderError.of(
            N_("{file}: the stream does not begin with a 'start' event"), file=name
        )
    language = language_for(start.rules)
    last_note = None
    if broken is not None:
        last_note = gettext(RECORD_STOPS, language).format(error=broken)
    date, tags = None, {}  # by default those journaled in `start.tags` (docs/events.md)
    if args.file != "-":  # a journal of `arbiter play`: the record settings kept beside it
        from pathlib import Path

        from arbiter.live.records import load_info

        info, warning = load_info(Path(args.file))
        if warning is not None:
            _warn(warning)
        if info is not None:  # kept beside it: also the options given on a resume
            date, tags = info.date, info.tags
    text = pgn_from_rulings(
        start, rulings, last_note=last_note, date=date, tags=tags, language=language,
    )
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise StreamFileError.of(
                N_("{path}: cannot be written ({reason})"), path=args.out, reason=reason_of(exc)
            ) from None
    else:
        sys.stdout.write(text)
    if broken is not None:
        raise broken
    return 0


def _warn(message: str) -> None:
    """A torn last line (a crash's): the record up to it is given, and this said."""
    from arbiter.i18n import WARNING, gettext, language_for, said_in

    language = language_for()
    text = gettext(WARNING, language).format(message=said_in(message, language))
    sys.stderr.write(f"arbiter pgn: {text}\n")
