"""`arbiter position`: can each side still mate? Is the position dead? (FIDE 5.2.2, 6.9, 7.5.5)

Reads FENs on stdin, one a line (blank lines skipped), and answers each on its own line as soon
as it is read, flushing, so the command works inside a pipe. A bad line is reported on stderr
with its line number; the others are still answered and the exit status is 1 at the end.

`--explain FEN` answers that one position instead, saying for each side why it cannot mate
(the proof in words), or that it can, or that it is undecided (the arbiter decides).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

import chess

from rules.errors import PositionError

if TYPE_CHECKING:
    from rules.winnability import Winnability

#: positions searched per side before answering null (rules.winnability.DEFAULT_BUDGET; a
#: test keeps the two equal, so that `--help` need not load the analysis)
DEFAULT_BUDGET = 2500

HELP = "say for each FEN on stdin whether each side can still mate and whether it is dead (5.2.2)"

_WORDS = {True: "can mate", False: "cannot mate", None: "undecided"}
_DEAD = {True: "dead position (5.2.2)", False: "not dead", None: "dead: undecided"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `arbiter position`."""
    parser.add_argument(
        "--json", action="store_true", help="one JSON object a line instead of plain text"
    )
    parser.add_argument(
        "--explain",
        metavar="FEN",
        help="explain, for this one position, why each side can or cannot mate",
    )
    parser.add_argument(
        "--budget",
        type=_positive_int,
        default=DEFAULT_BUDGET,
        metavar="N",
        help=f"positions searched per side before answering null (default {DEFAULT_BUDGET})",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def render(fen: str, result: Winnability, *, as_json: bool) -> str:
    """One output line for one position."""
    if as_json:
        return json.dumps(
            {
                "fen": fen,
                "winnable": {"white": result.white, "black": result.black},
                "dead": result.dead,
            }
        )
    return (
        f"{fen}: White {_WORDS[result.white]}, Black {_WORDS[result.black]}; {_DEAD[result.dead]}"
    )


def answer_stream(lines: TextIO, out: TextIO, err: TextIO, *, budget: int, as_json: bool) -> int:
    """Answer every FEN line of `lines`; 1 if any line was bad, else 0.

    With `as_json` every input line gets one output line, a bad or empty one
    `{"fen": ..., "error": ...}`, so that the answers pair with the questions line by line.
    """
    from rules.winnability import analyse, board_from_fen

    status = 0
    for number, raw in enumerate(lines, start=1):
        fen = raw.strip()
        if not fen:
            if as_json:
                print(json.dumps({"fen": "", "error": "an empty line"}), file=out, flush=True)
            continue
        try:
            board = board_from_fen(fen)
        except PositionError as exc:
            print(f"arbiter position: line {number}: {exc}", file=err, flush=True)
            if as_json:
                print(json.dumps({"fen": fen, "error": str(exc)}), file=out, flush=True)
            status = 1
            continue
        print(render(fen, analyse(board, budget=budget), as_json=as_json), file=out, flush=True)
    return status


def explain(fen: str, out: TextIO, err: TextIO, *, budget: int, as_json: bool) -> int:
    """Both sides' answers for one FEN with the reason of each "cannot mate"; 1 if it is bad."""
    from rules.winnability import analyse, board_from_fen, why_cannot_mate

    try:
        board = board_from_fen(fen)
    except PositionError as exc:
        print(f"arbiter position: {exc}", file=err, flush=True)
        return 1
    result = analyse(board, budget=budget)
    texts: dict[str, str] = {}
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        answer = result.side(color)
        if answer is True:
            texts[name] = f"{name.capitalize()} can mate (a helpmate exists)"
        elif answer is None:
            texts[name] = f"{name.capitalize()}: undecided: the arbiter decides"
        else:
            reason = why_cannot_mate(board, color, budget)
            texts[name] = reason or f"{name.capitalize()} cannot mate"
    if as_json:
        print(json.dumps({"fen": fen, "dead": result.dead, "explanation": texts}), file=out)
    else:
        print(f"{fen}: {_DEAD[result.dead]}", file=out)
        for text in texts.values():
            print(f"  {text}", file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    """Entry point of `arbiter position`."""
    if args.explain is not None:
        return explain(args.explain, sys.stdout, sys.stderr, budget=args.budget, as_json=args.json)
    return answer_stream(sys.stdin, sys.stdout, sys.stderr, budget=args.budget, as_json=args.json)
