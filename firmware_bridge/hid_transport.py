"""`HidTransport`: a Chessnut board on its USB cable, which is a HID device, not a serial port
(`eboard-protocols.md` 4.1; `arbiter boards` finds it on `/dev/hidrawN`).

The bytes are the Chessnut protocol the codec reads over Bluetooth LE too; only the link
differs. Facts from the maker's chessnutech/EasyLinkSDK (`sdk/EasyLink.cpp`):

- a command is one `hid_write` of its own bytes (`21 01 00`, `0A 08 ...`), and writes are at
  least 200 ms apart (`WRITE_INTERVAL`): the link is paced (`LinkPolicy.pace_s`), the codec
  cutting what is to be written into commands (`[type, length, payload]`);
- a read returns one report holding one message (`readBuf[0]` its type, `readBuf[1]` its
  length); the transport hands the codec each report cut to its message
  (`chessnut.report_message`), so a report's padding is never taken for the next message.

Whether a report ID must be put before a command (hidapi's convention for devices with
numbered reports) is not settled: the SDK writes the command as it is, and so does this.

hidapi (the `hid` extra) is imported only when a real device is opened. A `FakeHidBoard`
registered at a path stands in for the device in tests and virtual boards, as the fake
Bluetooth LE peripherals do.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from firmware_bridge.capture import CaptureWriter
from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.chessnut import report_message, split_messages
from firmware_bridge.errors import HidUnavailableError, TransportError
from firmware_bridge.transport import BACKOFF_S, LinkPolicy, LinkTransport
from rules.library_reasons import reason_of

__all__ = [
    "REPORT_SIZE",
    "WRITE_INTERVAL_S",
    "FakeHidBoard",
    "HidDevice",
    "HidTransport",
    "HidUnavailableError",
    "open_hid",
]

#: the longest report read at once (EasyLinkSDK reads into 256 bytes)
#: what a user is told, as templates of `ArbiterError.of` (arbiter/i18n.py DEVICE_ERRORS)
HID_MISSING = "a Chessnut board on USB needs hidapi: pip install 'otb-arbiter[hid]'"
HID_CANNOT_OPEN = (
    "cannot open the USB HID board {path}: {reason} (is there a udev rule giving this "
    "user access to it? see hardware_docs/install.md)"
)
HID_NO_DEVICE = "cannot open the USB HID board {path}: there is no such device (is it plugged in?)"

REPORT_SIZE = 256
#: the least time between two commands (EasyLinkSDK `WRITE_INTERVAL`, 200 ms)
WRITE_INTERVAL_S = 0.2


class HidDevice(Protocol):
    """What the transport uses of an open HID device (hidapi's `hid.device`)."""

    def read(self, max_length: int, timeout_ms: int = 0) -> list[int]: ...

    def write(self, data: bytes) -> int: ...

    def close(self) -> None: ...


_fakes: dict[str, FakeHidBoard] = {}
_fakes_lock = threading.Lock()


def open_hid(path: str) -> HidDevice:
    """Open the HID device at `path` (`/dev/hidraw3`, or a fake's path).

    Raises:
        HidUnavailableError: hidapi is not installed.
        TransportError: the device cannot be opened (named, with why).
    """
    with _fakes_lock:
        fake = _fakes.get(path)
    if fake is not None:
        return fake.open()
    try:
        hid: Any = importlib.import_module("hid")
    except ImportError:
        raise HidUnavailableError.of(HID_MISSING) from None
    device = hid.device()
    try:
        device.open_path(path.encode())
    except (OSError, ValueError) as exc:
        raise _cannot_open(path, exc) from None
    return _HidapiDevice(device)


def _cannot_open(path: str, exc: BaseException) -> TransportError:
    """The error of a HID device hidapi could not open: hidapi says only `open failed`, so
    the system is asked why (a `/dev/hidrawN` that does not exist, or that this user may
    not open: its error number, `rules.library_reasons.os_errors`); else hidapi's reason,
    in our words (`hid_errors`)."""
    cause = _system_error(path) or exc
    if getattr(cause, "errno", None) in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return TransportError.of(HID_NO_DEVICE, path=path)
    return TransportError.of(HID_CANNOT_OPEN, path=path, reason=reason_of(cause))


def _system_error(path: str) -> OSError | None:
    """Why the system would not open the hidraw node `path` for reading and writing (None
    if it would, or `path` is not a device node but a hidapi path such as `1-1.2:1.0`)."""
    if not path.startswith("/dev/"):
        return None
    try:
        os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC))
    except OSError as exc:
        return exc
    return None


class _HidapiDevice:
    """hidapi's device: its errors are `OSError`s, its reads lists of ints."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def read(self, max_length: int, timeout_ms: int = 0) -> list[int]:
        data: list[int] = self.device.read(max_length, timeout_ms)
        return data

    def write(self, data: bytes) -> int:
        written = int(self.device.write(data))
        if written < 0:  # hidapi's -1; its read says `read error` (`hid_errors`)
            raise OSError("write error")
        return written

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.device.close()


class HidTransport(LinkTransport):
    """A Chessnut board on USB HID at `path`; see the module docstring.

    Args:
        path: the hidraw node (`/dev/hidraw3`) or hidapi path.
        codec: the Chessnut codec.
        opener: opens the device (default `open_hid`).
        clock, capture, policy, backoff_s: as for `SerialTransport`.
        write_interval_s: the least time between two commands.
    """

    def __init__(
        self,
        path: str,
        codec: Codec,
        *,
        opener: Callable[[str], HidDevice] = open_hid,
        clock: Callable[[], float] = time.monotonic,
        capture: CaptureWriter | None = None,
        policy: LinkPolicy | None = None,
        backoff_s: tuple[float, ...] = BACKOFF_S,
        write_interval_s: float = WRITE_INTERVAL_S,
    ) -> None:
        policy = policy or LinkPolicy(silence_s=None, pace_s=write_interval_s)
        super().__init__(
            path, codec, clock=clock, capture=capture, policy=policy, backoff_s=backoff_s
        )
        self.opener = opener
        self._device: HidDevice | None = None

    def _connect(self) -> None:
        self._device = self.opener(self.url)

    def _receive(self, timeout: float) -> bytes:
        device = self._device
        assert device is not None  # step checked the link
        out = bytearray()
        report = device.read(REPORT_SIZE, max(0, int(timeout * 1000)))
        while report:
            out += report_message(bytes(report))
            report = device.read(REPORT_SIZE, 0)
        return bytes(out)

    def _transmit(self, data: bytes) -> None:
        assert self._device is not None
        for command in split_messages(data):  # one command a write, paced or not
            self._device.write(command)

    def _release(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            with contextlib.suppress(Exception):  # a dead device may fail to close
                device.close()


class FakeHidBoard:
    """A HID board's device side, registered at `path` while it exists; for tests and
    virtual boards. `report(data)` queues one report for the host; `take_written` hands the
    board what the host wrote; `unplug`/`plug` make the host's reads and writes fail, then
    work again."""

    def __init__(self, path: str, *, on_write: Callable[[bytes], bytes] | None = None) -> None:
        self.path = path
        self.on_write = on_write
        self.plugged = True
        #: every write received (one command each), in order
        self.writes: list[bytes] = []
        self._reports: deque[bytes] = deque()
        self._written: list[bytes] = []
        self._ready = threading.Condition()
        self._open = False

    def register(self) -> FakeHidBoard:
        with _fakes_lock:
            _fakes[self.path] = self
        return self

    def unregister(self) -> None:
        with _fakes_lock:
            if _fakes.get(self.path) is self:
                del _fakes[self.path]
        self.unplug()

    def __enter__(self) -> FakeHidBoard:
        return self.register()

    def __exit__(self, *exc: object) -> None:
        self.unregister()

    def open(self) -> HidDevice:
        if not self.plugged:
            raise TransportError(f"no USB HID board at {self.path}")
        self._open = True
        with self._ready:
            self._reports.clear()
        return _FakeHandle(self)

    def unplug(self) -> None:
        with self._ready:
            self.plugged = self._open = False
            self._reports.clear()
            self._ready.notify_all()

    def plug(self) -> None:
        self.plugged = True

    @property
    def connected(self) -> bool:
        return self._open

    def report(self, data: bytes) -> int:
        """Queue `data` as one report (lost when no host has the device open)."""
        with self._ready:
            if not self._open or not data:
                return 0
            self._reports.append(bytes(data))
            self._ready.notify_all()
        return len(data)

    # the face a FakePeripheral shows, so a virtual board drives either the same way

    @property
    def powered(self) -> bool:
        return self.plugged

    def power_off(self) -> None:
        self.unplug()

    def power_on(self) -> None:
        self.plug()

    def notify(self, data: bytes) -> int:
        """Send what the board says, one message a report; the bytes sent (0 if none)."""
        return sum(self.report(message) for message in split_messages(data))

    def take_written(self, timeout: float) -> bytes:
        """What the host wrote and nobody took yet, waiting up to `timeout` s."""
        with self._ready:
            if not self._written and timeout > 0:
                self._ready.wait(timeout)
            out = b"".join(self._written)
            self._written.clear()
            return out

    def _read(self, timeout_ms: int) -> list[int]:
        with self._ready:
            if not self._open:
                raise OSError(f"{self.path}: read error (the board was unplugged)")
            if not self._reports and timeout_ms > 0:
                self._ready.wait(timeout_ms / 1000)
            if not self._open:
                raise OSError(f"{self.path}: read error (the board was unplugged)")
            return list(self._reports.popleft()) if self._reports else []

    def _write(self, data: bytes) -> int:
        if not self._open:
            raise OSError(f"{self.path}: write error (the board was unplugged)")
        self.writes.append(bytes(data))
        if self.on_write is not None:
            reply = self.on_write(bytes(data))
            for message in split_messages(reply):
                self.report(message)
            return len(data)
        with self._ready:
            self._written.append(bytes(data))
            self._ready.notify_all()
        return len(data)


class _FakeHandle:
    def __init__(self, board: FakeHidBoard) -> None:
        self.board = board

    def read(self, max_length: int, timeout_ms: int = 0) -> list[int]:
        return self.board._read(timeout_ms)[:max_length]

    def write(self, data: bytes) -> int:
        return self.board._write(data)

    def close(self) -> None:
        with self.board._ready:
            self.board._open = False
            self.board._ready.notify_all()
