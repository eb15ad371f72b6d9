"""The hall's errors: what stops a board's publisher or the station, in words a user reads."""

from __future__ import annotations

from rules.errors import ArbiterError


class HallError(ArbiterError):
    """The hall cannot go on: a bad broker address, a broker that cannot be reached, a
    pairings file that cannot be read, an export folder that cannot be written."""


class PairingsError(HallError):
    """A pairings file (TRF-16 or CSV) cannot be read; the message names the file and line."""


__all__ = ["HallError", "PairingsError"]
