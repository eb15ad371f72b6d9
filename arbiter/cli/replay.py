"""`arbiter replay FILE.jsonl [--json] [--strict]`: rule on a recorded stream."""

from __future__ import annotations

import argparse
import sys

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
    from arbiter.outputs.render import ruling_line
    from arbiter.records.stream import open_stream, read_events
    from rules.messages import ruling_json
    from rules.replay import iter_rulings

    handle = open_stream(args.file)
    name = "stdin" if args.file == "-" else args.file
    out = sys.stdout
    events = read_events(handle, name, torn="tail", warn=_warn)
    for ruling in iter_rulings(events, strict=args.strict):
        out.write((ruling_json(ruling) if args.json else ruling_line(ruling)) + "\n")
    out.flush()
    return 0


def _warn(message: str) -> None:
    """A torn last line (a crash's): the record up to it is given, and this said."""
    sys.stderr.write(f"arbiter replay: warning: {message}\n")
