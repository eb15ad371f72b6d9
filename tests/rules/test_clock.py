"""The pure game clock (FIDE Article 6; events.md "Time controls")."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.clock import GameClock
from rules.errors import TimeControlError
from rules.timecontrol import TimeControl


def clock(text: str, *, t: float = 0.0, running: str | None = "white") -> GameClock:
    return GameClock(TimeControl.parse(text), t=t, running=running)


def times(c: GameClock, t: float) -> tuple[float, float]:
    return c.remaining("white", t), c.remaining("black", t)


# ------------------------------------------------------------------ start, queries


def test_start_gives_both_the_first_period_and_runs_white() -> None:
    c = clock("40/5400+30:1800+30", t=2.0)
    assert c.running == "white"
    assert not c.paused
    assert times(c, 2.0) == (5400.0, 5400.0)
    assert times(c, 12.5) == (5389.5, 5400.0)
    assert c.moves_completed("white") == 0
    assert c.control == TimeControl.parse("40/5400+30:1800+30")


def test_start_with_black_to_move_runs_black() -> None:
    c = clock("300", running="black")
    assert times(c, 7.0) == (300.0, 293.0)
    assert c.flag_at() == ("black", 300.0)


def test_stopped_clock_does_not_run() -> None:
    c = clock("300", running=None)
    assert c.running is None
    assert times(c, 100.0) == (300.0, 300.0)
    assert c.flag_at() is None
    assert c.press("white", 5.0) == 0.0
    assert times(c, 200.0) == (300.0, 300.0)


def test_state_rounds_only_for_display() -> None:
    c = clock("300+2")
    c.press("white", 1.0 / 3.0)
    assert c.state(1.0) == {"white": 301.667, "black": 299.333, "running": "black", "paused": False}
    assert c.remaining("white", 1.0) == pytest.approx(302.0 - 1.0 / 3.0, abs=1e-12)


# ------------------------------------------------------------------ Fischer


def test_fischer_increment_from_the_first_move() -> None:
    c = clock("300+2")
    assert c.press("white", 10.0) == 2.0
    assert c.running == "black"
    assert times(c, 10.0) == (292.0, 300.0)
    assert c.press("black", 15.0) == 2.0
    assert times(c, 15.0) == (292.0, 297.0)
    assert c.moves_completed("white") == 1
    assert c.moves_completed("black") == 1


def test_press_by_the_side_whose_clock_is_stopped_changes_nothing() -> None:
    c = clock("300+2")
    assert c.press("black", 5.0) == 0.0
    assert c.running == "white"
    assert c.moves_completed("black") == 0
    assert times(c, 5.0) == (295.0, 300.0)


def test_press_without_a_completed_move_earns_nothing() -> None:
    c = clock("300+2")
    assert c.press("white", 5.0, completed_move=False) == 0.0
    assert c.running == "black"
    assert c.moves_completed("white") == 0
    assert times(c, 5.0) == (295.0, 300.0)


def test_press_after_the_time_ran_out_still_credits() -> None:
    c = clock("60+2")
    assert c.flag_at() == ("white", 60.0)
    assert c.press("white", 75.0) == 2.0
    assert times(c, 75.0) == (2.0, 60.0)


# ------------------------------------------------------------------ periods


def test_period_time_added_at_the_press_completing_the_40th_move() -> None:
    c = clock("40/5400+30:1800+30")
    t = 0.0
    for move in range(1, 41):
        t += 60.0
        assert c.flag_at() == ("white", t - 60.0 + c.remaining("white", t - 60.0))
        credit = c.press("white", t)
        assert credit == 30.0  # the period's time is not part of the credit
        t += 10.0
        c.press("black", t)
        expected_white = 5400.0 - 60.0 * move + 30.0 * move + (1800.0 if move == 40 else 0.0)
        assert c.remaining("white", t) == pytest.approx(expected_white)
    assert c.remaining("white", t) == pytest.approx(5400.0 - 1200.0 + 1800.0)
    assert c.remaining("black", t) == pytest.approx(5400.0 + 800.0 + 1800.0)
    # move 41 is in the second period: its increment, no more period time
    assert c.press("white", t + 5.0) == 30.0
    assert c.remaining("white", t + 5.0) == pytest.approx(6000.0 - 5.0 + 30.0)


def test_scenario_48_flag_before_the_40th_press_sees_no_bonus() -> None:
    c = clock("40/5400+30:1800+30")
    t = 0.0
    for _ in range(39):
        t += 100.0
        c.press("white", t)
        t += 1.0
        c.press("black", t)
    left = c.remaining("white", t)
    assert left == pytest.approx(5400.0 - 3900.0 + 39 * 30.0)
    assert c.flag_at() == ("white", pytest.approx(t + left))


def test_repeating_last_period_adds_itself_again() -> None:
    c = clock("40/7200:20/3600")
    t = 0.0
    gains = []
    for _ in range(100):
        before = c.remaining("white", t)
        t += 1.0
        c.press("white", t)
        gains.append(c.remaining("white", t) - before + 1.0)
        c.press("black", t)
    bonus_moves = [i + 1 for i, g in enumerate(gains) if g]
    assert bonus_moves == [40, 60, 80, 100]
    assert gains[39] == 3600.0
    assert gains[59] == 3600.0


def test_single_repeating_period() -> None:
    c = clock("2/60")
    c.press("white", 1.0)
    c.press("black", 1.0)
    assert c.remaining("white", 1.0) == 59.0
    c.press("white", 2.0)
    assert c.remaining("white", 2.0) == 118.0


# ------------------------------------------------------------------ simple delay


def test_scenario_51_simple_delay_3s_unchanged_8s_minus_3() -> None:
    c = clock("5400d5")
    assert c.remaining("white", 3.0) == 5400.0  # within the delay the main time stands
    assert c.press("white", 3.0) == 0.0
    assert c.remaining("white", 3.0) == 5400.0
    assert c.remaining("black", 7.0) == 5400.0
    assert c.remaining("black", 11.0) == 5397.0
    c.press("black", 11.0)
    assert c.remaining("black", 11.0) == 5397.0


def test_simple_delay_flag_comes_after_the_delay() -> None:
    c = clock("10d5")
    assert c.flag_at() == ("white", 15.0)
    c.press("white", 2.0)
    assert c.flag_at() == ("black", 17.0)


def test_simple_delay_with_no_main_time_left_still_allows_the_delay() -> None:
    c = clock("60d5")
    c.set(0.0, 60.0, t=0.0)
    assert c.flag_at() == ("white", 5.0)
    c.press("white", 4.0)
    assert times(c, 4.0) == (0.0, 60.0)


def test_delay_of_each_period() -> None:
    c = clock("1/100d30:100d10")
    c.press("white", 40.0)  # 10 s of main time used, then +100 s
    assert c.remaining("white", 40.0) == 190.0
    c.press("black", 40.0)
    assert c.flag_at() == ("white", 40.0 + 10.0 + 190.0)


# ------------------------------------------------------------------ Bronstein


@pytest.mark.parametrize(
    ("used", "credit", "after"),
    [(3.0, 3.0, 5400.0), (5.0, 5.0, 5400.0), (8.0, 5.0, 5397.0), (0.0, 0.0, 5400.0)],
)
def test_bronstein_gives_back_the_time_used_at_most_the_delay(
    used: float, credit: float, after: float
) -> None:
    c = clock("5400b5")
    assert c.remaining("white", used) == 5400.0 - used  # the clock runs during the move
    assert c.press("white", used) == credit
    assert c.remaining("white", used) == after


def test_bronstein_counts_the_whole_move_across_a_pause() -> None:
    c = clock("5400b5")
    c.pause(2.0)
    c.resume(50.0)
    assert c.press("white", 52.0) == 4.0
    assert c.remaining("white", 52.0) == 5400.0


# ------------------------------------------------------------------ per-move cap


def test_move_cap_flags_a_long_move_with_total_time_left() -> None:
    c = clock("900m60")
    assert c.flag_at() == ("white", 60.0)
    c.press("white", 59.0)
    assert c.flag_at() == ("black", 119.0)  # a fresh minute for each move
    c.press("black", 70.0)
    assert c.flag_at() == ("white", 130.0)
    assert times(c, 70.0) == (841.0, 889.0)


def test_move_cap_total_time_flags_first_when_less_is_left() -> None:
    c = clock("900m60")
    c.set(30.0, 900.0, t=0.0)
    assert c.flag_at() == ("white", 30.0)


def test_move_cap_survives_pause_and_resume() -> None:
    c = clock("900m60")
    c.pause(40.0)
    assert c.flag_at() is None
    c.resume(100.0)
    assert c.flag_at() == ("white", 120.0)


def test_move_cap_already_overrun_is_a_past_flag() -> None:
    c = clock("900m60")
    c.pause(61.0)
    c.resume(70.0)
    assert c.flag_at() is None


# ------------------------------------------------------------------ hourglass


def test_hourglass_moves_used_time_to_the_other_side() -> None:
    c = clock("*180")
    assert times(c, 10.0) == (170.0, 190.0)
    assert c.press("white", 10.0) == 0.0
    assert times(c, 10.0) == (170.0, 190.0)
    assert c.flag_at() == ("black", 200.0)
    assert times(c, 40.0) == (200.0, 160.0)
    c.press("black", 40.0)
    assert c.flag_at() == ("white", 240.0)


def test_hourglass_moves_no_more_than_was_left() -> None:
    c = clock("*180")
    assert times(c, 500.0) == (0.0, 360.0)
    c.press("white", 500.0)
    assert times(c, 500.0) == (0.0, 360.0)


# ------------------------------------------------------------------ pause, stop


def test_pause_and_resume_mid_move_with_delay() -> None:
    c = clock("300d5")
    c.pause(3.0)
    assert c.paused
    assert c.running == "white"
    assert c.flag_at() is None
    assert c.press("white", 4.0) == 0.0  # a paused clock ignores presses
    assert c.running == "white"
    assert times(c, 90.0) == (300.0, 300.0)
    c.resume(100.0)
    assert not c.paused
    assert c.remaining("white", 102.0) == 300.0  # the 2 s of delay left are used first
    assert c.remaining("white", 104.0) == 298.0
    assert c.flag_at() == ("white", 402.0)
    assert c.state(104.0) == {"white": 298.0, "black": 300.0, "running": "white", "paused": False}


def test_pause_and_resume_are_idempotent() -> None:
    c = clock("300")
    c.pause(10.0)
    c.pause(20.0)
    c.resume(30.0)
    c.resume(40.0)  # the clock already runs since 30
    assert c.remaining("white", 50.0) == 270.0


def test_stop_ends_the_clock() -> None:
    c = clock("300+2")
    c.press("white", 10.0)
    c.stop(20.0)
    assert c.running is None
    assert c.flag_at() is None
    assert times(c, 1000.0) == (292.0, 290.0)
    assert c.state(1000.0) == {"white": 292.0, "black": 290.0, "running": None, "paused": False}


# ------------------------------------------------------------------ arbiter


def test_add_and_deduct_with_a_floor_at_zero() -> None:
    c = clock("300")
    c.add("black", 120.0, 10.0)  # 7.5.5 penalty: time to the opponent
    assert times(c, 10.0) == (290.0, 420.0)
    c.add("white", -30.0, 10.0)
    assert times(c, 20.0) == (250.0, 420.0)
    assert c.flag_at() == ("white", 270.0)
    c.add("white", -1000.0, 20.0)
    assert times(c, 20.0) == (0.0, 420.0)
    assert c.flag_at() is None  # the time is gone already


def test_add_to_the_running_side_mid_move_keeps_the_time_used() -> None:
    c = clock("300d5")
    c.add("white", 60.0, 3.0)
    assert c.remaining("white", 3.0) == 360.0
    assert c.remaining("white", 9.0) == 356.0  # 2 s of delay were left at the add


def test_set_clock() -> None:
    c = clock("300+2")
    c.press("white", 10.0)
    c.set(100.0, 50.5, 20.0)
    assert times(c, 20.0) == (100.0, 50.5)
    assert times(c, 30.0) == (100.0, 40.5)
    assert c.flag_at() == ("black", 70.5)


def test_start_after_an_illegal_move_reinstatement() -> None:
    """7.5.1/7.5.5: the clocks keep their times, the increment goes, the offender's runs."""
    c = clock("300+2")
    credit = c.press("white", 10.0)  # an illegal move, completed by the press
    assert credit == 2.0
    c.start("white", 12.0)  # the arbiter's reinstatement: black's clock stops
    c.add("white", -credit, 12.0)
    c.add("black", 120.0, 12.0)
    c.uncount_move("white")
    assert c.running == "white"
    assert c.moves_completed("white") == 0
    assert times(c, 12.0) == (290.0, 418.0)
    assert c.press("white", 20.0) == 2.0
    assert times(c, 20.0) == (284.0, 418.0)
    assert c.moves_completed("white") == 1


def test_reinstatement_continues_the_same_move_for_the_cap() -> None:
    c = clock("900m60")
    c.press("white", 50.0)
    c.start("white", 52.0)
    c.uncount_move("white")
    assert c.flag_at() == ("white", 62.0)


def test_start_the_side_already_running_changes_nothing() -> None:
    c = clock("300")
    c.start("white", 5.0)
    assert times(c, 10.0) == (290.0, 300.0)


def test_uncount_an_illegal_40th_move_takes_the_period_time_back() -> None:
    c = clock("40/5400+30:1800+30")
    for _ in range(39):
        c.press("white", 0.0)
        c.press("black", 0.0)
    credit = c.press("white", 10.0)
    assert c.remaining("white", 10.0) == 5400.0 + 40 * 30.0 - 10.0 + 1800.0
    c.start("white", 10.0)
    c.add("white", -credit, 10.0)
    c.uncount_move("white")
    assert c.remaining("white", 10.0) == 5400.0 + 39 * 30.0 - 10.0
    c.press("white", 20.0)
    assert c.remaining("white", 20.0) == 5400.0 + 40 * 30.0 - 20.0 + 1800.0


def test_uncount_without_a_move_is_an_error() -> None:
    with pytest.raises(TimeControlError, match="white has no completed move"):
        clock("300").uncount_move("white")


# ------------------------------------------------------------------ untimed


def test_untimed_clock_shows_zero_and_never_flags() -> None:
    c = clock("-")
    assert c.control.untimed
    assert times(c, 100.0) == (0.0, 0.0)
    assert c.flag_at() is None
    assert c.press("white", 100.0) == 0.0
    assert c.running == "black"
    assert c.moves_completed("white") == 1
    assert c.state(200.0) == {"white": 0.0, "black": 0.0, "running": "black", "paused": False}
    c.uncount_move("white")
    assert c.moves_completed("white") == 0


# ------------------------------------------------------------------ misuse


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda c: c.remaining("red", 1.0), 'side must be "white" or "black"'),
        (lambda c: c.press("White", 1.0), "not 'White'"),
        (lambda c: c.press("white", 4.0), "event time 4.0 runs backwards"),
        (lambda c: c.remaining("white", 4.0), "runs backwards"),
        (lambda c: c.add("white", math.inf, 6.0), "must be finite"),
        (lambda c: c.add("white", "5", 6.0), "must be a number"),
        (lambda c: c.set(-1.0, 5.0, 6.0), "must not be negative"),
        (lambda c: c.pause(math.nan), "event time must be finite"),
        (lambda c: c.press("white", math.inf), "event time must be finite"),
        (lambda c: c.stop(None), "event time must be a number, not None"),
    ],
)
def test_misuse_raises_time_control_error(
    call: Callable[[GameClock], object], fragment: str
) -> None:
    c = clock("300")
    c.pause(5.0)
    with pytest.raises(TimeControlError, match=fragment):
        call(c)


def test_constructor_checks_its_arguments() -> None:
    with pytest.raises(TimeControlError, match="side must be"):
        clock("300", running="both")
    with pytest.raises(TimeControlError, match="must be a TimeControl"):
        GameClock("300", t=0.0)  # type: ignore[arg-type]
    with pytest.raises(TimeControlError, match="start time must be finite"):
        clock("300", t=math.nan)


# ------------------------------------------------------------------ real games


def _clocked_games(shared: Path) -> list[chess.pgn.Game]:
    games = []
    with open(shared / "data" / "games" / "clocked-games.pgn", encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def test_replay_real_games_clock_within_a_tenth(shared: Path) -> None:
    """Every [%clk] of every game in clocked-games.pgn, reproduced press by press.

    The think time of a move is previous clock + increment - this clock (README); the event
    times are their running sum, so any drift or a misplaced increment would show.
    """
    games = _clocked_games(shared)
    assert len(games) == 310
    worst = 0.0
    presses = 0
    for game in games:
        control = TimeControl.parse(game.headers["TimeControl"])
        increment = control.periods[0].increment
        c = GameClock(control, t=0.0)
        shown = {"white": control.periods[0].seconds, "black": control.periods[0].seconds}
        t = 0.0
        for node in game.mainline():
            side = "black" if node.turn() == chess.WHITE else "white"
            other = "black" if side == "white" else "white"
            assert c.running == side
            flag = c.flag_at()
            assert flag is not None and flag[0] == side
            t += shown[side] + increment - node.clock()
            assert flag[1] >= t - 1e-9  # nobody's flag fell before the press
            assert c.press(side, t) == increment
            shown[side] = node.clock()
            worst = max(worst, abs(c.remaining(side, t) - shown[side]))
            worst = max(worst, abs(c.remaining(other, t) - shown[other]))
            presses += 1
    assert presses > 28_000
    assert worst < 0.1
    assert worst < 1e-6  # float arithmetic, no cumulative rounding


def test_replay_with_pauses_and_queries_changes_nothing(shared: Path) -> None:
    """Splitting moves with arbiter pauses and state reads does not move the clocks."""
    game = max(_clocked_games(shared)[:40], key=lambda g: g.end().ply())
    control = TimeControl.parse(game.headers["TimeControl"])
    increment = control.periods[0].increment
    plain, paused = GameClock(control, t=0.0), GameClock(control, t=0.0)
    shown = {"white": control.periods[0].seconds, "black": control.periods[0].seconds}
    t = offset = 0.0
    for node in game.mainline():
        side = "black" if node.turn() == chess.WHITE else "white"
        think = shown[side] + increment - node.clock()
        paused.state(t + offset + think / 3)
        paused.pause(t + offset + think / 2)
        offset += 17.25
        paused.resume(t + offset + think / 2)
        t += think
        plain.press(side, t)
        paused.press(side, t + offset)
        shown[side] = node.clock()
        for s in ("white", "black"):
            assert paused.remaining(s, t + offset) == pytest.approx(shown[s], abs=1e-6)
            assert plain.remaining(s, t) == pytest.approx(shown[s], abs=1e-6)


# ------------------------------------------------------------------ properties

_CONTROLS = st.sampled_from(
    ["300", "180+2", "60d5", "120b3", "900m60", "2/60+1:30d2", "*60", "*180", "10+0.5", "-"]
)
_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "idle", "pause", "resume", "add", "start"]),
        st.sampled_from(["white", "black"]),
        st.floats(min_value=0.0, max_value=90.0, allow_nan=False),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_CONTROLS, _STEPS)
def test_random_sequences_never_go_negative(text: str, steps: list[tuple[str, str, float]]) -> None:
    c = clock(text)
    t = 0.0
    total = sum(times(c, t))
    for action, side, dt in steps:
        t += dt
        if action == "press":
            c.press(side, t, completed_move=dt > 1.0)
        elif action == "pause":
            c.pause(t)
        elif action == "resume":
            c.resume(t)
        elif action == "add" and not c.control.hourglass:
            c.add(side, dt - 45.0, t)
        elif action == "start":
            c.start(side, t)
        for s in ("white", "black"):
            assert c.remaining(s, t) >= 0.0
            assert c.remaining(s, t + 1000.0) >= 0.0
        if c.control.hourglass:
            assert sum(times(c, t)) == pytest.approx(total)
            assert sum(times(c, t + 1000.0)) == pytest.approx(total)
        flag = c.flag_at()
        if flag is not None:
            assert flag[0] == c.running
            assert c.remaining(flag[0], flag[1]) == pytest.approx(0.0, abs=1e-6) or (
                c.control.periods[0].move_cap is not None
            )


@settings(max_examples=200, deadline=None)
@given(_CONTROLS, st.lists(st.floats(min_value=0.0, max_value=30.0), max_size=40))
def test_splitting_a_move_does_not_change_the_clock(text: str, thinks: list[float]) -> None:
    """A zero-change `add` in the middle of each move (a new segment) changes nothing."""
    whole, split = clock(text), clock(text)
    t = 0.0
    for i, think in enumerate(thinks):
        side = "white" if i % 2 == 0 else "black"
        split.add(side, 0.0, t + think / 2)
        t += think
        assert whole.press(side, t) == pytest.approx(split.press(side, t))
        for s in ("white", "black"):
            assert whole.remaining(s, t) == pytest.approx(split.remaining(s, t), abs=1e-9)


def _reference(text: str, thinks: list[float]) -> list[tuple[float | None, float, float]]:
    """A move-by-move model of the clock, written apart from GameClock: for each move, the
    expected flag time before the press and both displays after it."""
    periods = TimeControl.parse(text).periods
    main = {"white": periods[0].seconds, "black": periods[0].seconds}
    index = {"white": 0, "black": 0}
    left = {"white": periods[0].moves, "black": periods[0].moves}
    out: list[tuple[float | None, float, float]] = []
    t = 0.0
    for i, think in enumerate(thinks):
        side = "white" if i % 2 == 0 else "black"
        period = periods[index[side]]
        flag: float | None = t + period.delay + main[side]
        if period.move_cap is not None:
            flag = min(flag, t + period.move_cap)
        if main[side] == 0 and period.delay == 0:
            flag = None
        main[side] -= min(main[side], max(0.0, think - period.delay))
        main[side] += period.increment + min(think, period.bronstein)
        if left[side] is not None:
            left[side] -= 1
            if left[side] == 0:
                index[side] = min(index[side] + 1, len(periods) - 1)
                main[side] += periods[index[side]].seconds
                left[side] = periods[index[side]].moves
        t += think
        out.append((flag, main["white"], main["black"]))
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        ["300", "180+2", "60d5", "120b3", "900m60", "2/60+1:30d2", "3/20:1/5b2", "10+0.5", "5"]
    ),
    st.lists(st.floats(min_value=0.0, max_value=40.0), max_size=40),
)
def test_clock_matches_a_move_by_move_model(text: str, thinks: list[float]) -> None:
    c = clock(text)
    t = 0.0
    for i, (think, (flag, white, black)) in enumerate(
        zip(thinks, _reference(text, thinks), strict=True)
    ):
        side = "white" if i % 2 == 0 else "black"
        got = c.flag_at()
        if flag is None:
            assert got is None
        else:
            assert got == (side, pytest.approx(flag, abs=1e-9))
        t += think
        c.press(side, t)
        assert c.remaining("white", t) == pytest.approx(white, abs=1e-9)
        assert c.remaining("black", t) == pytest.approx(black, abs=1e-9)
