"""The DGT Pegasus codec, sans I/O (`eboard-protocols.md` 5; docs/eboard-protocols.md).

A Pegasus speaks the DGT board protocol (section 1) over the Nordic UART service of
Bluetooth LE, but it senses only whether a square is occupied: its board dump `86 00 43` holds
64 bytes of `00` (empty) or `01` (occupied), and a field update `8E 00 05 <square> <00|01>`
says a square emptied or filled. `01` is a white pawn's code on other DGT boards; here it is
a piece of unknown kind and colour, so every dump is a `Snapshot` with `?` on its occupied
squares and a field update a `Lift` (no piece) or a `Place` of `?`: the rules core treats the
board as an occupancy sensor (events.md, "The board as sensed"), never as pawns everywhere.
Squares are numbered as on every DGT board (index 0 = a8 ... 63 = h1, 1.4).

Facts and sources (the bytes are facts; the code is ours):

- the occupancy codes, the field update's `00` lift / `01` place, and the square numbering:
  adrian-dybwad/DGTCentaurMods `src/universalchess/emulators/pegasus.py` (`board_dump`,
  `handle_manager_event`, `board.rotateFieldHex`);
- the commands a real Pegasus is sent: the DGT app's opening packet recorded in that file
  (`40`, LEDs off `60 02 00 00`, a developer key `63 ...`, `47`, `42`, `44`) and the same
  project's `pegasus_client.py`, a client of real boards (`40`, `42`; `4D`, `4C`, `4B`
  named); replies `93` to `4D`, `91` to `45`, `92` to `47`, `A0` to the battery request.

Start-up: `40` (reset: the board does not answer it), `4D` (version: its `93` proves the
link), `42` (a dump), `44` (field updates, what DGT's app asks for). The keep-alive is `4D`
every second (not the `45` of other DGT boards, see `keepalive`), so ~3 s of silence means the
board is gone. Occupancy
cannot show which way the board lies: the orientation is configured (`rotated`). The sensor
settings are the DGT boards' (`noise_s`, `slide_s`, `latency_s` 0.3: a scanned board); no
source gives the Pegasus's own scan rate.
"""

from __future__ import annotations

from typing import ClassVar

import chess

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.codecs.dgt_squares import index_to_square
from firmware_bridge.codecs.placement import cells_to_placement
from firmware_bridge.errors import DgtFrameError
from rules.events import Event, Lift, Place, Snapshot

__all__ = ["OCCUPIED", "PEGASUS_STARTUP", "PegasusCodec"]

#: the code of an occupied square (00 is empty)
OCCUPIED = 0x01
#: reset, version, board dump, field updates
PEGASUS_STARTUP = bytes([0x40, 0x4D, 0x42, 0x44])
ALL_KNOWN = (1 << 64) - 1


class PegasusCodec(DgtCodec):
    """A DGT Pegasus: DGT framing, occupancy only, no clock; see the module docstring.

    Args:
        rotated: the board is turned 180° (its a8 corner at White's right hand).
        quiet_s: quiet period after field updates before asking for a dump (Bluetooth: 0.5 s).
        keepalive_s: interval of the keep-alive `45`.
    """

    name = "pegasus"
    has_clock = False
    occupancy_only = True
    #: Bluetooth LE only: no serial settings
    baudrate = 0
    bits_per_byte = 8
    startup: ClassVar[bytes] = PEGASUS_STARTUP
    #: the version request: its `93 00 05 major minor` is the one reply both sources agree on
    #: (DGTCentaurMods' emulator answers `45` with a 10-character `91`, not the 5 digits of
    #: other DGT boards' `91`)
    keepalive: ClassVar[bytes] = bytes([0x4D])

    def __init__(
        self, *, rotated: bool = False, quiet_s: float = 0.5, keepalive_s: float = 1.0
    ) -> None:
        super().__init__(quiet_s=quiet_s, keepalive_s=keepalive_s, rotated=bool(rotated))

    @property
    def board(self) -> str | None:
        """The occupancy the codec believes is on the board (`?` pieces); None until a dump."""
        if self._known != ALL_KNOWN:
            return None
        return self._placement(bytes(self._image))

    def _placement(self, codes: bytes) -> str:
        cells = ["."] * 64
        for index, code in enumerate(codes):
            if code:
                square = index_to_square(index, self.rotated)
                cells[(7 - chess.square_rank(square)) * 8 + chess.square_file(square)] = "?"
        return cells_to_placement("".join(cells))

    def _board_dump(self, body: bytes, now: float) -> list[Event]:
        bad = [code for code in body if code > OCCUPIED]
        if bad:
            raise DgtFrameError(f"Pegasus board dump with code {bad[0]:02X} (not 00 or 01)")
        self._image[:] = body
        self._known = ALL_KNOWN
        return [Snapshot(t=now, board=self._placement(body))]

    def _field_update(self, body: bytes, now: float) -> list[Event]:
        index, code = body
        if index > 63 or code > OCCUPIED:
            raise DgtFrameError(f"Pegasus field update {index:02X} {code:02X} out of range")
        self._image[index] = code
        self._known |= 1 << index
        if self._dump_due is None or self._dump_due > now:
            self._dump_due = now + self.quiet_s
        square = chess.square_name(index_to_square(index, self.rotated))
        if code == OCCUPIED:
            return [Place(t=now, square=square, piece="?")]
        return [Lift(t=now, square=square)]
