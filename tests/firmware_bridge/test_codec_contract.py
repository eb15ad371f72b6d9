"""The contract every codec of the protocol registry keeps (firmware_bridge/codecs/base.py):

- a game's bytes fed whole, a byte at a time and cut at random give the same decoded events
  and the same count of dropped bytes;
- garbage never raises, and never leaves more held back than one message;
- a round trip through the board's own simulator: start-up, a move by hand, read back;
- capabilities are declared on the class, not probed.
"""

from __future__ import annotations

import random

import chess
import pytest

from firmware_bridge.codecs.base import Codec
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.registry import PROTOCOLS, codec_for
from firmware_bridge.testing import (
    SIMULATED,
    decoded,
    dropped,
    expected_placement,
    simulated,
    snapshots,
    three_ways,
)
from rules.events import Place

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_every_registered_protocol_has_a_simulator() -> None:
    assert set(SIMULATED) == set(PROTOCOLS)


def game_bytes(protocol: str) -> tuple[bytes, Codec]:
    """Start-up replies and e2-e4 by hand, with some garbage between, as the board sends."""
    board, codec = simulated(protocol)
    rng = random.Random(protocol)
    data = board.receive(codec.encode_startup())
    if protocol in ("certabo", "sentio"):
        data += board.record()  # streaming boards report unasked
    for chunk in (board.lift("e2"), board.place("e4", "P")):
        data += bytes(rng.randrange(0x20, 0x7F) for _ in range(3)) + chunk
    return data, codec


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_round_trip_through_the_simulator(protocol: str) -> None:
    board, codec = simulated(protocol)
    events = codec.feed(board.receive(codec.encode_startup()), 0.0)
    if protocol in ("certabo", "sentio"):
        events += codec.feed(board.record(), 0.0)
    events += codec.feed(board.lift("e2"), 1.0) + codec.feed(board.place("e4", "P"), 2.0)
    if protocol in ("certabo", "sentio"):
        # a streaming board keeps reporting; Certabo shows the majority of 3 records
        events += codec.feed(board.record() + board.record(), 2.0)
    events += codec.flush(3.0)
    places = [e for e in events if isinstance(e, Place)]
    if places:  # a board that reports squares (DGT): the place is the last word
        piece = "?" if codec.occupancy_only else "P"  # a Pegasus senses occupancy only
        assert places[-1] == Place(t=2.0, square="e4", piece=piece)
    else:  # a board that reports whole positions
        assert snapshots(events)[-1] == expected_placement(codec, chess.BaseBoard(AFTER_E4))
    assert dropped(events) == 0


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_three_ways_give_the_same_events(protocol: str) -> None:
    data, _ = game_bytes(protocol)

    def make() -> Codec:
        codec = simulated(protocol)[1]
        codec.encode_startup()
        return codec

    runs = three_ways(make, data, seed=len(protocol))
    first = runs[0]
    for other in runs[1:]:
        assert decoded(other) == decoded(first)
        assert dropped(other) == dropped(first)


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_garbage_never_raises(protocol: str) -> None:
    rng = random.Random(protocol)
    codec = codec_for(protocol)
    codec.encode_startup()
    for _ in range(200):
        codec.feed(rng.randbytes(rng.randrange(1, 300)), 1.0)
        codec.poll(1.0)
    codec.flush(2.0)
    assert codec.pending <= 0x2000


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
def test_capabilities_are_declared(protocol: str) -> None:
    codec = codec_for(protocol)
    assert isinstance(codec.bytesize, int) and codec.parity in ("N", "E", "O")
    if codec.reports_version:
        assert codec.encode_version()
    else:
        with pytest.raises(CodecUsageError):
            codec.encode_version()
    if codec.has_leds:
        assert callable(getattr(codec, "encode_leds_off", None))
