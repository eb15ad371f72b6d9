"""`arbiter replay FILE.jsonl [--json] [--strict]`: rule on a recorded stream."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rules.events import Event
    from rules.rulings import Ruling

HELP = "rule on an event stream (JSON Lines) and print the rulings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the event stream or journal (JSON Lines; '-' for stdin)")
    parser.add_argument("--json", action="store_true", help="print the contract's JSON Lines")
    parser.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="teaching mode: refuse Article 4 breaches at once (overrides the stream)",
    )


def run(args: argparse.Namespace) -> int:
    from arbiter.records.stream import ReadPlace, open_stream, read_events
    from rules.errors import ArbiterError

    handle = open_stream(args.file)
    name = "stdin" if args.file == "-" else args.file
    out = sys.stdout
    place = ReadPlace()
    events = read_events(handle, name, torn="tail", warn=_warn, place=place)
    try:
        return _rule(args, events, out)
    except ArbiterError as exc:
        if place.failed:  # the reader's own error names file and line
            raise
        raise place.locate(exc, name) from None  # the rules': the line of the event read last


def _rule(args: argparse.Namespace, events: Iterator[Event], out: TextIO) -> int:
    """Rule on `events` and print the rulings as they come: each as it comes, so that an
    error later keeps those before it."""
    from arbiter.i18n import language_for
    from arbiter.outputs.render import ruling_line
    from arbiter.teach.lessons import lessons
    from rules.events import Start
    from rules.messages import ruling_json
    from rules.replay import iter_rulings

    first = next(events, None)  # the `start` names the rule profile, whose language is default
    language = language_for(first.rules if isinstance(first, Start) else None)
    stream: Iterable[Event] = events if first is None else itertools.chain([first], events)
    strict = bool(args.strict) or (isinstance(first, Start) and first.strict)
    rulings = iter_rulings(stream, strict=args.strict)
    if not strict or args.json:
        for ruling in rulings:  # each as it comes: a bad line later keeps those before it
            line = ruling_json(ruling, language) if args.json else ruling_line(ruling, language)
            out.write(line + "\n")
        out.flush()
        return 0
    # strict mode teaches: a lesson under each refusal, which needs its step's rulings
    step: list[Ruling] = []

    def write(step: list[Ruling]) -> None:
        taught = lessons(step, language)
        for i, ruling in enumerate(step):
            out.write(ruling_line(ruling, language) + "\n")
            if i in taught:
                out.write(" " * 11 + taught[i] + "\n")

    try:
        for ruling in rulings:
            if step and ruling.t != step[-1].t:
                write(step)
                step = []
            step.append(ruling)
    finally:
        write(step)  # also those before a bad line
        out.flush()
    return 0


def _warn(message: str) -> None:
    """A torn last line (a crash's): the record up to it is given, and this said."""
    from arbiter.i18n import WARNING, gettext, language_for, said_in

    language = language_for()
    text = gettext(WARNING, language).format(message=said_in(message, language))
    sys.stderr.write(f"arbiter replay: {text}\n")
