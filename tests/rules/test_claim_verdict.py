"""The arbiter's verdict on a claim (`claim_verdict`, rules/verdicts.py; 9.5, 9.5.3, 4.8)."""

from __future__ import annotations

import pytest

from rules.events import parse_event
from rules.game import Game
from rules.rulings import ClockState, Ruling
from tests.rules.event_script import Script, moves, of, over

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def repeated() -> Script:
    """Threefold repetition on the board (the start position for the third time), White to move."""
    return Script(time_control="300+0").play(*SHUFFLE, *SHUFFLE)


def breach() -> Script:
    """White touches the knight on g1 and plays e4 (4.3 broken); Black to move."""
    s = Script(time_control="300+0")
    s.lift("g1").place("g1", "N").lift("e2").place("e4", "P").press("white")
    s.board.push_san("e4")
    return s


def last_clock(rulings: list[Ruling]) -> ClockState:
    return [r for r in rulings if isinstance(r, ClockState)][-1]


def test_rejecting_an_upheld_threefold_claim_goes_on_with_9_5_3() -> None:
    s = repeated().claim("white", "threefold")
    claim_t = s.t
    before = s.rulings(finish=False)
    assert over(before) == ("1/2-1/2", "threefold_repetition")
    at_claim = last_clock(before)
    s.tick(30).arbiter("claim_verdict", valid=False)
    r = s.rulings(finish=False)[len(before) :]
    assert [x.type for x in r][:2] == ["arbiter_action", "claim"]
    assert of(r, "arbiter_action", action="reject_claim", side="white", article="9.5")
    assert of(r, "claim", side="white", valid=False, article="9.5.3")
    (penalty,) = of(r, "penalty", side="white", kind="time_added")
    assert penalty.seconds == 60.0  # a blitz game: 9.5.3's time as blitz has it
    assert of(r, "draw_offer", side="white")
    assert not s.game.over and s.game.result is None
    # same clocks as at the claim (the 31 s waiting for the verdict charged to nobody),
    # Black's 9.5.3 time added, White's clock running from the verdict
    clock = last_clock(r)
    assert clock.white == pytest.approx(at_claim.white)
    assert clock.black == pytest.approx(at_claim.black + 60.0)
    assert clock.running == "white" and clock.t == pytest.approx(claim_t + 31)
    # the game goes on: White's next move stands and the clock was charged from the verdict
    s.board.reset()  # the position is the start position again
    s.play("e4")
    after = s.rulings(finish=False)
    assert moves(after)[-1] == "e2e4"
    assert last_clock(after).white == pytest.approx(at_claim.white - 2.5)  # lift, place, press


def test_upholding_a_refused_fifty_move_claim_ends_the_game() -> None:
    s = Script(time_control="300+0").play("e4").claim("black", "fifty")
    refused = s.rulings(finish=False)
    assert of(refused, "penalty", side="black", kind="time_added")
    s.arbiter("claim_verdict", valid=True)
    r = s.rulings(finish=False)[len(refused) :]
    assert of(r, "arbiter_action", action="uphold_claim", side="black")
    assert of(r, "claim", side="black", valid=True, article="9.3")
    assert over(r) == ("1/2-1/2", "fifty_moves")
    # the penalty is undone with the rest of the claim's effect: the clocks as at the claim
    assert last_clock(r).white == pytest.approx(300 - 2.5)
    assert last_clock(r).running is None


def test_rejecting_an_upheld_touch_move_claim_lets_the_move_stand() -> None:
    s = breach().claim("black", "touch_move")
    claim_t = s.t
    upheld = s.rulings(finish=False)
    assert of(upheld, "reinstate", reason="claim_upheld")
    assert s.game.ply == 0
    at_claim = [c for c in upheld if isinstance(c, ClockState) and c.t < claim_t][-1]
    s.tick(10).arbiter("claim_verdict", valid=False)
    r = s.rulings(finish=False)[len(upheld) :]
    assert of(r, "arbiter_action", action="reject_claim", side="black", article="4.8")
    assert of(r, "claim", side="black", kind="touch_move", valid=False, article="4.8")
    assert not of(r, "penalty")
    assert s.game.ply == 1 and s.game.board.peek().uci() == "e2e4"
    clock = last_clock(r)
    assert clock.running == "black"
    assert clock.white == pytest.approx(at_claim.white)
    assert clock.black == pytest.approx(at_claim.black - (claim_t - at_claim.t))
    # Black replies to the move that stands
    s.play("e5")
    assert moves(s.rulings(finish=False))[-1] == "e7e5"


def test_upholding_a_refused_touch_move_claim_takes_the_move_back() -> None:
    s = Script(time_control="300+0")
    s.play("e4").claim("black", "touch_move")
    refused = s.rulings(finish=False)
    assert of(refused, "claim", valid=False, article="4.8")
    s.arbiter("claim_verdict", valid=True)
    r = s.rulings(finish=False)[len(refused) :]
    assert of(r, "arbiter_action", action="uphold_claim", side="black", article="4.8")
    assert of(r, "claim", side="black", kind="touch_move", valid=True)
    assert of(r, "reinstate", reason="claim_upheld")
    assert s.game.ply == 0 and last_clock(r).running == "white"


def test_the_verdict_the_rules_gave_confirms_it_and_closes_the_claim() -> None:
    s = repeated().claim("white", "threefold").arbiter("claim_verdict", valid=True)
    r = s.rulings(finish=False)
    assert of(r, "arbiter_action", action="confirm_claim", side="white")
    assert over(r) == ("1/2-1/2", "threefold_repetition")
    s.arbiter("claim_verdict", valid=False)
    late = s.rulings(finish=False)[len(r) :]
    assert [x.type for x in late] == ["note"] and s.game.over


def test_no_verdict_once_a_move_has_stood_since_the_claim() -> None:
    s = Script(time_control="300+0").play("e4").claim("black", "fifty").play("e5")
    s.arbiter("claim_verdict", valid=True)
    r = s.rulings(finish=False)
    assert of(r, "note", article="9.5") and over(r) is None


def test_no_verdict_without_a_claim() -> None:
    r = Script().play("e4").arbiter("claim_verdict", valid=False).rulings(finish=False)
    assert of(r, "note", article="9.5")


def test_a_journal_with_a_verdict_replays_to_the_same_rulings() -> None:
    s = repeated().claim("white", "threefold").tick(5).arbiter("claim_verdict", valid=False)
    first = [x.to_dict() for x in s.rulings()]
    game = Game(parse_event(s.events[0].to_dict()))  # type: ignore[arg-type]
    again: list[Ruling] = []
    for ev in s.events[1:]:
        again += game.handle(parse_event(ev.to_dict()))
    again += game.finish()
    assert [x.to_dict() for x in again] == first


def test_the_event_needs_a_boolean() -> None:
    from rules.errors import EventError

    with pytest.raises(EventError, match="valid"):
        parse_event({"t": 1, "type": "arbiter", "action": "claim_verdict", "valid": "yes"})
