"""pyserial's reasons (`serial.SerialException` and its kin), said in our words: what a user
reads when a board's serial port cannot be opened, read or written.

pyserial words its failures in English around the system's own (`could not open port
/dev/ttyUSB0: [Errno 2] No such file or directory`, `read failed: [Errno 5] Input/output
error`). The system's part goes by its error number (`os_errors`: the exception's `errno`,
else the `[Errno N]` or `(N, '...')` pyserial wrote into its text); pyserial's own part by
the fixed forms of `serial/serialutil.py` and `serial/serialposix.py` (pyserial 3.5). A form
not in the table stays as pyserial says it.
"""

from __future__ import annotations

import re

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["SERIAL_REASONS", "is_serial", "serial_reason"]

#: the system's error number inside pyserial's text: `[Errno 5]`, or termios's `(25, '...')`
_ERRNO = re.compile(
    r"\[Errno (?P<number>-?\d+)\] (?P<text>.*)|\((?P<tuple>\d+), '(?P<said>[^']*)'\)"
)

#: pyserial's fixed forms, by a pattern of its text; `{reason}` is the system's reason
#: inside it (by its number), the other fields what the pattern names
SERIAL_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (
            r"^device reports readiness to read but returned no data",
            N_(
                "the port gives no data: the board was unplugged, or another program is "
                "reading the port"
            ),
        ),
        (
            r"^device reports error \(poll\)",
            N_("the port reported an error (was the board unplugged?)"),
        ),
        (r"^Attempting to use a port that is not open", N_("the port is not open")),
        (r"^Port is already open", N_("the port is already open")),
        (r"^Port must be configured before it can be used", N_("the port is not set up")),
        (r"^Write timeout", N_("writing to the port timed out")),
        (r"^write failed \(select\)", N_("writing to the port failed")),
        (r"^Could not exclusively lock port ", N_("another program has locked the port")),
        (r"^read failed: ", N_("reading the port failed ({reason})")),
        (r"^write failed: ", N_("writing to the port failed ({reason})")),
        (r"^Could not configure port: ", N_("the port cannot be set up ({reason})")),
        (r"^could not open port ", N_("the port cannot be opened ({reason})")),
        (r"^Not a valid baudrate: (?P<value>.*)$", N_("{value} is not a valid baud rate")),
        (
            r"^invalid URL, protocol (?P<protocol>'[^']*') not known",
            N_("the port's address names an unknown protocol {protocol}"),
        ),
    )
)


def is_serial(exc: BaseException) -> bool:
    """Was `exc` raised by pyserial (its exception classes live in the `serial` package)?"""
    return any(kind.__module__.split(".")[0] == "serial" for kind in type(exc).__mro__)


def _system_reason(exc: BaseException, text: str) -> Reason | None:
    """The system's reason inside a pyserial error: by its `errno`, else by the number
    pyserial wrote into `text`; None when it names none."""
    from rules.library_reasons.os_errors import os_reason

    number = getattr(exc, "errno", None)
    said = getattr(exc, "strerror", None) or text
    if not isinstance(number, int):
        found = _ERRNO.search(text)
        if found is None:
            return None
        number = int(found["number"] or found["tuple"])
        said = found["text"] or found["said"] or text
    return os_reason(OSError(number, said))


def serial_reason(exc: BaseException) -> Reason:
    """pyserial's reason for `exc` in our words (its own text for a form not in the table).

    A failed open with the system's number (`could not open port X: [Errno 2] ...`) is the
    system's reason alone, as the sentence around it already says the port could not be
    opened.
    """
    text = str(exc.args[-1]) if exc.args and isinstance(exc.args[-1], str) else str(exc)
    system = _system_reason(exc, text)
    for pattern, template in SERIAL_REASONS:
        found = pattern.search(text)
        if found is None:
            continue
        fields = dict(found.groupdict())
        if "{reason}" in template:
            if system is None:
                break  # no number to say it by: pyserial's own words
            if text.startswith("could not open port"):
                return system
            fields["reason"] = system
        return Reason(template, **fields)
    if system is not None:
        return system
    return Reason.library(text or type(exc).__name__)
