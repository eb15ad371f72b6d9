"""The pyserial transport: a board's port, its codec, and a pulled cable survived.

`SerialTransport(url, codec)` opens a device path (`/dev/ttyACM0`, a udev symlink) or a
pyserial URL (`loop://`, `socket://host:port`) with the codec's serial settings, writes the
codec's start-up, and then, at every `step(timeout)`: reads what is waiting, stamps it with
the clock, feeds the codec, writes what `codec.poll(now)` and queued `send`s want written, and
returns the events. Time is injected (`clock`, default `time.monotonic`), so a session can
stamp events in its own time base; every rx/tx chunk can go to a capture (`capture.py`).

Disconnects (`eboard-protocols.md` 8): a read or write error, or silence longer than the
protocol's `silence_s` where the protocol keeps the link busy (DGT: the codec's keep-alive
`45` every second; Millennium: the transport asks the version `V` after 1 s of quiet;
Certabo and Sentio stream unasked), emits `Sensor(status='disconnected')`, closes the port and
tries to reopen it with back-off (0.5 s, 1 s, 2 s, then every 5 s). A reopened port gets the
*whole* start-up again (a DGT board powers up in bus mode and stays silent until `4B`) and
`Sensor(status='reconnected')` comes out before the board's fresh full report, which the rules
core reconciles with the game. A board with a version reply (DGT `93`, Millennium `v`) that
sends bytes but no version gets the start-up again every 2 s (picochess does so for DGT); a
silent one is reopened by the silence rule.

A DGT board also gets `4B` again every 5 s: one whose power blinked comes back in IDLE mode,
answers the keep-alive, and would otherwise never send a field update again.

`detect_protocol(url)` runs the probes of `registry.PROBES` (DGT `4D`, Millennium `V`, then
listening for Certabo and Sentio records); it never sends `4E` or `T`.

pyserial is imported inside the functions that open ports, so `arbiter replay` never loads it.
"""

from __future__ import annotations

import contextlib
import errno
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from firmware_bridge.capture import CaptureWriter
from firmware_bridge.codecs.base import Codec
from firmware_bridge.errors import DetectionError, TransportError
from firmware_bridge.registry import PROBES, codec_for
from rules.errors import ArbiterError
from rules.events import Event, Sensor
from rules.i18n import Listed
from rules.library_reasons import reason_of
from rules.library_reasons.link_errors import lost_detail

if TYPE_CHECKING:
    import serial

__all__ = [
    "BACKOFF_S",
    "DetectionError",
    "LinkPolicy",
    "LinkTransport",
    "SerialTransport",
    "TransportError",
    "detect_protocol",
    "open_port",
]

#: waits between reopening attempts after a disconnect; the last one repeats
BACKOFF_S: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0)
#: a board that answers a version request has not answered its start-up after this long
STARTUP_RETRY_S = 2.0
#: real seconds of quiet a link needs besides `silence_s` on its clock before it is judged
#: lost: a sped-up or a test's clock can jump past `silence_s` while the board is talking
SILENCE_FLOOR_S = 0.1




@dataclass(frozen=True)
class LinkPolicy:
    """How a protocol's link is watched.

    `silence_s`: no byte for this long means the board is gone (None: only errors tell).
    `probe_after_s`: after this long without a byte, the transport sends the codec's version
    request (`encode_version`) to make the board speak (None: the codec keeps the link busy
    itself, or the board streams).
    `refresh`: a harmless command that keeps the board in its reporting mode, written every
    `refresh_s` (b"": none).
    `pace_s`: commands are written one at a time, at least this many seconds apart (the
    codec's `split_commands` tells them apart; a one-byte request already waiting is not
    queued twice); 0 writes what is due at once.
    """

    silence_s: float | None
    probe_after_s: float | None = None
    refresh: bytes = b""
    refresh_s: float = 5.0
    pace_s: float = 0.0


POLICIES: dict[str, LinkPolicy] = {
    # the codec sends 45 every second (1.6); 4B again every 5 s keeps a board whose power
    # blinked (back in IDLE, answering 45 but sending no updates) in UPDATE_NICE mode; the
    # board buffers ~10 command bytes, so commands go 0.1 s apart, as picochess writes them
    # (1.1: it waits 0.1 s after each board command; the start-up 4B 4D 42 included)
    "dgt": LinkPolicy(silence_s=2.0, refresh=bytes([0x4B]), pace_s=0.1),
    "millennium": LinkPolicy(silence_s=2.5, probe_after_s=1.0),
    "certabo": LinkPolicy(silence_s=2.0),  # streams records unasked (3.1)
    "sentio": LinkPolicy(silence_s=2.0),
    # over Bluetooth LE: the keep-alive 45 answered by 91 every second; a notification may
    # wait for the next connection event, so a little more slack than over USB
    "pegasus": LinkPolicy(silence_s=3.0),
}


def _serial_settings(codec: Codec) -> dict[str, Any]:
    if not codec.baudrate:
        raise TransportError(
            f"a {codec.name} board is not a serial device (USB HID or Bluetooth LE):"
            " the serial transport cannot open it"
        )
    return {
        "baudrate": codec.baudrate,
        "bytesize": codec.bytesize,
        "parity": codec.parity,
        "stopbits": codec.stopbits,
    }


#: why a port cannot be opened, as templates of `ArbiterError.of`: the `arbiter` command says
#: them in the user's language (its catalogue marks the same English: arbiter/i18n.py
#: `DEVICE_ERRORS`), so this package needs no catalogue of its own
PORT_MISSING = "cannot open the board's port {url}: there is no such device"
PORT_DENIED = (
    "cannot open the board's port {url}: permission denied"
    " (the user must be in the 'dialout' group)"
)
PORT_BUSY = "cannot open the board's port {url}: another program is using it"
PORT_FAILED = "cannot open the board's port {url}: {reason}"
PORT_NOT_SERIAL = "cannot open the board's port {url}: it is not a serial port"
PORT_FOLDER = "cannot open the board's port {url}: it is a folder"
#: the detection of a board's protocol (`auto:DEVICE`, `detect_protocol`)
DETECT_FAILED = "{url}: the port failed while detecting the board: {reason}"
NO_BOARD_ANSWERED = "no known board answered on {url} (tried {tried})"
TRIED = "{protocol} at {baud} baud"
#: the templates above by the error number of the failed open
_PORT_ERRNO = {
    errno.ENOENT: PORT_MISSING,
    errno.EACCES: PORT_DENIED,
    errno.EBUSY: PORT_BUSY,
    errno.ENOTTY: PORT_NOT_SERIAL,
    errno.EISDIR: PORT_FOLDER,
}


def _errno_of(exc: BaseException) -> int:
    """The system's error number behind a failed open: the exception's own, or, for
    pyserial's "Could not configure port: (25, ...)", that of the termios error it wraps."""
    for error in (exc, exc.__context__, exc.__cause__):
        number = getattr(error, "errno", None)
        if isinstance(number, int):
            return number
        args = getattr(error, "args", ())
        if error is not exc and args and isinstance(args[0], int):
            return args[0]
    return -1


def open_port(url: str, settings: dict[str, Any], *, clear_dtr: bool = False) -> serial.Serial:
    """Open `url` (device path or pyserial URL) with `settings`; non-blocking reads.

    Raises:
        TransportError: naming the port and why it cannot be opened.
    """
    import serial

    try:
        port = serial.serial_for_url(
            url, do_not_open=True, timeout=0, write_timeout=1.0, **settings
        )
        if clear_dtr:
            port.dtr = False  # python-mchess and picochess clear DTR on Millennium boards (2.1)
        port.open()
    except (serial.SerialException, OSError, ValueError) as exc:
        template = _PORT_ERRNO.get(_errno_of(exc), PORT_FAILED)
        raise TransportError.of(template, url=url, reason=reason_of(exc)) from None
    return port


class LinkTransport:
    """A board's link (a serial port, a Bluetooth LE connection) and codec; the loop, the
    watch for silence and the reconnection are the same whatever carries the bytes.

    Subclasses say how the link is opened (`_connect`, raising `TransportError`), read
    (`_receive`, raising `OSError` when the link is lost), written (`_transmit`, likewise) and
    dropped (`_release`). See the module docstring for the rest.

    Not thread-safe except `send` and `send_encoded`, which may be called from any thread.
    """

    def __init__(
        self,
        url: str,
        codec: Codec,
        *,
        clock: Callable[[], float] = time.monotonic,
        capture: CaptureWriter | None = None,
        policy: LinkPolicy | None = None,
        backoff_s: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        self.url = url
        self.codec = codec
        self.clock = clock
        self.capture = capture
        self.policy = policy or POLICIES.get(codec.name, LinkPolicy(silence_s=None))
        self.backoff_s = backoff_s or BACKOFF_S
        self._linked = False
        self._outbox = bytearray()
        self._outbox_lock = threading.Lock()
        #: commands to encode in the reading thread, in order (see `send_encoded`)
        self._deferred: list[Callable[[Codec], bytes]] = []
        #: commands waiting their turn on a paced link (`LinkPolicy.pace_s`)
        self._paced: deque[bytes] = deque()
        #: (transport clock, real time) of the last paced write
        self._last_paced: tuple[float, float] | None = None
        self._last_rx = 0.0
        self._last_rx_real = 0.0
        self._last_probe = 0.0
        self._last_refresh = 0.0
        self._startup_at = 0.0
        self._next_attempt = 0.0
        self._attempts = 0
        self._closed = False
        #: number of reconnections so far
        self.reconnects = 0
        #: why the link was last lost, if it was
        self.last_error: str | None = None

    # -- what a kind of link does -------------------------------------------------------

    def _connect(self) -> None:
        """Open the link. Raises `TransportError` naming the device and why not."""
        raise NotImplementedError

    def _receive(self, timeout: float) -> bytes:
        """The bytes that came within `timeout` s (b"" if none). Raises `OSError` if lost."""
        raise NotImplementedError

    def _transmit(self, data: bytes) -> None:
        """Write `data`. Raises `OSError` if the link is lost."""
        raise NotImplementedError

    def _release(self) -> None:
        """Close the link; never raises (a dead link may fail to close: it is gone)."""
        raise NotImplementedError

    # -- opening and closing ------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._linked

    def open(self) -> None:
        """Open the link and write the start-up; a link that cannot be opened is an error."""
        self._startup(self._open())

    def open_later(self, reason: str | TransportError) -> list[Event]:
        """Start as though the cable had just been pulled: later steps try to open the link
        with back-off. For a game that goes on (`arbiter resume`) while its board is not
        plugged in yet. Returns the `disconnected` event to pass on; `reason` is why it
        could not be opened (the error: said in the reader's language on the screen)."""
        if isinstance(reason, TransportError):
            return self._disconnect(str(reason), ("not opened", reason))
        return self._disconnect(reason)

    def _open(self) -> float:
        """Open the link; return the time it opened."""
        self._connect()
        self._linked = True
        now = self.clock()
        self._last_rx = self._last_probe = now
        self._last_rx_real = time.monotonic()
        return now

    def _startup(self, now: float) -> None:
        if self.codec.reports_version:
            self.codec.version = None  # a fresh version reply proves the link (1.6)
        self._startup_at = self._last_refresh = now
        self._write(self.codec.encode_startup(), now)

    def close(self) -> None:
        """Close the link for good (a later `step` does not reopen it)."""
        self._closed = True
        self._drop_port()

    def _drop_port(self) -> None:
        self._paced.clear()  # meant for the link that is gone: a reconnect starts again
        self._last_paced = None
        if self._linked:
            self._linked = False
            self._release()

    def __enter__(self) -> LinkTransport:
        if not self._linked:
            self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the loop -----------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        """Queue bytes (an LED or clock command) to write at the next `step`; thread-safe.

        While disconnected they wait; the start-up after a reconnect goes first.
        """
        with self._outbox_lock:
            self._outbox += data

    def send_encoded(self, make: Callable[[Codec], bytes]) -> None:
        """Queue a command that `make(codec)` encodes at the next `step`, in the thread that
        feeds the codec; thread-safe.

        Codecs are not thread-safe: a DGT 3000 command waits in the codec's queue for the
        acknowledgement that `feed` decodes, so clock commands must be encoded where the
        codec is fed. `make` must not raise.
        """
        with self._outbox_lock:
            self._deferred.append(make)

    def step(self, timeout: float = 0.05) -> list[Event]:
        """Wait up to `timeout` real seconds for bytes; return the events of this step.

        Never raises on a failing link: the failure becomes a `disconnected` event and
        reconnection attempts in later steps.
        """
        if self._closed:
            raise TransportError(f"the transport of {self.url} was closed")
        if not self._linked:
            return self._try_reopen(timeout)
        events: list[Event] = []
        try:
            data = self._receive(timeout)
        except OSError as exc:  # pyserial's SerialException is an OSError
            return self._disconnect(f"read failed: {exc}", ("read failed", exc))
        now = self.clock()
        if data:
            self._last_rx = now
            self._last_rx_real = time.monotonic()
            if self.capture is not None:
                self.capture.write(now, "rx", data)
            events += self.codec.feed(data, now)
        try:
            self._write_paced(now)
            self._write(self._due(now), now)
        except OSError as exc:
            return events + self._disconnect(f"write failed: {exc}", ("write failed", exc))
        silence = self.policy.silence_s
        quiet_real = time.monotonic() - self._last_rx_real
        if silence is not None and now - self._last_rx > silence and quiet_real > SILENCE_FLOOR_S:
            quiet = now - self._last_rx
            events += self._disconnect(f"no byte for {quiet:.1f} s", ("no byte", None), quiet)
        return events

    def read_events(self, timeout: float) -> list[Event]:
        """Step until some events come or `timeout` real seconds pass."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            events = self.step(max(0.0, min(remaining, 0.05)))
            if events or remaining <= 0:
                return events

    def _due(self, now: float) -> bytes:
        out = bytearray(self.codec.poll(now))
        if (
            self.codec.reports_version
            and self.codec.version is None
            and self._last_rx > self._startup_at  # talking, yet no version: silence is below
            and now - self._startup_at >= STARTUP_RETRY_S
        ):
            self._startup(now)  # writes the start-up itself
        probe = self.policy.probe_after_s
        if (
            probe is not None
            and now - self._last_rx >= probe
            and now - self._last_probe >= probe
            and self.codec.reports_version
        ):
            out += self.codec.encode_version()
            self._last_probe = now
        if self.policy.refresh and now - self._last_refresh >= self.policy.refresh_s:
            out += self.policy.refresh
            self._last_refresh = now
        with self._outbox_lock:
            deferred, self._deferred = self._deferred, []
        for make in deferred:
            out += make(self.codec)
        with self._outbox_lock:
            out += self._outbox
            self._outbox.clear()
        return bytes(out)

    def _write(self, data: bytes, now: float) -> None:
        if not data or not self._linked:
            return
        if self.policy.pace_s > 0:
            for command in self.codec.split_commands(data):
                if len(command) == 1 and command in self._paced:
                    continue  # a request already waiting (45, 42, 4B) needs no twin
                self._paced.append(command)
            self._write_paced(now)
            return
        self._transmit(data)
        if self.capture is not None:
            self.capture.write(now, "tx", data)

    def _write_paced(self, now: float) -> None:
        """Write the waiting commands whose turn has come, one `pace_s` after the other.

        The turn comes when `pace_s` passed on the transport's clock or in real time,
        whichever first: in a game both are real time; a sped-up simulation (whose boards
        have no buffer to overrun) goes at its own speed, and a clock that stands still (a
        test's) does not hold the commands back for ever."""
        while self._paced and self._linked:
            real = time.monotonic()
            if self._last_paced is not None:
                last_now, last_real = self._last_paced
                pace = self.policy.pace_s
                if now - last_now < pace and real - last_real < pace:
                    return
            command = self._paced.popleft()
            self._transmit(command)
            self._last_paced = (now, real)
            if self.capture is not None:
                self.capture.write(now, "tx", command)

    # -- losing and finding the board ---------------------------------------------------

    def _disconnect(
        self,
        reason: str,
        why: tuple[str, BaseException | None] | None = None,
        seconds: float | None = None,
    ) -> list[Event]:
        """The `disconnected` event of a link lost for `reason` (the journal's English);
        `why` is how (a key of `rules.library_reasons.link_errors.LINK_DETAILS`) and the
        error, so that the screen says it in the reader's language."""
        self._drop_port()
        now = self.clock()
        self.last_error = reason
        self._attempts = 0
        self._next_attempt = now + self.backoff_s[0]
        detail: str = f"{self.url}: {reason}"
        if why is not None:
            kind, error = why
            extra = {} if seconds is None else {"seconds": seconds}
            detail = lost_detail(detail, kind, self.url, error, **extra)
        if self.capture is not None:
            self.capture.write_link(now, "disconnected", detail)
        return [Sensor(t=now, status="disconnected", detail=detail)]

    def _try_reopen(self, timeout: float) -> list[Event]:
        now = self.clock()
        if now < self._next_attempt:
            time.sleep(max(0.0, min(timeout, 0.02)))
            return []
        try:
            now = self._open()
        except TransportError as exc:
            self._retry_later(str(exc))
            time.sleep(max(0.0, min(timeout, 0.02)))
            return []
        detail: str = lost_detail(f"{self.url}: reopened", "reopened", self.url)
        if self.capture is not None:
            self.capture.write_link(now, "reconnected", detail)
        try:
            self._startup(now)
        except OSError as exc:  # the start-up write failed on a half-open link
            self._drop_port()
            self._retry_later(f"start-up write failed: {exc}")
            disconnected = lost_detail(
                f"{self.url}: start-up write failed: {exc}", "start-up write failed", self.url, exc
            )
            if self.capture is not None:
                self.capture.write_link(now, "disconnected", disconnected)
            return [
                Sensor(t=now, status="reconnected", detail=detail),
                Sensor(t=now, status="disconnected", detail=disconnected),
            ]
        self.reconnects += 1
        return [Sensor(t=now, status="reconnected", detail=detail)]

    def _retry_later(self, reason: str) -> None:
        self._attempts += 1
        wait = self.backoff_s[min(self._attempts, len(self.backoff_s) - 1)]
        self._next_attempt = self.clock() + wait
        self.last_error = reason


class SerialTransport(LinkTransport):
    """A board's serial port (device path or pyserial URL) and codec; see the module
    docstring and `LinkTransport`.

    Args:
        url: device path or pyserial URL.
        codec: the protocol's codec (`registry.codec_for`).
        clock: the time source, in seconds (events and capture lines carry its values).
        capture: where every rx/tx chunk is recorded, if anywhere.
        policy: how silence is judged (default: `POLICIES` for the codec's protocol).
        backoff_s: waits between reopening attempts (clock seconds); the last one repeats.
    """

    def __init__(
        self,
        url: str,
        codec: Codec,
        *,
        clock: Callable[[], float] = time.monotonic,
        capture: CaptureWriter | None = None,
        policy: LinkPolicy | None = None,
        backoff_s: tuple[float, ...] = BACKOFF_S,
    ) -> None:
        self._settings = _serial_settings(codec)
        super().__init__(
            url, codec, clock=clock, capture=capture, policy=policy, backoff_s=backoff_s
        )
        self._port: serial.Serial | None = None

    def _connect(self) -> None:
        self._port = open_port(self.url, self._settings, clear_dtr=self.codec.name == "millennium")

    def _receive(self, timeout: float) -> bytes:
        port = self._port
        assert port is not None  # step checked the link
        if port.timeout != timeout:
            port.timeout = timeout  # pyserial reconfigures the port on every assignment
        data: bytes = port.read(1)
        if data:
            waiting = port.in_waiting
            if waiting:
                data += port.read(waiting)
        return data

    def _transmit(self, data: bytes) -> None:
        assert self._port is not None
        self._port.write(data)

    def _release(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError):  # a dead port may fail to close: it is gone
                port.close()


def detect_protocol(
    url: str,
    *,
    clock: Callable[[], float] = time.monotonic,
    capture: CaptureWriter | None = None,
    scale: float = 1.0,
) -> str:
    """The protocol of the board on `url`, by the probes of `registry.PROBES`.

    Each probe opens the port at its rate, writes its request (DGT `4D`, Millennium `V`, or
    nothing for boards that stream), and reads for its wait (times `scale`), feeding a fresh
    codec. `4E` and `T` are never sent.

    Raises:
        TransportError: the port cannot be opened.
        DetectionError: no probe was answered (the message says which were tried).
    """
    tried: list[ArbiterError] = []  # each said in the reader's language
    for probe in PROBES:
        codec = codec_for(probe.protocol)
        settings = _serial_settings(codec)
        settings["baudrate"] = probe.baudrate
        port = open_port(url, settings)
        try:
            port.reset_input_buffer()
            request = probe.make_request(codec)
            if request:
                port.write(request)
                if capture is not None:
                    capture.write(clock(), "tx", request)
            events: list[Event] = []
            deadline = time.monotonic() + probe.wait_s * scale
            while time.monotonic() < deadline:
                port.timeout = min(0.05, max(0.0, deadline - time.monotonic()))
                data = port.read(max(1, port.in_waiting))
                if not data:
                    continue
                now = clock()
                if capture is not None:
                    capture.write(now, "rx", data)
                events += codec.feed(data, now)
                if probe.answered(codec, events):
                    return probe.protocol
        except OSError as exc:  # pyserial's SerialException is an OSError
            raise TransportError.of(DETECT_FAILED, url=url, reason=reason_of(exc)) from None
        finally:
            port.close()
        tried.append(ArbiterError.of(TRIED, protocol=probe.protocol, baud=probe.baudrate))
    raise DetectionError.of(NO_BOARD_ANSWERED, url=url, tried=Listed(tried))
