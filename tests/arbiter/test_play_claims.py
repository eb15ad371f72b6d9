"""Claims as players make them, live (issue 12 item 1, trial row 4), on a virtual DGT board.

A claim button or the `c` key says `any`: whatever the Laws allow that player now. After the
opponent's touch-move breach that is 4.8's claim, upheld with no penalty; a claim that fits
nothing is ruled not correct, without 9.5.3's penalty or a draw offer; a named draw claim
that is wrong still costs time and stands as an offer (9.5.3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.live.commands import CommandError, PlayerCmd, event_for
from rules.events import Start
from rules.game import Game
from rules.rulings import ClaimRuling, DrawOffer, Penalty, Reinstate
from tests.arbiter.live_harness import play_typed

OPTIONS = ["--board", "dgt-sim", "--tc", "5+3"]
#: Black touches the g8 knight, then moves the d-pawn: a touch-move breach (4.3.1)
BREACH = ["e2e4", "lift g8", "place g8", "d7d5"]


def _claims(rulings: list) -> list[ClaimRuling]:
    return [r for r in rulings if isinstance(r, ClaimRuling)]


def test_the_claim_key_after_a_touch_move_breach_is_upheld_without_penalty(
    tmp_path: Path,
) -> None:
    played = play_typed(tmp_path, OPTIONS, [*BREACH, "claim", "quit"])
    [claim] = _claims(played.rulings)
    assert (claim.side, claim.kind, claim.valid) == ("white", "touch_move", True)
    assert any(isinstance(r, Reinstate) for r in played.rulings)
    assert not any(isinstance(r, Penalty | DrawOffer) for r in played.rulings)
    assert "White's claim (touch-move) is correct" in played.screen


def test_a_claim_that_fits_nothing_costs_nothing_and_offers_no_draw(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "e7e5", "claim", "claim black", "quit"])
    claims = _claims(played.rulings)
    assert [(c.side, c.kind, c.valid, c.article) for c in claims] == [
        ("white", "any", False, "9.5"),
        ("black", "any", False, "9.5"),
    ]
    assert not any(isinstance(r, Penalty | DrawOffer) for r in played.rulings)


def test_a_wrong_named_draw_claim_still_costs_time_and_offers_a_draw(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "e7e5", "claim threefold g1f3", "quit"])
    [claim] = _claims(played.rulings)
    assert (claim.kind, claim.valid, claim.article) == ("threefold", False, "9.5.3")
    assert any(isinstance(r, Penalty) and r.side == "white" for r in played.rulings)
    assert any(isinstance(r, DrawOffer) and r.side == "white" for r in played.rulings)


def test_threefold_with_the_intended_move_is_upheld(tmp_path: Path) -> None:
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    played = play_typed(tmp_path, OPTIONS, [*shuffle, "g1f3", "g8f6", "f3g1", "claim 3 f6g8 b"])
    [claim] = _claims(played.rulings)
    assert (claim.side, claim.kind, claim.valid, claim.article) == (
        "black", "threefold", True, "9.2.1",
    )  # fmt: skip
    assert "1/2-1/2" in played.pgn


def test_the_touch_claim_key_is_refused_when_there_was_no_breach(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "e7e5", "claim touch", "quit"])
    [claim] = _claims(played.rulings)
    assert (claim.kind, claim.valid, claim.article) == ("touch_move", False, "4.8")
    assert not any(isinstance(r, Penalty | DrawOffer) for r in played.rulings)


def test_accept_needs_a_standing_offer() -> None:
    game = Game(Start(t=0.0, time_control="300+3"))
    with pytest.raises(CommandError, match="no draw offer stands"):
        event_for(PlayerCmd("accept", None), game, 1.0)
