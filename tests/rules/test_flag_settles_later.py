"""A flag is ruled at once; its verdict may follow (FIDE 6.9; issue 19: the analysis never
delays a ruling in the live session).

Whether the side with time left can still mate may need thousands of positions of search in
a locked position. The live session works it out between moves; a flag that falls before
that work is done is ruled at once with `defer_verdicts` on, and the verdict (`game_over`, or
the `flag_undecided` note) comes from `Game.settle`, slice by slice. Whatever the timing, the
rulings and their order are those of a replay, which rules the verdict with the flag.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from arbiter.clock import FakeClock
from arbiter.live.session import Session
from arbiter.records.journal import JournalWriter, read_journal
from rules import ending
from rules.events import Declare, Event, Lift, Place, Start, Tick
from rules.game import Game
from rules.replay import replay
from rules.rulings import Ruling
from rules.winnability import ahead

#: rammed pawns: Black can mate only after a long walk (the search needs hundreds of positions)
LOCKED = "8/8/5k2/2p1p3/2P1P3/8/8/4K3 w - - 0 1"
#: a closed wall: the static proof settles it, no search
CLOSED_WALL = "7k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1"


@pytest.fixture(autouse=True)
def _cold() -> None:
    """Nothing worked out ahead: each test's searches start from nothing."""
    ahead.forget()


def _game(fen: str, *, deferred: bool) -> Game:
    game = Game(Start(t=0.0, fen=fen, time_control="60"))
    game.defer_verdicts = deferred
    return game


def _at_once(fen: str, events: list[Event]) -> list[Ruling]:
    game = _game(fen, deferred=False)
    out: list[Ruling] = []
    for event in events:
        out += game.handle(event)
    return out


def test_the_flag_comes_first_and_its_verdict_slice_by_slice() -> None:
    game = _game(LOCKED, deferred=True)
    first = game.handle(Tick(t=61.0))
    assert [r.type for r in first] == ["flag"]
    assert game.awaiting_verdict is not None and not game.over
    assert game.next_deadline() is None  # nothing is due by time: only the search remains
    slices, rest = 0, None
    while rest is None:
        rest = game.settle(50)
        slices += 1
    assert slices > 1  # the search took more than one slice
    assert [r.type for r in rest] == ["game_over", "clock"]
    assert game.over and game.awaiting_verdict is None
    ahead.forget()
    assert first + rest == _at_once(LOCKED, [Tick(t=61.0)])


def test_an_event_meanwhile_is_not_held_up_and_the_rulings_are_a_replays() -> None:
    """The game ended at the flag whatever the verdict: a lift meanwhile is ruled at once as
    after the end (nothing), and the verdict follows; a replay rules the same, in order."""
    events: list[Event] = [Tick(t=61.0), Lift(t=61.5, square="e1", piece="K")]
    game = _game(LOCKED, deferred=True)
    live = game.handle(events[0])
    assert game.settle(10) is None  # one slice only: the verdict is not known yet
    assert game.handle(events[1]) == []  # not waiting for the search
    assert game.awaiting_verdict is not None
    rest = None
    while rest is None:
        rest = game.settle(50)
    live += rest
    ahead.forget()
    assert live == _at_once(LOCKED, events)
    assert live[-2].type == "game_over"


def test_an_arbiter_action_meanwhile_waits_for_the_verdict() -> None:
    """The arbiter acts on the game's result: the verdict is ruled first, as in a replay."""
    events: list[Event] = [Tick(t=61.0), Declare(t=62.0, result="1/2-1/2")]
    game = _game(LOCKED, deferred=True)
    live = game.handle(events[0])
    assert game.settle(10) is None
    live += game.handle(events[1])
    assert game.awaiting_verdict is None
    ahead.forget()
    assert live == _at_once(LOCKED, events)
    assert "game_over" in [r.type for r in live]


def test_an_event_past_the_flag_leaves_the_verdict_to_settle() -> None:
    """An event after the flag's time rules the flag first; the event itself is ruled as
    after the end, and the verdict follows from `settle`, in a replay's order."""
    events: list[Event] = [
        Lift(t=70.0, square="e1", piece="K"),
        Place(t=70.5, square="d2", piece="K"),
    ]
    game = _game(LOCKED, deferred=True)
    live: list[Ruling] = []
    for event in events:
        live += game.handle(event)
    assert [r.type for r in live] == ["flag"]
    rest = game.settle()
    assert rest is not None and game.awaiting_verdict is None
    ahead.forget()
    assert live + rest == _at_once(LOCKED, events)


def test_no_wait_where_nothing_is_searched_or_the_work_was_done_ahead() -> None:
    wall = _game(CLOSED_WALL, deferred=True)
    assert [r.type for r in wall.handle(Tick(t=61.0))] == ["flag", "game_over", "clock"]
    locked = _game(LOCKED, deferred=True)
    while ending.work_ahead(locked, 50):  # the session's idle slices between moves
        pass
    assert [r.type for r in locked.handle(Tick(t=61.0))] == ["flag", "game_over", "clock"]


def test_an_undecided_verdict_comes_as_a_note_after_the_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ending, "RULING_BUDGET", 40)
    game = _game(LOCKED, deferred=True)
    assert [r.type for r in game.handle(Tick(t=61.0))] == ["flag"]
    rest = None
    while rest is None:
        rest = game.settle(7)
    assert [r.type for r in rest] == ["note", "clock"]
    assert game.held and not game.over


def test_the_live_session_rules_the_flag_at_once_and_its_journal_replays_the_same(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    start = Start(t=0.0, fen=LOCKED, time_control="10")
    session = Session.new(start, JournalWriter(tmp_path / "j.jsonl"), clock)
    flagged = session.advance(10.004)
    assert [r.type for r in flagged] == ["flag"]
    assert chess.Board(LOCKED).turn == chess.WHITE and flagged[0].side == "white"
    while session.game.awaiting_verdict is not None:
        session._settle()
    assert session.game.over and session.rulings[-2].type == "game_over"
    assert session.game.result == "0-1"
    session.close()
    events, warnings = read_journal(tmp_path / "j.jsonl")
    assert not warnings
    ahead.forget()
    assert replay(events) == session.rulings
