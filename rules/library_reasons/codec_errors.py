"""Python's UTF-8 decoder's reasons (`UnicodeDecodeError.reason`): the fixed texts of
CPython's decoder (`Objects/unicodeobject.c`), said in our words. Where the bad byte is
stays with the error of ours that carries the reason (`at byte {byte}`)."""

from __future__ import annotations

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["DECODE_REASONS", "decode_reason"]

DECODE_REASONS: dict[str, str] = {
    "invalid start byte": N_("a byte that cannot begin a character"),
    "invalid continuation byte": N_("a byte that cannot continue a character"),
    "unexpected end of data": N_("the text ends inside a character"),
}


def decode_reason(exc: UnicodeDecodeError) -> Reason:
    """The decoder's reason for `exc` in our words (its own text for another one)."""
    template = DECODE_REASONS.get(exc.reason)
    return Reason.library(exc.reason) if template is None else Reason(template)
