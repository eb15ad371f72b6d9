"""Teaching (strict) mode: after a refused move is put back, the right move stands, on every
sensor kind (issue 12 item 6; newcomer trial row 8).

Strict mode refuses a move that breaks Article 4 at once (events.md, Supervision: violation,
reinstate, the duty stands). The player puts the pieces back and makes the move the duty
demands (4.3.1: the piece touched first). On a board that cannot tell pieces apart the rules
core must know, from the game, which piece the hand put down where: a queen lifted and put
back on d1 is the queen, and the knight put back on g1 after the refused Nf3 is the knight
(the trial's stream had the queen's move ruled an illegal move with a knight on h5).
"""

from __future__ import annotations

import pytest
from event_script import moves, of
from table_story import KINDS, Table


def kinds_of(rulings: list, *types: str) -> list:
    return [r for r in rulings if r.type in types]


@pytest.mark.parametrize("kind", KINDS)
def test_the_touched_queen_moves_after_the_refused_knight_is_put_back(kind: str) -> None:
    table = Table(kind, strict=True).play("e2e4", "e7e5")
    table.touch("d1", "white")
    table.move("g1f3").tick(1.0)  # refused: the queen was touched first (4.3.1)
    table.lift("f3").place("g1")  # put back
    table.move("d1h5").press("white")
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d1h5"]
    assert [r.kind for r in of(out, "violation")] == ["touch_move"]
    assert len(of(out, "reinstate", reason="strict")) == 1
    assert of(out, "illegal") == []
    assert of(out, "penalty") == []
    assert table.game.sensed == list(table.game._expected)  # the core knows every piece


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_capture_put_back_then_the_touched_knight_moves(kind: str) -> None:
    table = Table(kind, strict=True).play("e2e4", "d7d5")
    table.touch("g1", "white")
    table.move("e4d5").tick(1.0)  # refused: the knight was touched first
    table.lift("d5").place("e4", "P").place("d5", "p")  # both pawns put back
    table.move("g1f3").press("white")
    out = table.rulings()
    assert moves(out) == ["e2e4", "d7d5", "g1f3"]
    assert len(of(out, "reinstate", reason="strict")) == 1
    assert of(out, "illegal") == []
    assert of(out, "penalty") == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_wrong_move_after_the_put_back_is_refused_again(kind: str) -> None:
    """The duty stands after the put-back: another piece's move is refused, not played."""
    table = Table(kind, strict=True).play("e2e4", "e7e5")
    table.touch("d1", "white")
    table.move("g1f3").tick(1.0)
    table.lift("f3").place("g1")
    table.move("b1c3").tick(1.0)  # still not the queen
    table.lift("c3").place("b1")
    table.move("d1f3").press("white")
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d1f3"]
    assert len(of(out, "reinstate", reason="strict")) == 2
    assert of(out, "illegal") == []


@pytest.mark.parametrize("kind", ("occupancy", "pegasus"))
def test_a_piece_lifted_and_put_back_on_its_own_back_rank_keeps_its_kind(kind: str) -> None:
    """A blind board's piece put back on the first rank is not a promotion's unknown piece."""
    table = Table(kind).play("e2e4", "e7e5")
    table.touch("d1", "white").tick(1.0)
    table.rulings()
    assert table.game.sensed[3] in ("Q", "?")  # a '?' from the board is compatible
    if kind == "occupancy":
        assert table.game.sensed[3] == "Q"


def test_the_trials_stream_on_an_occupancy_board() -> None:
    """The newcomer trial's replay file (row 8), as it was written there."""
    from rules.events import Lift, Place, Press, Start

    events = [
        Lift(t=1, square="e2"),
        Place(t=1.5, square="e4"),
        Press(t=2, side="white"),
        Lift(t=3, square="e7"),
        Place(t=3.5, square="e5"),
        Press(t=4, side="black"),
        Lift(t=5, square="d1"),
        Place(t=5.5, square="d1"),
        Lift(t=6, square="g1"),
        Place(t=6.5, square="f3"),
        Lift(t=12, square="f3"),
        Place(t=13, square="g1"),
        Lift(t=18, square="d1"),
        Place(t=19, square="h5"),
        Press(t=21, side="white"),
    ]
    from rules.game import Game

    game = Game(Start(t=0, strict=True, noise_s=0.05, white="Lena", black="Tom"))
    out = [r for ev in events for r in game.handle(ev)]
    assert moves(out) == ["e2e4", "e7e5", "d1h5"]
    assert of(out, "illegal") == [] and of(out, "penalty") == []
