"""`--tc` as clubs write it (newcomer trial row 6): minutes where a club means minutes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inprocess import run_cli

from arbiter.errors import ConfigError
from arbiter.live.club_time import describe, read_club_time
from rules.timecontrol import TimeControl
from tests.arbiter.test_play import arbiter


@pytest.mark.parametrize(
    ("typed", "contract", "words"),
    [
        ("3+2", "180+2", "3 min + 2 s per move, Fischer"),
        ("90+30", "5400+30", "1 h 30 min + 30 s per move, Fischer"),
        ("15+10", "900+10", "15 min + 10 s per move, Fischer"),
        ("1+0", "60", "1 min"),
        ("G/90;inc30", "5400+30", "1 h 30 min + 30 s per move, Fischer"),
        ("g/90+30", "5400+30", "1 h 30 min + 30 s per move, Fischer"),
        ("G/60;d5", "3600d5", "1 h, 5 s delay (US)"),
        ("G/5", "300", "5 min"),
        # seconds, as before: a minutes reading would be absurd or is not the club's
        ("300+2", "300+2", "5 min + 2 s per move, Fischer"),
        ("180+2", "180+2", "3 min + 2 s per move, Fischer"),
        ("60+1", "60+1", "1 min + 1 s per move, Fischer"),
        ("5400+30", "5400+30", "1 h 30 min + 30 s per move, Fischer"),
        ("300", "300", "5 min"),
        ("5400d5", "5400d5", "1 h 30 min, 5 s delay (US)"),
        ("900m60", "900m60", "15 min, at most 1 min a move"),
        ("*180", "*180", "hourglass of 3 min"),
        ("-", "-", "no clock"),
        (
            "40/5400+30:1800+30",
            "40/5400+30:1800+30",
            "1 h 30 min for 40 moves + 30 s per move, Fischer; "
            "then 30 min + 30 s per move, Fischer for the rest of the game",
        ),
    ],
)
def test_reading_and_words(typed: str, contract: str, words: str) -> None:
    control = read_club_time(typed)
    assert str(control) == contract
    assert control == TimeControl.parse(contract)
    assert describe(control) == words


@pytest.mark.parametrize(
    ("typed", "contract"),
    [
        # as tournament rules write FIDE's standard control (issue 12 item 2)
        ("90 min/40 moves + 30 min, 30 s per move", "40/5400+30:1800+30"),
        ("90 min / 40 moves + 30 min + 30 s per move from move 1", "40/5400+30:1800+30"),
        ("40 moves in 90 min, then 30 min, 30 s increment", "40/5400+30:1800+30"),
        ("90'/40 moves + 30', 30\" per move", "40/5400+30:1800+30"),
        ("90 min/40 moves + 30 min + 30 s", "40/5400+30:1800+30"),
        ("2 hours/40 moves + 1 hour/20 moves + 30 min", "40/7200:20/3600:1800"),
        ("1 h 30 min + 30 s/move", "5400+30"),
        ("90 min + 30 s", "5400+30"),
        ("5 min + 3 s", "300+3"),
        ("25 Minutes + 10 seconds per move", "1500+10"),
        ("60 min, 5 s delay", "3600d5"),
        ("5 min", "300"),
        ("40 moves in 2 h", "40/7200"),
        # in our users' languages
        ("90 min/40 poteza + 30 min, 30 s po potezu", "40/5400+30:1800+30"),
        ("40 poteza za 90 minuta, zatim 30 minuta, 30 sekundi po potezu", "40/5400+30:1800+30"),
        ("90 минути/40 потези + 30 минути, 30 секунди по потег", "40/5400+30:1800+30"),
        ("90 min/40 tahů + 30 min, 30 s za tah", "40/5400+30:1800+30"),
        ("40 ruchów w 90 min, potem 30 min, 30 s na ruch", "40/5400+30:1800+30"),
        ("2 hodiny/40 tahů + 1 hodina", "40/7200:3600"),
        # the contract's one-letter marks are not words
        ("900m60", "900m60"),
        ("5400b3", "5400b3"),
    ],
)
def test_worded_controls(typed: str, contract: str) -> None:
    assert str(read_club_time(typed)) == contract


def test_the_standard_control_in_words_is_said_back() -> None:
    control = read_club_time("90 min/40 moves + 30 min, 30 s per move")
    assert describe(control) == (
        "1 h 30 min for 40 moves + 30 s per move, Fischer; "
        "then 30 min + 30 s per move, Fischer for the rest of the game"
    )


@pytest.mark.parametrize(
    "typed", ["90 min + 30 min", "3 apples", "G/90;inc", "90 min/40 moves + x", "3 jabuke"]
)
def test_words_that_are_no_control_are_refused_with_examples(typed: str) -> None:
    with pytest.raises(ConfigError, match=r"cannot be read as a time control.*90 min/40 moves"):
        read_club_time(typed)


@pytest.mark.parametrize("typed", ["99999999999999999999", "100000", "G/1500", "40/90000"])
def test_more_than_a_day_is_refused_unless_forced(typed: str) -> None:
    with pytest.raises(ConfigError, match=r"more than a day.*--force-tc"):
        read_club_time(typed)
    assert read_club_time(typed, force=True).periods


@pytest.mark.parametrize("typed", ["3", "45", "*30", "40/50"])
def test_under_a_minute_is_refused_unless_forced(typed: str) -> None:
    with pytest.raises(ConfigError, match=r"under a minute.*--force-tc"):
        read_club_time(typed)
    assert str(read_club_time(typed, force=True)) == typed


@pytest.mark.parametrize("typed", ["3+", "G/", "G/90;inc", "abc", "3+2+1"])
def test_bad_notation_is_a_config_error_naming_it(typed: str) -> None:
    with pytest.raises(ConfigError, match="--tc"):
        read_club_time(typed)


def test_play_prints_the_reading_and_journals_the_contract_form(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    stream.write_text(
        '{"t": 0, "type": "start"}\n{"t": 0.1, "type": "resign", "side": "white"}\n',
        encoding="utf-8",
    )
    journal = tmp_path / "j.jsonl"
    done = arbiter(
        "play", "--tc", "3+2", "--events", str(stream), "--journal", str(journal),
        "--display", "plain",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "time control: 3 min + 2 s per move, Fischer (180+2)" in done.stdout
    start = json.loads(journal.read_text(encoding="utf-8").splitlines()[0])
    assert start["time_control"] == "180+2"


def test_play_refuses_three_seconds_before_any_game(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    done = run_cli("play", "--tc", "3", "--events", "-", "--journal", str(journal))
    assert done.returncode == 2
    assert "under a minute" in done.stderr and "Traceback" not in done.stderr
    assert not journal.exists()
