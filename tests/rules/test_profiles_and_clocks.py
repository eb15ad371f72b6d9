"""Rule profiles (events.md "Rule profiles") and every time control through the rules core."""

from __future__ import annotations

import pytest
from event_script import Script, moves, of, over

from rules.errors import ProfileError
from rules.events import Start
from rules.game import Game

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def test_fide_threefold_needs_a_claim() -> None:
    assert over(Script().play(*SHUFFLE, *SHUFFLE).rulings()) is None


@pytest.mark.parametrize("profile", ["bs", "pl"])
def test_bosnian_and_polish_threefold_is_automatic(profile: str) -> None:
    r = Script(rules=profile).play(*SHUFFLE, *SHUFFLE).rulings()
    assert over(r) == ("1/2-1/2", "profile")


@pytest.mark.parametrize("profile", ["bs", "pl"])
def test_fifty_moves_automatic_in_the_profiles(profile: str) -> None:
    fen = "8/8/8/4k3/8/8/4K3/4R3 w - - 99 120"
    assert over(Script(fen, rules=profile).play("Ra1").rulings()) == ("1/2-1/2", "profile")
    assert over(Script(fen).play("Ra1").rulings()) is None


def test_polish_clock_is_fifteen_minutes_with_sixty_seconds_a_move() -> None:
    s = Script(rules="pl", time_control=None).tick(61)
    r = s.rulings()
    assert s.game.control.periods[0].move_cap == 60
    assert s.game.mode == "rapid"
    assert of(r, "flag", side="white") and over(r) == ("0-1", "time")
    flag = of(r, "flag")[0]
    assert flag.at == 60.0


def test_czech_illegal_move_loses_at_once_in_fast_play() -> None:
    s = Script(rules="cs", time_control="600").lift("b1").place("b3", "N").press("white")
    assert over(s.rulings()) == ("0-1", "illegal_moves")
    s = Script(rules="cs", time_control="1800").lift("b1").place("b3", "N").press("white")
    assert over(s.rulings()) is None


def test_czech_minor_pieces_are_drawn() -> None:
    fen = "8/8/3k4/8/2n5/8/3N4/4K3 w - - 0 1"  # K+N v K+N, a helpmate exists under FIDE
    s = Script(fen, rules="cs").lift("d2").place("b3", "N").press("white")
    assert over(s.rulings()) == ("1/2-1/2", "profile")
    s = Script(fen).lift("d2").place("b3", "N").press("white")
    assert over(s.rulings()) is None


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ProfileError, match="known profiles"):
        Game(Start(t=0, rules="klingon"))


def test_game_class_from_the_time_control() -> None:
    assert Game(Start(t=0, time_control="180+2")).mode == "blitz"
    assert Game(Start(t=0, time_control="900+10")).mode == "rapid"
    assert Game(Start(t=0, time_control="40/5400+30:1800+30")).mode == "standard"
    assert Game(Start(t=0)).mode == "standard"
    assert Game(Start(t=0, time_control="180", mode="standard")).mode == "standard"


def test_fischer_increment_from_the_first_move() -> None:
    r = Script(time_control="300+2").lift("e2", dt=3).place("e4", "P", dt=1).press().rulings()
    assert of(r, "clock")[-1].white == 300 - 4.5 + 2


def test_bronstein_gives_back_at_most_the_delay() -> None:
    r = Script(time_control="300b5").lift("e2", dt=2).place("e4", "P", dt=1).press().rulings()
    assert of(r, "clock")[-1].white == 300
    r = Script(time_control="300b5").lift("e2", dt=6).place("e4", "P", dt=1).press().rulings()
    assert of(r, "clock")[-1].white == 300 - 7.5 + 5


def test_hourglass_moves_time_to_the_opponent() -> None:
    r = Script(time_control="*60").lift("e2", dt=5).place("e4", "P", dt=1).press().rulings()
    last = of(r, "clock")[-1]
    assert last.white == 60 - 6.5 and last.black == 60 + 6.5


def test_per_move_cap_is_a_flag_even_with_time_left() -> None:
    s = Script(time_control="900m60").play("e4").tick(70)
    r = s.rulings()
    assert of(r, "flag", side="black") and over(r) == ("1-0", "time")


def test_arbiter_pause_resume_and_add_time() -> None:
    s = Script(time_control="300").arbiter("pause").tick(100).arbiter("resume")
    s.arbiter("add_time", side="white", seconds=30)
    r = s.rulings()
    clocks = of(r, "clock")
    assert clocks[0].paused is True
    assert clocks[-1].white == pytest.approx(300 - 1 + 30 - 1)


def test_flag_falls_in_time_order_before_a_later_event() -> None:
    s = Script(time_control="10").tick(20)
    r = s.rulings()
    flag = of(r, "flag")[0]
    assert flag.t == 10.0 and flag.at == 10.0


def test_no_clock_no_flag() -> None:
    r = Script(time_control=None).tick(100000).play("e4").rulings()
    assert not of(r, "flag") and not of(r, "clock") and moves(r) == ["e2e4"]
