"""An option a command does not have is refused with that command's usage (trial row 21).

`arbiter play --time 300` printed the top-level usage (`usage: arbiter [-h] [--lang LANG]
COMMAND ...`), which does not show a newcomer the options `play` has.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

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


def test_version_says_the_installed_version() -> None:
    """Trial row 21: `arbiter --version` was an unrecognised argument."""
    from importlib.metadata import version

    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out), pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert out.getvalue() == f"arbiter {version('otb-arbiter')}\n"


def test_a_reed_board_without_the_pis_gpio_names_the_fake_panel(tmp_path: Path) -> None:
    """Trial row 21: `play --board gpio-matrix` off a Pi said only that RPi.GPIO is not
    installed; it now says what the board needs and that `--gpio fake` plays it elsewhere."""
    try:
        import RPi.GPIO  # noqa: F401
    except (ImportError, RuntimeError):
        pass
    else:
        pytest.skip("RPi.GPIO is installed here")
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(["play", "--board", "gpio-matrix", "--journal", str(tmp_path / "j.jsonl"),
                     "--display", "plain", "--no-keyboard"])  # fmt: skip
    assert code == 2
    said = err.getvalue()
    assert "--board gpio-matrix reads a reed-switch board wired to a Raspberry Pi's GPIO" in said
    assert "--gpio fake" in said and "Traceback" not in said


@pytest.mark.parametrize("spec", ["foo:", "foo", "foo:/dev/ttyUSB0"])
def test_a_bad_board_lists_every_board_play_knows(tmp_path: Path, spec: str) -> None:
    """Trial row 21: the list after a bad `--board` named the e-board protocols only."""
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(["play", "--board", spec, "--journal", str(tmp_path / "j.jsonl"),
                     "--display", "plain", "--no-keyboard"])  # fmt: skip
    assert code == 2
    said = err.getvalue()
    assert "'foo'" in said and "dgt, millennium" in said
    assert "gpio-matrix" in said and "dgt-sim" in said and "millennium-ble-sim" in said
