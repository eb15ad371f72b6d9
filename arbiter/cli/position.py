"""`arbiter position`: can each side still mate? Is the position dead? (FIDE 5.2.2, 6.9, 7.5.5)

Reads FENs on stdin, one a line (blank lines skipped), and answers each on its own line as soon
as it is read, flushing, so the command works inside a pipe. A bad line is reported on stderr
with its line number; the others are still answered and the exit status is 1 at the end.

`--explain FEN` answers that one position instead, saying for each side why it cannot mate
(the proof in words), or that it can, or that it is undecided (the arbiter decides).

The words are in the user's language (`--lang`, the environment): the proofs are typed
reasons (`rules.winnability.explain.CannotMate`) said by the rules' catalogue; `--json`
keeps its keys and values, its `explanation` sentences in the language too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from arbiter.cli.localize import argv_error
from rules.errors import PositionError
from rules.i18n import N_, Np_, translations

if TYPE_CHECKING:
    import chess

    from rules.winnability import Winnability
    from rules.winnability.explain import CannotMate

#: positions searched per side before answering null (rules.winnability.DEFAULT_BUDGET; a
#: test keeps the two equal, so that `--help` need not load the analysis)
DEFAULT_BUDGET = 2500

HELP = "say for each FEN on stdin whether each side can still mate and whether it is dead (5.2.2)"

_WORDS = {
    True: Np_("position", "can mate"),
    False: Np_("position", "cannot mate"),
    None: Np_("position", "undecided"),
}
_DEAD = {
    True: Np_("position", "dead position (5.2.2)"),
    False: Np_("position", "not dead"),
    None: Np_("position", "dead: undecided"),
}
ANSWER = N_("{fen}: White {white}, Black {black}; {dead}")
CAN_MATE = N_("{side} can mate (a helpmate exists)")
UNDECIDED = N_("{side}: undecided: the arbiter decides")
AN_EMPTY_LINE = "an empty line"  # --json's error value: the contract's English


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
        said = PositionError.of(N_("not a whole number: {text!r}"), text=text)
        raise argparse.ArgumentTypeError(argv_error(said)) from None
    if value < 1:
        said = PositionError.of(N_("must be at least 1, got {value}"), value=value)
        raise argparse.ArgumentTypeError(argv_error(said))
    return value


def render(fen: str, result: Winnability, *, as_json: bool, language: str = "en") -> str:
    """One output line for one position (plain text in `language`)."""
    if as_json:
        return json.dumps(
            {
                "fen": fen,
                "winnable": {"white": result.white, "black": result.black},
                "dead": result.dead,
            }
        )
    tr = translations(language, "arbiter", _locale())
    return tr.gettext(ANSWER).format(
        fen=fen,
        white=tr.pgettext(*_WORDS[result.white]),
        black=tr.pgettext(*_WORDS[result.black]),
        dead=tr.pgettext(*_DEAD[result.dead]),
    )


def _locale() -> str:
    from arbiter.i18n import LOCALE_DIR

    return str(LOCALE_DIR)


def answer_stream(lines: TextIO, out: TextIO, err: TextIO, *, budget: int, as_json: bool) -> int:
    """Answer every FEN line of `lines`; 1 if any line was bad, else 0.

    With `as_json` every input line gets one output line, a bad or empty one
    `{"fen": ..., "error": ...}`, so that the answers pair with the questions line by line.
    """
    from arbiter.i18n import AT_LINE, error_text, gettext, language_for
    from rules.winnability import analyse, board_from_fen

    language = language_for()
    status = 0
    for number, raw in enumerate(lines, start=1):
        fen = raw.strip()
        if not fen:
            if as_json:
                print(json.dumps({"fen": "", "error": AN_EMPTY_LINE}), file=out, flush=True)
            continue
        try:
            board = board_from_fen(fen)
        except PositionError as exc:
            said = gettext(AT_LINE, language).format(line=number, fault=error_text(exc, language))
            print(f"arbiter position: {said}", file=err, flush=True)
            if as_json:
                print(json.dumps({"fen": fen, "error": str(exc)}), file=out, flush=True)
            status = 1
            continue
        answer = render(fen, analyse(board, budget=budget), as_json=as_json, language=language)
        print(answer, file=out, flush=True)
    return status


def explain(fen: str, out: TextIO, err: TextIO, *, budget: int, as_json: bool) -> int:
    """Both sides' answers for one FEN with the reason of each "cannot mate"; 1 if it is bad."""
    import chess

    from arbiter.i18n import error_text, language_for
    from rules.messages import SIDE_NAMES
    from rules.winnability import analyse, board_from_fen
    from rules.winnability.explain import say

    language = language_for()
    try:
        board = board_from_fen(fen)
    except PositionError as exc:
        print(f"arbiter position: {error_text(exc, language)}", file=err, flush=True)
        return 1
    result = analyse(board, budget=budget)
    texts: dict[str, str] = {}
    tr = translations(language, "arbiter", _locale())
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        answer = result.side(color)
        side = translations(language).pgettext(*SIDE_NAMES[name])
        if answer is True:
            texts[name] = tr.gettext(CAN_MATE).format(side=side)
        elif answer is None:
            texts[name] = tr.gettext(UNDECIDED).format(side=side)
        else:
            texts[name] = say(why_not(board, color), language)
    if as_json:
        print(json.dumps({"fen": fen, "dead": result.dead, "explanation": texts}), file=out)
    else:
        print(f"{fen}: {tr.pgettext(*_DEAD[result.dead])}", file=out)
        for text in texts.values():
            print(f"  {text}", file=out)
    return 0


def why_not(board: chess.Board, color: chess.Color) -> CannotMate:
    """The proof that `color` cannot mate, where `analyse` answered False: as
    `rules.winnability.verdict` finds it (checkmated, a static proof, else the search)."""
    from rules.winnability.explain import CannotMate, static_proof

    if board.is_checkmate() and board.turn == color:
        return CannotMate(color, "checkmated")
    return static_proof(board, color) or CannotMate(color, "searched")


def run(args: argparse.Namespace) -> int:
    """Entry point of `arbiter position` (what it needs is imported here and below, so that
    `arbiter --help` builds its parser without the rules core: tests/arbiter/test_cli_start.py)."""
    if args.explain is not None:
        return explain(args.explain, sys.stdout, sys.stderr, budget=args.budget, as_json=args.json)
    return answer_stream(sys.stdin, sys.stdout, sys.stderr, budget=args.budget, as_json=args.json)
