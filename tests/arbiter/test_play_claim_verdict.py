"""The arbiter overrules a claim's ruling, live (issue 12 item 1, issue 13 item 2), on a
virtual DGT board by typed commands: `reject` a claim the rules upheld, `uphold` one they
refused (`claim_verdict`, rules/verdicts.py). The session goes on after a draw claim's
`game_over` until the arbiter's verdict; the PGN and the result follow the final verdict, and
the journal replays to the same rulings.
"""

from __future__ import annotations

from pathlib import Path

from arbiter.live.session import rebuild
from arbiter.records.journal import read_journal
from rules.rulings import (
    ArbiterDid,
    ClaimRuling,
    ClockState,
    DrawOffer,
    GameOver,
    MoveStands,
    Penalty,
    Ruling,
)
from tests.arbiter.live_harness import Played, play_typed

OPTIONS = ["--board", "dgt-sim", "--tc", "5+3"]
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
#: Black touches the g8 knight, then moves the d-pawn: a touch-move breach (4.3.1)
BREACH = ["e2e4", "lift g8", "place g8", "d7d5"]


def _of(rulings: list[Ruling], cls: type) -> list:
    return [r for r in rulings if isinstance(r, cls)]


def _replays_the_same(played: Played) -> None:
    events, _ = read_journal(played.journal)
    _, again = rebuild(events)
    assert [r.to_dict() for r in again] == [r.to_dict() for r in played.rulings]


def test_a_rejected_threefold_claim_costs_time_and_the_game_goes_on(tmp_path: Path) -> None:
    lines = [*SHUFFLE, "g1f3", "g8f6", "f3g1", "claim 3 f6g8 b", "reject", "f6g8", "e2e4", "quit"]
    played = play_typed(tmp_path, OPTIONS, lines)
    claims = _of(played.rulings, ClaimRuling)
    assert [(c.side, c.valid, c.article) for c in claims] == [
        ("black", True, "9.2.1"),
        ("black", False, "9.5.3"),
    ]
    [verdict] = _of(played.rulings, ArbiterDid)[-1:]
    assert (verdict.action, verdict.side) == ("reject_claim", "black")
    assert any(isinstance(r, Penalty) and r.side == "black" for r in played.rulings)
    assert any(isinstance(r, DrawOffer) and r.side == "black" for r in played.rulings)
    # the game went on: Black played the declared move, then White
    sans = [m.san for m in _of(played.rulings, MoveStands)]
    assert sans[-2:] == ["Ng8", "e4"]
    assert "the arbiter may overrule the ruling on the claim" in played.screen
    assert "rejects Black's claim; the game goes on" in played.screen
    assert '[Result "*"]' in played.pgn and "e4" in played.pgn.split("1/2-1/2")[-1]
    _replays_the_same(played)


def test_a_rejected_touch_move_claim_lets_the_move_stand(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, [*BREACH, "claim", "reject", "g1f3", "quit"])
    claims = _of(played.rulings, ClaimRuling)
    assert [(c.side, c.kind, c.valid) for c in claims] == [
        ("white", "touch_move", True),
        ("white", "touch_move", False),
    ]
    sans = [m.san for m in _of(played.rulings, MoveStands)]
    assert sans == ["e4", "d5", "Nf3"]
    assert not _of(played.rulings, Penalty)
    assert "1. e4" in played.pgn and "d5" in played.pgn and "2. Nf3" in played.pgn
    _replays_the_same(played)


def test_an_upheld_refused_claim_ends_the_game_without_the_penalty(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "e7e5", "claim threefold g1f3", "uphold"])
    [verdict] = _of(played.rulings, ArbiterDid)[-1:]
    assert verdict.action == "uphold_claim"
    [over] = _of(played.rulings, GameOver)
    assert (over.result, over.reason) == ("1/2-1/2", "threefold_repetition")
    penalty = next(r for r in played.rulings if isinstance(r, Penalty))
    clocks = _of(played.rulings, ClockState)
    before_claim = [c for c in clocks if c.t < penalty.t][-1]
    assert clocks[-1].black == before_claim.black  # 9.5.3's time is undone with the claim
    assert '[Result "1/2-1/2"]' in played.pgn
    _replays_the_same(played)


def test_a_verdict_with_no_claim_is_refused_on_the_screen(tmp_path: Path) -> None:
    played = play_typed(tmp_path, OPTIONS, ["e2e4", "reject", "quit"])
    assert "there is no claim to rule on" in played.screen
    events, _ = read_journal(played.journal)
    assert not any(getattr(e, "action", None) == "claim_verdict" for e in events)
