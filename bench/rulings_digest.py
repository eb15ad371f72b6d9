"""Behaviour oracle of the rules core: a SHA-256 of every ruling it gives on a fixed corpus.

Each game of ../shared/data/games/*.pgn is turned into the event stream of `arbiter simulate`
(`simulate_game(game, sensor, seed=0)`) for each of the four sensor kinds, and ruled by a fresh
`Game` (`handle` for every event, then `finish`). Every ruling, as `ruling_dict(ruling)` in
canonical JSON (sorted keys), goes into that sensor's hash in order; so do the deadline the
game announces after each event (`next_deadline()`), the game's final state (result, reason,
position) and any error a stream raises.

The corpus is all legal play, so two more sets reach the rest of the rules (Articles 4, 7, 9,
arbiter actions, profiles, strict mode, late and blind sensors):
- `tests`: the rules tests that drive `Game` (the 58 scenarios of test_scenarios.py,
  test_sensing.py, test_profiles_and_clocks.py): every ruling that `Game.handle`, `advance`
  and `finish` return while they run, in order;
- `fuzz`: seeded random streams (`fuzz_game`) that mix legal moves with touches, misplaced
  pieces, presses out of turn, claims, offers, arbiter actions, sensor drops and snapshots.
  The generator watches the game it feeds (it picks the next move from `game.board`), so a
  change of behaviour changes the stream as well as the rulings: either way, the digest.

A refactoring that keeps these digests keeps the rulings byte-identical.

    python bench/rulings_digest.py [--every 5] [--sensor identity ...] [--fuzz 2000]
    python bench/rulings_digest.py --write tests/golden/rulings_digest.json

The golden test (`tests/golden/test_rulings_digest.py`) computes the same parts (`part`:
every game under each sensor, the rules tests' streams, `GOLDEN_FUZZ` random streams) and
compares them with the digests committed in `tests/golden/rulings_digest.json`; `--write`
makes that file anew, after a change whose rulings differ on purpose (say in the commit
message, ruling by ruling, why).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from arbiter.simulate.game import simulate_game
from rules.events import (
    Accept,
    Adjust,
    Claim,
    Decline,
    Lift,
    Offer,
    Place,
    Press,
    Promote,
    Resign,
    Restart,
    Sensor,
    Snapshot,
    Start,
    Tick,
    Touch,
    arbiter_action,
)
from rules.game import Game
from rules.messages import ruling_dict
from rules.rulings import Ruling
from rules.sensed import placement_of

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GAMES = SHARED / "data" / "games"
SENSORS = ("identity", "occupancy", "snapshot", "snapshot-colour")


#: `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, made once:
#: `json.dumps` with any option makes a new encoder at every call (the same text)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(obj: Any) -> bytes:
    """One line of canonical JSON (sorted keys, no spaces), as bytes."""
    return _CANONICAL.encode(obj).encode()


def load_games(every: int) -> list[chess.pgn.Game]:
    """Every `every`-th game of the corpus, in file order (files sorted by name)."""
    games: list[chess.pgn.Game] = []
    index = 0
    for path in sorted(GAMES.glob("*.pgn")):
        with path.open(encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if index % every == 0:
                    games.append(game)
                index += 1
    return games


class Digest:
    """A running SHA-256 with counts of what went into it."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.rulings = 0
        self.events = 0
        self.streams = 0
        self.errors = 0

    def add(self, tag: str, obj: Any) -> None:
        self.sha.update(tag.encode() + b" " + canonical(obj) + b"\n")

    def ruling(self, r: Ruling) -> dict[str, Any]:
        """Hash one ruling as the contract's JSON; returns that JSON's dict."""
        self.rulings += 1
        contract = ruling_dict(r)
        self.add("R", contract)
        return contract


def rule_stream(
    stream: list[Any], digest: Digest, collect: list[dict[str, Any]] | None = None
) -> None:
    """Rule one event stream with a fresh `Game`, feeding everything observable to `digest`
    (and every ruling, in order, as the contract's dict that was hashed, to `collect`)."""
    digest.streams += 1
    try:
        game = Game(stream[0])
        for ev in stream[1:]:
            digest.events += 1
            for r in game.handle(ev):
                contract = digest.ruling(r)
                if collect is not None:
                    collect.append(contract)
            digest.add("D", game.next_deadline())
        for r in game.finish():
            contract = digest.ruling(r)
            if collect is not None:
                collect.append(contract)
        digest.add("E", [game.result, game.reason, game.over, game.ply, game.board.fen()])
    except Exception as exc:
        digest.errors += 1
        digest.add("X", [type(exc).__name__, str(exc)])


#: told of each game's stream and rulings (as the contract's dicts that were hashed, made once
#: for both): (index in `games`, game, stream, rulings)
StreamHook = Callable[[int, chess.pgn.Game, list[Any], list[dict[str, Any]]], None]


def games_digest(
    sensor: str, games: list[chess.pgn.Game], on_stream: StreamHook | None = None
) -> Digest:
    """The digest of every game simulated for `sensor` (seed 0) and ruled; `on_stream` sees
    each stream and its rulings (the game-score test checks them in the same pass)."""
    digest = Digest()
    for index, game in enumerate(games):
        try:
            stream = simulate_game(game, sensor, seed=0)
        except Exception as exc:
            digest.errors += 1
            digest.add("S", [type(exc).__name__, str(exc)])
            continue
        rulings: list[dict[str, Any]] | None = [] if on_stream is not None else None
        rule_stream(stream, digest, rulings)
        if on_stream is not None and rulings is not None:
            on_stream(index, game, stream, rulings)
    return digest


TEST_MODULES = ("test_scenarios", "test_sensing", "test_profiles_and_clocks")


def _calls(fn: Any) -> list[dict[str, Any]]:
    """The keyword sets one test function is run with (its `parametrize` marks expanded)."""
    calls: list[dict[str, Any]] = [{}]
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        calls = [
            {**c, **dict(zip(names, v if len(names) > 1 else (v,), strict=True))}
            for c in calls
            for v in values
        ]
    if "shared" in inspect.signature(fn).parameters:
        calls = [{**c, "shared": SHARED} for c in calls]
    return calls


def tests_digest() -> Digest:
    """Every ruling `Game` returns while the rules tests that drive it run, in order."""
    sys.path.insert(0, str(ROOT / "tests" / "rules"))
    digest = Digest()
    originals = {name: getattr(Game, name) for name in ("handle", "advance", "finish")}

    def recording(name: str) -> Any:
        method = originals[name]

        def wrapper(self: Game, *args: Any) -> list[Ruling]:
            out = method(self, *args)
            digest.events += name == "handle"
            digest.add("C", name)
            for r in out:
                digest.ruling(r)
            return out

        return wrapper

    for name in originals:
        setattr(Game, name, recording(name))
    try:
        for module_name in TEST_MODULES:
            module = importlib.import_module(module_name)
            for name, fn in vars(module).items():
                if not (name.startswith("test_") and callable(fn)):
                    continue
                for kwargs in _calls(fn):
                    params = {k: v for k, v in kwargs.items() if k != "shared"}  # not its path
                    digest.streams += 1
                    digest.add(
                        "T", [module_name, name, sorted(f"{k}={v}" for k, v in params.items())]
                    )
                    try:
                        fn(**kwargs)
                    except Exception as exc:
                        digest.errors += 1
                        digest.add("X", [name, type(exc).__name__, str(exc)])
    finally:
        for name, method in originals.items():
            setattr(Game, name, method)
    return digest


# ---------------------------------------------------------------------- random streams

FUZZ_FENS = (
    None,
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/4k3/8/8/3NK3/8/8 w - - 0 60",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/2p1p3/2P1P3/8/8/4K3 w - - 0 40",
    "7k/8/8/8/8/8/6q1/K7 w - - 98 80",
)
FUZZ_CONTROLS = (None, "-", "5400+30", "300+2", "180", "60", "900m60", "5400d5", "300b3", "*120")
FUZZ_SENSORS = (
    {},  # a fast board, the defaults
    {"noise_s": 0.3, "slide_s": 0.3, "latency_s": 0.3},  # DGT-like
    {"noise_s": 0.05},  # reed matrix
    {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4},  # camera
)
FUZZ_STEPS = (0.0, 0.02, 0.05, 0.15, 0.3, 0.6, 1.0, 2.0, 5.0, 20.0, 90.0)


def _side(color: bool) -> str:
    return "white" if color else "black"


def _blind(letter: str, how: str) -> str | None:
    if how == "identity":
        return letter
    if how == "colour":
        return "X" if letter.isupper() else "x"
    return None if how == "none" else "?"


class _Fuzz:
    """One random game: a physical board, hands, and the `Game` that rules on it."""

    def __init__(self, seed: int, digest: Digest) -> None:
        rng = self.rng = random.Random(f"fuzz:{seed}")
        self.digest = digest
        self.t = 0.0
        start = Start(
            t=0.0,
            fen=rng.choice(FUZZ_FENS),
            time_control=rng.choice(FUZZ_CONTROLS),
            rules=rng.choice(("fide-2023", "fide-2023", "bs", "pl", "cs")),
            strict=rng.random() < 0.3,
            auto_press=rng.random() < 0.1,
            **rng.choice(FUZZ_SENSORS),
        )
        self.snapshots = rng.random() < 0.3
        self.letters = rng.choice(("identity", "identity", "colour", "unknown", "none"))
        self.game = Game(start)
        board = self.game.board
        self.phys: dict[int, str] = {sq: p.symbol() for sq, p in board.piece_map().items()}
        self.hand: list[str] = []

    # events ------------------------------------------------------------------

    def step(self) -> float:
        self.t = round(self.t + self.rng.choice(FUZZ_STEPS), 6)
        return self.t

    def send(self, event: Any) -> None:
        self.digest.events += 1
        self.digest.add("V", event.to_dict())
        for r in self.game.handle(event):
            self.digest.ruling(r)
        self.digest.add("D", self.game.next_deadline())

    def snapshot(self) -> None:
        board = [None] * 64
        for sq, letter in self.phys.items():
            board[sq] = letter if self.letters == "identity" else _blind(letter, "colour")
        self.send(Snapshot(t=self.step(), board=placement_of(board)))

    def lift(self, sq: int, side: str | None = None) -> None:
        letter = self.phys.pop(sq, None)
        if letter is None:
            return
        self.hand.append(letter)
        if not self.snapshots:
            piece = _blind(letter, self.letters) if self.rng.random() < 0.9 else None
            self.send(Lift(t=self.step(), square=chess.square_name(sq), piece=piece, side=side))

    def place(self, sq: int, letter: str, side: str | None = None) -> None:
        if letter in self.hand:
            self.hand.remove(letter)
        self.phys[sq] = letter
        if not self.snapshots:
            piece = _blind(letter, self.letters)
            self.send(Place(t=self.step(), square=chess.square_name(sq), piece=piece, side=side))

    # actions -----------------------------------------------------------------

    def play(self, move: chess.Move) -> None:
        """The pieces of `move` moved by hand, in a random order (captured piece first or last)."""
        board = self.game.board
        before = board.piece_map()
        after_board = board.copy(stack=False)
        after_board.push(move)
        after = after_board.piece_map()
        lifts = [sq for sq in before if after.get(sq) != before[sq]]
        places = [sq for sq in after if before.get(sq) != after[sq]]
        self.rng.shuffle(lifts)
        if self.rng.random() < 0.7:
            lifts.sort(key=lambda sq: sq != move.from_square)
        side = _side(board.turn) if self.rng.random() < 0.2 else None
        for sq in lifts:
            self.lift(sq, side)
        for sq in places:
            self.place(sq, after[sq].symbol(), side)
        if self.snapshots:
            self.snapshot()

    def misplace(self) -> None:
        """A piece lifted and put somewhere it cannot legally go (or back, or kept in hand)."""
        if not self.phys:
            return
        sq = self.rng.choice(sorted(self.phys))
        letter = self.phys[sq]
        side = self.rng.choice((None, None, "white", "black"))
        self.lift(sq, side)
        r = self.rng.random()
        if r < 0.3:
            self.place(sq, letter, side)
        elif r < 0.85:
            empty = [s for s in range(64) if s not in self.phys]
            self.place(self.rng.choice(empty), letter, side)
        if self.snapshots:
            self.snapshot()

    def restore(self) -> None:
        """The players put the game's position back on the board (after a mismatch)."""
        self.hand.clear()
        target = {sq: p.symbol() for sq, p in self.game.board.piece_map().items()}
        for sq in sorted(self.phys):
            if target.get(sq) != self.phys[sq]:
                self.lift(sq)
        for sq in sorted(target):
            if self.phys.get(sq) != target[sq]:
                self.place(sq, target[sq])
        if self.snapshots:
            self.snapshot()

    def act(self) -> None:
        rng, game = self.rng, self.game
        board = game.board
        mover = _side(board.turn)
        r = rng.random()
        if r < 0.5:
            if rng.random() < 0.05:
                self.send(Promote(t=self.step(), side=mover, piece=rng.choice("qrbn")))
                board = game.board  # time passed: the game may have moved on
                mover = _side(board.turn)
            moves = list(board.legal_moves)
            if moves and not game.over:
                move = rng.choice(moves)
                self.play(move)
                if rng.random() < 0.85:
                    self.send(Press(t=self.step(), side=mover))
        elif r < 0.58:
            self.misplace()
        elif r < 0.63:
            self.restore()
        elif r < 0.68:
            sq = rng.choice(sorted(self.phys)) if self.phys else 0
            side = mover if rng.random() < 0.8 else _side(not board.turn)
            self.send(Touch(t=self.step(), square=chess.square_name(sq), side=side))
        elif r < 0.73:
            self.send(Press(t=self.step(), side=rng.choice(("white", "black"))))
        elif r < 0.77:
            move = None
            if rng.random() < 0.4:
                legal = list(board.legal_moves)
                move = rng.choice(legal).uci() if legal else None
            kind = rng.choice(("threefold", "fifty", "touch_move", "any"))
            side = mover if rng.random() < 0.8 else _side(not board.turn)
            self.send(Claim(t=self.step(), side=side, kind=kind, move=move))
        elif r < 0.81:
            cls = rng.choice((Offer, Offer, Accept, Decline))
            self.send(cls(t=self.step(), side=rng.choice(("white", "black"))))
        elif r < 0.82:
            self.send(Resign(t=self.step(), side=rng.choice(("white", "black"))))
        elif r < 0.88:
            self.arbiter()
        elif r < 0.9:
            self.send(Adjust(t=self.step(), side=rng.choice(("white", "black", mover))))
        elif r < 0.93:
            status = rng.choice(("disconnected", "reconnected", "dropped", "camera_moved"))
            self.send(Sensor(t=self.step(), status=status))
            if status == "reconnected" or rng.random() < 0.3:
                self.snapshot()
        elif r < 0.95:
            self.send(Restart(t=self.step(), gap_s=rng.choice((None, 3.0)), counted=False))
        elif r < 0.98:
            self.send(Tick(t=self.step()))
        else:
            t = self.step()
            for rr in game.advance(t):
                self.digest.ruling(rr)

    def arbiter(self) -> None:
        rng, game = self.rng, self.game
        side = rng.choice(("white", "black"))
        t = self.step()
        action = rng.choice(
            (
                "pause",
                "resume",
                "add_time",
                "set_clock",
                "set_position",
                "takeback",
                "penalty",
                "warning",
                "two_hands",
                "two_hands",
                "accident",
                "declare",
            )
        )
        fields: dict[str, Any] = {}
        if action == "add_time":
            fields = {"side": side, "seconds": rng.choice((10.0, 60.0))}
        elif action == "set_clock":
            fields = {"white": rng.choice((5.0, 100.0)), "black": rng.choice((5.0, 100.0))}
        elif action == "set_position":
            fields = {"fen": game.board.fen()}
        elif action == "takeback":
            fields = {"plies": rng.choice((1, 1, 2))}
        elif action == "penalty":
            kind = rng.choice(("time_added", "time_deducted", "warning", "game_lost"))
            fields = {"side": side, "kind": kind, "seconds": rng.choice((None, 30.0))}
        elif action in ("warning", "two_hands"):
            fields = {"side": side}
        elif action == "accident":
            sq = rng.choice(sorted(self.phys)) if self.phys else 0
            fields = {"side": side, "square": chess.square_name(sq)}
        elif action == "declare":
            fields = {
                "result": rng.choice(("1-0", "0-1", "1/2-1/2")),
                "reason": rng.choice((None, "agreement", "nonsense")),
            }
        self.send(arbiter_action(t, action, **fields))
        if action in ("set_position", "takeback") and rng.random() < 0.7:
            self.restore()

    def run(self) -> None:
        steps = self.rng.randint(5, 160)
        for _ in range(steps):
            if self.game.over and self.rng.random() < 0.7:
                break
            self.act()
        for r in self.game.finish():
            self.digest.ruling(r)
        g = self.game
        self.digest.add("E", [g.result, g.reason, g.over, g.ply, g.board.fen()])


def fuzz_digest(count: int, every: int) -> Digest:
    digest = Digest()
    for seed in range(0, count, every):
        digest.streams += 1
        digest.add("F", seed)
        try:
            _Fuzz(seed, digest).run()
        except Exception as exc:
            digest.errors += 1
            digest.add("X", [type(exc).__name__, str(exc)])
    return digest


def report(name: str, digest: Digest, seconds: float) -> None:
    print(
        f"{name:16} {digest.sha.hexdigest()}  streams {digest.streams}, events {digest.events},"
        f" rulings {digest.rulings}, errors {digest.errors}  ({seconds:.1f} s)",
        flush=True,
    )


#: the parts of the golden digest, in order
GOLDEN_PARTS = (*SENSORS, "tests", "fuzz")
#: random streams in the golden digest (the bench's own default is larger)
GOLDEN_FUZZ = 1000


def part(name: str) -> Digest:
    """One part of the golden digest: a sensor kind over every game, "tests" or "fuzz"."""
    if name in SENSORS:
        return games_digest(name, load_games(1))
    if name == "tests":
        return tests_digest()
    if name == "fuzz":
        return fuzz_digest(GOLDEN_FUZZ, 1)
    raise ValueError(f"no digest part {name!r}")


def summary(digest: Digest) -> dict[str, Any]:
    """What the golden file keeps of one part."""
    return {
        "sha256": digest.sha.hexdigest(),
        "streams": digest.streams,
        "events": digest.events,
        "rulings": digest.rulings,
        "errors": digest.errors,
    }


def write_golden(path: Path) -> None:
    """Compute every part of the golden digest and write them to `path` (JSON)."""
    parts: dict[str, Any] = {}
    for name in GOLDEN_PARTS:
        t0 = time.perf_counter()
        digest = part(name)
        report(name, digest, time.perf_counter() - t0)
        parts[name] = summary(digest)
    path.write_text(json.dumps(parts, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="only every N-th game (a sample)")
    parser.add_argument("--sensor", action="append", choices=SENSORS, help="default: all four")
    parser.add_argument("--fuzz", type=int, default=3000, help="random streams (seeds 0..N-1)")
    parser.add_argument("--no-tests", action="store_true", help="skip the rules tests' streams")
    parser.add_argument("--write", metavar="JSON", help="write the golden digest file and stop")
    args = parser.parse_args()
    if args.write:
        write_golden(Path(args.write))
        return
    games = load_games(args.every)
    print(f"games {len(games)} (every {args.every}-th of the corpus)", flush=True)
    total = hashlib.sha256()
    for sensor in args.sensor or SENSORS:
        t0 = time.perf_counter()
        digest = games_digest(sensor, games)
        report(sensor, digest, time.perf_counter() - t0)
        total.update(digest.sha.digest())
    if not args.no_tests:
        t0 = time.perf_counter()
        digest = tests_digest()
        report("tests", digest, time.perf_counter() - t0)
        total.update(digest.sha.digest())
    if args.fuzz:
        t0 = time.perf_counter()
        digest = fuzz_digest(args.fuzz, args.every)
        report("fuzz", digest, time.perf_counter() - t0)
        total.update(digest.sha.digest())
    print(f"{'all':16} {total.hexdigest()}")


if __name__ == "__main__":
    main()
