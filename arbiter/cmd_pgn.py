"""`arbiter pgn FILE.jsonl`: the game record of an event stream or a journal, as PGN."""

from __future__ import annotations

import argparse
import sys

from arbiter.pgn_export import pgn_from_rulings
from arbiter.stream import open_text, read_events
from rules.events import Start
from rules.replay import replay

HELP = "write the PGN of an event stream or journal (moves, clocks, rulings, result)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the event stream or journal (JSON Lines; '-' for stdin)")
    parser.add_argument("--out", "-o", help="write the PGN to this file instead of stdout")


def run(args: argparse.Namespace) -> int:
    name = "stdin" if args.file == "-" else args.file
    events = list(read_events(open_text(args.file), name))
    rulings = replay(events)
    start = events[0]
    assert isinstance(start, Start)
    text = pgn_from_rulings(start, rulings)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
