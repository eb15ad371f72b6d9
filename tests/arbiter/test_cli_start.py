"""`arbiter --help` and `arbiter COMMAND --help` load only the argument parsers (a fast start
on a Pi): no rules core, no session, no codec, no OpenCV."""

from __future__ import annotations

import subprocess
import sys

import pytest

from arbiter.cli import COMMANDS

HEAVY = (
    "rules.game", "rules.events", "rules.winnability", "rules.messages", "rules.rulings",
    "chess", "arbiter.live", "firmware_bridge", "cv2", "arbiter.web", "starlette", "uvicorn",
)  # fmt: skip

PROBE = (
    "import sys\n"
    "from arbiter.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "heavy = {!r}\n"
    "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
)


@pytest.mark.parametrize("argv", [["--help"], *[[name, "--help"] for name in COMMANDS]])
def test_help_imports_nothing_heavy(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(HEAVY), *argv],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.stdout.strip().endswith("[]"), done.stdout[-500:] + done.stderr[-500:]


def test_position_help_shows_the_analysis_default_budget() -> None:
    from arbiter.cli import position
    from rules.winnability import DEFAULT_BUDGET

    assert position.DEFAULT_BUDGET == DEFAULT_BUDGET
