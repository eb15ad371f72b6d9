"""A board's link lost, in our words: the `detail` of a `sensor` event (`disconnected`,
`reconnected`) that a transport makes (`firmware_bridge.transport.LinkTransport`, the
Bluetooth LE link), said in the reader's language on the screen.

The journal keeps the detail as it has always been written, the library's English inside
(`/dev/ttyACM0: read failed: device reports readiness to read but returned no data ...`):
the detail is a `Reason.recorded`, whose `str` is that English and whose `say(language)` is
the template here, the library's reason inside in our words (`reason_of`: pyserial's,
hidapi's, bleak's and the system's tables). A detail read back from a journal is a plain
`str`, said as it is.
"""

from __future__ import annotations

from rules.errors import ArbiterError
from rules.i18n import N_
from rules.library_reasons import Reason, reason_of

__all__ = ["LINK_DETAILS", "lost_detail"]

#: how a link was lost, by the transport's own English (its key)
LINK_DETAILS: dict[str, str] = {
    "read failed": N_("{device}: reading failed ({reason})"),
    "write failed": N_("{device}: writing failed ({reason})"),
    "start-up write failed": N_("{device}: writing the start-up failed ({reason})"),
    "no byte": N_("{device}: no byte for {seconds:.1f} s"),
    "reopened": N_("{device}: opened again"),
    "not opened": N_("{device}: {reason}"),
}


def lost_detail(
    text: str, kind: str, device: str, error: BaseException | None = None, **fields: object
) -> Reason:
    """The detail `text` (English, as the journal keeps it) of a link lost in the way
    `kind` (a key of `LINK_DETAILS`) on `device`, with `error`'s reason in our words."""
    if isinstance(error, ArbiterError):  # an error of ours: said as such (`Reason.say`'s other)
        fields["reason"] = error
    elif error is not None:
        fields["reason"] = reason_of(error)
    return Reason.recorded(text, LINK_DETAILS[kind], device=device, **fields)
