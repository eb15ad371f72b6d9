"""A DGT board, seen from the wire (`eboard-protocols.md` 1.2–1.9).

`DgtBoardModel` holds a piece placement and a physical orientation, answers the host's
command bytes with the bytes a real board would send, and turns `lift`/`place` into field
updates once the host put it in update mode. It lets tests round-trip through `DgtCodec`
(house style lesson 6) and can stand behind a pseudo-terminal as a virtual board.

It models what the protocol says, not a board's timing: replies come back at once, a scan's
odd update orders are up to the caller (send `lift`/`place` in that order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import chess

from firmware_bridge.codecs.dgt_squares import (
    CODE_TO_LETTER,
    EMPTY,
    LETTER_TO_CODE,
    codes_from_placement,
    placement_from_codes,
    square_to_index,
)

Side = Literal["left", "right"]
Mode = Literal["bus", "idle", "update", "update_brd", "update_nice"]

_MODE_COMMANDS: dict[int, Mode] = {
    0x40: "idle",
    0x43: "update",
    0x44: "update_brd",
    0x4B: "update_nice",
}


def message(msg_id: int, body: bytes = b"") -> bytes:
    """A board → host message: id, then the 14-bit total length in two 7-bit bytes (1.3)."""
    total = len(body) + 3
    return bytes([msg_id, (total >> 7) & 0x7F, total & 0x7F]) + body


def _bcd(value: int) -> int:
    return (value // 10) << 4 | value % 10


def clock_ack(ack0: int, ack1: int, ack2: int = 0, ack3: int = 0) -> bytes:
    """An `8D` ACK carrying the four ack bytes: the 1.7 formulas inverted (D10, D11)."""
    d0 = 0x0A | (0x10 if ack2 & 0x80 else 0) | (0x20 if ack3 & 0x80 else 0)
    d3 = 0x0A | (0x10 if ack0 & 0x80 else 0) | (0x20 if ack1 & 0x80 else 0)
    body = bytes([d0, ack0 & 0x7F, ack1 & 0x7F, d3, ack2 & 0x7F, ack3 & 0x7F, 0x00])
    return message(0x8D, body)


def clock_times(
    left_s: int,
    right_s: int,
    *,
    running: bool = True,
    lever: Side = "left",
    turn: Side | None = None,
    no_clock: bool = False,
    battery_low: bool = False,
) -> bytes:
    """An `8D` times message (1.7): whole seconds per side, `lever` = the side that is up.

    `turn` defaults, while the clock runs, to the side whose lever is up: a real DGT 3000
    runs the clock of the raised lever and sets d6 bit 3 for the left, bit 4 for the right.
    """
    if turn is None and running and not no_clock:
        turn = lever
    parts = []
    for seconds in (right_s, left_s):
        if not 0 <= seconds < 10 * 3600:
            raise ValueError(f"{seconds} s does not fit a DGT clock (0 … 9:59:59)")
        parts += [seconds // 3600, _bcd(seconds // 60 % 60), _bcd(seconds % 60)]
    d6 = (
        (0x01 if running else 0)
        | (0x02 if lever == "right" else 0)
        | (0x04 if battery_low else 0)
        | (0x08 if turn == "left" else 0)
        | (0x10 if turn == "right" else 0)
        | (0x20 if no_clock else 0)
    )
    return message(0x8D, bytes([*parts, d6]))


class DgtBoardModel:
    """The board side of the DGT protocol; see the module docstring.

    Args:
        placement: FEN piece placement on the board (White's view).
        rotated: the board is turned 180° (index 0 = h1, 1.4).
        version: firmware (major, minor) answered to `4D`.
        serial: 5 digits answered to `45`.
        clock_version: (major, minor) of the clock, or None for no clock (no ACKs then).
    """

    def __init__(
        self,
        placement: str = chess.STARTING_BOARD_FEN,
        *,
        rotated: bool = False,
        version: tuple[int, int] = (1, 10),
        serial: str = "12345",
        clock_version: tuple[int, int] | None = (2, 3),
    ) -> None:
        self.rotated = rotated
        self.codes = bytearray(codes_from_placement(placement, rotated))
        self.version = version
        self.serial = serial
        self.clock_version = clock_version
        self.mode: Mode = "bus"
        #: the last LED command: lit board indices (empty after "all off")
        self.leds: tuple[int, ...] = ()
        #: clock state set by SETNRUN: (left_s, right_s, running side or None)
        self.clock_set: tuple[int, int, Side | None] | None = None
        #: text shown by the last DGT 3000 ASCII command, None after END
        self.clock_text: str | None = None
        #: every clock command received, as (cmd, payload)
        self.clock_commands: list[tuple[int, bytes]] = []
        #: the side of the DGT 3000 lever that is up
        self.lever: Side = "left"
        self._pending = bytearray()

    @property
    def placement(self) -> str:
        """The FEN piece placement now on the board."""
        return placement_from_codes(self.codes, self.rotated)

    def set_placement(self, placement: str) -> None:
        """Put the pieces of `placement` on the board silently (no field updates)."""
        self.codes[:] = codes_from_placement(placement, self.rotated)

    @property
    def reporting(self) -> bool:
        """Whether field changes are sent (`43`, `44`, `4B` modes)."""
        return self.mode in ("update", "update_brd", "update_nice")

    # -- host → board ----------------------------------------------------------------

    def receive(self, data: bytes) -> bytes:
        """Take host command bytes (any chunking); return the board's reply bytes."""
        self._pending += data
        out = bytearray()
        while self._pending:
            cmd = self._pending[0]
            if cmd == 0x60:  # SET_LEDS: 60 04 mode a b 00
                if len(self._pending) < 6:
                    break
                self._leds(bytes(self._pending[1:6]))
                del self._pending[:6]
                continue
            if cmd == 0x2B:  # clock command: 2B size 03 cmd payload 00
                if len(self._pending) < 2 or len(self._pending) < 2 + self._pending[1]:
                    break
                size = self._pending[1]
                out += self._clock_command(bytes(self._pending[2 : 2 + size]))
                del self._pending[: 2 + size]
                continue
            del self._pending[0]
            out += self._command(cmd)
        return bytes(out)

    def _command(self, cmd: int) -> bytes:
        if self.mode == "bus" and cmd != 0x4A:
            self.mode = "idle"  # the first single-board command leaves bus mode (1.6)
        if cmd in _MODE_COMMANDS:
            self.mode = _MODE_COMMANDS[cmd]
            return b""
        replies: dict[int, Callable[[], bytes]] = {
            0x41: self._clock_now,
            0x42: self.dump,
            0x45: lambda: message(0x91, self.serial.encode("ascii")),
            0x46: lambda: message(0x90, bytes([0x00, 0x01])),
            0x47: lambda: message(0x92, b"Digital Game Technology (model)"),
            0x4C: lambda: message(0xA0, bytes([87, 0x7F, 0x7F, 1, 2, 0, 0, 0, 0x02])),
            0x4D: lambda: message(0x93, bytes(self.version)),
            0x55: lambda: message(0xA2, (self.serial * 2)[:10].encode("ascii")),
        }
        reply = replies.get(cmd)
        return reply() if reply else b""

    def _clock_now(self) -> bytes:
        """The `8D` answering `41`: the times SETNRUN set, or "no clock"."""
        if self.clock_version is None or self.clock_set is None:
            return clock_times(0, 0, running=False, no_clock=True)
        left, right, running = self.clock_set
        return clock_times(left, right, running=running is not None, lever=self.lever, turn=running)

    def clock_times(
        self,
        left_s: int,
        right_s: int,
        *,
        running: bool = True,
        lever: Side = "left",
        turn: Side | None = None,
    ) -> bytes:
        """The `8D` a clock on this board sends unasked (b"" outside update mode, or without
        a clock); `lever` is the side of the lever that is up, remembered for `41`. As on a
        real DGT 3000, the turn shown is the raised lever's side unless `turn` says other."""
        self.lever = lever
        if self.clock_version is None or not self.reporting:
            return b""
        return clock_times(left_s, right_s, running=running, lever=lever, turn=turn)

    def _leds(self, body: bytes) -> None:
        _, mode, a, b, _ = body
        if mode == 0x01:
            self.leds = (a,) if a == b else (a, b)
        elif mode == 0x00 and a == 0x40:
            self.leds = ()

    def _clock_command(self, inner: bytes) -> bytes:
        """Apply `03 <cmd> <payload> 00` and answer its ACK (only in update modes, 1.7)."""
        if len(inner) < 3 or inner[0] != 0x03:
            return b""
        cmd, payload = inner[1], inner[2:-1]
        self.clock_commands.append((cmd, payload))
        if cmd == 0x0A and len(payload) == 7:
            lh, lm, ls, rh, rm, rs, flag = payload
            sides: dict[int, Side] = {0x01: "left", 0x02: "right"}
            running: Side | None = sides.get(flag)
            self.clock_set = (lh * 3600 + lm * 60 + ls, rh * 3600 + rm * 60 + rs, running)
        elif cmd == 0x0C:
            self.clock_text = payload[:8].decode("ascii")
        elif cmd == 0x03:
            self.clock_text = None
        if self.clock_version is None or not self.reporting:
            return b""
        if cmd == 0x09:
            major, minor = self.clock_version
            return clock_ack(0x10, 0x09, (major << 4) | minor, 0x00)
        return clock_ack(0x10, cmd)

    def dump(self) -> bytes:
        """The `86` board dump: 64 piece codes in board index order (1.3, 1.4)."""
        return message(0x86, bytes(self.codes))

    # -- the pieces ------------------------------------------------------------------

    def _update(self, square: str, code: int) -> bytes:
        index = square_to_index(chess.parse_square(square), self.rotated)
        self.codes[index] = code
        if not self.reporting:
            return b""
        return message(0x8E, bytes([index, code]))

    def lift(self, square: str) -> bytes:
        """Take the piece off `square`; the `8E` update (b"" outside update mode)."""
        return self._update(square, EMPTY)

    def place(self, square: str, piece: str) -> bytes:
        """Put `piece` (FEN letter, `?` a magic piece) on `square`; the `8E` update."""
        if piece not in LETTER_TO_CODE:
            raise ValueError(f"{piece!r} is not a piece letter")
        return self._update(square, LETTER_TO_CODE[piece])

    def piece_at(self, square: str) -> str | None:
        """The letter on `square`, None if empty."""
        code = self.codes[square_to_index(chess.parse_square(square), self.rotated)]
        return CODE_TO_LETTER.get(code)

    def play(self, board: chess.Board, move: chess.Move) -> bytes:
        """Field updates of `move` played on `board` (before it is pushed): lifts, then places.

        Captures show the captured piece lifted first (a scan may also never show it, which
        tests write by hand); castling moves king then rook; en passant lifts the taken pawn.
        """
        out = bytearray()
        mover = board.piece_at(move.from_square)
        if mover is None:
            raise ValueError(f"no piece on {chess.square_name(move.from_square)}")
        letter = mover.symbol()
        if move.promotion:
            letter = chess.Piece(move.promotion, mover.color).symbol()
        if board.is_capture(move):
            taken = move.to_square
            if board.is_en_passant(move):
                taken = chess.square(
                    chess.square_file(move.to_square), chess.square_rank(move.from_square)
                )
            out += self.lift(chess.square_name(taken))
        out += self.lift(chess.square_name(move.from_square))
        out += self.place(chess.square_name(move.to_square), letter)
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            rook = board.piece_at(rook_from)
            out += self.lift(chess.square_name(rook_from))
            out += self.place(chess.square_name(rook_to), rook.symbol() if rook else "R")
        return bytes(out)
