"""Time-control strings: parse/str round trips, errors, game class, periods (events.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import TimeControlError
from rules.timecontrol import Period, TimeControl

PARSED = [
    ("-", TimeControl()),
    ("300", TimeControl((Period(300.0),))),
    ("300+2", TimeControl((Period(300.0, increment=2.0),))),
    ("40/5400", TimeControl((Period(5400.0, moves=40),))),
    (
        "40/5400+30:1800+30",
        TimeControl((Period(5400.0, 40, increment=30.0), Period(1800.0, increment=30.0))),
    ),
    ("*180", TimeControl((Period(180.0),), hourglass=True)),
    ("5400d5", TimeControl((Period(5400.0, delay=5.0),))),
    ("5400b5", TimeControl((Period(5400.0, bronstein=5.0),))),
    ("900m60", TimeControl((Period(900.0, move_cap=60.0),))),
    (
        "40/5400d30:1800d30",
        TimeControl((Period(5400.0, 40, delay=30.0), Period(1800.0, delay=30.0))),
    ),
    ("300.5+0.5", TimeControl((Period(300.5, increment=0.5),))),
    ("40/7200:20/3600", TimeControl((Period(7200.0, 40), Period(3600.0, 20)))),
    ("300+2m30", TimeControl((Period(300.0, increment=2.0, move_cap=30.0),))),
    ("0.25+0.00001", TimeControl((Period(0.25, increment=0.00001),))),
]


@pytest.mark.parametrize(("text", "expected"), PARSED, ids=[t for t, _ in PARSED])
def test_parse_and_canonical_str(text: str, expected: TimeControl) -> None:
    parsed = TimeControl.parse(text)
    assert parsed == expected
    assert str(parsed) == text
    assert TimeControl.parse(str(parsed)) == parsed


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (None, "-"),
        ("", "-"),
        ("  300+2 ", "300+2"),
        ("300+0", "300"),
        ("300.0+2.50", "300+2.5"),
        ("5400m60+5", "5400+5m60"),
        ("007", "7"),
    ],
)
def test_parse_normalises(text: str | None, canonical: str) -> None:
    assert str(TimeControl.parse(text)) == canonical


ERRORS = [
    ("5+x", "increment 'x'"),
    ("abc", "period 'abc' must give its time in seconds"),
    ("300:", "empty period"),
    (":300", "empty period"),
    ("x/300", "move count 'x'"),
    ("0/300", "move count must be a whole number of at least 1"),
    ("40/", "must give its time in seconds"),
    ("-300", "must give its time in seconds"),
    ("300+", "increment '' in period '300+'"),
    ("300d", "simple delay ''"),
    ("300bx", "Bronstein delay 'x'"),
    ("300m1.2.3", "per-move cap '1.2.3'"),
    ("300x", "unexpected 'x'"),
    ("300 + 2", "unexpected ' + 2'"),
    ("300+1+2", "gives the increment twice"),
    ("5400d5b5", "both a simple and a Bronstein delay"),
    ("300m0", "per-move cap of 0"),
    ("0", "first period gives no time"),
    ("300:40/100", "period 1 (300) has no move count"),
    ("*", "an hourglass is '*' and seconds"),
    ("*180+2", "an hourglass is '*' and seconds"),
    ("*180:60", "an hourglass is '*' and seconds"),
    ("?", "'?' (unknown)"),
    ("1e3", "unexpected 'e3'"),
    ("inf", "must give its time in seconds"),
    ("\u0663\u0660\u0660", "must give its time in seconds"),  # Arabic-Indic digits
    ("\u0664/300", "move count"),
]


@pytest.mark.parametrize(("text", "fragment"), ERRORS, ids=[t for t, _ in ERRORS])
def test_parse_errors_name_the_bad_part(text: str, fragment: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert message.startswith(f"time control {text!r}: ")
    assert fragment in message


def test_parse_error_message_for_bad_increment() -> None:
    with pytest.raises(TimeControlError, match=r"^time control '5\+x': increment 'x'"):
        TimeControl.parse("5+x")


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TimeControlError, match="must be a string"):
        TimeControl.parse(300)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "fragment"),
    [
        (lambda: Period(-1.0), "must not be negative"),
        (lambda: Period(float("nan")), "finite number"),
        (lambda: Period(True), "finite number"),  # type: ignore[arg-type]
        (lambda: Period(60.0, moves=0), "at least 1"),
        (lambda: Period(60.0, increment=-2.0), "an increment must not be negative"),
        (lambda: Period(60.0, move_cap=0.0), "per-move cap of 0"),
        (lambda: TimeControl((Period(60.0), Period(60.0))), "no period can follow"),
        (lambda: TimeControl((Period(60.0, increment=1.0),), hourglass=True), "hourglass"),
        (lambda: TimeControl((), hourglass=True), "exactly one time"),
        (lambda: TimeControl([Period(60.0)]), "tuple of Period"),  # type: ignore[arg-type]
    ],
)
def test_direct_construction_is_checked(build: Callable[[], object], fragment: str) -> None:
    with pytest.raises(TimeControlError, match=fragment):
        build()


@pytest.mark.parametrize(
    ("text", "game_class"),
    [
        ("600+5", "rapid"),  # 10+5: T = 10 + 5 = 15 min
        ("3000+10", "standard"),  # 50+10: T = 60 min
        ("180+2", "blitz"),  # 3+2: T = 5 min
        ("900m60", "rapid"),  # the Polish seed: 15 min
        ("-", "standard"),
        ("600", "blitz"),  # exactly 10 min
        ("601", "rapid"),
        ("300+5", "blitz"),  # T = 10 min exactly
        ("3599", "rapid"),
        ("3600", "standard"),
        ("40/5400+30:1800+30", "standard"),
        ("*180", "blitz"),
        ("300d5", "blitz"),  # a delay counts as an increment: T = 10 min
        ("300b6", "rapid"),
        ("20/1200:20/1200", "rapid"),  # each period counted once: 40 min
        ("1500+25", "rapid"),  # 25 min + 25 min = 50 min
        ("1800+30", "standard"),  # 30 min + 30 min = 60 min
    ],
)
def test_game_class(text: str, game_class: str) -> None:
    assert TimeControl.parse(text).game_class() == game_class


def test_untimed() -> None:
    assert TimeControl.parse("-").untimed
    assert TimeControl.parse(None).untimed
    assert not TimeControl.parse("300").untimed
    assert str(TimeControl()) == "-"


@pytest.mark.parametrize(
    ("text", "number", "period_index", "bonus_index"),
    [
        ("40/5400+30:1800+30", 1, 0, None),
        ("40/5400+30:1800+30", 39, 0, None),
        ("40/5400+30:1800+30", 40, 0, 1),
        ("40/5400+30:1800+30", 41, 1, None),
        ("40/5400+30:1800+30", 500, 1, None),
        ("40/7200:20/3600", 40, 0, 1),
        ("40/7200:20/3600", 60, 1, 1),  # the repeating last period adds itself
        ("40/7200:20/3600", 61, 1, None),
        ("40/7200:20/3600", 80, 1, 1),
        ("40/5400", 40, 0, 0),
        ("40/5400", 80, 0, 0),
        ("40/5400", 79, 0, None),
        ("300+2", 1, 0, None),
    ],
)
def test_period_of_move(text: str, number: int, period_index: int, bonus_index: int | None) -> None:
    control = TimeControl.parse(text)
    period, bonus = control.period_of_move(number)
    assert period is control.periods[period_index]
    assert bonus is (None if bonus_index is None else control.periods[bonus_index])


def test_period_of_move_rejects_bad_numbers() -> None:
    with pytest.raises(TimeControlError, match="start at 1"):
        TimeControl.parse("300").period_of_move(0)
    with pytest.raises(TimeControlError, match="untimed"):
        TimeControl.parse("-").period_of_move(1)


_SECONDS = st.one_of(
    st.integers(min_value=0, max_value=100_000).map(float),
    st.decimals(min_value=0, max_value=10_000, places=3).map(float),
)


@st.composite
def _controls(draw: st.DrawFn) -> TimeControl:
    if draw(st.booleans()) and draw(st.booleans()):
        return TimeControl((Period(draw(_SECONDS.filter(bool))),), hourglass=True)
    count = draw(st.integers(min_value=1, max_value=3))
    periods = []
    for i in range(count):
        last = i == count - 1
        moves = draw(st.none() | st.integers(1, 60)) if last else draw(st.integers(1, 60))
        seconds = draw(_SECONDS.filter(bool) if i == 0 else _SECONDS)
        delay = draw(st.sampled_from([0.0, 0.0, 5.0, 2.5]))
        bronstein = 0.0 if delay else draw(st.sampled_from([0.0, 3.0]))
        cap = draw(st.none() | _SECONDS.filter(bool))
        periods.append(
            Period(seconds, moves, draw(_SECONDS), delay=delay, bronstein=bronstein, move_cap=cap)
        )
    return TimeControl(tuple(periods))


@given(_controls())
def test_round_trip_property(control: TimeControl) -> None:
    text = str(control)
    assert TimeControl.parse(text) == control
    assert str(TimeControl.parse(text)) == text
