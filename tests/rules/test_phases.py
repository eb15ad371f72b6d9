"""The phase table of a game (rules/phases.py) and the state that follows it (rules/state.py)."""

from __future__ import annotations

import pytest
from event_script import Script, moves, of

from rules.errors import GameStateError
from rules.events import Sensor
from rules.phases import TRANSITIONS, Phase, Trigger, next_phase


def test_every_live_phase_has_a_change_for_every_trigger_and_over_has_none() -> None:
    live = [p for p in Phase if p is not Phase.OVER]
    for phase in live:
        for trigger in Trigger:
            assert (phase, trigger) in TRANSITIONS
        assert next_phase(phase, Trigger.GAME_OVER) is Phase.OVER
    for trigger in Trigger:
        with pytest.raises(GameStateError, match="cannot take"):
            next_phase(Phase.OVER, trigger)


def test_a_lost_source_waits_for_a_full_report_and_a_reconnection_reconciles() -> None:
    assert next_phase(Phase.PLAYING, Trigger.SOURCE_LOST) is Phase.SOURCE_LOST
    assert next_phase(Phase.SOURCE_LOST, Trigger.FULL_REPORT) is Phase.PLAYING
    assert next_phase(Phase.SOURCE_LOST, Trigger.SOURCE_BACK) is Phase.RECONCILING
    # lost again before the first full report: that report is still reconciled
    assert next_phase(Phase.RECONCILING, Trigger.SOURCE_LOST) is Phase.RECONCILING
    assert next_phase(Phase.RECONCILING, Trigger.FULL_REPORT) is Phase.PLAYING


def test_the_games_phase_follows_its_source_and_its_end() -> None:
    script = Script().play("e4", "e5")
    script.add(Sensor, status="disconnected")
    script.rulings(finish=False)
    game = script.game
    assert game.phase is Phase.SOURCE_LOST and game.disconnected and not game.over
    script.add(Sensor, status="reconnected")
    script.rulings(finish=False)
    assert script.game.phase is Phase.RECONCILING and script.game.reconciling
    script.resign("white")
    rulings = script.rulings(finish=False)
    assert script.game.phase is Phase.OVER and script.game.over
    assert of(rulings, "game_over")


def test_nothing_is_ruled_once_the_game_is_over() -> None:
    script = Script().play("f3", "e5", "g4", "Qh4#")
    mate_t = script.t
    # pieces moved after the mate, a press, a claim: no ruling, no error
    script.lift("e2").place("e4", "P").press("white").claim("white")
    rulings = script.rulings(finish=False)
    assert moves(rulings) == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert max(r.t for r in rulings) <= mate_t
