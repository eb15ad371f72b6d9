"""An option a command does not have is refused with that command's usage (trial row 21).

`arbiter play --time 300` printed the top-level usage (`usage: arbiter [-h] [--lang LANG]
COMMAND ...`), which does not show a newcomer the options `play` has.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from arbiter.cli import main


def _refused(argv: list[str]) -> str:
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    return err.getvalue()


def test_an_unknown_option_of_play_shows_plays_usage() -> None:
    said = _refused(["play", "--time", "300"])
    assert said.startswith("usage: arbiter play ")
    assert "--tc TC" in said  # the option the user was looking for is in sight
    assert said.rstrip().endswith("arbiter play: error: unrecognized arguments: --time 300")


def test_an_unknown_option_before_any_command_keeps_the_top_level_usage() -> None:
    said = _refused(["--bogus"])
    assert said.startswith("usage: arbiter ")
    assert "arbiter: error: unrecognized arguments: --bogus" in said
