"""Shared test helpers: where ../shared is (CI has it beside the checkout); the tests' temporary
folders in memory; xdist groups of tests that share a fixture."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

# the browser tests' Chromium (one a module), for the hall's pages too (tests/hall)
from tests.web.conftest import browser  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
#: a file system in memory (Linux): the tests' `tmp_path` folders go there when it can be
#: written, so that the fsync the journal makes per event costs microseconds, not the
#: milliseconds of a disk shared with other work (2-3 ms each on this machine under load)
MEMORY_FS = Path("/dev/shm")
#: the key of the config's stash for the folder made here, and whether the run failed
_MADE_TEMP = pytest.StashKey[Path]()
#: the free space /dev/shm must have for the tests' folders to go there (the suite writes
#: some hundreds of MB: journals, videos, captures)
MEMORY_FS_FREE = 2 * 1024**3
_FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder; tests that need it fail loudly when it is missing."""
    if not SHARED.is_dir():
        pytest.fail(f"../shared is missing: expected it at {SHARED}")
    return SHARED


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Without `--basetemp`, the run's temporary folders go to a fresh folder of their own
    under /dev/shm when there is one (each run its own: other checkouts may run pytest at
    the same time). The xdist workers get sub-folders of it from the controller. Runs before
    pytest's own tmp_path plugin reads the option."""
    if config.option.basetemp is not None or hasattr(config, "workerinput"):
        return
    if not (MEMORY_FS.is_dir() and os.access(MEMORY_FS, os.W_OK | os.X_OK)):
        return
    if shutil.disk_usage(MEMORY_FS).free < MEMORY_FS_FREE:
        return  # a container's small /dev/shm (64 MB in Docker) is Chromium's: leave it
    prefix = f"otb-pytest-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:8]}-"
    _prune_kept(prefix)
    made = Path(tempfile.mkdtemp(prefix=prefix, dir=MEMORY_FS))
    config.option.basetemp = str(made / "tmp")
    config.stash[_MADE_TEMP] = made


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml's addopts) starts two workers per core the run may use: most
    of the suite's wall time is tests waiting on a real clock (virtual boards on
    pseudo-terminals, killed and resumed programs, a broker, a browser), not computing. On
    this project's 2-core machine: 2 workers 508 s, 4 workers 314 s, every test passing."""
    del config
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return 2 * cores


#: folders of failed runs of this checkout kept in memory; older ones are removed
KEPT_RUNS = 3
#: a folder touched more recently may belong to a run still going (of this checkout)
IDLE_S = 86400.0


def _prune_kept(prefix: str) -> None:
    """Remove this checkout's folders of failed runs beyond the `KEPT_RUNS` newest, never one
    touched in the last `IDLE_S` seconds (other checkouts' folders have another prefix)."""
    try:
        kept = sorted(
            (p for p in MEMORY_FS.glob(prefix + "*") if p.is_dir()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        now = time.time()
        for old in kept[KEPT_RUNS:]:
            if now - old.stat().st_mtime > IDLE_S:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[_FAILED] = exitstatus != 0


def pytest_unconfigure(config: pytest.Config) -> None:
    """The folder made in memory is removed after a run that passed; after a failure it is
    kept (the failed tests' files are evidence; the next runs keep the last `KEPT_RUNS`) and
    its place is said."""
    made = config.stash.get(_MADE_TEMP, None)
    if made is None:
        return
    if config.stash.get(_FAILED, True):
        print(f"the tests' temporary files are kept in {made}")
    else:
        shutil.rmtree(made, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`), the tests of a module that share a module-,
    class- or package-scoped fixture (a live game that one test moves on and the next one
    reads) run on one worker, in file order, as they do without xdist. Runs before xdist's
    own hook, which turns the group into the test's id."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        scopes = {d.scope for defs in info.name2fixturedefs.values() for d in defs}
        if scopes & {"module", "class", "package"}:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
