"""`arbiter simulate`: write a PGN game as the event stream a physical board would send.

The stream (JSON Lines, one contract event a line, events.md) goes to stdout, so it can be saved
as a replay file or piped into `arbiter replay`. The work is `arbiter.simulate.simulate_game`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arbiter.errors import SimulateError
from arbiter.simulate.sensors import SENSORS
from rules.i18n import N_

HELP = "write a PGN game as the event stream (JSON Lines) of a physical board with a clock"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pgn", type=Path, metavar="GAME.pgn", help="the PGN file")
    parser.add_argument(
        "--sensor",
        default="identity",
        help=f"the board to imitate: {', '.join(SENSORS)} (default identity)",
    )
    parser.add_argument(
        "--game", type=int, default=1, metavar="N", help="which game of the file, from 1"
    )
    parser.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of the hand orders and timings"
    )


def run(args: argparse.Namespace) -> int:
    from arbiter.simulate.game import simulate_game
    from arbiter.simulate.pgn import read_game

    game = read_game(args.pgn, args.game)
    where = SimulateError.of(N_("{path}, game {number}"), path=args.pgn, number=args.game)
    events = simulate_game(game, args.sensor, seed=args.seed, where=where)
    sys.stdout.write("".join(event.to_json() + "\n" for event in events))
    sys.stdout.flush()
    return 0
