"""Fast replies (issue 12 item 5, trial row 17): the opponent lifts a piece within
`latency_s` of the mover's press, while the board has not yet reported the mover's move.

The press ended the mover's turn (6.2.1): the two moves are not merged, the press is not
lost (it completes the mover's move at the moment it was made) and the reply's lift is the
opponent's touch (4.3), not a touch charged to the mover. Played through `arbiter play` on
virtual boards (a DGT board that names pieces, and the Pegasus, which senses occupancy only),
and through a replay of the contract's stream; a late report of the mover's own capture
after his press is still his move.
"""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest

from rules.events import Lift, Place, Press, Snapshot, Start
from rules.game import Game
from rules.rulings import ClockState, Illegal, Mismatch, MoveStands, Obligation, Ruling
from tests.arbiter.live_harness import play_typed

#: White's press at 1.0 comes before the board reports e4 (1.1); Black lifts e7 at 1.15,
#: within latency_s (0.3) of the press; then Black's reply and press, White's next move
FAST = [
    "0.5 lift e2", "1.0 press", "1.1 place e4", "1.15 lift e7", "1.7 place e5", "2.0 press",
    "3.0 lift g1", "3.5 place f3", "3.6 press",
]  # fmt: skip


def _moves(rulings: list[Ruling]) -> list[MoveStands]:
    return [r for r in rulings if isinstance(r, MoveStands)]


def _check_fast_reply(rulings: list[Ruling]) -> None:
    moves = _moves(rulings)
    assert [m.san for m in moves] == ["e4", "e5", "Nf3"]
    assert moves[0].made_at == pytest.approx(1.1)  # the place, released by the reply
    assert not [r for r in rulings if isinstance(r, Illegal | Mismatch)]
    duties = [r for r in rulings if isinstance(r, Obligation) and r.kind != "none"]
    assert [(o.side, o.article) for o in duties] == [
        ("white", "4.3.1"), ("black", "4.3.1"), ("white", "4.3.1"),
    ]  # fmt: skip
    # the press is not lost: White's clock stopped at 1.0 (Fischer +2), Black's ran from 1.0
    first = next(r for r in rulings if isinstance(r, ClockState) and r.running == "black")
    assert first.white == pytest.approx(300 + 2 - 1.0)
    second = next(r for r in rulings if isinstance(r, ClockState) and r.t >= 2.0)
    assert second.running == "white"
    assert second.black == pytest.approx(300 + 2 - 1.0)


@pytest.mark.parametrize("sim", ["dgt-sim", "pegasus-sim"])
def test_a_reply_lifted_within_latency_of_the_press_is_the_opponents(
    tmp_path: Path, sim: str
) -> None:
    played = play_typed(
        tmp_path,
        ["--board", sim, "--tc", "5+2", "--set", "latency_s=0.3", "--clock-start", "now"],
        FAST,
        timed=True,
    )
    _check_fast_reply(played.rulings)
    record = chess.pgn.read_game(io.StringIO(played.pgn))
    assert record is not None and not record.errors
    clocks = [node.clock() for node in record.mainline()]
    assert len(clocks) == 3 and None not in clocks  # every move has its [%clk]


def _stream(latency_s: float = 0.3) -> list[object]:
    return [
        Lift(t=0.5, square="e2", piece="P"), Press(t=1.0, side="white"),
        Place(t=1.1, square="e4", piece="P"), Lift(t=1.15, square="e7", piece="p"),
        Place(t=1.7, square="e5", piece="p"), Press(t=2.0, side="black"),
        Lift(t=3.0, square="g1", piece="N"), Place(t=3.5, square="f3", piece="N"),
        Press(t=3.6, side="white"),
    ]  # fmt: skip


@pytest.mark.parametrize("blind", [False, True], ids=["pieces", "occupancy"])
def test_a_fast_reply_in_a_replayed_stream(blind: bool) -> None:
    game = Game(Start(t=0, time_control="300+2", noise_s=0.3, slide_s=0.3, latency_s=0.3))
    rulings: list[Ruling] = []
    for event in _stream():
        if blind and isinstance(event, Lift | Place):
            event = type(event)(t=event.t, square=event.square, piece="?")
        rulings += game.handle(event)  # type: ignore[arg-type]
    rulings += game.finish()
    _check_fast_reply(rulings)


def test_a_whole_board_report_within_the_press_window_does_not_decide_it() -> None:
    """A DGT board asks for a dump after a quiet spell: one taken at 1.1, after the press at
    1.0 but before the board reported the place on e4, shows the pawn still in the hand. It
    is as late as the field updates (latency_s), so the press waits for the place; a press
    whose window has ended is decided by the next report as before."""
    game = Game(Start(t=0, time_control="300+2", noise_s=0.3, slide_s=0.3, latency_s=0.3))
    in_hand = Snapshot(t=1.1, board="rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")
    events = [*_stream()[:2], in_hand, *_stream()[2:]]
    rulings: list[Ruling] = []
    for event in events:
        rulings += game.handle(event)  # type: ignore[arg-type]
    rulings += game.finish()
    _check_fast_reply(rulings)

    late = Game(Start(t=0, time_control="300+2", noise_s=0.3, slide_s=0.3, latency_s=0.3))
    rulings = []
    for event in [*_stream()[:2], Snapshot(t=1.5, board=in_hand.board)]:
        rulings += late.handle(event)  # type: ignore[arg-type]
    illegal = [r for r in rulings if isinstance(r, Illegal) and r.completed]
    assert [(r.side, r.t) for r in illegal] == [("white", pytest.approx(1.3))]


def test_a_capture_reported_after_the_press_is_still_the_movers() -> None:
    """1. e4 d5, then White takes on d5: the press comes first, the board reports the taken
    pawn's lift and the capture after it (latency_s). The lift of Black's pawn is White's."""
    game = Game(Start(t=0, time_control="300+2", noise_s=0.3, slide_s=0.3, latency_s=0.3))
    events = [
        Lift(t=0.5, square="e2", piece="P"), Place(t=0.8, square="e4", piece="P"),
        Press(t=1.0, side="white"), Lift(t=1.5, square="d7", piece="p"),
        Place(t=1.8, square="d5", piece="p"), Press(t=2.0, side="black"),
        Press(t=3.0, side="white"), Lift(t=3.05, square="d5", piece="p"),
        Lift(t=3.1, square="e4", piece="P"), Place(t=3.2, square="d5", piece="P"),
    ]  # fmt: skip
    rulings: list[Ruling] = []
    for event in events:
        rulings += game.handle(event)
    rulings += game.finish()
    assert [m.san for m in _moves(rulings)] == ["e4", "d5", "exd5"]
    assert not [r for r in rulings if isinstance(r, Illegal | Mismatch)]
