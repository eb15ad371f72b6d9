"""tomllib's reasons (`tomllib.TOMLDecodeError`), by the fixed forms of CPython's
`tomllib._parser`: a message, then ` (at line L, column C)` or ` (at end of document)`,
whose numbers stay. A key or character the message quotes stays as the file has it."""

from __future__ import annotations

import re
import tomllib

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["TOML_REASONS", "toml_reason"]

#: (pattern of the message without its position, our words: `{what}` is what it quotes)
TOML_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"^Invalid statement$", N_("a line that is no key = value nor [table]")),
        (
            r"^Expected newline or end of document after a statement$",
            N_("more on the line after a value, where the line should end"),
        ),
        (r"^Expected (?P<what>['\"].*['\"])$", N_("{what} was expected")),
        (r"^Found invalid character (?P<what>'.*')$", N_("a character not allowed here: {what}")),
        (r"^Cannot declare (?P<what>.+) twice$", N_("the table {what} is declared twice")),
        (r"^Cannot overwrite a value$", N_("a key is given a value twice")),
        (
            r"^Expected '\]' at the end of a table declaration$",
            N_("']' was expected after the table's name"),
        ),
        (r"^Cannot mutate immutable namespace (?P<what>.+)$", N_("{what} cannot be changed here")),
        (
            r"^Expected '\]\]' at the end of an array declaration$",
            N_("']]' was expected after the array's name"),
        ),
        (r"^Cannot redefine namespace (?P<what>.+)$", N_("{what} is defined twice")),
        (
            r"^Expected '=' after a key in a key/value pair$",
            N_("'=' was expected after the key"),
        ),
        (
            r"^Invalid initial character for a key part$",
            N_("a key cannot begin with this character"),
        ),
        (r"^Unclosed array$", N_("a list that is never closed with ']'")),
        (r"^Duplicate inline table key (?P<what>.+)$", N_("the key {what} is given twice")),
        (r"^Unclosed inline table$", N_("an inline table that is never closed with '}}'")),
        (r"^Unescaped '\\' in a string$", N_("a '\\' in a string that escapes nothing known")),
        (r"^Invalid hex value$", N_("a \\u or \\U escape without its hex digits")),
        (
            r"^Escaped character is not a Unicode scalar value$",
            N_("an escaped character that is no Unicode character"),
        ),
        (r"^Unterminated string$", N_("a string that is never closed")),
        (r"^Illegal character (?P<what>'.*')$", N_("a character not allowed in a string: {what}")),
        (r"^Invalid date or datetime$", N_("a date or time that does not exist")),
        (r"^Invalid value$", N_("a value that cannot be read (is it text without quotes?)")),
    )
)
#: where the parser stopped
AT_LINE_COLUMN = N_("{reason}, at line {line}, column {column}")
AT_END = N_("{reason}, at the end of the file")

_POSITION = re.compile(
    r"^(?P<message>.*) \(at "
    r"(?:line (?P<line>\d+), column (?P<column>\d+)|(?P<end>end of document))\)$",
    re.S,
)


def toml_reason(exc: tomllib.TOMLDecodeError) -> Reason:
    """tomllib's reason for `exc` in our words, with its position (its own message for a
    form not in the table)."""
    text = str(exc)
    found = _POSITION.match(text)
    if found is None:
        return Reason.library(text)
    for pattern, words in TOML_REASONS:
        matched = pattern.match(found["message"])
        if matched is None:
            continue
        what = Reason(words, **matched.groupdict())
        if found["end"]:
            return Reason(AT_END, reason=what)
        return Reason(
            AT_LINE_COLUMN, reason=what, line=int(found["line"]), column=int(found["column"])
        )
    return Reason.library(text)
