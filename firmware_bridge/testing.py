"""A test kit for codecs: feeding bytes three ways, counting what came out, and each
protocol's board simulator paired with its codec.

Shipped with the package (as gpiozero ships its mock pins) so the project's tests and anyone
writing a codec use the same helpers. Nothing here opens a port or reads a clock.

- `feed_chunks(codec, data, sizes, t)`: feed `data` cut after the given sizes (cycled),
  then `flush`; `pieces(data, sizes)`: the cut itself; `feed_cut(codec, data, offsets, t)`:
  cut at the given offsets (as a fuzzer draws them), no flush; `three_ways(make, data)`:
  whole, a byte at a time, and cut at random.
- `dropped`, `decoded`, `snapshots`: what the events say; `expand`: a placement as 64 squares.
- `SIMULATED`: protocol -> a factory of (board simulator, codec) that understand each other.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from typing import Any

import chess

from firmware_bridge.codecs.base import Codec
from rules.events import Event, Sensor, Snapshot

__all__ = [
    "SIMULATED",
    "decoded",
    "dropped",
    "expand",
    "expected_placement",
    "feed_chunks",
    "feed_cut",
    "pieces",
    "simulated",
    "snapshots",
    "three_ways",
]


def feed_chunks(
    codec: Codec, data: bytes, sizes: Iterable[int], t: float = 1.0, *, flush: bool = True
) -> list[Event]:
    """Feed `data` in pieces of `sizes` (cycled until the data is used up), then `flush`
    (unless not `flush`: what the feeds alone gave)."""
    events: list[Event] = []
    for piece in pieces(data, sizes):
        events += codec.feed(piece, t)
    return events + codec.flush(t) if flush else events


def pieces(data: bytes, sizes: Iterable[int]) -> list[bytes]:
    """`data` cut into pieces of `sizes` (cycled until the data is used up; sizes below 1
    left out; none: one piece)."""
    steps = [s for s in sizes if s > 0] or [len(data) or 1]
    out: list[bytes] = []
    pos = 0
    while pos < len(data):
        step = steps[len(out) % len(steps)]
        out.append(data[pos : pos + step])
        pos += step
    return out


def feed_cut(codec: Codec, data: bytes, offsets: Iterable[int], t: float = 1.0) -> list[Event]:
    """Feed `data` cut at `offsets` (each taken modulo `len(data) + 1`, in order, repeats
    ignored), without `flush`: the events the feeds gave."""
    edges = sorted({0, len(data), *(c % (len(data) + 1) for c in offsets)})
    events: list[Event] = []
    for a, b in itertools.pairwise(edges):
        events += codec.feed(data[a:b], t)
    return events


def three_ways(
    make: Callable[[], Codec], data: bytes, *, seed: int = 0, t: float = 1.0
) -> list[list[Event]]:
    """The events of `data` fed to fresh codecs whole, a byte at a time, and cut at random."""
    rng = random.Random(seed)
    cuts = [rng.randrange(1, 40) for _ in range(64)]
    return [
        feed_chunks(make(), data, [len(data)], t),
        feed_chunks(make(), data, [1], t),
        feed_chunks(make(), data, cuts, t),
    ]


def dropped(events: Iterable[Event]) -> int:
    """Bytes the events report as dropped."""
    return sum(e.bytes or 0 for e in events if isinstance(e, Sensor) and e.status == "dropped")


def decoded(events: Iterable[Event]) -> list[Event]:
    """The events that are not sensor reports."""
    return [e for e in events if not isinstance(e, Sensor)]


def snapshots(events: Iterable[Event]) -> list[str]:
    """The placements of the snapshots among `events`."""
    return [e.board for e in events if isinstance(e, Snapshot)]


def expand(placement: str) -> str:
    """A placement (FEN's first field) as 64 characters, a8 ... h1, '.' for an empty square."""
    return "".join("." * int(c) if c.isdigit() else c for c in placement.replace("/", ""))


def _dgt() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.dgt import DgtCodec
    from firmware_bridge.sim.dgt_board import DgtBoardModel

    return DgtBoardModel(), DgtCodec()


def _revelation() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.dgt import RevelationCodec
    from firmware_bridge.sim.dgt_board import DgtBoardModel

    return DgtBoardModel(), RevelationCodec()


def _millennium() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.millennium import MillenniumCodec
    from firmware_bridge.sim.millennium_board import MillenniumBoard

    return MillenniumBoard(), MillenniumCodec()


def _certabo() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.certabo import CertaboCodec
    from firmware_bridge.sim.certabo_board import CertaboBoard

    board = CertaboBoard()
    return board, CertaboCodec(board.calibration())


def _sentio() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.certabo import SentioCodec
    from firmware_bridge.sim.certabo_board import SentioBoard

    return SentioBoard(), SentioCodec()


def _chessnut() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.chessnut import ChessnutCodec
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    return ChessnutBoard(), ChessnutCodec()


def _chessnut_ble() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.chessnut import ChessnutCodec
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    return ChessnutBoard(), ChessnutCodec()


def _millennium_ble() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.millennium import MillenniumCodec
    from firmware_bridge.sim.millennium_board import MillenniumBoard

    return MillenniumBoard(plain_ascii=True), MillenniumCodec()  # an eONE: 7-bit ASCII


def _pegasus() -> tuple[Any, Codec]:
    from firmware_bridge.codecs.pegasus import PegasusCodec
    from firmware_bridge.sim.pegasus_board import PegasusBoard

    return PegasusBoard(), PegasusCodec()


#: protocol (as the registry names it) -> (board simulator, codec) that speak to each other;
#: the simulator has `receive(bytes) -> bytes`, `lift(square)` and `place(square, piece)`
SIMULATED: dict[str, Callable[[], tuple[Any, Codec]]] = {
    "dgt": _dgt,
    "revelation": _revelation,
    "millennium": _millennium,
    "certabo": _certabo,
    "sentio": _sentio,
    "chessnut": _chessnut,
    "chessnut-ble": _chessnut_ble,
    "millennium-ble": _millennium_ble,
    "pegasus": _pegasus,
}


def simulated(protocol: str) -> tuple[Any, Codec]:
    """A fresh (board simulator, codec) pair for `protocol` (KeyError if none)."""
    return SIMULATED[protocol]()


def expected_placement(codec: Codec, board: chess.BaseBoard) -> str:
    """The placement `codec` should report for `board`: '?' pieces where it sees occupancy."""
    if not codec.occupancy_only:
        return board.board_fen()
    blind = chess.BaseBoard(None)
    for square in board.piece_map():
        blind.set_piece_at(square, chess.Piece(chess.PAWN, chess.WHITE))
    return blind.board_fen().replace("P", "?")
