"""Rulings as one readable line each, for terminals and logs."""

from __future__ import annotations

from rules.messages import format_ruling
from rules.rulings import Ruling


def ruling_line(ruling: Ruling) -> str:
    """`  12.30  move        White played e4.` with the article where one applies."""
    text = format_ruling(ruling)
    return f"{ruling.t:9.2f}  {ruling.type:<11} {text}"
