"""The board put back after a reconnection's `mismatch` (issue 17: two put-back rulings).

A board reconnected after more plies than `max_plies` were played while it was away shows
a position the rules cannot explain: a `mismatch` says what to put back where (events.md).
While the pieces are put back (`rules.restoring`):

- the positions the board passes through are not moves, even where each is a legal position
  (pieces put back one at a time in reverse move order: P0 + 2 plies, P0 + 1 ply, P0);
- a press is not a press without a move (7.5.3) charged to the presser: the position is
  being restored (7.4); if the board then shows legal plies from the game (up to
  `max_plies`), the hands have stopped there and those plies count, as at a reconnection.

Each on every sensor kind (`table_story.KINDS`).
"""

from __future__ import annotations

import pytest
from event_script import moves, of
from table_story import KINDS, Table

from rules.events import Press

#: plies made while the board was away: more than every kind's `max_plies` (2, a camera's 4)
DOWN = ("g1f3", "b8c6", "f1b5", "a7a6", "b5a4")
#: the same plies taken back by hand, last first: (from, to) of each piece put back
BACK = (("a4", "b5"), ("a6", "a7"), ("b5", "f1"), ("c6", "b8"), ("f3", "g1"))


def away(kind: str) -> Table:
    """1. e4 e5, then five plies while the board is unplugged, then the board plugged in."""
    table = Table(kind).play("e2e4", "e7e5")
    table.sensor("disconnected")
    table.play(*DOWN)
    table.sensor("reconnected").report()
    return table


def put_back(table: Table, steps: tuple[tuple[str, str], ...] = BACK) -> Table:
    for frm, to in steps:
        table.lift(frm, dt=2.0).place(to, dt=1.0)
    return table


@pytest.mark.parametrize("kind", KINDS)
def test_pieces_put_back_in_reverse_move_order_are_not_moves(kind: str) -> None:
    table = put_back(away(kind))
    table.play("d2d4")  # the game goes on from the restored position
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d2d4"]
    assert len(of(out, "mismatch")) == 1
    assert of(out, "illegal") == [] and of(out, "penalty") == []
    assert of(out, "violation") == []
    # no hand putting a piece back was given a touch-move duty (4.3)
    assert [r.t for r in of(out, "obligation") if r.t > table.events[-1].t - 3] != []
    assert all(r.t < 8 or r.t > table.events[-1].t - 3 for r in of(out, "obligation"))
    assert not table.game.restoring


@pytest.mark.parametrize("kind", KINDS)
def test_a_press_before_the_pieces_are_put_back_is_no_press_without_a_move(kind: str) -> None:
    table = away(kind)
    table.press("white")  # White, to move in the game's position, presses: nothing is restored
    put_back(table)
    table.play("d2d4")
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d2d4"]
    assert of(out, "illegal") == [] and of(out, "penalty") == []
    clocks = of(out, "clock")
    # White's clock ran on from the mismatch to the press of d4: the press stopped nothing
    assert clocks[-1].running == "black"


@pytest.mark.parametrize("kind", KINDS)
def test_a_press_half_way_is_ruled_on_what_the_board_shows(kind: str) -> None:
    """Hands stopped with the board two plies from the game: those plies count (the
    contract's reconnection rule), and the press completes its player's last one."""
    table = put_back(away(kind), BACK[:3])  # the board shows 1. e4 e5 2. Nf3 Nc6
    table.press("black")
    table.play("f1c4")
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]
    assert of(out, "illegal") == [] and of(out, "penalty") == []
    assert not table.game.restoring


@pytest.mark.parametrize("kind", KINDS)
def test_a_press_on_a_board_that_no_plies_explain_repeats_what_to_put_back(kind: str) -> None:
    table = put_back(away(kind), BACK[:2])  # 3 plies still out: beyond max_plies but a camera's
    table.press("white")
    out = table.rulings()
    assert of(out, "illegal") == [] and of(out, "penalty") == []
    if kind == "camera":  # max_plies 4: the three plies are recognised at the press
        assert moves(out)[2:] == ["g1f3", "b8c6", "f1b5"]
    else:
        assert moves(out) == ["e2e4", "e7e5"]
        assert len(of(out, "mismatch")) == 2  # the reconnection's, and what is still out now
        assert table.game.restoring


@pytest.mark.parametrize("kind", KINDS)
def test_a_flag_still_falls_while_the_board_is_restored(kind: str) -> None:
    table = Table(kind, time_control="60").play("e2e4", "e7e5")
    table.sensor("disconnected")
    table.play(*DOWN)
    table.sensor("reconnected").report()
    table.tick(60.0)
    out = table.rulings()
    assert [r.side for r in of(out, "flag")] == ["white"]
    assert table.game.over


def test_a_cameras_press_is_ruled_on_the_still_scene_after_it() -> None:
    """The press comes before the camera's scene of the last piece put back: it waits for
    that scene, which shows the game's position again: no move, no press without a move."""
    table = put_back(away("camera"))
    last_scene = table.events.pop()
    assert last_scene.type == "snapshot"
    table.events.append(Press(t=round(last_scene.t - 0.2, 6), side="white"))
    table.events.append(last_scene)
    table.play("d2d4")
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d2d4"]
    assert of(out, "illegal") == [] and of(out, "penalty") == []


def test_a_cameras_press_half_way_takes_the_plies_of_the_scene_after_it() -> None:
    table = put_back(away("camera"), BACK[:3])  # the scene shows 1. e4 e5 2. Nf3 Nc6
    last_scene = table.events.pop()
    table.events.append(Press(t=round(last_scene.t - 0.2, 6), side="black"))
    table.events.append(last_scene)
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert not table.game.restoring


#: kinds whose board reports every change (a camera never runs with auto_press: it has no
#: release, events.md)
BOARDS = ("identity", "occupancy", "pegasus", "snapshot")


def away_auto(kind: str) -> Table:
    """As `away`, on a board without a clock: the release of a move completes it."""
    table = Table(kind, auto_press=True).play("e2e4", "e7e5")
    table.sensor("disconnected")
    table.play(*DOWN)
    table.sensor("reconnected").report()
    return table


@pytest.mark.parametrize("kind", BOARDS)
def test_auto_press_a_move_on_a_board_put_back_part_way_is_not_lost(kind: str) -> None:
    """With auto_press no press ends the restoring: the board put back to 1. e4 e5 2. Nf3 (a
    legal ply from the game), Black plays Nc6 and White Bc4. Before, the game stayed
    `restoring` and nothing more was ever ruled; now Black's Nc6, released, takes the plies
    the board shows, and play goes on."""
    table = put_back(away_auto(kind), BACK[:4])
    table.move("b8c6").move("f1c4").tick(5.0)
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]
    assert of(out, "illegal") == [] and of(out, "penalty") == [] and of(out, "violation") == []
    assert not table.game.restoring


@pytest.mark.parametrize("kind", BOARDS)
def test_auto_press_pieces_put_back_in_reverse_order_are_still_not_moves(kind: str) -> None:
    """Every position the board passes through on its way back is a legal one; a piece put
    back goes where it came from, so none of them is taken for the hands' play."""
    table = put_back(away_auto(kind))
    table.move("d2d4").move("d7d5").tick(5.0)
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5", "d2d4", "d7d5"]
    assert of(out, "illegal") == [] and of(out, "penalty") == [] and of(out, "violation") == []


@pytest.mark.parametrize("kind", BOARDS)
def test_auto_press_a_move_beyond_max_plies_says_again_what_to_put_back(kind: str) -> None:
    """Put back only to 2. Nf3 Nc6, then White plays Bc4: three plies from the game, beyond
    `max_plies`. No press will come; the release says again what is still to be put back
    instead of leaving the game silent."""
    table = put_back(away_auto(kind), BACK[:3])
    table.move("f1c4").move("g8f6").tick(5.0)
    out = table.rulings()
    assert moves(out) == ["e2e4", "e7e5"]
    mismatches = of(out, "mismatch")
    assert len(mismatches) >= 2 and mismatches[-1].t > mismatches[0].t
    assert of(out, "illegal") == [] and of(out, "penalty") == []
    assert table.game.restoring
