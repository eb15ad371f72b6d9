"""The DGT clock as seen through the board (`eboard-protocols.md` 1.7, 1.8).

`parse_bwtime` reads the 7 data bytes of an `8D` message: either the clock's times (a
`ClockStatus`), or an acknowledgement (`ClockAck`) when the low nibble of d0 or d3 is `A`.
The `clock_*` functions build the `2B` clock commands. All of it is pure: no state, no time.

Left and right are as seen from the clock's front and never swapped by the board; which side
is White's is the caller's knowledge (`DgtCodec(clock_white=...)`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from firmware_bridge.errors import CodecUsageError, DgtFrameError

ClockSide = Literal["left", "right"]

CMD_DISPLAY = 0x01
CMD_ICONS = 0x02
CMD_END = 0x03
CMD_BUTTON = 0x08
CMD_VERSION = 0x09
CMD_SETNRUN = 0x0A
CMD_BEEP = 0x0B
CMD_ASCII = 0x0C

#: names of the clock commands, for messages about them
COMMAND_NAMES = {
    CMD_DISPLAY: "DISPLAY",
    CMD_ICONS: "ICONS",
    CMD_END: "END",
    CMD_BUTTON: "BUTTON",
    CMD_VERSION: "VERSION",
    CMD_SETNRUN: "SETNRUN",
    CMD_BEEP: "BEEP",
    CMD_ASCII: "ASCII",
}
#: ack3 of an unasked "button" ACK (ack1 = 88) → the button (1.7)
BUTTONS = {0x31: "back", 0x32: "plus", 0x33: "run", 0x34: "minus", 0x35: "ok"}
#: a button ACK's ack2: the buttons held, one bit each (bit 0 is always set), so two held at
#: once read as both (picochess `dgt/board.py`: ack2-ack3 05-49 back alone, 37-52 back and
#: minus, 49-51 minus and run, ... 73-53 plus and ok), in the order they sit on the clock
BUTTON_BITS: tuple[tuple[int, str], ...] = (
    (0x04, "back"),
    (0x20, "minus"),
    (0x10, "run"),
    (0x08, "plus"),
    (0x40, "ok"),
)
ACK_OK = 0x10
ACK_ERROR = 0x40
#: longest time SETNRUN can set: the DGT clocks show one hour digit
MAX_CLOCK_S = 10 * 3600 - 1
#: one beep unit is 64 ms; the duration byte carries 7 bits
BEEP_UNIT_S = 0.064


@dataclass(frozen=True, slots=True)
class ClockStatus:
    """The clock's times and state from one `8D` times message (1.7), stamped `t`.

    Times are whole seconds. `lever` is the side of the DGT 3000 lever that is *up*
    (d6 bit 1); `turn` is the side whose turn the clock shows (bit 3 left, bit 4 right, as real
    DGT 3000s send them), None if neither.
    `*_flag` is a fallen flag (clock blocked at 0), `*_flag_shown` a flag shown while the
    clock may still run, `*_increment` the per-move increment indicator.
    """

    t: float
    left_s: int
    right_s: int
    running: bool
    lever: ClockSide
    turn: ClockSide | None
    battery_low: bool
    left_flag: bool
    right_flag: bool
    left_flag_shown: bool
    right_flag_shown: bool
    left_increment: bool
    right_increment: bool


@dataclass(frozen=True, slots=True)
class ClockAck:
    """A clock acknowledgement, the four ack bytes rebuilt by the 1.7 formulas."""

    ack0: int
    ack1: int
    ack2: int
    ack3: int

    @property
    def ok(self) -> bool:
        """`ack0` 10 is success; 40 an error (e.g. SETNRUN outside clock mode 23)."""
        return self.ack0 == ACK_OK

    @property
    def unasked(self) -> bool:
        """The clock sent it on its own (ready, button, mode change): `ack1` bit 7."""
        return bool(self.ack1 & 0x80)

    @property
    def command(self) -> int:
        """The command an asked-for ACK echoes (`ack1`)."""
        return self.ack1


@dataclass(frozen=True, slots=True)
class NoClock:
    """An `8D` with d6 bit 5 set: no clock is connected, the times are invalid (1.7, 8)."""


def _bcd(byte: int, what: str) -> int:
    tens, units = byte >> 4, byte & 0x0F
    if tens > 5 or units > 9:
        raise DgtFrameError(f"impossible BCD {byte:02X} for {what} in a clock message")
    return tens * 10 + units


def _side_seconds(h: int, m: int, s: int, side: str) -> int:
    hours = h & 0x0F
    if hours > 9:
        raise DgtFrameError(f"impossible hours {hours} for the {side} clock")
    return hours * 3600 + _bcd(m, f"{side} minutes") * 60 + _bcd(s, f"{side} seconds")


def parse_bwtime(body: bytes, t: float) -> ClockStatus | ClockAck | NoClock | None:
    """Decode the 7 data bytes of an `8D` message received at `t` (1.7).

    Returns None for an all-zero message (Bluetooth boards send them after clock commands).

    Raises:
        DgtFrameError: impossible BCD or hours in a times message.
    """
    d0, d1, d2, d3, d4, d5, d6 = body
    if (d0 & 0x0F) == 0x0A or (d3 & 0x0F) == 0x0A:
        return ClockAck(
            ack0=(d1 & 0x7F) | ((d3 << 3) & 0x80),
            ack1=(d2 & 0x7F) | ((d3 << 2) & 0x80),
            ack2=(d4 & 0x7F) | ((d0 << 3) & 0x80),
            ack3=(d5 & 0x7F) | ((d0 << 2) & 0x80),
        )
    if not any(body):
        return None
    if d6 & 0x20:
        return NoClock()
    # bit 3 is the left clock's turn, bit 4 the right's: real DGT 3000 recordings set bit 3
    # with the left lever up and the left time running (docs/eboard-protocols.md, D6)
    turn: ClockSide | None = "left" if d6 & 0x08 else "right" if d6 & 0x10 else None
    return ClockStatus(
        t=t,
        right_s=_side_seconds(d0, d1, d2, "right"),
        left_s=_side_seconds(d3, d4, d5, "left"),
        running=bool(d6 & 0x01),
        lever="right" if d6 & 0x02 else "left",
        turn=turn,
        battery_low=bool(d6 & 0x04),
        right_flag=bool(d0 & 0x10),
        left_flag=bool(d3 & 0x10),
        right_increment=bool(d0 & 0x20),
        left_increment=bool(d3 & 0x20),
        right_flag_shown=bool(d0 & 0x40),
        left_flag_shown=bool(d3 & 0x40),
    )


def _command(cmd: int, payload: bytes = b"") -> bytes:
    """`2B <size> 03 <cmd> <payload> 00`; size counts the bytes after itself (1.8)."""
    inner = bytes([0x03, cmd]) + payload + b"\x00"
    return bytes([0x2B, len(inner)]) + inner


def _hms(seconds: float, side: str) -> bytes:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise CodecUsageError(f"{side} time must be a number of seconds, not {seconds!r}")
    if not 0 <= seconds <= MAX_CLOCK_S:
        raise CodecUsageError(f"{side} time {seconds!r} s is outside 0…{MAX_CLOCK_S} s")
    whole = int(seconds)  # the clock shows whole seconds: round down, never give time
    return bytes([whole // 3600, whole // 60 % 60, whole % 60])


def clock_setnrun(left_s: float, right_s: float, running: ClockSide | None) -> bytes:
    """SETNRUN (`0A`): set both times (binary h, m, s) and which side runs, or pause (1.8)."""
    flags = {"left": 0x01, "right": 0x02, None: 0x04}
    if running not in flags:
        raise CodecUsageError(f"running must be 'left', 'right' or None, not {running!r}")
    payload = _hms(left_s, "left") + _hms(right_s, "right") + bytes([flags[running]])
    return _command(CMD_SETNRUN, payload)


def clock_text(text: str, beep: int = 0) -> bytes:
    """DGT 3000 ASCII (`0C`): 8 characters (shorter text is padded with spaces), beep 0–15."""
    if not isinstance(text, str) or len(text) > 8:
        raise CodecUsageError(f"the DGT 3000 shows at most 8 characters, not {text!r}")
    if any(not 0x20 <= ord(ch) <= 0x7E for ch in text):
        raise CodecUsageError(f"the DGT 3000 shows printable ASCII only, not {text!r}")
    if isinstance(beep, bool) or not isinstance(beep, int) or not 0 <= beep <= 15:
        raise CodecUsageError(f"beep must be a whole number 0–15, not {beep!r}")
    return _command(CMD_ASCII, text.ljust(8).encode("ascii") + bytes([beep]))


def buttons_pressed(ack2: int, ack3: int) -> str | None:
    """What a button ACK (`88`) says was pressed: one button's name (`ok`), two held at once
    joined by `+` (`back+minus`, from ack2's bits), or None if it names no button."""
    held = [name for bit, name in BUTTON_BITS if ack2 & bit]
    if len(held) >= 2:
        return "+".join(held)
    return BUTTONS.get(ack3) or (held[0] if held else None)


def clock_end() -> bytes:
    """END (`03`): the clock shows its times again after a text."""
    return _command(CMD_END)


def clock_version() -> bytes:
    """VERSION (`09`): the clock answers with an ACK carrying its version (1.7)."""
    return _command(CMD_VERSION)


def clock_beep(seconds: float) -> bytes:
    """BEEP (`0B`): a beep of `seconds`, sent in units of 64 ms (1–127 units)."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise CodecUsageError(f"beep length must be a number of seconds, not {seconds!r}")
    units = round(seconds / BEEP_UNIT_S)
    if not 1 <= units <= 0x7F:
        raise CodecUsageError(
            f"beep of {seconds!r} s is outside {BEEP_UNIT_S}…{0x7F * BEEP_UNIT_S:.3f} s"
        )
    return _command(CMD_BEEP, bytes([units]))
