"""The GPIO side of a live game, end to end on fake pins: a reed board and clock buttons
feed the rules core, and the panel shows its rulings as FIDE 12.6 allows.

A small loop stands in for the session: every millisecond it scans the board when due,
hands the events (board and buttons, in time order) to `rules.game.Game`, asks the game
what time decided, and passes the rulings to the panel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess
import pytest

from firmware_bridge.gpio.devices import PauseToggle
from firmware_bridge.gpio.fake import FakePins, FakeReedBoard
from firmware_bridge.gpio.panel import ClockPanel
from firmware_bridge.gpio.pins import DEFAULT_PINS as P
from firmware_bridge.gpio.reed_matrix import ReedMatrix, ReedMatrixSource
from rules.events import Event, Start
from rules.game import Game
from rules.rulings import Ruling
from rules.supervision import PanelMode

START = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8


@dataclass
class Table:
    """The hardware on the table and the loop that runs it."""

    mode: PanelMode
    time_control: str
    pins: FakePins = field(default_factory=FakePins)
    now: float = 0.0
    inbox: list[Event | PauseToggle] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.board = FakeReedBoard(self.pins, P.matrix_rows, P.matrix_cols)
        self.occupied = {chess.square_name(s) for s in chess.scan_forward(START)}
        self.board.set_squares(self.occupied)
        self.panel = ClockPanel(self.pins, self.inbox.append, P, mode=self.mode)
        matrix = ReedMatrix(self.pins, P.matrix_rows, P.matrix_cols)
        self.source = ReedMatrixSource(matrix)
        settings = self.source.sensor_settings
        self.game = Game(
            Start(
                t=0.0,
                time_control=self.time_control,
                strict=self.mode.strict,
                noise_s=settings["noise_s"],
                latency_s=settings["latency_s"],
            )
        )
        self.panel.begin("white", 0.0)

    def run_until(self, t: float) -> None:
        while self.now < t - 1e-9:
            self.now = round(self.now + 0.001, 6)
            events: list[Event | PauseToggle] = list(self.source.step(self.now))
            events += self.inbox
            self.inbox.clear()
            out: list[Ruling] = []
            for event in sorted(events, key=lambda e: e.t):
                assert not isinstance(event, PauseToggle)
                out += self.game.handle(event)
            out += self.game.advance(self.now)
            self.rulings += out
            self.panel.follow(out, self.now)
            self.panel.update(self.now)

    def lift(self, t: float, square: str) -> None:
        self.run_until(t)
        self.occupied.discard(square)
        self.board.set_squares(self.occupied)

    def place(self, t: float, square: str) -> None:
        self.run_until(t)
        self.occupied.add(square)
        self.board.set_squares(self.occupied)

    def press(self, t: float, side: str) -> None:
        self.run_until(t)
        number = P.clock_white if side == "white" else P.clock_black
        self.pins[number].bounce(t, 0, n=3, interval=0.001)
        self.pins[number].bounce(t + 0.1, 1, n=3, interval=0.001)

    def of(self, kind: str) -> list[Ruling]:
        return [r for r in self.rulings if r.type == kind]


def touch_g1_then_play_e4(table: Table) -> None:
    table.lift(0.5, "g1")  # White touches the knight ...
    table.place(0.9, "g1")
    table.lift(1.0, "e2")  # ... and plays e4 instead (4.3.1 broken)
    table.place(1.2, "e4")
    table.press(1.4, "white")


def test_default_mode_a_touch_move_breach_is_silent_and_a_flag_blinks_and_beeps() -> None:
    table = Table(PanelMode(), "5")
    touch_g1_then_play_e4(table)
    table.run_until(8.0)

    (move,) = table.of("move")
    assert move.uci == "e2e4"
    assert 1.2 < move.made_at <= 1.24  # the board reports 20-40 ms late
    assert [r.kind for r in table.of("violation")] == ["touch_move"]
    (flag,) = table.of("flag")
    assert flag.side == "black" and flag.at == pytest.approx(6.4, abs=1e-6)

    white, black = table.pins[P.led_white], table.pins[P.led_black]
    white.assert_history([(0.0, 0), (0.0, 1), (1.4, 0)], tol=0.0015)  # only whose clock runs
    assert black.history[0] == (0.0, 0) and black.history[1][1] == 1
    assert black.history[1][0] == pytest.approx(1.4, abs=0.0015)  # the press, by interrupt
    assert black.level_at(6.45) == 1 and black.level_at(6.55) == 0  # blinking at 4 Hz
    assert len(black.history) > 10
    # the buzzer: nothing for the touch, the violation or the move; one tone for the flag
    table.pins[P.buzzer].assert_history([(0.0, 0), (6.4, 1), (7.4, 0)], tol=0.0015)


def test_strict_mode_shows_the_duty_and_beeps_the_violation() -> None:
    table = Table(PanelMode(strict=True), "60")
    touch_g1_then_play_e4(table)
    table.run_until(3.0)

    assert {r.kind for r in table.of("violation")} == {"touch_move"}
    assert table.of("reinstate")  # strict: the move is refused, the duty stands
    white = table.pins[P.led_white]
    assert white.level_at(0.4) == 1  # White's clock runs
    # from the touch (seen at 0.54) the LED pulses at 1 Hz: off half a second later
    assert white.level_at(1.1) == 0
    buzzer = table.pins[P.buzzer]
    assert buzzer.states() == [0, 1, 0, 1, 0]  # the double beep of the violation
    assert buzzer.history[1][0] == pytest.approx(1.4, abs=0.0015)


def test_completed_illegal_move_beeps_in_default_mode() -> None:
    table = Table(PanelMode(), "60")
    table.lift(1.0, "e2")
    table.place(1.2, "e5")  # no legal move puts the pawn there
    table.press(1.4, "white")
    table.run_until(3.0)
    # the press came while the pawn still stood within slide_s: the press released it and
    # completed the illegal move at once (no open illegal move is ruled before it)
    assert [r.completed for r in table.of("illegal")] == [True]
    buzzer = table.pins[P.buzzer]
    assert buzzer.states() == [0, 1, 0, 1, 0, 1, 0]  # three short beeps, nothing before
    # ruled at the press, or once the board's latency_s (0.04 s) has passed after it
    assert 1.4 <= buzzer.history[1][0] <= 1.4 + 0.04 + 0.0015
