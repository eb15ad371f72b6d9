"""Python's JSON decoder's reasons (`json.JSONDecodeError.msg`), by their fixed forms.

The forms are those of CPython's `json.decoder` and of its C scanner `_json` (which says
"Invalid control character at" and "Invalid \\escape" where the Python one adds the
character), and the trailing commas of 3.13. The position numbers stay: the column, and the
line too when the text has more than one (a line of JSON Lines with its newline has one).
"""

from __future__ import annotations

import json
import re

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["JSON_REASONS", "NESTED", "TOO_MANY_DIGITS", "digits_reason", "json_reason"]

#: (pattern of `msg`, our words)
JSON_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"^Expecting value$", N_("a value was expected")),
        (
            r"^Expecting property name enclosed in double quotes$",
            N_("a name in double quotes was expected"),
        ),
        (r"^Expecting ':' delimiter$", N_("':' was expected")),
        (r"^Expecting ',' delimiter$", N_("',' was expected")),
        (r"^Unterminated string starting at$", N_("a string that is never closed")),
        (r"^Invalid control character (?:'.+' )?at$", N_("a control character inside a string")),
        (r"^Invalid \\escape(?:: .+)?$", N_("a '\\' that escapes nothing known")),
        (r"^Invalid \\uXXXX escape$", N_("a \\uXXXX escape without four hex digits")),
        (r"^Extra data$", N_("more text after the value")),
        (r"^Illegal trailing comma before end of object$", N_("a comma before the '}}'")),
        (r"^Illegal trailing comma before end of array$", N_("a comma before the ']'")),
    )
)
#: the decoder's recursion limit (`RecursionError`), and Python's limit on the digits of an
#: integer (`ValueError`: "Exceeds the limit (4300 digits) for integer string conversion...")
NESTED = N_("nested too deeply")
TOO_MANY_DIGITS = N_("a number of {count} digits (at most {limit} can be read)")
_DIGITS = re.compile(
    r"^Exceeds the limit \((?P<limit>\d+) digits\) for integer string conversion: "
    r"value has (?P<count>\d+) digits"
)

#: where the decoder stopped
AT_COLUMN = N_("{reason}, at column {column}")
AT_LINE_COLUMN = N_("{reason}, at line {line}, column {column}")


def json_reason(exc: json.JSONDecodeError) -> Reason:
    """The decoder's reason for `exc` in our words, with its position (the decoder's own
    message, its position as it gives it, for a form not in the table)."""
    for pattern, words in JSON_REASONS:
        if pattern.match(exc.msg):
            what = Reason(words)
            text = exc.doc.rstrip("\r\n")
            if "\n" not in text:  # one line (of JSON Lines): its end is no second line
                return Reason(AT_COLUMN, reason=what, column=min(exc.pos, len(text)) + 1)
            return Reason(AT_LINE_COLUMN, reason=what, line=exc.lineno, column=exc.colno)
    return Reason.library(str(exc))


def digits_reason(exc: ValueError) -> Reason | None:
    """Python's refusal of an integer too long to read (a JSON value of 4,300 digits or
    more), in our words with its limit; None for any other `ValueError`."""
    found = _DIGITS.match(str(exc))
    if found is None:
        return None
    return Reason(TOO_MANY_DIGITS, count=int(found["count"]), limit=int(found["limit"]))
