"""A press after an illegal move (issue 17, items 2 and 3 of the 2026-12-04 brief).

- After an illegal move is completed and its position reinstated (7.5.1), a press with the
  board left as it was (the queen still on d3) makes no move: it is a press without a move,
  "considered and penalized as if an illegal move" (7.5.3), ruled so, not the illegal
  arrangement completed again. Anything moved since (scenario 28) is a new attempt (7.5.1).
  Without a clock there is no press without a move (7.5.3 speaks of the clock): nothing.
- A camera: the last still scene before a press showed an illegal arrangement released
  (4.7), and the next one, which began after the press, shows the queen put back. The press
  completed the illegal move (7.5.1), as a camera's press is ruled on the scene that shows
  the board at the press; if the next scene began before the press, the board at the press
  was the position again: a press without a move (7.5.3).
"""

from __future__ import annotations

from event_script import Script, of, over

from rules.events import Press, Snapshot, Start
from rules.messages import format_ruling
from rules.replay import replay
from rules.rulings import Illegal, Mismatch, Reinstate

QD3 = "rnbqkbnr/pppppppp/8/8/8/3Q4/PPPPPPPP/RNB1KBNR"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
D4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR"
CAMERA = {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4}


def completed(rulings: list) -> list[Illegal]:
    return [r for r in rulings if isinstance(r, Illegal) and r.completed]


def queen_to_d3(time_control: str | None = "60+5", **settings: object) -> Script:
    return Script(time_control=time_control, **settings).lift("d1").place("d3", "Q").press()


def test_a_press_on_the_board_left_as_reinstated_is_a_press_without_a_move() -> None:
    s = queen_to_d3().press("white", dt=2.0)
    r = s.rulings()
    first, second = completed(r)
    assert (first.article, first.defect, first.count) == ("7.5.1", "unreachable", 1)
    assert (second.article, second.defect, second.count) == ("7.5.3", "no_move", 2)
    said = format_ruling(second)
    assert "pressed without a move" in said and "(Art. 7.5.3)" in said
    assert over(r) == ("0-1", "illegal_moves")  # the second one loses, as before (7.5.5)
    # no increment was credited for a press that made no move, so none is taken back
    assert not of(r[r.index(second) :], "penalty", kind="increment_removed")


def test_the_queen_lifted_and_put_back_on_d3_is_still_no_move() -> None:
    s = queen_to_d3().lift("d3", "Q").place("d3", "Q").press("white")
    second = completed(s.rulings())[1]
    assert (second.article, second.defect) == ("7.5.3", "no_move")


def test_the_same_illegal_move_made_again_after_it_was_put_right_is_a_second_one() -> None:
    """Trial row 12: the queen put back on d1 (the board shows the game again), then taken to
    d3 once more and the clock pressed: a new attempt, the same illegal move completed a
    second time (7.5.1), not a press without a move, and no `mismatch` before it."""
    s = queen_to_d3().lift("d3", "Q").place("d1", "Q").lift("d1", "Q").place("d3", "Q")
    r = s.press("white").rulings()
    first, second = completed(r)
    assert (second.article, second.defect, second.count) == ("7.5.1", "unreachable", 2)
    between = r[r.index(first) + 1 : r.index(second)]
    assert all(m.t == first.t for m in between if isinstance(m, Mismatch))  # the reinstatement's
    assert over(r) == ("0-1", "illegal_moves")


def test_scenario_28_a_new_arrangement_is_a_second_illegal_move() -> None:
    s = queen_to_d3().lift("d3", "Q").place("d4", "Q").press("white")
    second = completed(s.rulings())[1]
    assert (second.article, second.defect) == ("7.5.1", "unreachable")


def test_without_a_clock_the_press_on_the_board_left_as_reinstated_is_nothing() -> None:
    s = queen_to_d3(time_control=None).press("white", dt=2.0)
    r = s.rulings(finish=False)
    assert len(completed(r)) == 1 and not over(r)
    s.lift("d3", "Q").place("d1", "Q").play("e4")
    assert not completed(s.rulings(finish=False))[1:]
    assert s.game.board.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3/")


def camera_press_then_put_back(put_back_seen_at: float) -> list:
    """Qd1-d3 seen still at 0.8-1.0, the press at 1.5, the queen back on d1 in a scene that
    began at `put_back_seen_at` and was reported at 3.0."""
    return [
        Start(t=0.0, time_control="60+5", **CAMERA),
        Snapshot(t=1.0, board=QD3, seen_at=0.8),
        Press(t=1.5, side="white"),
        Snapshot(t=3.0, board=START, seen_at=put_back_seen_at),
    ]


def test_a_camera_press_then_the_queen_put_back_completes_the_illegal_move() -> None:
    r = replay(camera_press_then_put_back(2.0))
    (done,) = completed(r)
    assert (done.article, done.defect, done.count, done.t) == ("7.5.1", "unreachable", 1, 3.0)
    said = format_ruling(done)
    assert "completed an illegal move (no legal move leads to this position)" in said
    assert of(r, "penalty", kind="time_added", seconds=60.0)
    assert [x.reason for x in r if isinstance(x, Reinstate)] == ["illegal_move"]
    # the scene shows the reinstated position already: nothing to put back
    assert not [x for x in r if isinstance(x, Mismatch)]
    assert of(r, "clock")[-1].running == "white"


def test_a_camera_scene_that_began_before_the_press_shows_no_move_at_the_press() -> None:
    (done,) = completed(replay(camera_press_then_put_back(1.2)))
    assert (done.article, done.defect) == ("7.5.3", "no_move")


def test_a_camera_press_then_a_legal_move_is_that_move() -> None:
    """The reading is only for a scene showing the position again: a legal move seen after
    the press (the illegal arrangement corrected) stands as before."""
    events = [*camera_press_then_put_back(2.0)[:3]]
    events.append(Snapshot(t=3.0, board=D4, seen_at=2.0))
    r = replay(events)
    assert not completed(r) and [m.san for m in of(r, "move")] == ["d4"]
