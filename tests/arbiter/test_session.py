"""The live session: journal before ruling, timers on an injected clock, intents, GPIO panel."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest

from arbiter.clock import FakeClock, MonotonicClock
from arbiter.errors import SessionError, SourceError
from arbiter.inputs.base import KeyCommand, SourceDone, SourceFailed
from arbiter.inputs.gpio import GpioSource
from arbiter.inputs.keyboard import KeyboardSource
from arbiter.inputs.stream import StreamSource
from arbiter.live.session import Session, rebuild
from arbiter.outputs.display import Display
from arbiter.records.journal import JournalWriter, read_journal
from firmware_bridge.gpio.devices import PauseToggle
from firmware_bridge.gpio.fake import FakePins
from firmware_bridge.gpio.pins import DEFAULT_PINS
from rules.errors import ArbiterError
from rules.events import Lift, Place, Press, Restart, SetPosition, Start, Tick
from rules.replay import replay
from rules.supervision import PanelMode


class SpyJournal(JournalWriter):
    """A journal that notes how many rulings the session had when each event was written."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, fsync=False)
        self.session: Session | None = None
        self.seen: list[tuple[str, int, float]] = []

    def append(self, event) -> None:  # type: ignore[no-untyped-def]
        assert self.session is not None or event.type == "start"
        ruled = len(self.session.rulings) if self.session else 0
        game_t = self.session.game.t if self.session else -1.0
        self.seen.append((event.type, ruled, game_t))
        super().append(event)


def e4_events(t: float = 1.0) -> list:
    return [
        Lift(t=t, square="e2", piece="P"),
        Place(t=t + 0.2, square="e4", piece="P"),
        Press(t=t + 0.3, side="white"),
    ]


def test_every_event_is_journaled_before_the_rules_see_it(tmp_path: Path) -> None:
    journal = SpyJournal(tmp_path / "j.jsonl")
    clock = FakeClock()
    session = Session.new(Start(t=0.0, time_control="60"), journal, clock)
    journal.session = session
    for event in e4_events():
        before = session.game.t
        session.submit(event)
        # when it was written, the game had not yet reached the event's time
        assert journal.seen[-1][0] == event.type
        assert journal.seen[-1][2] == before < event.t
    events, warnings = read_journal(tmp_path / "j.jsonl")
    assert not warnings
    assert [e.type for e in events] == ["start", "lift", "place", "press"]
    assert [r.type for r in session.rulings].count("move") == 1


def test_the_flag_falls_on_the_timer_with_a_tick_in_the_journal(tmp_path: Path) -> None:
    clock = FakeClock()
    session = Session.new(Start(t=0.0, time_control="10"), JournalWriter(tmp_path / "j"), clock)
    assert session.game.next_deadline() == pytest.approx(10.0)
    assert session.advance(9.999) == []
    rulings = session.advance(10.004)
    assert [r.type for r in rulings][:2] == ["flag", "game_over"]
    assert rulings[0].at == pytest.approx(10.0)
    assert session.game.over
    # the journal replays to the same flag: the tick stands for the timer
    events, _ = read_journal(tmp_path / "j")
    assert isinstance(events[-1], Tick) and 10.0 < events[-1].t < 10.001
    replayed = [r for r in replay(events, finish=False) if r.type == "flag"]
    assert replayed and replayed[0].at == pytest.approx(10.0)


def test_a_release_after_slide_s_is_decided_by_the_timer() -> None:
    clock = FakeClock()
    session = Session.new(Start(t=0.0, time_control="60", slide_s=0.25), None, clock)
    session.submit(Lift(t=1.0, square="e2", piece="P"))
    session.submit(Place(t=1.2, square="e4", piece="P"))
    assert session.game.next_deadline() == pytest.approx(1.45)
    assert session.advance(1.44) == []
    moves = [r for r in session.advance(1.46) if r.type == "move"]
    assert moves and moves[0].uci == "e2e4" and moves[0].made_at == 1.2


def test_an_event_dated_before_the_last_is_journaled_at_the_last_time() -> None:
    session = Session.new(Start(t=0.0, time_control="60"), None, FakeClock())
    session.submit(Lift(t=2.0, square="e2", piece="P"))
    session.submit(Place(t=1.5, square="e4", piece="P"))  # read late from another source
    assert session.events[-1].t == 2.0


def test_keys_become_the_events_the_game_state_gives_them() -> None:
    session = Session.new(Start(t=0.0, time_control="60"), None, FakeClock())
    for event in e4_events():
        session.submit(event)
    press = session.resolve(KeyCommand(2.0, " "))
    assert isinstance(press, Press) and press.side == "black"  # black's clock runs now
    claim = session.resolve(KeyCommand(2.0, "c"))
    assert claim is not None and claim.type == "claim"
    assert claim.side == "black" and claim.kind == "any"  # type: ignore[attr-defined]
    session.take(KeyCommand(2.0, "p"))
    assert session.game.clock.paused
    assert session.resolve(KeyCommand(2.1, " ")) is None  # a paused clock is not pressed
    session.take(KeyCommand(2.5, "p"))
    assert not session.game.clock.paused
    before = session.game.clock.remaining("white", 3.0)
    session.take(KeyCommand(3.0, "w"))
    assert session.game.clock.remaining("white", 3.0) == pytest.approx(before + 60)
    session.take(KeyCommand(3.0, "q"))
    assert session.stopped


def test_the_pause_button_toggles_pause_and_resume() -> None:
    session = Session.new(Start(t=0.0, time_control="60"), None, FakeClock())
    session.take(PauseToggle(1.0))
    assert session.game.clock.paused
    assert session.events[-1].to_dict() == {"t": 1.0, "type": "arbiter", "action": "pause"}
    session.take(PauseToggle(2.0))
    assert not session.game.clock.paused


def test_a_failed_source_stops_the_session_with_its_message() -> None:
    session = Session.new(Start(t=0.0), None, FakeClock())
    with pytest.raises(SourceError, match="line 3: bad"):
        session.take(SourceFailed("stream: line 3: bad"))
    session.take(SourceDone("events:-"))
    assert "events:-" in session.done


def test_resume_rebuilds_the_game_and_clocks_stand_at_the_last_event(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    first = Session.new(Start(t=0.0, time_control="60"), JournalWriter(path), FakeClock())
    for event in e4_events():
        first.submit(event)
    black_at_kill = first.game.clock.remaining("black", 1.3)
    first.journal.close()  # type: ignore[union-attr]
    # the process died at t=20; nothing of the lost time counts
    history, _ = read_journal(path)
    clock = FakeClock(1.3)
    again = Session.resume(history, JournalWriter(path), lambda t: clock)
    assert isinstance(again.events[-1], Restart) and again.events[-1].t == 1.3
    assert again.game.clock.remaining("black", 1.3) == pytest.approx(black_at_kill)
    assert again.game.ply == 1
    events, _ = read_journal(path)
    assert events[-1].to_dict() == {"t": 1.3, "type": "restart", "counted": False}


def test_resume_with_a_counted_gap_charges_the_running_clock(tmp_path: Path) -> None:
    history = [Start(t=0.0, time_control="60"), *e4_events()]
    clock = FakeClock(11.3)
    again = Session.resume(history, None, lambda t: clock, gap_s=10.0, counted=True)
    assert again.events[-1].t == pytest.approx(11.3)
    assert again.game.clock.remaining("black", 11.3) == pytest.approx(50.0)


def test_a_finished_game_cannot_be_resumed() -> None:
    history = [Start(t=0.0, time_control="60"), Tick(t=61.0)]
    with pytest.raises(SessionError, match="already over"):
        Session.resume(history, None, lambda t: FakeClock(t))
    game, rulings = rebuild(history)
    assert game.over and "game_over" in [r.type for r in rulings]


def test_stream_source_skips_what_the_journal_holds() -> None:
    events = e4_events()
    source = StreamSource(events)
    source.skip_through(1.2, [Place(t=1.2, square="e4", piece="P")])
    got: list = []
    source.start(got.append, FakeClock(100.0))
    deadline = time.monotonic() + 2
    while not any(isinstance(x, SourceDone) for x in got) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [type(x).__name__ for x in got] == ["Press", "SourceDone"]


# ---------------------------------------------------------------------------- GPIO panel


def panel_session(strict: bool = False, feedback: bool = False) -> tuple[Session, FakePins]:
    pins = FakePins()
    mode = PanelMode(strict=strict, feedback=feedback)
    gpio = GpioSource("fake", DEFAULT_PINS, mode, pins=pins)
    clock = FakeClock()
    session = Session.new(
        Start(t=0.0, time_control="5", strict=strict), None, clock, sources=[gpio]
    )
    session.start_sources()
    return session, pins


def test_fake_buttons_press_the_clock_and_leds_follow_it() -> None:
    session, pins = panel_session()
    led_w, led_b = pins[DEFAULT_PINS.led_white], pins[DEFAULT_PINS.led_black]
    assert led_w.read() == 1 and led_b.read() == 0  # White's clock runs from the start
    for event in e4_events(0.5)[:2]:
        session.submit(event)
    button = pins[DEFAULT_PINS.clock_white]
    button.drive_low(1.0)
    session.clock.set(1.0)  # type: ignore[attr-defined]
    item = session.queue.get_nowait()
    assert isinstance(item, Press) and item.side == "white" and item.t == 1.0
    session.take(item)
    button.release(1.2)
    assert [r.type for r in session.rulings if r.type == "move"] == ["move"]
    assert led_w.read() == 0 and led_b.read() == 1
    buzzer = pins[DEFAULT_PINS.buzzer]
    assert buzzer.history[-1][1] == 0 and len(buzzer.history) == 1  # a move: silence (12.6)


def test_a_flag_blinks_the_led_and_sounds_the_buzzer() -> None:
    session, pins = panel_session()
    rulings = session.advance(5.01)
    assert [r.type for r in rulings][:2] == ["flag", "game_over"]
    session.panels[0].update(5.2)
    buzzer = pins[DEFAULT_PINS.buzzer]
    assert any(level == 1 for _, level in buzzer.history)
    led_w = pins[DEFAULT_PINS.led_white]
    levels = set()
    for k in range(12):
        session.panels[0].update(5.01 + k * 0.07)
        levels.add(led_w.read())
    assert levels == {0, 1}  # blinking


def test_a_touch_obligation_stays_silent_by_default_and_guides_in_strict_mode() -> None:
    for strict, expect_pulse in ((False, False), (True, True)):
        session, pins = panel_session(strict=strict)
        session.submit(Lift(t=0.5, square="g1", piece="N"))
        session.submit(Place(t=0.8, square="g1", piece="N"))  # touched, put back: a duty
        assert any(r.type == "obligation" for r in session.rulings)
        shown = session.panels[0].panel.shown  # type: ignore[union-attr]
        assert (shown.white.value == "pulse") is expect_pulse
        assert pins[DEFAULT_PINS.buzzer].history[-1][1] == 0


# ---------------------------------------------------------------------------- real time


#: a rook ending: whether the side left can mate is quick to decide (6.9), so what is timed
#: here is the session's timer, not the rules core's winnability search
ROOK_ENDING = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1"


def test_flag_ruling_within_50ms_of_the_deadline_with_no_input(tmp_path: Path) -> None:
    """A 2-second control, nothing else: the flag is ruled when the time runs out."""
    clock = MonotonicClock()
    seen: list[tuple[str, float]] = []
    woke: list[float] = []

    def sink(rulings, t):  # type: ignore[no-untyped-def]
        now = clock.now()
        seen.extend((r.type, now) for r in rulings)

    session = Session.new(
        Start(t=0.0, time_control="2", fen=ROOK_ENDING),
        JournalWriter(tmp_path / "j.jsonl"),
        clock,
        sinks=[sink],
        display=Display(io.StringIO(), tty=False),
    )
    advance = session.advance

    def timed_advance(now: float):  # type: ignore[no-untyped-def]
        if now >= 2.0 and not woke:
            woke.append(now)
        return advance(now)

    session.advance = timed_advance  # type: ignore[method-assign]
    runner = threading.Thread(target=session.run)
    runner.start()
    runner.join(timeout=10)
    assert not runner.is_alive()
    flag = [at for kind, at in seen if kind == "flag"]
    assert flag, seen
    assert 2.0 <= woke[0] < 2.03, f"the timer fired {woke[0] - 2.0:.3f} s late"
    assert 2.0 <= flag[0] < 2.05, f"the flag was ruled {flag[0] - 2.0:.3f} s late"
    assert [r.at for r in session.rulings if r.type == "flag"] == [2.0]
    assert session.game.result == "1-0"


def test_a_stream_is_played_in_real_time_to_the_end_of_the_game(tmp_path: Path) -> None:
    events = [*e4_events(0.05), Press(t=0.4, side="black"), Lift(t=0.45, square="e7")]
    source = StreamSource(events)
    out = io.StringIO()
    session = Session.new(
        Start(t=0.0, time_control="1"),
        JournalWriter(tmp_path / "j.jsonl"),
        MonotonicClock(speed=2.0),
        sources=[source],
        display=Display(out, tty=False),
    )
    began = time.monotonic()
    session.run()
    took = time.monotonic() - began
    assert session.game.over and session.game.reason == "time"
    assert 0.25 <= took < 2.0  # ~1.25 s of play at double speed
    journal, _ = read_journal(tmp_path / "j.jsonl")
    assert [e.t for e in journal if e.type != "tick"] == [0.0] + [e.t for e in events]
    assert "flag" in out.getvalue()


def test_keys_typed_on_a_terminal_reach_the_session_and_the_terminal_is_restored() -> None:
    import os
    import termios

    master, slave = os.openpty()
    with os.fdopen(slave, "r", closefd=False) as tty_in:
        before = termios.tcgetattr(slave)
        keyboard = KeyboardSource(tty_in)
        assert KeyboardSource.usable(tty_in)
        got: list = []
        keyboard.start(got.append, FakeClock(4.0))
        assert not termios.tcgetattr(slave)[3] & termios.ICANON  # single keys, no Enter
        os.write(master, b" pxC")
        deadline = time.monotonic() + 2
        while len(got) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        keyboard.close()
        assert got == [KeyCommand(4.0, " "), KeyCommand(4.0, "p"), KeyCommand(4.0, "c")]
        assert termios.tcgetattr(slave) == before
    os.close(master)
    os.close(slave)
    assert not KeyboardSource.usable(io.StringIO())


def test_the_per_move_cap_of_900m60_is_a_flag() -> None:
    session = Session.new(Start(t=0.0, time_control="900m60"), None, FakeClock())
    assert session.game.next_deadline() == pytest.approx(60.0)
    rulings = session.advance(60.001)
    flag = [r for r in rulings if r.type == "flag"]
    assert flag and flag[0].side == "white" and flag[0].at == pytest.approx(60.0)
    assert session.game.clock.remaining("white", 60.0) > 800  # the total was not used up


def test_a_mate_released_just_after_the_flag_but_made_before_it_counts() -> None:
    """events.md: a flag waits for a pending placement; a mate made before it ends the game."""
    session = Session.new(Start(t=0.0, time_control="10", slide_s=0.25), None, FakeClock())
    t = 0.0
    for uci in ("f2f3", "e7e5", "g2g4"):
        frm, to = uci[:2], uci[2:]
        side = "white" if session.game.board.turn else "black"
        session.submit(Lift(t=t + 0.1, square=frm))
        session.submit(Place(t=t + 0.2, square=to))
        session.submit(Press(t=t + 0.3, side=side))
        t += 0.3
    side, flag_at = session.game.clock.flag_at()  # type: ignore[misc]
    assert side == "black"
    # Black: Qh4# put down 0.1 s before the flag; released (slide_s) after it; no press
    session.submit(Lift(t=flag_at - 0.2, square="d8"))
    session.submit(Place(t=flag_at - 0.1, square="h4"))
    assert session.game.next_deadline() == pytest.approx(flag_at)
    assert session.advance(flag_at + 0.05) == []  # the flag waits for the placement
    assert session.game.next_deadline() == pytest.approx(flag_at + 0.15)
    rulings = session.advance(flag_at + 0.16)
    over = [r for r in rulings if r.type == "game_over"]
    assert over and over[0].reason == "checkmate" and over[0].result == "0-1"
    assert not any(r.type == "flag" for r in rulings)


def test_a_completed_illegal_move_beeps_an_open_one_does_not() -> None:
    session, pins = panel_session()
    buzzer = pins[DEFAULT_PINS.buzzer]
    session.submit(Lift(t=0.5, square="e2", piece="P"))
    session.submit(Place(t=0.7, square="e5", piece="P"))  # no legal move: open, correctable
    session.advance(1.0)
    assert any(r.type == "illegal" and not r.completed for r in session.rulings)
    assert buzzer.history[-1][1] == 0 and len(buzzer.history) == 1  # silent (12.6)
    session.submit(Press(t=1.2, side="white"))  # now it is completed: ruled in public
    assert any(r.type == "illegal" and r.completed for r in session.rulings)
    assert buzzer.read() == 1


def test_a_simple_delay_holds_the_flag_back_by_the_delay() -> None:
    session = Session.new(Start(t=0.0, time_control="5d2"), None, FakeClock())
    assert session.game.next_deadline() == pytest.approx(7.0)  # 2 s of delay, then 5 s
    assert session.game.clock.remaining("white", 1.9) == pytest.approx(5.0)  # not yet running
    assert session.advance(6.99) == []
    assert [r.type for r in session.advance(7.001)][:1] == ["flag"]


def test_a_reed_switch_board_on_the_fake_pins_is_scanned_into_moves() -> None:
    """[gpio.matrix] in the config: the matrix lines are scanned at 50 Hz, on the panel's pins."""
    import chess

    from firmware_bridge.gpio.fake import FakeReedBoard
    from firmware_bridge.gpio.pins import MatrixSettings

    pins = FakePins()
    reed = FakeReedBoard(pins, DEFAULT_PINS.matrix_rows, DEFAULT_PINS.matrix_cols)
    occupied = set(
        chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8)
    )
    reed.set_squares(occupied)
    gpio = GpioSource("fake", DEFAULT_PINS, PanelMode(), pins=pins, matrix=MatrixSettings())
    assert gpio.name == "gpio:fake+matrix"
    settings = gpio.start_settings()
    assert settings["noise_s"] == 0.05
    start = Start(t=0.0, time_control="60", auto_press=True, **settings)
    session = Session.new(start, None, MonotonicClock(), sources=[gpio])
    runner = threading.Thread(target=session.run)
    runner.start()
    try:
        time.sleep(0.3)
        reed.set_squares(occupied - {chess.E2})
        time.sleep(0.3)
        reed.set_squares((occupied - {chess.E2}) | {chess.E4})
        deadline = time.monotonic() + 3
        while session.game.ply < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        session.stop()
        runner.join(3)
    assert [r.san for r in session.rulings if r.type == "move"] == ["e4"]
    types = [e.type for e in session.events]
    assert types[:2] == ["start", "snapshot"] and "lift" in types and "place" in types


def test_without_a_clock_the_space_key_presses_for_the_mover() -> None:
    """Trial row 5: with no clock every space press was journaled as White's."""
    session = Session.new(Start(t=0.0, time_control="-"), None, FakeClock())
    press = session.resolve(KeyCommand(0.5, " "))
    assert isinstance(press, Press) and press.side == "white"  # White to move
    for event in e4_events()[:2]:  # e4 made, not pressed
        session.submit(event)
    press = session.resolve(KeyCommand(2.0, " "))
    assert isinstance(press, Press) and press.side == "white"
    rulings = session.submit(press)
    assert not [r for r in rulings if r.type in ("illegal", "penalty")]
    press = session.resolve(KeyCommand(2.5, " "))
    assert isinstance(press, Press) and press.side == "black"  # e4 completed: Black to move
    assert not [r for r in session.submit(press) if r.type in ("illegal", "penalty")]


@pytest.mark.parametrize(
    ("bad", "fault"),
    [
        (SetPosition(t=2.0, fen="garbage"), "cannot be read"),
        (Start(t=2.0), "a second 'start'"),
    ],
)
def test_an_event_the_rules_refuse_is_never_journaled(
    tmp_path: Path, bad: SetPosition | Start, fault: str
) -> None:
    """Issue 17 (journals never made unreadable): a `set_position` the rules cannot take, or
    a second `start`, read from a scripted stream was journaled before the rules refused it,
    and every `resume` of the journal then stopped at it. It is refused before the journal."""
    path = tmp_path / "j.jsonl"
    session = Session.new(Start(t=0.0, time_control="60"), JournalWriter(path), FakeClock())
    for event in e4_events():
        session.submit(event)
    with pytest.raises(ArbiterError, match=fault):
        session.submit(bad)
    session.journal.close()  # type: ignore[union-attr]
    history, _ = read_journal(path)
    assert history[-1] == e4_events()[-1]  # the refused event is not in the journal
    game, _ = rebuild(history)  # so the journal resumes
    assert game.ply == 1 and session.game.ply == 1
    # a readable position is journaled and ruled as before
    again = Session.resume(history, JournalWriter(path), lambda t: FakeClock(t))
    again.submit(SetPosition(t=3.0, fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1"))
    assert again.game.board.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert read_journal(path)[0][-1].type == "arbiter"
