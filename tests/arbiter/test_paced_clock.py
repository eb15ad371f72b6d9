"""The demo's clock on a virtual board (`arbiter.clock.PacedClock`, trial row 17): real time
at the demo's speed, standing at the moment the scripted player allowed until the board's
report of its act has come, so that every run stamps it alike; never standing for good."""

from __future__ import annotations

import pytest

from arbiter.clock import PacedClock


class Monotonic:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_the_time_stands_at_the_allowed_moment_then_runs_on_when_allowed() -> None:
    real = Monotonic()
    clock = PacedClock(speed=10.0, source=real)
    clock.set(5.0)
    assert clock.until(5.0) == pytest.approx(0.5)
    real.t += 0.3
    assert clock.now() == pytest.approx(3.0)  # running, below the allowed moment
    real.t += 0.4  # 7 s of stream time have passed, but only 5 are allowed
    assert clock.now() == 5.0
    real.t += 0.5
    assert clock.now() == 5.0  # still standing: the report of the act at 5 is stamped 5
    clock.set(12.0)
    assert clock.now() == pytest.approx(12.0)  # 1.2 s real at x10: running again, up to 12


def test_the_time_never_stands_longer_than_hold_s_and_never_goes_back() -> None:
    real = Monotonic()
    clock = PacedClock(speed=2.0, source=real)
    clock.set(1.0)
    real.t += 1.0
    assert clock.now() == 1.0  # held
    real.t += PacedClock.HOLD_S + 0.1
    released = clock.now()
    assert released == pytest.approx((1.0 + PacedClock.HOLD_S + 0.1) * 2.0)  # never came
    clock.set(2.0)  # the player's next moment is already past: the time does not go back
    assert clock.now() >= released
