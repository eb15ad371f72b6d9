"""The system's reasons (`OSError`), by error number: what a user reads when a file, a
port or a socket cannot be used. The number decides, never the English `strerror`, which
differs between C libraries (and is translated by none we run on)."""

from __future__ import annotations

import errno
import socket

from rules.i18n import N_
from rules.library_reasons.reason import Reason

__all__ = ["ADDRESS_REASONS", "OS_REASONS", "os_reason"]

#: the error numbers a user of the arbiter meets, in our words (lower case: they fill a
#: sentence, `cannot be read ({reason})`)
OS_REASONS: dict[int, str] = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("the operation is not permitted"),
    errno.EBUSY: N_("the device is busy"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EFBIG: N_("the file is too large"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOTEMPTY: N_("the folder is not empty"),
    errno.EEXIST: N_("it exists already"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EXDEV: N_("it cannot be moved to another file system"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.EMFILE: N_("too many files are open"),
    errno.EIO: N_("an input/output error (the device or the card failed?)"),
    errno.ENXIO: N_("no such device or address"),
    errno.ENODEV: N_("no such device"),
    errno.ENOTTY: N_("the device is not a terminal or serial port"),
    errno.EINVAL: N_("an invalid argument"),
    errno.EAGAIN: N_("the resource is not available now; try again"),
    errno.EPIPE: N_("the other side closed the connection"),
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("this machine has no such address"),
    errno.ECONNREFUSED: N_("the connection was refused"),
    errno.ECONNRESET: N_("the connection was reset by the other side"),
    errno.ECONNABORTED: N_("the connection was aborted"),
    errno.ETIMEDOUT: N_("the connection timed out"),
    errno.EHOSTUNREACH: N_("the host cannot be reached"),
    errno.ENETUNREACH: N_("the network cannot be reached"),
}

#: socket's address errors (`socket.gaierror`: getaddrinfo's own numbers, EAI_*)
ADDRESS_REASONS: dict[int, str] = {
    socket.EAI_NONAME: N_("no such host name"),
    socket.EAI_AGAIN: N_("the name cannot be looked up now (no network?)"),
    socket.EAI_FAIL: N_("the name lookup failed"),
    socket.EAI_FAMILY: N_("the address family is not supported"),
    socket.EAI_SERVICE: N_("no such service or port"),
}
_EAI_NODATA = getattr(socket, "EAI_NODATA", None)  # Linux: a name with no address
if _EAI_NODATA is not None:
    ADDRESS_REASONS[_EAI_NODATA] = N_("the host name has no address")


def os_reason(exc: OSError) -> Reason:
    """The system's reason for `exc` in our words, by its number (the system's own text for
    a number not in the table)."""
    table = ADDRESS_REASONS if isinstance(exc, socket.gaierror) else OS_REASONS
    template = table.get(exc.errno) if isinstance(exc.errno, int) else None
    if template is not None:
        return Reason(template)
    return Reason.library(exc.strerror or str(exc) or type(exc).__name__)
