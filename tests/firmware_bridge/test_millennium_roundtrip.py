"""Millennium round trip (`eboard-protocols.md` 2.3): the board model's status frame decodes
to the position it holds, for every 20th position of the first 30 real games, both seatings."""

from __future__ import annotations

import pytest

from firmware_bridge.codecs.millennium import MillenniumCodec
from firmware_bridge.sim.millennium_board import MillenniumBoard
from rules.events import Snapshot


@pytest.mark.parametrize("rotated", [False, True])
def test_round_trip_real_games(sampled_placements: list[str], rotated: bool) -> None:
    placements = sampled_placements
    assert len(placements) > 60
    board = MillenniumBoard(rotated=rotated)
    codec = MillenniumCodec()
    codec.feed(board.status_frame(), 0.0)  # the initial position locks the orientation
    assert codec.rotated is rotated
    for i, placement in enumerate(placements):
        events = codec.feed(board.set_placement(placement), float(i))
        assert events == [Snapshot(t=float(i), board=placement)]
