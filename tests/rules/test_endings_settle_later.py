"""A resignation and a losing illegal move wait for no search either (FIDE 5.1.2, 7.5.5;
issue 19: the analysis never delays a ruling in the live session).

Like a flag (tests/rules/test_flag_settles_later.py), they ask whether the opponent can still
mate. With `defer_verdicts` on and nothing worked out ahead, what does not depend on the
answer is ruled at once (the `illegal` move, the increment taken back), the verdict follows
from `Game.settle`, slice by slice, and everything meanwhile is ruled without waiting. The
rulings and their order are a replay's, which gives the verdict at once.
"""

from __future__ import annotations

import pytest
from event_script import Script

from rules import ending
from rules.events import Event, Lift, Resign, Start
from rules.game import Game
from rules.rulings import Illegal, Ruling
from rules.winnability import ahead

#: rammed pawns: whether a side can mate needs hundreds of positions of search
LOCKED = "8/8/5k2/2p1p3/2P1P3/8/8/4K3 w - - 0 1"


@pytest.fixture(autouse=True)
def _cold() -> None:
    ahead.forget()


def _ruled(events: list[Event], *, deferred: bool) -> tuple[Game, list[list[Ruling]]]:
    """Each event's rulings, by a game that defers its verdicts or not."""
    start, *rest = events
    assert isinstance(start, Start)
    game = Game(start)
    game.defer_verdicts = deferred
    return game, [game.handle(event) for event in rest]


def _settled(game: Game, nodes: int) -> tuple[list[Ruling], int]:
    """The verdict's rulings, and in how many slices of `nodes` positions it came."""
    slices = 0
    while True:
        slices += 1
        rest = game.settle(nodes)
        if rest is not None:
            return rest, slices


def _replayed(events: list[Event]) -> list[Ruling]:
    ahead.forget()
    _, each = _ruled(events, deferred=False)
    return [r for rulings in each for r in rulings]


def test_a_resignation_leaves_its_verdict_to_settle_and_then_rules_a_replays() -> None:
    events: list[Event] = [Start(t=0.0, fen=LOCKED, time_control="60"), Resign(t=5.0, side="white")]
    game, each = _ruled(events, deferred=True)
    assert each == [[]]  # nothing of a resignation stands before its verdict
    assert game.awaiting_verdict is not None and game.awaiting_verdict.ending == "resignation"
    assert not game.over and game.next_deadline() is None
    rest, slices = _settled(game, 50)
    assert slices > 1
    assert [r.type for r in rest] == ["game_over", "clock"]
    assert game.result == "0-1"
    assert rest == _replayed(events)


def test_a_lift_after_the_resignation_is_ruled_at_once_as_after_the_end() -> None:
    events: list[Event] = [
        Start(t=0.0, fen=LOCKED, time_control="60"),
        Resign(t=5.0, side="white"),
        Lift(t=5.2, square="e1", piece="K"),
    ]
    game, each = _ruled(events, deferred=True)
    assert each == [[], []]
    rest, _ = _settled(game, 50)
    assert rest == _replayed(events)


def test_the_second_illegal_move_is_ruled_at_once_and_the_game_lost_after() -> None:
    """White's king to e3 and the clock pressed (7.5.1, the first), then the clock pressed
    again on the board left as reinstated (7.5.3, the second): the `illegal` ruling comes
    at once; the game lost (7.5.5: Black's king can still win the pawns and mate) follows."""
    script = Script(LOCKED, time_control="60").lift("e1").place("e3", "K").press()
    events = script.press("white", dt=2.0).events
    game, each = _ruled(events, deferred=True)
    last = each[-1]
    second = [r for r in last if isinstance(r, Illegal)]
    assert [(r.completed, r.count) for r in second] == [(True, 2)]
    assert "game_over" not in [r.type for r in last]
    assert game.awaiting_verdict is not None and game.awaiting_verdict.ending == "illegal_moves"
    rest, slices = _settled(game, 50)
    assert slices > 1
    assert [(r.type, getattr(r, "kind", None)) for r in rest][:2] == [
        ("penalty", "game_lost"),
        ("game_over", None),
    ]
    assert game.result == "0-1"
    assert [r for rulings in each for r in rulings] + rest == _replayed(events)


def test_nothing_waits_where_the_work_was_done_ahead() -> None:
    game = Game(Start(t=0.0, fen=LOCKED, time_control="60"))
    game.defer_verdicts = True
    while ending.work_ahead(game, 50):  # the session's idle slices between moves
        pass
    assert [r.type for r in game.handle(Resign(t=5.0, side="white"))] == ["game_over", "clock"]
    assert game.awaiting_verdict is None
