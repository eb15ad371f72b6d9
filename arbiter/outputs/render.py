"""Rulings as one readable line each, for terminals and logs."""

from __future__ import annotations

from arbiter.i18n import type_label
from rules.i18n import number
from rules.messages import format_ruling
from rules.rulings import Ruling


def ruling_line(ruling: Ruling, language: str = "en") -> str:
    """`  12.30  move        White played e4.` with the article where one applies."""
    text = format_ruling(ruling, language)
    return f"{number(ruling.t, language, '9.2f')}  {type_label(ruling.type, language):<11} {text}"
