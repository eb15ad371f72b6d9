"""The DGT e-board codec, sans I/O (`eboard-protocols.md` 1, 8; `events.md`).

`DgtCodec` turns the board's bytes into contract events and requests into command bytes:

- `86` board dump → `Snapshot` (every dump: the session reconciles it with the game);
- `8E` field update → `Lift` (square emptied; `piece` from the codec's own board image when
  known) or `Place` (piece put down; magic pieces 0D–0F as `?`), one per update, in order;
- `8D` clock message → `codec.clock` (a `ClockStatus`), ACKs resolving the pending clock
  command, and `Press` when the DGT 3000 lever changes position (see `_lever_press`);
- `93` version, `91`/`A2` serial, `92` trademark, `A0` battery, `90` bus address → attributes;
- garbage → resynchronisation (`dgt_framing`) and `Sensor(status="dropped", bytes=n)`; as
  the protocol has no checksum, lost bytes may have been a field update, so `poll` asks for
  an `86` dump at once, whose `Snapshot` reports the board as it is (`_suspect_image`).

Orientation (0, 1.4, 8): the board numbers squares from its connector. The first dump showing
the initial position locks `rotated` (D2 normal, D3 turned 180°) for the game; the caller may
also set it. It applies to every square the codec reports, to its board image and to LEDs.

Revelation II (1.1, 1.9): LED commands are encoded only when `revelation` is set, i.e. for
`RevelationCodec` (`--board revelation:DEVICE`, or a `dgt:` device path naming `PCS-REVII…`).

Disconnects: the codec cannot see a dead port. `poll` sends the keep-alive `45` about every
second and the board answers `91`, so `last_rx` moves at least once a second on a live link;
**silence of ~2 s (`now - codec.last_rx`) means the board is gone**: the transport should
close, reopen, write `encode_startup()` again and emit its `sensor` events.
"""

from __future__ import annotations

import os
from typing import ClassVar, Literal

import chess

from firmware_bridge.codecs.base import Codec
from firmware_bridge.codecs.dgt_clock import (
    ClockAck,
    ClockSide,
    ClockStatus,
    NoClock,
    buttons_pressed,
    clock_beep,
    clock_end,
    clock_setnrun,
    clock_text,
    clock_version,
    parse_bwtime,
)
from firmware_bridge.codecs.dgt_clock_queue import ClockCommandQueue, ClockFault
from firmware_bridge.codecs.dgt_framing import (
    BATTERY_STATUS,
    BOARD_DUMP,
    BUSADRES,
    BWTIME,
    EE_MOVES,
    FIELD_UPDATE,
    LONG_SERIALNR,
    SERIALNR,
    TRADEMARK,
    VERSION,
    DgtFramer,
    Dropped,
    Frame,
)
from firmware_bridge.codecs.dgt_squares import (
    CODE_TO_LETTER,
    EMPTY,
    MAX_CODE,
    codes_from_placement,
    index_to_square,
    placement_from_codes,
    square_to_index,
)
from firmware_bridge.errors import CodecUsageError, DgtFrameError
from rules.events import Event, Lift, Place, Press, Sensor, Snapshot

__all__ = ["ClockFault", "ClockStatus", "DgtCodec", "RevelationCodec"]

Side = Literal["white", "black"]

STARTUP = bytes([0x4B, 0x4D, 0x42])  # UPDATE_NICE, VERSION, board dump (1.6, D1)
SEND_BRD = bytes([0x42])
RETURN_SERIALNR = bytes([0x45])
INITIAL = chess.STARTING_BOARD_FEN
#: the start position as a normal (D2) and a turned (D3) board sends it
INITIAL_NORMAL = codes_from_placement(INITIAL, rotated=False)
INITIAL_ROTATED = codes_from_placement(INITIAL, rotated=True)
ALL_KNOWN = (1 << 64) - 1
#: LED command (1.9): `60 04 <mode> <a> <b> 00`
LED_ON = 0x01
LED_OFF_ALL = bytes([0x60, 0x04, 0x00, 0x40, 0x40, 0x00])
#: at most this many dropping reasons are named in one `sensor` event's detail
_MAX_REASONS = 4


class DgtCodec(Codec):
    """Sans-I/O codec for DGT boards (USB, serial, Bluetooth, Revelation II) and DGT clocks.

    Args:
        clock_white: which side of the clock, seen from its front, is White's.
        quiet_s: quiet period after field updates before asking for a dump (0.25 s USB,
            0.5 s Bluetooth, 1.6).
        keepalive_s: interval of the keep-alive `45` once started.
        resend_s, give_up_s: clock command ACK timeouts (1.8, 8).
        revelation: the board is a Revelation II (the caller knows it, e.g. from the Bluetooth
            name, see `is_revelation_name`); only then may LED commands be encoded.
        rotated: the orientation, if known; None detects it from the initial position.
    """

    name = "dgt"
    reports_version = True
    has_clock = True
    baudrate = 9600
    bytesize = 8
    parity = "N"
    stopbits = 1
    bits_per_byte = 10
    sensor_settings: ClassVar[dict[str, float]] = {
        "noise_s": 0.3,
        "slide_s": 0.3,
        "latency_s": 0.3,
    }
    #: the board's start-up (a clock's VERSION request follows where `has_clock`)
    startup: ClassVar[bytes] = STARTUP
    #: the request `poll` sends every `keepalive_s` to keep the board talking
    keepalive: ClassVar[bytes] = RETURN_SERIALNR

    def __init__(
        self,
        *,
        clock_white: ClockSide = "left",
        quiet_s: float = 0.25,
        keepalive_s: float = 1.0,
        resend_s: float = 2.0,
        give_up_s: float = 6.0,
        revelation: bool = False,
        rotated: bool | None = None,
    ) -> None:
        if clock_white not in ("left", "right"):
            raise CodecUsageError(f"clock_white must be 'left' or 'right', not {clock_white!r}")
        self.clock_white: ClockSide = clock_white
        self.quiet_s = quiet_s
        self.keepalive_s = keepalive_s
        self.revelation = revelation
        self._rotated = bool(rotated)
        self._locked = rotated is not None
        self._framer = DgtFramer()
        self._clock_queue = ClockCommandQueue(resend_s, give_up_s)
        self._image = bytearray(64)
        self._known = 0  # bit i: the image's square at index i is known
        self._dump_due: float | None = None
        self._started = False
        self._last_keepalive: float | None = None
        self._lever: ClockSide | None = None
        self._drop_count = 0
        self._drop_reasons: dict[str, int] = {}
        #: time of the last byte received (None before any); see the module docstring
        self.last_rx: float | None = None
        #: firmware (major, minor) from `93`, e.g. (1, 10); a `93` proves the link (1.6)
        self.version: tuple[int, int] | None = None
        #: serial number from `91` (5 digits) or `A2` (10 characters)
        self.serial: str | None = None
        self.trademark: str | None = None
        self.battery_percent: int | None = None
        self.bus_address: int | None = None
        #: the clock's last valid times; None before any and while no clock is connected
        self.clock: ClockStatus | None = None
        #: False after an `8D` saying "no clock" (d6 bit 5), True after valid times
        self.clock_present: bool | None = None
        #: the clock's (major, minor) from the ACK of the VERSION command
        self.clock_version: tuple[int, int] | None = None
        #: the clock said "ready" (unasked ACK 81)
        self.clock_ready = False
        #: True after "mode 23" (8A), False after "not in mode 23" (90), None unknown
        self.clock_mode23: bool | None = None
        #: (time, button) for each button the clock reported (`back`, `plus`, `run`, ...;
        #: two held at once as `back+minus`)
        self.clock_buttons: list[tuple[float, str]] = []

    # -- orientation ---------------------------------------------------------------------

    @property
    def rotated(self) -> bool:
        """True when the board is turned 180° (index 0 = h1, 1.4)."""
        return self._rotated

    @rotated.setter
    def rotated(self, value: bool) -> None:
        self._rotated = bool(value)
        self._locked = True

    @property
    def orientation_locked(self) -> bool:
        """Set by the caller or by a dump of the initial position; never flipped after (8)."""
        return self._locked

    def unlock_orientation(self) -> None:
        """For a new game: let the next initial-position dump set the orientation again."""
        self._locked = False

    @staticmethod
    def is_revelation_name(device_name: str) -> bool:
        """Whether a Bluetooth name is a Revelation II's (`PCS-REVII…`, 1.1)."""
        return device_name.upper().startswith("PCS-REVII")

    @classmethod
    def is_revelation_path(cls, device: str) -> bool:
        """Whether a device path names a Revelation II: one of its parts, or of the parts
        of the symlinks it goes through, starts with the Bluetooth name `PCS-REVII` (1.1),
        e.g. `/dev/PCS-REVII-081500` made by a udev rule or `rfcomm` set-up. A path that
        does not say so (`/dev/rfcomm0`) is not taken for one: `60` froze other boards
        (1.9, 8). Reads symlinks only; opens nothing."""
        seen: set[str] = set()
        path = device
        while path and path not in seen and len(seen) < 16:
            seen.add(path)
            if any(cls.is_revelation_name(part) for part in path.split("/")):
                return True
            try:
                target = os.readlink(path)
            except (OSError, ValueError):
                return False
            path = os.path.join(os.path.dirname(path), target)
        return False

    # -- the board image -----------------------------------------------------------------

    @property
    def board(self) -> str | None:
        """The piece placement the codec believes is on the board; None until a dump."""
        if self._known != ALL_KNOWN:
            return None
        return placement_from_codes(self._image, self._rotated)

    @property
    def clock_errors(self) -> list[ClockFault]:
        """Clock commands that got an error ACK or no ACK within `give_up_s`."""
        return self._clock_queue.faults

    @property
    def clock_pending(self) -> str | None:
        """Name of the clock command awaiting its ACK, if any."""
        return self._clock_queue.pending

    @property
    def pending(self) -> int:
        """Bytes of an unfinished message held back (at most the longest message, 8 KB)."""
        return self._framer.partial

    # -- bytes in --------------------------------------------------------------------------

    def feed(self, data: bytes, now: float) -> list[Event]:
        """Take bytes received at `now`; return the events they complete, stamped `t = now`.

        Never raises on device data. Dropped bytes are reported as one `sensor` event just
        before the next message decoded (or by `flush`), so the events are the same however
        the transport chunks the stream.
        """
        if not isinstance(data, bytes | bytearray | memoryview):
            raise CodecUsageError(f"feed takes the bytes read, not {type(data).__name__}")
        if data:
            self.last_rx = now
        self._clock_queue.stamp(now)
        events: list[Event] = []
        for item in self._framer.push(bytes(data)):
            if isinstance(item, Dropped):
                self._note_drop(item.count, item.reason)
                self._suspect_image(now)
                continue
            try:
                decoded = self._decode(item, now)
            except DgtFrameError as exc:
                self._note_drop(item.size, str(exc))
                if item.msg_id in (FIELD_UPDATE, BOARD_DUMP):
                    self._suspect_image(now)
                continue
            events.extend(self.flush(now))
            events.extend(decoded)
        return events

    def flush(self, now: float) -> list[Event]:
        """Report the bytes dropped and not yet reported (e.g. junk at the end of a capture)."""
        if not self._drop_count:
            return []
        reasons = sorted(self._drop_reasons.items())  # the same order however the bytes came
        detail = "; ".join(f"{reason} ({n} bytes)" for reason, n in reasons[:_MAX_REASONS])
        if len(reasons) > _MAX_REASONS:
            detail += f"; {len(reasons) - _MAX_REASONS} more reasons"
        event = Sensor(t=now, status="dropped", bytes=self._drop_count, detail=detail)
        self._drop_count = 0
        self._drop_reasons = {}
        return [event]

    def _suspect_image(self, now: float) -> None:
        """Bytes were lost where a field update may have been (a cut or garbled message,
        line noise: 1.3 has no checksum to tell them apart), so the image may be wrong: ask
        for a board dump at once (`poll`) rather than after the quiet period. Its `Snapshot`
        reports the board as it is, before a piece put down during a slide is released
        (`slide_s`). Field updates still go out as they come: holding them back would make
        a sliding piece seem to stand where it only passed."""
        self._dump_due = now

    def _note_drop(self, count: int, reason: str) -> None:
        self._drop_count += count
        self._drop_reasons[reason] = self._drop_reasons.get(reason, 0) + count

    def _decode(self, frame: Frame, now: float) -> list[Event]:
        body, msg_id = frame.body, frame.msg_id
        if msg_id == BOARD_DUMP:
            return self._board_dump(body, now)
        if msg_id == FIELD_UPDATE:
            return self._field_update(body, now)
        if msg_id == BWTIME:
            return self._bwtime(body, now)
        if msg_id == EE_MOVES:
            raise DgtFrameError("unasked EE_MOVES log drained")
        if msg_id == VERSION:
            self.version = (body[0], body[1])
        elif msg_id in (SERIALNR, LONG_SERIALNR):
            self.serial = body.decode("ascii")
        elif msg_id == TRADEMARK:
            self.trademark = body.decode("ascii")
        elif msg_id == BATTERY_STATUS:
            if body[0] > 100:
                raise DgtFrameError(f"battery at {body[0]} percent")
            self.battery_percent = body[0]
        elif msg_id == BUSADRES:
            self.bus_address = (body[0] << 7) | body[1]
        return []

    def _board_dump(self, body: bytes, now: float) -> list[Event]:
        bad = [code for code in body if code > MAX_CODE]
        if bad:
            raise DgtFrameError(f"board dump with piece code {bad[0]:02X}")
        if not self._locked and body in (INITIAL_NORMAL, INITIAL_ROTATED):
            self._rotated = body == INITIAL_ROTATED
            self._locked = True
        self._image[:] = body
        self._known = ALL_KNOWN
        return [Snapshot(t=now, board=placement_from_codes(body, self._rotated))]

    def _field_update(self, body: bytes, now: float) -> list[Event]:
        index, code = body
        if index > 63 or code > MAX_CODE:
            raise DgtFrameError(f"field update {index:02X} {code:02X} out of range")
        old = self._image[index] if self._known >> index & 1 else EMPTY
        self._image[index] = code
        self._known |= 1 << index
        if self._dump_due is None or self._dump_due > now:
            self._dump_due = now + self.quiet_s
        square = chess.square_name(index_to_square(index, self._rotated))
        if code == EMPTY:
            return [Lift(t=now, square=square, piece=CODE_TO_LETTER.get(old))]
        return [Place(t=now, square=square, piece=CODE_TO_LETTER[code])]

    def _bwtime(self, body: bytes, now: float) -> list[Event]:
        message = parse_bwtime(body, now)
        if isinstance(message, ClockAck):
            self._clock_ack(message, now)
            return []
        if isinstance(message, NoClock):
            self.clock_present = False
            self.clock = None
            self._lever = None  # a clock plugged in later sets a new baseline
            return []
        if message is None:
            return []
        self.clock_present = True
        self.clock = message
        return self._lever_press(message.lever, now)

    def _lever_press(self, lever_up: ClockSide, now: float) -> list[Event]:
        """A `Press` when the DGT 3000 lever changed position since the last times message.

        The lever is a see-saw: the player who presses pushes *their own* side down, which
        lifts the other side. d6 bit 1 says which side is up, so the side that is now down
        (the side opposite `lever_up`) pressed. The first message after start-up only sets
        the baseline: a lever already down says nothing about when it was pressed.
        """
        before, self._lever = self._lever, lever_up
        if before is None or before == lever_up:
            return []
        presser: ClockSide = "left" if lever_up == "right" else "right"
        side: Side = "white" if presser == self.clock_white else "black"
        return [Press(t=now, side=side)]

    def _clock_ack(self, ack: ClockAck, now: float) -> None:
        if ack.unasked:
            if ack.ack1 == 0x81:
                self.clock_ready = True
            elif ack.ack1 == 0x88:
                pressed = buttons_pressed(ack.ack2, ack.ack3)
                if pressed is not None:
                    self.clock_buttons.append((now, pressed))
            elif ack.ack1 == 0x8A:
                self.clock_mode23 = True
            elif ack.ack1 == 0x90:
                self.clock_mode23 = False
            return
        if ack.command == 0x09 and ack.ok:
            self.clock_version = (ack.ack2 >> 4, ack.ack2 & 0x0F)
        self._clock_queue.acknowledge(ack, now)

    # -- timers ----------------------------------------------------------------------------

    def poll(self, now: float) -> bytes:
        """Bytes the codec's timers want written at `now` (1.6, 1.8).

        - `42` once, `quiet_s` after the last field update, for a fresh `Snapshot`;
        - `45` keep-alive about every `keepalive_s` once `encode_startup` was written;
        - a clock command's resend (after `resend_s`), or the next queued one after an ACK.
        Call it often (e.g. every 50–100 ms) and write what it returns.
        """
        out = bytearray()
        if self._dump_due is not None and now >= self._dump_due:
            out += SEND_BRD
            self._dump_due = None
        if self._started:
            if self._last_keepalive is None:
                self._last_keepalive = now
            elif now - self._last_keepalive >= self.keepalive_s:
                out += self.keepalive
                self._last_keepalive = now
        out += self._clock_queue.poll(now)
        return bytes(out)

    # -- bytes out -------------------------------------------------------------------------

    def encode_startup(self) -> bytes:
        """`4B 4D 42` then the clock VERSION request (1.6, D1, D9); repeat after reconnects.

        Forgets what a broken link may have left half-said: the partial message (reported as
        dropped with the next message or `flush`), the board image, the lever baseline. A
        clock command lost in flight is sent again after the version request. The orientation
        stays locked: it belongs to the game.
        """
        if self._framer.partial:
            self._note_drop(self._framer.partial, "message cut short by a reconnect")
        self._framer.reset()
        self._known = 0
        self._lever = None
        self._dump_due = None
        self._started = True
        self._last_keepalive = None
        if not self.has_clock:
            return self.startup
        return self.startup + self._clock_queue.restart(clock_version())

    def split_commands(self, data: bytes) -> list[bytes]:
        """Board commands are single bytes (1.2) but for those with a length byte: a clock
        command `2B <n> ...` and the Revelation II's LEDs `60 <n> ...` (`n` bytes follow);
        the Pegasus's developer key `63 <n> ...` likewise."""
        out = []
        pos = 0
        while pos < len(data):
            size = 1
            if data[pos] in (0x2B, 0x60, 0x63) and pos + 1 < len(data):
                size = 2 + data[pos + 1]
            out.append(bytes(data[pos : pos + size]))
            pos += size
        return out

    def encode_version(self) -> bytes:
        """`4D`: ask for the firmware version (answered by `93`, 1.6)."""
        return bytes([0x4D])

    def encode_battery_request(self) -> bytes:
        """`4C`: ask a Bluetooth board for its battery (answered by `A0`, whose first data
        byte is the percentage: `battery_percent`)."""
        return bytes([0x4C])

    def encode_board_request(self) -> bytes:
        """`42`: ask for a board dump (answered by `86`, decoded as a `Snapshot`)."""
        self._dump_due = None
        return SEND_BRD

    def encode_leds(self, squares: list[str]) -> bytes:
        """Revelation II: light one or two squares (`60 04 01 a b 00`, 1.9, D15).

        A command carries two squares (a move's from and to, or one square twice); whether
        a second command keeps the first lit is unverified, so more than two are refused.
        """
        self._need_revelation()
        if not 1 <= len(squares) <= 2:
            raise CodecUsageError(f"one LED command lights 1 or 2 squares, not {len(squares)}")
        indices = [self._led_index(name) for name in squares]
        a, b = indices[0], indices[-1]
        return bytes([0x60, 0x04, LED_ON, a, b, 0x00])

    def encode_leds_off(self) -> bytes:
        """Revelation II: all LEDs off (`60 04 00 40 40 00`, D15)."""
        self._need_revelation()
        return LED_OFF_ALL

    def _need_revelation(self) -> None:
        if not self.revelation:
            raise CodecUsageError(
                "LED commands are only for a Revelation II: `60` froze other DGT boards (1.9)"
            )

    def _led_index(self, name: str) -> int:
        try:
            square = chess.parse_square(name)
        except (ValueError, TypeError) as exc:
            raise CodecUsageError(f"{name!r} is not a square name such as 'e4'") from exc
        return square_to_index(square, self._rotated)

    # clock commands: each returns the bytes to write now, or b"" when it is queued behind
    # the command awaiting its ACK; `poll` then releases it (1.8: one command at a time).

    def encode_clock_setnrun(
        self, left_s: float, right_s: float, running: ClockSide | None
    ) -> bytes:
        """SETNRUN: set left/right times (whole seconds) and which side runs; None pauses.

        END follows it (queued behind its ACK), as picochess's `setnrun` and `start_clock`
        write it: a clock left showing a text shows the times it was just given."""
        out = self._clock_queue.submit(clock_setnrun(left_s, right_s, running))
        return out + self._clock_queue.submit(clock_end())

    def encode_clock_times(self, white_s: float, black_s: float, running: Side | None) -> bytes:
        """SETNRUN by colour: White's and Black's times, mapped to sides by `clock_white`."""
        if running not in ("white", "black", None):
            raise CodecUsageError(f"running must be 'white', 'black' or None, not {running!r}")
        black_side: ClockSide = "right" if self.clock_white == "left" else "left"
        sides: dict[str | None, ClockSide | None] = {
            "white": self.clock_white,
            "black": black_side,
            None: None,
        }
        if self.clock_white == "left":
            return self.encode_clock_setnrun(white_s, black_s, sides[running])
        return self.encode_clock_setnrun(black_s, white_s, sides[running])

    def encode_clock_text(self, text: str, beep: int = 0) -> bytes:
        """DGT 3000: show up to 8 characters, with a beep 0–15 (D13)."""
        return self._clock_queue.submit(clock_text(text, beep))

    def encode_clock_end(self) -> bytes:
        """Back to showing the times after a text (D14)."""
        return self._clock_queue.submit(clock_end())

    def encode_clock_beep(self, seconds: float) -> bytes:
        """Beep for `seconds` (64 ms units, D14)."""
        return self._clock_queue.submit(clock_beep(seconds))

    def encode_clock_version(self) -> bytes:
        """Ask the clock's version (D9); the ACK sets `clock_version`."""
        return self._clock_queue.submit(clock_version())


class RevelationCodec(DgtCodec):
    """A DGT Revelation II: the DGT protocol (section 1) with its LEDs (`60`, 1.9) allowed.

    The board cannot be told from other DGT boards by what it sends, and `60` stalls those,
    so it must be named: `--board revelation:/dev/rfcomm0` (protocol `revelation`), or a
    `dgt:` device whose path says `PCS-REVII…`, its Bluetooth name (`is_revelation_path`,
    `registry.parse_board_spec`). Its `name` stays `dgt`: everything else is a DGT board's.
    """

    has_leds = True

    def __init__(self, **options: object) -> None:
        options.setdefault("revelation", True)
        super().__init__(**options)  # type: ignore[arg-type]
