"""Shared test helpers: where ../shared is (CI has it beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared folder; tests that need it fail loudly when it is missing."""
    if not SHARED.is_dir():
        pytest.fail(f"../shared is missing: expected it at {SHARED}")
    return SHARED


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
