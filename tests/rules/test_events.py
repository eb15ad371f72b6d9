"""The event contract's parser: good lines round-trip, bad lines name the line and the fault."""

from __future__ import annotations

import pytest

from rules.errors import EventError
from rules.events import Lift, Snapshot, Start, parse_line


def test_round_trip_of_a_lift() -> None:
    ev = parse_line('{"t": 1.5, "type": "lift", "square": "e2", "piece": "P", "extra": 1}')
    assert ev == Lift(t=1.5, square="e2", piece="P")
    assert parse_line(ev.to_json()) == ev


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        ('{"t": 1, "type": "lift"}', "lacks 'square'"),
        ('{"t": 1, "type": "teleport"}', "unknown event type"),
        ("[1, 2]", "must be a JSON object"),
        ('{"t": 1, "type": "lift", "square": "e9"}', "square name"),
        ('{"t": "x", "type": "press", "side": "white"}', "finite number"),
        ('{"t": 0, "type": "snapshot", "board": "8/8/8"}', "8 ranks"),
        ('{"t": 0, "type": "press", "side": "red"}', "white"),
        ("{not json", "not valid JSON"),
        # issue 17 D13: a field of the wrong JSON type is named, not "lacks a field"
        ('{"t": 1, "type": "lift", "square": ["e2"]}', "'square' must be a square name"),
        ('{"t": 1, "type": "place", "square": {"e": 2}}', "'square' must be a square name"),
        ('{"t": 1, "type": "place", "square": "e4", "piece": ["P"]}', "'piece' must be one of"),
        ('{"t": 1, "type": "press", "side": ["white"]}', "'side' must be"),
    ],
)
def test_bad_lines_name_line_and_fault(line: str, fault: str) -> None:
    with pytest.raises(EventError) as info:
        parse_line(line, line=7)
    assert "line 7" in str(info.value)
    assert fault in str(info.value)


def test_snapshot_accepts_sensed_letters() -> None:
    assert Snapshot(t=0, board="xxxxxxxx/8/8/8/8/8/8/XXXXXXXX").board.startswith("x")


def test_start_defaults_follow_the_contract() -> None:
    s = Start(t=0)
    assert (s.noise_s, s.slide_s, s.latency_s, s.max_plies) == (0.1, 0.25, 0.0, 2)
    assert not s.strict and not s.auto_press


@pytest.mark.parametrize(
    "line",
    [
        '{"t": 1, "type": "arbiter", "action": "add_time", "side": "white", "seconds": 1e308}',
        '{"t": 1, "type": "arbiter", "action": "set_clock", "white": 1e308, "black": 60}',
    ],
)
def test_a_clock_beyond_100_hours_is_refused_with_the_field_named(line: str) -> None:
    with pytest.raises(EventError, match="at most 100 hours"):
        parse_line(line)


def test_a_number_of_5000_digits_is_named_without_pythons_advice() -> None:
    """Issue 17 D3: the message says what is wrong with the line, not how to reconfigure
    Python (`sys.set_int_max_str_digits`)."""
    with pytest.raises(EventError) as info:
        parse_line('{"t": ' + "9" * 5000 + ', "type": "tick"}', line=3)
    message = str(info.value)
    assert message.startswith("line 3: not valid JSON") and "5000 digits" in message
    assert "sys." not in message
