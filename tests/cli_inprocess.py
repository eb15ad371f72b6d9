"""`arbiter ARGS` run inside the test's process, for commands that only refuse bad input.

A subprocess costs a Python start and the imports of the command each time (about a second
here, tens of seconds on a loaded machine) and adds nothing to a test of a refusal: what it
checks is the exit status and the one line on standard error. `run_cli` calls
`arbiter.cli.main` with the streams captured and gives back what `subprocess.run` would:
an exception that escapes `main` becomes a "Traceback" on standard error and status 1, as
the interpreter would print it, so a test asserting "no traceback" still catches one.
Tests of real processes (killed, timed, reading a terminal) keep their subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import traceback
from pathlib import Path

from arbiter import cli


def run_cli(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`arbiter ARGS` in this process, reading `stdin`, in the folder `cwd` (default: this
    one): its status, output and errors."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    try:
        sys.stdin = io.StringIO(stdin)
        folder = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
        with folder, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(list(args))
            except SystemExit as exc:  # argparse's refusals
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                err.write(traceback.format_exc())  # as the interpreter would show it
                status = 1
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["arbiter", *args], status, out.getvalue(), err.getvalue())
