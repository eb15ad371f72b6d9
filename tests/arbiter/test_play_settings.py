"""The config file's `tc` and `--set time_control=` read as clubs write them (issue 12, with
item 2): kept in the contract's form, an absurd control refused unless forced."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.errors import ConfigError
from arbiter.live.config import load_config, merge


def _config(tmp: Path, text: str) -> Path:
    path = tmp / "arbiter.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("written", "standard"),
    [("3+2", "180+2"), ("90+30", "5400+30"), ("G/90;inc30", "5400+30"), ("5400+30", "5400+30"),
     ("G/60;d5", "3600d5"), ("40/5400+30:1800+30", "40/5400+30:1800+30")],
)  # fmt: skip
def test_the_config_and_set_read_club_forms(tmp_path: Path, written: str, standard: str) -> None:
    settings = load_config(_config(tmp_path, f'[play]\ntc = "{written}"\n'))
    assert settings.get("tc") == standard
    start = load_config(_config(tmp_path, f'[start]\ntime_control = "{written}"\n'))
    assert start.start_fields()["time_control"] == standard
    given = merge(load_config(_config(tmp_path, "")), {}, [f"time_control={written}"])
    assert given.start_fields()["time_control"] == standard


def test_an_absurd_control_in_the_config_is_refused_unless_forced(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\[play\] tc: '3' gives 3 s.*force_tc = true"):
        load_config(_config(tmp_path, '[play]\ntc = "3"\n'))
    forced = load_config(_config(tmp_path, '[play]\nforce_tc = true\ntc = "30"\n'))
    assert forced.get("tc") == "30"
    with pytest.raises(ConfigError, match=r"--set time_control: '10' gives 10 s"):
        merge(load_config(_config(tmp_path, "")), {}, ["time_control=10"])
    assert merge(load_config(_config(tmp_path, "")), {"force_tc": True}, ["time_control=10"])


def test_the_command_lines_club_form_is_read_once(tmp_path: Path) -> None:
    # 1+10 is 1 min + 10 s; its contract form 60+10 must not be read again as 60 minutes
    settings = merge(load_config(_config(tmp_path, "")), {"tc": "1+10"})
    assert settings.get("tc") == "60+10"
    again = merge(settings, {})
    assert again.get("tc") == "60+10"
