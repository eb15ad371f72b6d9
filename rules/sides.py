"""The two players (kept for older imports): see `rules.types`, their one home."""

from __future__ import annotations

from rules.types import COLOR, SIDE, other, win_for

__all__ = ["COLOR", "SIDE", "other", "win_for"]
