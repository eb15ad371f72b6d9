"""hidapi's reasons (USB HID, the `hid` extra), said in our words: what a user reads when a
Chessnut board on its USB cable cannot be opened, read or written.

hidapi's Python binding (`hid.pyx` of cython-hidapi, 0.14 and 0.15) raises a plain
`OSError` or `ValueError` with a fixed text and no error number: `open failed`, `read
error`, `not open`, `get ... string error`. Why an open failed (no such device, permission
denied) it does not say: `firmware_bridge.hid_transport` asks the system itself (`os_errors`)
before it falls back on `open failed`. A text not in the table stays as hidapi says it.
"""

from __future__ import annotations

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["HID_REASONS", "hid_reason"]

#: hidapi's fixed texts (and the transport's own for a write hidapi answers with -1)
HID_REASONS: dict[str, str] = {
    "open failed": N_("the device cannot be opened (is it unplugged, or used by another program?)"),
    "read error": N_("reading the device failed (was it unplugged?)"),
    "write error": N_("writing to the device failed (was it unplugged?)"),
    "not open": N_("the device is not open"),
    "get manufacturer string error": N_("the device does not say its name"),
    "get product string error": N_("the device does not say its name"),
    "get serial number string error": N_("the device does not say its name"),
    "get indexed string error": N_("the device does not say its name"),
}


def hid_reason(exc: BaseException) -> Reason | None:
    """hidapi's reason for `exc` in our words, or None when its text is not one of hidapi's
    (an error number decides first: such an error is the system's, not hidapi's)."""
    if not isinstance(exc, OSError | ValueError) or getattr(exc, "errno", None) is not None:
        return None
    if len(exc.args) != 1 or not isinstance(exc.args[0], str):
        return None
    template = HID_REASONS.get(exc.args[0])
    return None if template is None else Reason(template)
