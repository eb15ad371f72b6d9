"""One pass over the game corpus per sensor kind, shared by the two tests that need it.

The golden digest (`tests/golden`) and the game-score test (`tests/arbiter/test_simulate.py`)
both simulate every game of ../shared/data/games for a sensor kind (seed 0) and rule it with
a fresh `Game`: some 70 s of CPU a sensor kind. `corpus_pass(sensor, cache)` does it once per
test session: it feeds the golden digest (`bench/rulings_digest.py: games_digest`) and checks
each game's rulings against its game score on the way, keeping only the digest's summary and
the disagreements in words (not the rulings: four sensor kinds of them would not fit in memory).

What a pass leaves is also kept in pytest's cache (.pytest_cache), under a key that is the
SHA-256 of everything the pass runs or reads: every file of `rules/`, `arbiter/` and
`firmware_bridge/`, `bench/rulings_digest.py`, this file, the corpus's PGN files, the
python-chess version and the Python version. A later run whose key is the same reuses it (the
pass is deterministic: seed 0, no clock, no randomness); any change of a byte of that code or
data, or of those versions, gives another key and the pass is made again. Not read in CI
(`CI` set) and not after `pytest --cache-clear`; `-p no:cacheprovider` turns it off too.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import chess
import chess.pgn
import pytest

from rules.events import Event, Press

ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def digest_bench() -> ModuleType:
    """`bench/rulings_digest.py`, loaded once (it is a script, not a package module)."""
    path = ROOT / "bench" / "rulings_digest.py"
    spec = importlib.util.spec_from_file_location("rulings_digest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def per_sensor(names: tuple[str, ...] | list[str]) -> list[Any]:
    """`names` as pytest parameters; each sensor kind's tests in one xdist group, so that
    under `pytest -n` its corpus pass runs once, on the worker that runs all of them (each
    worker is a process of its own: a pass made on one is not seen by the others)."""
    return [pytest.param(name, marks=pytest.mark.xdist_group(f"corpus-{name}")) for name in names]


@dataclass(frozen=True)
class CorpusPass:
    """What one sensor kind's pass over the corpus leaves for the tests."""

    #: the golden digest's part for the sensor (`summary` of `games_digest`)
    summary: dict[str, Any]
    #: corpus file name -> "game N: what the rules ruled otherwise than the game score"
    failures: dict[str, list[str]]
    #: corpus file name -> how many games it holds (all were simulated and ruled)
    games: dict[str, int]


#: the packages whose code a pass runs (simulation, rules, messages, all their data files)
PACKAGES = ("rules", "arbiter", "firmware_bridge")
_passes: dict[str, CorpusPass] = {}


@functools.cache
def code_key() -> str:
    """The SHA-256 of everything a pass runs or reads (see the module docstring)."""
    bench = digest_bench()
    files = [
        *sorted(
            path
            for package in PACKAGES
            for path in (ROOT / package).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        ),
        ROOT / "bench" / "rulings_digest.py",
        Path(__file__).resolve(),
    ]
    sha = hashlib.sha256()
    for path in files:
        sha.update(f"{path.relative_to(ROOT)}\0".encode())
        sha.update(path.read_bytes())
    for path in sorted(bench.GAMES.glob("*.pgn")):
        sha.update(f"games/{path.name}\0".encode())
        sha.update(path.read_bytes())
    sha.update(f"python-chess {chess.__version__}\0python {sys.version}".encode())
    return sha.hexdigest()


def corpus_pass(sensor: str, cache: pytest.Cache | None = None) -> CorpusPass:
    """Every game of the corpus simulated and ruled for `sensor`: once per test session, and
    not again in a later session whose code and data are the same (`cache`: the session's
    pytest cache, `pytestconfig.cache`; None: no cache)."""
    if sensor in _passes:
        return _passes[sensor]
    use_cache = cache is not None and not os.environ.get("CI")
    slot = f"otb/corpus-pass/{sensor}"
    if use_cache:
        assert cache is not None
        kept = cache.get(slot, None)
        if isinstance(kept, dict) and kept.get("code") == code_key():
            done = CorpusPass(kept["summary"], kept["failures"], kept["games"])
            _passes[sensor] = done
            return done
    done = _make_pass(sensor)
    _passes[sensor] = done
    if use_cache:
        assert cache is not None
        cache.set(
            slot,
            {"code": code_key(), "summary": done.summary, "failures": done.failures,
             "games": done.games},
        )  # fmt: skip
    return done


def _make_pass(sensor: str) -> CorpusPass:
    """Simulate and rule every game of the corpus for `sensor`."""
    bench = digest_bench()
    games: list[chess.pgn.Game] = []
    labels: list[tuple[str, int]] = []  # (file name, number of the game in its file)
    for path in sorted(bench.GAMES.glob("*.pgn")):  # the order of `load_games`
        with path.open(encoding="utf-8") as f:
            number = 0
            while (game := chess.pgn.read_game(f)) is not None:
                number += 1
                games.append(game)
                labels.append((path.name, number))
    failures: dict[str, list[str]] = {name: [] for name, _ in labels}

    def check(
        index: int, game: chess.pgn.Game, stream: list[Any], rulings: list[dict[str, Any]]
    ) -> None:
        found = disagreements(game, stream, rulings)  # the dicts the digest hashed
        if found:
            name, number = labels[index]
            failures[name].append(f"{name} game {number}: {'; '.join(found)}")

    digest = bench.games_digest(sensor, games, on_stream=check)
    counts = {name: number for name, number in labels}  # the last number of each file
    return CorpusPass(bench.summary(digest), failures, counts)


def side(color: chess.Color) -> str:
    return "white" if color else "black"


def clocks_after_presses(
    events: list[Event], rulings: list[dict[str, Any]]
) -> list[dict[str, Any] | None]:
    """For each press, the first `clock` ruling at or after it that stopped the mover's clock
    (a late sensor's press is ruled when the move is reported: latency_s, the camera's scene)."""
    clocks = [r for r in rulings if r["type"] == "clock"]
    out: list[dict[str, Any] | None] = []
    for press in (e for e in events if isinstance(e, Press)):
        out.append(
            next(
                (c for c in clocks if c["t"] >= press.t and c["running"] != press.side),
                None,
            )
        )
    return out


def disagreements(
    game: chess.pgn.Game, events: list[Event], rulings: list[dict[str, Any]]
) -> list[str]:
    """What the rules core ruled differently from the game score, in words."""
    found = []
    moves = [r["uci"] for r in rulings if r["type"] == "move"]
    wanted = [m.uci() for m in game.mainline_moves()]
    over = [(r["result"], r["reason"]) for r in rulings if r["type"] == "game_over"]
    # 5.2.2: a dead position ends the game at once, where a platform may play on to stalemate
    # (clocked-games.pgn game 271: 93. a7+ leaves Black only Ka8 and stalemate)
    dead_early = over == [(game.headers["Result"], "dead_position")] and (
        moves == wanted[: len(moves)]
    )
    if moves != wanted and not dead_early:
        ply = next(
            (i for i, (a, b) in enumerate(zip(moves, wanted, strict=False)) if a != b), len(moves)
        )
        found.append(
            f"moves differ from ply {ply + 1}: {moves[ply : ply + 2]} v {wanted[ply : ply + 2]}"
        )
    # 6.9: a flag whose consequence the analysis could not settle within its budget is held
    # for the arbiter ("undecided", docs/events.md): no game_over, and no guess either way
    held = not over and any(r["type"] == "flag" and r.get("undecided") for r in rulings)
    if [result for result, _ in over] != [game.headers["Result"]] and not held:
        found.append(
            f"game_over {over}, PGN {game.headers['Result']} ({game.headers.get('Termination')})"
        )
    wrong = [r for r in rulings if r["type"] in ("violation", "illegal", "mismatch")]
    if wrong:
        found.append(f"{wrong[0]['type']} at t={wrong[0]['t']}: {wrong[0].get('message')}")
    clocks = [node.clock() for node in game.mainline()]
    if all(c is not None for c in clocks):
        shown = clocks_after_presses(events, rulings)
        nodes = list(game.mainline())[: len(moves)]
        shown = shown[: len(moves)]
        if dead_early or game.end().board().is_game_over():  # the move ended the game: its
            nodes, shown = nodes[:-1], shown[:-1]  # clock stopped at once, no increment (5.1.1)
        first = game.board().turn  # the side to move at the start (a FEN tag may say Black)
        for ply, (node, clock) in enumerate(zip(nodes, shown, strict=True), 1):
            # the mover by the ply's parity: `node.board()` would replay the game from its
            # start at every ply (quadratic: some 15 % of a sensor kind's corpus pass)
            mover = side(first if ply % 2 else not first)
            if clock is None or abs(clock[mover] - node.clock()) > 0.1:
                found.append(f"ply {ply}: clock {clock} v [%clk] {node.clock()}")
                break
    return found
