"""Games for virtual boards in the hall's tests and benches: corpus games as board streams."""

from __future__ import annotations

from pathlib import Path

import chess.pgn

from arbiter.errors import SimulateError
from arbiter.simulate.game import simulate_game
from rules.events import Event


def corpus_streams(pgn: Path, count: int, *, max_s: float, skip: int = 0) -> list[list[Event]]:
    """The streams of the first `count` games of `pgn` (after `skip`) that a board can
    play and that last at most `max_s` seconds of game time."""
    streams: list[list[Event]] = []
    with pgn.open(encoding="utf-8") as f:
        n = 0
        while len(streams) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            n += 1
            if n <= skip:
                continue
            try:
                events = simulate_game(game, "identity", seed=n, where=f"game {n}")
            except SimulateError:
                continue
            if events[-1].t <= max_s:
                streams.append(events)
    if len(streams) < count:
        raise RuntimeError(f"{pgn} has only {len(streams)} games that fit")
    return streams
