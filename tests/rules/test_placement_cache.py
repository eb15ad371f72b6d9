"""The placement parser and checker keep the ranks they have read (`rules.placement`): a
rank read before answers the same, and a malformed rank is never kept, so it fails every
time, naming the rank as before."""

from __future__ import annotations

import chess
import pytest

from rules.errors import EventError, PositionError
from rules.placement import check_placement, sensed_from_placement


def test_a_placement_read_twice_gives_the_same_slots() -> None:
    text = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"
    pieces = chess.BaseBoard(text).piece_map()
    want = [pieces[sq].symbol() if sq in pieces else None for sq in range(64)]
    first = sensed_from_placement(text)
    first[0] = "?"  # the caller's list is its own: the kept ranks do not change
    assert sensed_from_placement(text) == want
    check_placement(text)
    check_placement(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("8/8/8/8/8/8/8/7", "rank 1 has 7 squares"),
        ("8/8/8/8/8/8/8/07", "a run of 0 squares on rank 1"),
        ("8/8/8/8/8/8/8/7z", "unknown piece letter 'z'"),
        ("8/8/8/8/8/8/8", "must have 8 ranks"),
    ],
)
def test_a_malformed_rank_fails_every_time(text: str, words: str) -> None:
    check_placement("8/8/8/8/8/8/8/8")  # the well-formed ranks are kept
    for _ in range(2):
        with pytest.raises(EventError, match=words):
            check_placement(text)


def test_a_rank_too_long_fails_every_time() -> None:
    for _ in range(2):
        with pytest.raises(PositionError, match="rank 8 too long"):
            sensed_from_placement("44p/8/8/8/8/8/8/8")
