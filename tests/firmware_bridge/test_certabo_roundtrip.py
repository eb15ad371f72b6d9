"""Certabo and Sentio round trip (`eboard-protocols.md` 3): the board model's record decodes
to the position it holds, for every 20th position of the first 30 real games, both seatings."""

from __future__ import annotations

import chess
import chess.pgn
import pytest

from firmware_bridge.codecs.certabo import CertaboCodec, SentioCodec
from firmware_bridge.sim.certabo_board import CertaboBoard, SentioBoard, make_tags
from rules.events import Snapshot

#: promoted pieces need tags of their own: a set with a few spare pieces of each kind
EXTRA = {"Q": 2, "q": 2, "R": 1, "r": 1, "B": 1, "b": 1, "N": 1, "n": 1}


@pytest.mark.parametrize("rotated", [False, True])
def test_certabo_round_trip_real_games(sampled_placements: list[str], rotated: bool) -> None:
    placements = sampled_placements
    assert len(placements) > 60
    board = CertaboBoard(rotated=rotated, tags=make_tags(EXTRA), line_break_every=61)
    codec = CertaboCodec(board.calibration())
    initial = board.record() * 3
    assert codec.feed(initial, 0.0) == [Snapshot(t=0.0, board=chess.STARTING_BOARD_FEN)]
    assert codec.rotated is rotated
    for i, placement in enumerate(placements):
        record = board.set_placement(placement)
        # the flicker filter shows a change once it stands in two of the last three records
        events = codec.feed(record, float(i)) + codec.feed(record, i + 0.5)
        assert events == [Snapshot(t=i + 0.5, board=placement)]


@pytest.mark.parametrize("rotated", [False, True])
def test_sentio_round_trip_real_games(sampled_placements: list[str], rotated: bool) -> None:
    board = SentioBoard(rotated=rotated)
    codec = SentioCodec(orientation="rotated" if rotated else "normal")
    for i, placement in enumerate(sampled_placements):
        occupancy = "".join("?" if ch.isalpha() else ch for ch in placement)
        assert codec.feed(board.set_placement(placement), float(i)) == [
            Snapshot(t=float(i), board=occupancy)
        ]
