"""The cause of the board fault suite's rare failures (issue 17, item 10): found this session.

In 24 looped runs of tests/faults/test_board_faults.py (seeds 17 and others, half of them
beside a busy loop, load 6 to 54), one DGT run ruled `illegal 4.7 unreachable` against White
while the arbiter put the pieces back after a `mismatch` (kill before ply 14, 4 plies made
while the program was down). Its journal, replayed, gives the same ruling: the arbiter had
put White's pieces back and paused a little over `slide_s` (0.3 s: the test's hand is 0.1 s
a piece, stretched by the load) before Black's two. The board then stood still showing
the game's position but for two black pieces still in hand, and the rules ruled it as an
illegal move by the side to move instead of going on saying what is still to put back.
A person restoring a board pauses like that all the time.

This test replays that moment, without a program or a pseudo-terminal: the mismatch after a
restart, then the pieces put back with a pause before the last two. It failed until the
restoring phase (rules/restoring.py: while a reconnection's mismatch stands, the hands restore
a position and make no move or illegal move) was merged.
"""

from __future__ import annotations

import chess
import pytest

from firmware_bridge.virtual import moves_to_events
from rules.events import Event, Lift, Place, Restart, Sensor, Snapshot, Start, Tick
from rules.replay import replay

pytestmark = pytest.mark.faults

#: the DGT board's sensor settings (its codec's `sensor_settings`)
DGT = {"noise_s": 0.3, "slide_s": 0.3, "latency_s": 0.3}
BEFORE = ["e4", "e5", "Nf3", "Nc6"]
#: made while the program was down: beyond max_plies (2), so the report is a mismatch
WHILE_DOWN = ["Bb5", "a6", "Ba4", "Nf6"]


def stream(pause_s: float) -> list[Event]:
    """The game to ply 4, a restart, a board 4 plies on, then the arbiter's hands putting
    it back (wrong pieces off, then White's piece on, `pause_s`, then Black's on), with the
    ticks a live session journals every 0.1 s."""
    board = chess.Board()
    moves = [board.push_san(san) for san in BEFORE]
    start = Start(t=0.0, time_control="600+5", auto_press=True, **DGT)
    events: list[Event] = [start, Snapshot(t=0.2, board=chess.STARTING_BOARD_FEN)]
    events += moves_to_events(moves, first_t=0.5)
    t = round(events[-1].t + 1.0, 3)
    ahead = board.copy()
    for san in WHILE_DOWN:
        ahead.push_san(san)
    events += [
        Sensor(t=t, status="disconnected", detail="the arbiter was not running"),
        Restart(t=t),
        Sensor(t=t, status="reconnected", detail="the arbiter restarted"),
        Snapshot(t=t + 1.0, board=ahead.board_fen()),
    ]
    t = round(t + 1.5, 3)
    hands: list[tuple[float, Event]] = []
    for square in ("a4", "a6", "f6"):  # the wrong pieces off
        t = round(t + 0.1, 3)
        piece = ahead.piece_at(chess.parse_square(square))
        assert piece is not None
        hands.append((t, Lift(t=t, square=square, piece=piece.symbol())))
    t = round(t + 0.1, 3)
    hands.append((t, Place(t=t, square="f1", piece="B")))  # White's piece back
    t = round(t + pause_s, 3)
    for square, piece in (("a7", "p"), ("g8", "n")):  # then Black's
        t = round(t + 0.1, 3)
        hands.append((t, Place(t=t, square=square, piece=piece)))
    end = t + 1.0
    events += with_ticks([e for _, e in hands], events[-1].t, end)
    events.append(Snapshot(t=end, board=board.board_fen()))
    return events


def with_ticks(hands: list[Event], since: float, until: float) -> list[Event]:
    """`hands` with a tick every 0.1 s between them, as the live session journals its clock."""
    out: list[Event] = []
    tick = round(since + 0.1, 3)
    for event in [*hands, None]:
        limit = until if event is None else event.t
        while tick < limit:
            out.append(Tick(t=round(tick, 3)))
            tick = round(tick + 0.1, 3)
        if event is not None:
            out.append(event)
    return out


def rulings_of(pause_s: float) -> list[dict]:
    return [r.to_dict() for r in replay(stream(pause_s))]


def test_pieces_put_back_without_a_pause_give_the_mismatch_and_nothing_wrong() -> None:
    rulings = rulings_of(0.0)
    assert [r["type"] for r in rulings if r["type"] == "mismatch"] == ["mismatch"]
    assert not [r for r in rulings if r["type"] in ("illegal", "penalty", "violation")]


def test_a_pause_while_putting_pieces_back_is_no_illegal_move() -> None:
    rulings = rulings_of(0.5)
    assert not [r for r in rulings if r["type"] in ("illegal", "penalty", "violation")], rulings
