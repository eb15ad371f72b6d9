"""The clock panel's devices on fake pins: what the buttons emit, what the LEDs and the
buzzer do."""

from __future__ import annotations

import chess
import pytest

from firmware_bridge.gpio.devices import (
    ArbiterButton,
    Buzzer,
    ClaimButton,
    ClockButton,
    PauseToggle,
    PlayerLed,
)
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.panel import ClockPanel
from firmware_bridge.gpio.pins import DEFAULT_PINS, PinMap
from rules.events import Claim, Event, PauseClocks, Press, Resume
from rules.rulings import (
    ClockState,
    Flag,
    GameOver,
    MoveStands,
    Obligation,
    Ruling,
    Violation,
)
from rules.supervision import (
    FLAG_BEEP,
    GAME_END_BEEP,
    ILLEGAL_BEEP,
    LedShow,
    PanelMode,
)
from rules.types import Side


def _button(debounce_s: float = 0.05, origin: float = 0.0, hw_bounce_s: float = 0.0):
    pins = FakePins()
    out: list[Event | PauseToggle] = []
    button = ClockButton(
        pins.pin(2, "clock_white"),
        "white",
        out.append,
        debounce_s=debounce_s,
        origin=origin,
        hw_bounce_s=hw_bounce_s,
    )
    return pins[2], button, out


def test_a_bouncing_press_is_one_press_at_the_first_edge() -> None:
    pin, button, out = _button()
    pin.bounce(10.0, 0, n=4, interval=0.0015)  # 9 edges over 12 ms
    assert out == [Press(t=10.0, side="white")]
    assert button.is_pressed


def test_release_bounce_is_not_a_second_press() -> None:
    pin, _, out = _button()
    pin.bounce(1.0, 0, n=3, interval=0.001)
    pin.bounce(1.4, 1, n=3, interval=0.001)  # released, bouncing: falling edges at 1.401...
    assert out == [Press(t=1.0, side="white")]


def test_two_real_presses_are_two_presses() -> None:
    pin, _, out = _button()
    pin.bounce(1.0, 0)
    pin.bounce(1.3, 1)
    pin.bounce(2.0, 0)
    assert [e.t for e in out] == [1.0, 2.0]


def test_a_release_inside_the_debounce_window_is_caught_by_update() -> None:
    pin, button, out = _button()
    pin.drive_low(1.0)
    pin.drive_high(1.02)  # a 20 ms tap: the release edge falls inside the debounce window
    assert button.is_pressed and button.next_due(1.02) == pytest.approx(1.05)
    button.update(1.03)  # not settled yet: nothing to say
    assert button.is_pressed
    button.update(1.06)  # settled: the line reads high, the button is up
    assert not button.is_pressed and button.next_due(1.06) is None
    pin.drive_low(1.5)
    assert [e.t for e in out] == [1.0, 1.5]


def _misreading_button() -> tuple[ClockButton, list[Event | PauseToggle], FakePins]:
    """A button whose back-end reports edges with levels we choose (as RPi.GPIO may)."""
    pins = FakePins()
    out: list[Event | PauseToggle] = []
    button = ClockButton(pins.pin(2, "clock_white"), "white", out.append, hw_bounce_s=0.0)
    return button, out, pins


def test_a_release_read_as_low_is_not_a_press() -> None:
    button, out, pins = _misreading_button()
    pins[2].drive_low(1.0)  # a clean press
    # the release's first edge is read during a bounce: it reports low
    button._on_edge(button.pin, 0, 1.4)
    assert out == [Press(t=1.0, side="white")]
    pins[2].release(1.401)  # the line settles high; suppose its edge was swallowed
    button.update(1.45)
    assert not button.is_pressed
    pins[2].drive_low(2.0)
    assert [e.t for e in out] == [1.0, 2.0]


def test_a_press_whose_edges_all_read_high_is_found_by_update_at_its_first_edge() -> None:
    button, out, pins = _misreading_button()
    pin = pins[2]
    pin._driven = 0  # the line is low (pressed) but the back-end reported only "high" edges
    button._on_edge(button.pin, 1, 3.0)
    button._on_edge(button.pin, 1, 3.002)
    assert out == [] and button.next_due(3.002) is not None
    button.update(3.06)
    assert out == [Press(t=3.0, side="white")]


def test_a_press_whose_first_edge_read_high_is_dated_by_that_edge() -> None:
    button, out, _ = _misreading_button()
    button._on_edge(button.pin, 1, 3.0)  # the first edge, read during the bounce
    button._on_edge(button.pin, 0, 3.002)
    assert out == [Press(t=3.0, side="white")]


def test_an_old_glitch_does_not_date_a_later_press() -> None:
    button, out, _ = _misreading_button()
    button._on_edge(button.pin, 1, 1.0)  # noise: an edge that changed nothing
    button._on_edge(button.pin, 1, 9.0)  # much later, a press whose first edge read high
    button._on_edge(button.pin, 0, 9.001)
    assert out == [Press(t=9.0, side="white")]


def test_a_press_at_time_zero_is_polled_from_zero() -> None:
    pin, button, _ = _button()
    pin.drive_low(0.0)
    assert button.next_due(0.01) == pytest.approx(0.05)  # settles 50 ms after the press at 0


def test_a_held_button_is_polled_until_released() -> None:
    pin, button, _ = _button()
    pin.drive_low(1.0)
    assert button.next_due(1.0) == pytest.approx(1.05)
    assert button.next_due(2.0) == pytest.approx(2.05)  # still down: look again in 50 ms
    pin.drive_high(2.0)
    assert button.next_due(2.0) is None


def test_software_debounce_works_without_the_backend_filter() -> None:
    # with hw_bounce_s = 0 every bounce edge reaches the button; still one press
    pin, _, out = _button(hw_bounce_s=0.0)
    pin.bounce(3.0, 0, n=10, interval=0.002)
    assert len(pin.edges) == 21 and len(out) == 1


def test_press_time_is_relative_to_the_stream_origin() -> None:
    pin, _, out = _button(origin=1000.0)
    pin.drive_low(999.0)  # before the stream began: not an event
    pin.drive_high(999.5)
    pin.drive_low(1012.5)
    assert out == [Press(t=12.5, side="white")]


def test_claim_and_pause_buttons() -> None:
    pins = FakePins()
    out: list[Event | PauseToggle] = []
    ClaimButton(pins.pin(27, "claim_black"), "black", out.append)
    ArbiterButton(pins.pin(3, "pause"), out.append)
    pins[27].bounce(4.0, 0)
    pins[3].bounce(5.0, 0)
    pins[27].drive_high(5.5)  # a claim is sent at the release, dated at the press
    assert out == [PauseToggle(t=5.0), Claim(t=4.0, side="black", kind="any")]
    out.reverse()
    toggle = out[1]
    assert isinstance(toggle, PauseToggle)
    assert toggle.to_action(paused=False) == PauseClocks(t=5.0)
    assert toggle.to_action(paused=True) == Resume(t=5.0)


# --- LED -------------------------------------------------------------------------------------


def _led() -> tuple[PlayerLed, FakePins]:
    pins = FakePins()
    return PlayerLed(pins.pin(22, "led_white")), pins


def test_led_on_off() -> None:
    led, pins = _led()
    led.on(1.0)
    led.off(2.0)
    pins[22].assert_history([(0.0, 0), (1.0, 1), (2.0, 0)])


def test_led_blinks_in_phase_from_when_it_began() -> None:
    led, pins = _led()
    led.blink(10.0, rate_hz=2.0)  # 0.25 s on, 0.25 s off
    for k in range(1, 41):
        led.update(10.0 + k * 0.025)  # the loop ticks at 40 Hz
    pins[22].assert_history(
        [(0.0, 0), (10.0, 1), (10.25, 0), (10.5, 1), (10.75, 0), (11.0, 1)], tol=1e-6
    )
    assert led.next_due(11.0) == pytest.approx(11.25)
    assert led.next_due(11.1) == pytest.approx(11.25)


def test_led_asked_to_blink_again_keeps_its_phase() -> None:
    led, pins = _led()
    led.show(LedShow.BLINK, 0.0)  # 4 Hz: changes every 0.125 s
    led.show(LedShow.BLINK, 0.1)
    led.update(0.13)
    pins[22].assert_states([0, 1, 0])
    assert pins[22].history[-1][0] == pytest.approx(0.13)


def test_led_rejects_a_silly_rate() -> None:
    led, _ = _led()
    with pytest.raises(ValueError, match="blink rate must be positive"):
        led.blink(0.0, rate_hz=0)


# --- buzzer ----------------------------------------------------------------------------------


def _buzzer() -> tuple[Buzzer, FakePins]:
    pins = FakePins()
    return Buzzer(pins.pin(24, "buzzer")), pins


def _run(buzzer: Buzzer, start: float, end: float, step: float = 0.01) -> None:
    n = round((end - start) / step)
    for k in range(n + 1):
        buzzer.update(start + k * step)


def test_flag_beep_ends_by_itself() -> None:
    buzzer, pins = _buzzer()
    buzzer.play(FLAG_BEEP, 5.0)
    _run(buzzer, 5.0, 7.0)
    pins[24].assert_history([(0.0, 0), (5.0, 1), (6.0, 0)], tol=1e-6)
    assert not buzzer.busy
    assert buzzer.next_due(7.0) is None


def test_illegal_beep_is_three_short_beeps() -> None:
    buzzer, pins = _buzzer()
    buzzer.play(ILLEGAL_BEEP, 1.0)
    _run(buzzer, 1.0, 2.0)
    pins[24].assert_history(
        [(0.0, 0), (1.0, 1), (1.15, 0), (1.25, 1), (1.4, 0), (1.5, 1), (1.65, 0)], tol=1e-6
    )


def test_patterns_queue_one_after_the_other() -> None:
    buzzer, pins = _buzzer()
    buzzer.play(ILLEGAL_BEEP, 0.0)
    buzzer.play(GAME_END_BEEP, 0.1)  # the illegal beep's last tone ends at 0.65; a 0.3 s gap
    assert buzzer.played == [(0.0, "illegal"), (pytest.approx(0.95), "game_end")]
    assert buzzer.next_due(0.6) == pytest.approx(0.65)
    assert buzzer.next_due(0.7) == pytest.approx(0.95)
    _run(buzzer, 0.0, 3.0)
    assert pins[24].states() == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]
    assert pins[24].history[-1][0] == pytest.approx(0.95 + 1.4, abs=1e-6)


def test_a_pattern_played_just_after_another_ended_keeps_the_gap() -> None:
    buzzer, _ = _buzzer()
    buzzer.play(FLAG_BEEP, 0.0)
    buzzer.update(1.0)  # the tone ends
    buzzer.play(ILLEGAL_BEEP, 1.05)
    assert buzzer.played[-1] == (pytest.approx(1.3), "illegal")
    buzzer.play(ILLEGAL_BEEP, 9.0)  # long after: at once
    assert buzzer.played[-1] == (9.0, "illegal")


def test_silence_stops_a_beep() -> None:
    buzzer, pins = _buzzer()
    buzzer.play(FLAG_BEEP, 0.0)
    buzzer.silence(0.3)
    pins[24].assert_history([(0.0, 0), (0.0, 1), (0.3, 0)])


# --- the panel -------------------------------------------------------------------------------


def _clock(t: float, running: Side | None, paused: bool = False) -> Ruling:
    return ClockState(t=t, white=60.0, black=60.0, running=running, paused=paused)


def test_panel_wires_the_default_pin_map() -> None:
    pins = FakePins()
    out: list[Event | PauseToggle] = []
    panel = ClockPanel(pins, out.append)
    assert {p.name: n for n, p in pins.claimed.items()} == {
        k: v for k, v in DEFAULT_PINS.uses().items() if not k.startswith("matrix")
    }
    pins[DEFAULT_PINS.clock_black].bounce(3.0, 0)
    pins[DEFAULT_PINS.claim_white].bounce(4.0, 0)
    assert out == [Press(t=3.0, side="black")]  # the claim button tells at its release
    assert panel.next_due(3.5) == pytest.approx(3.55)  # buttons held: look at them
    pins[DEFAULT_PINS.clock_black].drive_high(4.5)
    pins[DEFAULT_PINS.claim_white].drive_high(4.5)
    assert out == [Press(t=3.0, side="black"), Claim(t=4.0, side="white")]
    panel.update(4.6)
    assert panel.next_due(4.6) is None  # nothing held, blinking or beeping: the loop may sleep
    panel.close(5.0)
    pins[DEFAULT_PINS.clock_black].drive_high(6.0)
    pins[DEFAULT_PINS.clock_black].drive_low(7.0)
    assert len(out) == 2  # callbacks stopped


def test_panel_shows_whose_clock_runs_and_a_fallen_flag() -> None:
    pins = FakePins()
    panel = ClockPanel(pins, lambda e: None, PinMap(led_white=14, led_black=15))
    panel.follow([_clock(0.0, "white")], 0.0)
    panel.follow([_clock(2.0, "black")], 2.0)
    panel.follow(
        [
            Flag(t=5.0, side="black", at=5.0),
            GameOver(t=5.0, result="1-0", reason="time"),
            _clock(5.0, None),
        ],
        5.0,
    )
    t = 5.0
    while t < 7.0:
        t += 0.01
        panel.update(t)
    pins[14].assert_history([(0.0, 0), (0.0, 1), (2.0, 0)])
    black = pins[15]
    assert black.history[:2] == [(0.0, 0), (2.0, 1)]
    # from 5.0 it blinks at 4 Hz: off at 5.125, on at 5.25, ... (the loop ticks every 10 ms)
    assert black.history[2][1] == 0 and black.history[2][0] == pytest.approx(5.125, abs=0.011)
    assert black.level_at(5.05) == 1 and black.level_at(5.2) == 0 and black.level_at(5.3) == 1
    assert len(black.history) > 12  # still blinking two seconds later
    buzzer = pins[DEFAULT_PINS.buzzer]
    buzzer.assert_history([(0.0, 0), (5.0, 1), (6.0, 0)], tol=0.011)  # the flag beep only
    assert panel.buzzer.played == [(5.0, "flag")]
    assert panel.next_due(7.0) is not None  # the blink goes on


def test_panel_in_default_mode_is_silent_on_moves_and_duties() -> None:
    pins = FakePins()
    panel = ClockPanel(pins, lambda e: None)
    panel.follow([_clock(0.0, "white")], 0.0)
    shown = panel.follow(
        [
            Obligation(t=1.0, side="white", kind="move_piece", square=chess.G1),
            Violation(t=3.7, side="white", kind="touch_move", square=chess.G1),
            MoveStands(
                t=3.7,
                ply=1,
                move=chess.Move.from_uci("e2e4"),
                san="e4",
                fen="x b KQkq - 0 1",
                made_at=3.7,
            ),
            _clock(3.7, "black"),
        ],
        3.7,
    )
    assert shown.beeps == ()
    pins[DEFAULT_PINS.buzzer].assert_states([0])
    pins[DEFAULT_PINS.led_white].assert_states([0, 1, 0])
    pins[DEFAULT_PINS.led_black].assert_states([0, 1])


def test_panel_in_strict_mode_guides() -> None:
    pins = FakePins()
    panel = ClockPanel(pins, lambda e: None, mode=PanelMode(strict=True))
    panel.follow([_clock(0.0, "white")], 0.0)
    shown = panel.follow(
        [Violation(t=1.0, side="white", kind="touch_move", square=chess.G1)],
        1.0,
    )
    assert [b.name for b in shown.beeps] == ["violation"]
    for k in range(1, 50):
        panel.update(1.0 + k * 0.01)
    pins[DEFAULT_PINS.buzzer].assert_history(
        [(0.0, 0), (1.0, 1), (1.08, 0), (1.16, 1), (1.24, 0)], tol=1e-6
    )


def test_panel_begin_lights_the_clock_that_runs_at_the_start() -> None:
    pins = FakePins()
    panel = ClockPanel(pins, lambda e: None)
    panel.follow([_clock(0.0, "white")], 0.0)
    shown = panel.begin("black", 5.0)  # a new game, Black to move: earlier state forgotten
    assert shown.black is LedShow.ON and shown.white is LedShow.OFF and shown.beeps == ()
    pins[DEFAULT_PINS.led_white].assert_history([(0.0, 0), (0.0, 1), (5.0, 0)])
    pins[DEFAULT_PINS.led_black].assert_history([(0.0, 0), (5.0, 1)])
