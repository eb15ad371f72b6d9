"""The GPIO claim buttons claim what the Laws allow (issue 12 item 1, trial row 4).

A player's claim button cannot say which claim: it sends `any`. After the opponent's
touch-move breach it is 4.8's claim, upheld; with nothing to claim it costs nothing.
The buttons are the fake GPIO back-end's, pressed as a player presses them.
"""

from __future__ import annotations

from arbiter.clock import FakeClock
from arbiter.inputs.gpio import GpioSource
from arbiter.live.session import Session
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.pins import DEFAULT_PINS
from rules.events import Claim, Lift, Place, Press, Start
from rules.rulings import ClaimRuling, DrawOffer, GameOver, Penalty, Reinstate
from rules.supervision import PanelMode


def _session() -> tuple[Session, FakePins, FakeClock]:
    pins = FakePins()
    gpio = GpioSource("fake", DEFAULT_PINS, PanelMode(), pins=pins)
    clock = FakeClock()
    session = Session.new(Start(t=0.0, time_control="300+2"), None, clock, sources=[gpio])
    session.start_sources()
    return session, pins, clock


def _press_claim(session: Session, pins: FakePins, clock: FakeClock, side: str, t: float) -> None:
    pin = DEFAULT_PINS.claim_black if side == "black" else DEFAULT_PINS.claim_white
    pins[pin].drive_low(t)
    pins[pin].release(t + 0.2)  # a short press: a claim, sent at the release
    clock.set(t + 0.2)
    item = session.queue.get_nowait()
    assert isinstance(item, Claim) and item.kind == "any" and item.side == side
    assert item.t == t  # dated at the press
    session.take(item)


def test_blacks_claim_button_after_whites_touch_move_breach_is_upheld() -> None:
    session, pins, clock = _session()
    breach = [
        Lift(t=1.0, square="g1", piece="N"), Place(t=1.5, square="g1", piece="N"),
        Lift(t=3.0, square="e2", piece="P"), Place(t=3.4, square="e4", piece="P"),
        Press(t=3.6, side="white"),
    ]  # fmt: skip
    for event in breach:
        session.submit(event)
    _press_claim(session, pins, clock, "black", 5.0)
    [claim] = [r for r in session.rulings if isinstance(r, ClaimRuling)]
    assert (claim.side, claim.kind, claim.valid) == ("black", "touch_move", True)
    assert any(isinstance(r, Reinstate) for r in session.rulings)
    assert not any(isinstance(r, Penalty | DrawOffer) for r in session.rulings)


def test_a_claim_button_with_nothing_to_claim_costs_nothing() -> None:
    session, pins, clock = _session()
    for event in (Lift(t=1.0, square="e2", piece="P"), Place(t=1.3, square="e4", piece="P"),
                  Press(t=1.5, side="white")):  # fmt: skip
        session.submit(event)
    _press_claim(session, pins, clock, "white", 3.0)  # not White's move: nothing to claim
    _press_claim(session, pins, clock, "black", 4.0)  # no repetition, no breach
    claims = [(r.side, r.valid, r.article) for r in session.rulings if isinstance(r, ClaimRuling)]
    assert claims == [("white", False, "9.5"), ("black", False, "9.5")]
    assert not any(isinstance(r, Penalty | DrawOffer) for r in session.rulings)
    white, black = session.game.clock.reading(4.0)[:2]
    assert black > 290 and white > 290  # nobody was given or charged two minutes


def _hold_claim(session: Session, pins: FakePins, clock: FakeClock, side: str, t: float) -> None:
    """Hold `side`'s claim button 2.5 s from `t`: the panel, looked at by the loop as it
    is while a button is down, sends the hold once 2 s have passed; the session rules it."""
    pin = DEFAULT_PINS.claim_black if side == "black" else DEFAULT_PINS.claim_white
    pins[pin].drive_low(t)
    now = t
    while now < t + 2.5:
        now = round(now + 0.05, 6)
        clock.set(now)
        for panel in session.panels:
            panel.update(now)
        while not session.queue.empty():
            session.take(session.queue.get_nowait())
    pins[pin].release(now)
    for panel in session.panels:
        panel.update(now + 0.1)
    assert session.queue.empty()  # the release of a hold sends nothing more


def test_a_claim_button_held_two_seconds_offers_a_draw_and_the_other_accepts() -> None:
    session, pins, clock = _session()
    for event in (
        Lift(t=1.0, square="e2", piece="P"), Place(t=1.3, square="e4", piece="P"),
        Press(t=1.5, side="white"), Lift(t=2.0, square="e7", piece="p"),
        Place(t=2.3, square="e5", piece="p"), Press(t=2.5, side="black"),
        Lift(t=3.0, square="g1", piece="N"), Place(t=3.3, square="f3", piece="N"),
    ):  # fmt: skip
        session.submit(event)
    _hold_claim(session, pins, clock, "white", 3.5)  # White offers after moving (9.1.2.1)
    session.submit(Press(t=6.1, side="white"))
    assert [r.side for r in session.rulings if isinstance(r, DrawOffer)] == ["white"]
    assert session.game.offer == "white"
    _hold_claim(session, pins, clock, "black", 6.5)  # Black accepts before moving (9.1.2.2)
    [over] = [r for r in session.rulings if isinstance(r, GameOver)]
    assert (over.result, over.reason) == ("1/2-1/2", "agreement")
    assert not any(isinstance(r, ClaimRuling) for r in session.rulings)  # no claim was made
