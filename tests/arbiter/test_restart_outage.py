"""D1 (issue 17): a restart with the board plugged in is journaled as an outage of the board,
so its first full report is reconciled with the game (events.md `reconnected`): moves made
while the program was down are recognised up to `max_plies`, beyond that a `mismatch` says
what to put back, and nothing made meanwhile is a touch, an illegal move or a penalty. The
fault suite (tests/faults) plays the same through real programs; these are the quick checks.
"""

from __future__ import annotations

import chess

from arbiter.clock import FakeClock
from arbiter.inputs.board import BoardAdapter
from arbiter.live.session import Session
from firmware_bridge.virtual import moves_to_events
from rules.events import Event, Press, Restart, Sensor, Snapshot, Start, Tick
from rules.replay import replay

OPENING = ["e4", "e5", "Nf3"]
LATER = ["Nc6", "Bb5", "a6", "Ba4"]


def history() -> list[Event]:
    board = chess.Board()
    moves = [board.push_san(san) for san in OPENING]
    start = Start(t=0.0, time_control="600+5", auto_press=True, sources=["board:dgt:loop://"])
    events = [start, *moves_to_events(moves, first_t=0.5)]
    return [*events, Tick(t=events[-1].t + 1.0)]  # Nf3 released before the crash


def after(plies: int) -> str:
    board = chess.Board()
    for san in OPENING + LATER[:plies]:
        board.push_san(san)
    return board.board_fen()


def resumed(with_board: bool = True) -> Session:
    clock = FakeClock()
    sources = [BoardAdapter("dgt:loop://", clock)] if with_board else []
    session = Session.resume(history(), None, lambda t: clock, sources=sources)
    clock.set(session.last_t)
    return session


def test_the_restart_is_journaled_between_disconnected_and_reconnected() -> None:
    session = resumed()
    tail = session.events[-3:]
    assert [type(e) for e in tail] == [Sensor, Restart, Sensor]
    assert [e.status for e in tail if isinstance(e, Sensor)] == ["disconnected", "reconnected"]
    # a game with no source that reports the board (a stream, buttons) has only the restart
    assert isinstance(resumed(with_board=False).events[-1], Restart)


def test_up_to_max_plies_made_while_down_are_recognised_without_touches() -> None:
    for plies in (1, 2):
        session = resumed()
        t = session.last_t + 5.0
        rulings = session.submit(Snapshot(t=t, board=after(plies)))
        assert [r.san for r in rulings if r.type == "move"] == LATER[:plies]
        assert not [r for r in rulings if r.type in ("obligation", "illegal", "penalty")]


def test_beyond_max_plies_a_mismatch_and_a_press_meanwhile_is_no_offence() -> None:
    session = resumed()
    t = session.last_t
    press = session.submit(Press(t=t + 4.0, side="black"))  # pressed before the board is read
    rulings = press + session.submit(Snapshot(t=t + 5.0, board=after(3)))
    kinds = [r.type for r in rulings]
    assert "mismatch" in kinds and "move" not in kinds
    assert not [r for r in rulings if r.type in ("obligation", "illegal", "penalty")]
    # the journal replays to the same rulings (a replay rules the outage as the program did)
    assert [r.to_dict() for r in replay(session.events, finish=False)] == [
        r.to_dict() for r in session.rulings
    ]
