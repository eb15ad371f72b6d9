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
