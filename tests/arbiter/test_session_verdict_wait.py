"""How long a live session waits for the arbiter's verdict after a claim the rules upheld
ended the game (`Session.verdict_wait_s`, arbiter/live/session.py), on an injected clock."""

from __future__ import annotations

import threading

from arbiter.clock import FakeClock
from arbiter.live.session import Session
from rules.events import ClaimVerdict
from rules.rulings import GameOver
from tests.rules.event_script import Script

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def claimed_draw() -> tuple[Session, FakeClock, threading.Thread]:
    """A session whose game ends by White's upheld threefold claim, its loop running."""
    script = Script(time_control="300+0").play(*SHUFFLE, *SHUFFLE).claim("white", "threefold")
    clock = FakeClock(script.t)
    session = Session.new(script.events[0], None, clock)  # type: ignore[arg-type]
    session.verdict_wait_s = 60.0
    for event in script.events[1:]:
        session.queue.put(event)
    runner = threading.Thread(target=session.run, daemon=True)
    runner.start()
    assert session.wait_idle()
    return session, clock, runner


def test_the_session_ends_when_nobody_gives_a_verdict_in_time() -> None:
    session, clock, runner = claimed_draw()
    assert session.game.over and runner.is_alive()  # waiting for the arbiter
    clock.advance(59.0)
    runner.join(1.0)
    assert runner.is_alive()
    clock.advance(1.5)
    runner.join(5.0)
    assert not runner.is_alive()
    assert [r.reason for r in session.rulings if isinstance(r, GameOver)] == [
        "threefold_repetition"
    ]


def test_a_rejection_lets_the_game_go_on_and_a_new_claim_may_wait_again() -> None:
    session, clock, runner = claimed_draw()
    clock.advance(5.0)
    session.queue.put(ClaimVerdict(t=clock.now(), valid=False))
    assert session.wait_idle()
    assert not session.game.over and runner.is_alive()
    clock.advance(120.0)  # past the wait: the game goes on all the same
    runner.join(0.6)
    assert runner.is_alive()
    session.stop()
    runner.join(5.0)
    assert not runner.is_alive()


def test_without_anyone_to_give_a_verdict_the_session_ends_at_the_claim() -> None:
    script = Script(time_control="300+0").play(*SHUFFLE, *SHUFFLE).claim("white", "threefold")
    session = Session.new(script.events[0], None, FakeClock(script.t))  # type: ignore[arg-type]
    for event in script.events[1:]:
        session.queue.put(event)
    runner = threading.Thread(target=session.run, daemon=True)
    runner.start()
    runner.join(5.0)
    assert not runner.is_alive() and session.game.over  # verdict_wait_s 0: the hall, a demo
