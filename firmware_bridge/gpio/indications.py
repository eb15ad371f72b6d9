"""The 12.6 policy of the players' LEDs and buzzer: it lives in `rules.supervision` (one
place for what players may see), re-exported here for the GPIO panel and older imports."""

from __future__ import annotations

from rules.supervision import (
    BLINK_HZ,
    DEFAULT_MODE,
    FLAG_BEEP,
    GAME_END_BEEP,
    ILLEGAL_BEEP,
    PENDING_ILLEGAL_BEEP,
    VIOLATION_BEEP,
    BeepPattern,
    Indications,
    LedShow,
    PanelMode,
    PanelState,
    indications,
)

__all__ = [
    "BLINK_HZ",
    "DEFAULT_MODE",
    "FLAG_BEEP",
    "GAME_END_BEEP",
    "ILLEGAL_BEEP",
    "PENDING_ILLEGAL_BEEP",
    "VIOLATION_BEEP",
    "BeepPattern",
    "Indications",
    "LedShow",
    "PanelMode",
    "PanelState",
    "indications",
]
