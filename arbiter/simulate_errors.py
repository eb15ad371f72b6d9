"""Errors of `arbiter simulate`: a PGN that cannot be read, or a game no stream can reproduce.

Every message names the file and the game (1-based, as `--game` counts), so that a user can find
what went wrong among a thousand games.
"""

from __future__ import annotations

from rules.errors import ArbiterError


class PgnError(ArbiterError, ValueError):
    """A PGN file cannot be read: missing, not text, no game in it, a bad move, no such game."""


class SimulateError(ArbiterError, ValueError):
    """A game cannot be turned into a stream the FIDE Laws would rule to the game's result.

    Examples: a clock that rose between two moves (no FIDE clock does that), a loss on time in a
    game without a time control, an unknown sensor kind.
    """
