"""Bad input is normal: random, truncated and shuffled streams never break the rules core.

Only the project's own errors may come out, and a ruling once emitted is never taken back
(the rulings before an error are all delivered).
"""

from __future__ import annotations

import contextlib
import json

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import ArbiterError
from rules.events import (
    Accept,
    Adjust,
    ArbiterAction,
    Claim,
    Decline,
    Event,
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
    parse_line,
)
from rules.game import Game
from rules.replay import iter_rulings

SQUARES = [chess.square_name(s) for s in range(64)]
side = st.sampled_from(["white", "black"])
square = st.sampled_from(SQUARES)
piece = st.one_of(st.none(), st.sampled_from(list("PNBRQKpnbrqkXx?")))


def _placement(board: list[str | None]) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            letter = board[rank * 8 + file]
            if letter is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + letter
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


placements = st.lists(
    st.one_of(st.none(), st.sampled_from(list("PNBRQKpnbrqkXx?"))), min_size=64, max_size=64
).map(_placement)

body = st.one_of(
    st.builds(
        lambda s, p, h: ("lift", {"square": s, "piece": p, "side": h}),
        square,
        piece,
        st.one_of(st.none(), side),
    ),
    st.builds(
        lambda s, p, h: ("place", {"square": s, "piece": p, "side": h}),
        square,
        piece,
        st.one_of(st.none(), side),
    ),
    st.builds(lambda b: ("snapshot", {"board": b}), placements),
    st.builds(lambda h: ("press", {"side": h}), side),
    st.builds(lambda s, h: ("touch", {"square": s, "side": h}), square, side),
    st.builds(lambda h: ("adjust", {"side": h}), side),
    st.builds(lambda h, p: ("promote", {"side": h, "piece": p}), side, st.sampled_from("qrbnQ")),
    st.builds(
        lambda h, k, m: ("claim", {"side": h, "kind": k, "move": m}),
        side,
        st.sampled_from(["threefold", "fifty", "touch_move", "any"]),
        st.one_of(st.none(), st.sampled_from(["e2e4", "g1f3", "e7e8q", "a1a1"])),
    ),
    st.builds(
        lambda k, h: (k, {"side": h}),
        st.sampled_from(["offer", "accept", "decline", "resign"]),
        side,
    ),
    st.builds(
        lambda a, h, n: (
            "arbiter",
            {
                "action": a,
                "side": h,
                "seconds": n,
                "white": n,
                "black": n,
                "plies": 1,
                "square": "e2",
                "fen": chess.STARTING_FEN,
                "result": "1-0",
            },
        ),
        st.sampled_from(
            [
                "pause",
                "resume",
                "add_time",
                "set_clock",
                "takeback",
                "penalty",
                "warning",
                "two_hands",
                "accident",
                "declare",
                "set_position",
            ]
        ),
        side,
        st.floats(0, 500),
    ),
    st.builds(
        lambda s: ("sensor", {"status": s}),
        st.sampled_from(["disconnected", "reconnected", "dropped", "camera_moved"]),
    ),
    st.just(("tick", {})),
    st.just(("restart", {"gap_s": None, "counted": False})),
)
steps = st.lists(st.tuples(st.floats(0, 3), body), max_size=60)
starts = st.builds(
    lambda tc, strict, sl, fen: Start(
        t=0, time_control=tc, strict=strict, slide_s=sl, latency_s=sl, fen=fen
    ),
    st.sampled_from([None, "60", "300+2", "5400d5", "900m60", "*60", "40/60+1:30"]),
    st.booleans(),
    st.sampled_from([0.0, 0.25]),
    st.sampled_from(
        [None, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"]
    ),
)


def _events(start: Start, script: list[tuple[float, tuple[str, dict]]]) -> list[Event]:
    from rules.events import parse_event

    out: list[Event] = [start]
    t = 0.0
    for dt, (kind, fields) in script:
        t += dt
        obj = {"t": t, "type": kind, **{k: v for k, v in fields.items() if v is not None}}
        try:
            out.append(parse_event(obj))
        except ArbiterError:
            continue
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(starts, steps)
def test_random_streams_raise_only_our_errors(start: Start, script: list) -> None:
    events = _events(start, script)
    game = Game(start)
    emitted: list = []
    for ev in events[1:]:
        try:
            emitted.extend(game.handle(ev))
        except ArbiterError:
            continue
    emitted.extend(game.finish())
    times = [r.t for r in emitted]
    assert times == sorted(times)


@settings(max_examples=150, deadline=None)
@given(starts, steps, st.randoms(use_true_random=False))
def test_shuffled_and_truncated_streams_keep_what_was_ruled(
    start: Start, script: list, rnd
) -> None:
    events = _events(start, script)
    rest = events[1:]
    rnd.shuffle(rest)  # times now run backwards somewhere: an error after what came before
    cut = rnd.randint(0, len(rest))
    stream = [events[0], *rest[:cut]]
    got: list = []
    try:
        for ruling in iter_rulings(stream):
            got.append(ruling)
    except ArbiterError:
        pass
    # everything ruled before the fault is exactly what a stream cut at the fault gives
    again: list = []
    try:
        for ruling in iter_rulings(stream, finish=False):
            again.append(ruling)
    except ArbiterError:
        pass
    assert [r.to_dict() for r in again] == [r.to_dict() for r in got[: len(again)]]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_garbage_lines_give_event_errors(text: str) -> None:
    try:
        parse_line(text, line=3)
    except ArbiterError as exc:
        assert "line 3" in str(exc)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "t",
                "type",
                "square",
                "side",
                "board",
                "piece",
                "action",
                "kind",
                "status",
                "move",
                "seconds",
            ]
        ),
        st.one_of(
            st.none(),
            st.integers(-5, 5),
            st.floats(),
            st.text(max_size=8),
            st.sampled_from(
                ["lift", "place", "press", "snapshot", "arbiter", "claim", "e2", "white"]
            ),
        ),
    )
)
def test_random_objects_give_event_errors(obj: dict) -> None:
    with contextlib.suppress(ArbiterError):
        parse_line(json.dumps(obj), line=1)


def test_all_event_classes_are_exercised() -> None:
    """The strategies above reach every event type of the contract."""
    covered = {
        Lift,
        Place,
        Snapshot,
        Press,
        Touch,
        Adjust,
        Promote,
        Claim,
        Offer,
        Accept,
        Decline,
        Resign,
        ArbiterAction,
        Sensor,
        Tick,
        Restart,
    }
    from rules.events import EVENT_TYPES

    assert covered | {Start} == set(EVENT_TYPES.values())


def _random_games_module():  # type: ignore[no-untyped-def]
    """`bench/rulings_digest.py`, whose seeded random games play legal and illegal moves,
    touches, claims, offers, arbiter actions, disconnections and restarts by hand."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "rulings_digest.py"
    spec = importlib.util.spec_from_file_location("rulings_digest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rulings_digest", module)
    spec.loader.exec_module(module)
    return module


def test_random_games_by_hand_raise_only_our_errors() -> None:
    """300 seeded random games (the digest's): whatever they do, the core rules or raises
    one of the project's errors. Three crashes were found this way (test_found_by_fuzzing);
    20,000 seeds run clean by hand."""
    digest_module = _random_games_module()
    for seed in range(300):
        game = digest_module._Fuzz(seed, digest_module.Digest())
        with contextlib.suppress(ArbiterError):
            game.run()
