"""Real-time runs of one parametrised test made at the same time, each test reading its own.

A test that plays a game in real time on a virtual board through a real `arbiter` program
spends nearly all its time waiting: `arbiter play` on a DGT board for the 31-ply mate game
takes some 20 s of wall time and about 1.5 s of CPU (measured with /usr/bin/time). Its copies
for other protocols wait for the same 20 s one after the other. `AtOnce` starts the runs of
every selected parameter of a test function together (at most `AT_ONCE` at a time, each in a
thread of this process with a folder of its own) when the first of them is asked for; each
test then waits for its own run and gets its result, or the exception its run raised (a
failed assertion or `pytest.fail` inside the run is that test's failure, with its traceback).

Each run is still the whole scenario, in real time, with the same timing and checks as when
run alone; only the waiting overlaps. `AT_ONCE` stays small so that a loaded machine (CI's
two cores, the other pytest worker busy) does not stretch a run's hand timing: three runs
add about a fifth of one core. The runs begin `STAGGER_S` apart, so that their CPU-heavy
moments (a program's start, the imports of `arbiter resume` right after a kill, which must
be done within the 2 s a scenario gives it) do not fall together. Selected alone (`-k`, one
node id), a test runs only its own parameter.

Not for every real-time test: run together at load 16-17 (this machine with other work),
the crash-then-resume e-board runs (a program that must be up within 2 s of real time) and
test_virtual's readers in this process at SPEED 10 (0.2 s of real silence is a lost board)
failed where they pass alone, so they run one at a time. Used by the e-board real game and
pulled cable (tests/arbiter/test_play_eboard.py) and the board demos
(tests/arbiter/test_demo_board.py), whose programs pace themselves in real time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

#: runs of one test function made at the same time
AT_ONCE = 3
#: real seconds between the beginnings of the runs of one test function
STAGGER_S = 2.0


class AtOnce:
    """The runs of a module's parametrised real-time tests, started together per test
    function (module-scoped: `at_once` fixture in the test module)."""

    def __init__(self, request: pytest.FixtureRequest, temp: pytest.TempPathFactory) -> None:
        self._items = request.session.items
        self._module = request.module
        self._temp = temp
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(AT_ONCE, thread_name_prefix="at-once")
        #: (test function name, parameter) -> the run's future
        self._runs: dict[tuple[str, Any], Future[Any]] = {}
        #: set when the module is done: a staggered run not yet begun begins at once
        self._closing = threading.Event()

    def result(
        self, request: pytest.FixtureRequest, name: str, run: Callable[[Any, Path], Any]
    ) -> Any:
        """The result of `run(value, folder)` for this test's parameter `name`; the first
        test of its function to ask starts the runs of every selected test of it."""
        node = request.node
        function = node.originalname
        value = node.callspec.params[name]
        with self._lock:
            if (function, value) not in self._runs:
                for item in self._items:
                    if (
                        isinstance(item, pytest.Function)
                        and item.module is self._module
                        and item.originalname == function
                    ):
                        other = item.callspec.params[name]
                        if (function, other) not in self._runs:
                            folder = self._temp.mktemp(f"{function[:20]}-{other}")
                            delay = STAGGER_S * sum(f == function for f, _ in self._runs)
                            self._runs[(function, other)] = self._pool.submit(
                                self._after, delay, run, other, folder
                            )
            future = self._runs[(function, value)]
        return future.result()

    def _after(
        self, delay: float, run: Callable[[Any, Path], Any], value: Any, folder: Path
    ) -> Any:
        """`run(value, folder)` once `delay` real seconds have passed (the stagger)."""
        self._closing.wait(delay)
        return run(value, folder)

    def close(self) -> None:
        """Wait for runs still going (their programs and boards are closed by the runs)."""
        self._closing.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
