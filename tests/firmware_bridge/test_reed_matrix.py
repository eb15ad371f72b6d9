"""The reed-switch matrix: scanning through fake pins wired as a board with (and without)
diodes, debouncing, and the lift/place events of moves."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from arbiter.simulate.game import simulate_game
from arbiter.simulate.pgn import read_game
from firmware_bridge.gpio import PinConfigError
from firmware_bridge.gpio.devices import ClockButton, PauseToggle
from firmware_bridge.gpio.fake import FakePin, FakePins, FakeReedBoard
from firmware_bridge.gpio.pins import DEFAULT_PINS
from firmware_bridge.gpio.reed_matrix import (
    A1_CORNERS,
    ReedMatrix,
    ReedMatrixSource,
    cell_of,
    placement,
    square_at,
)
from rules.events import Event, Lift, Place, Press, Snapshot, Tick

ROWS, COLS = DEFAULT_PINS.matrix_rows, DEFAULT_PINS.matrix_cols
START = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8


def squares(bb: int) -> set[str]:
    return {chess.square_name(s) for s in chess.scan_forward(bb)}


def rig(
    occupied: set[str] | int = START, *, diodes: bool = True, a1_corner: str = "r0c0"
) -> tuple[FakeReedBoard, ReedMatrix]:
    pins = FakePins()
    board = FakeReedBoard(pins, ROWS, COLS, diodes=diodes, a1_corner=a1_corner)
    board.set_squares(squares(occupied) if isinstance(occupied, int) else occupied)
    return board, ReedMatrix(pins, ROWS, COLS, a1_corner=a1_corner)


class Game:
    """Steps a source at 1 kHz of caller ticks while the test moves pieces at given times."""

    def __init__(self, board: FakeReedBoard, source: ReedMatrixSource) -> None:
        self.board, self.source = board, source
        self.now = 0.0
        self.events: list[Event] = []
        self.occupied = set(squares(START))
        board.set_squares(self.occupied)

    def run_until(self, t: float) -> None:
        while self.now < t - 1e-9:
            self.now = round(self.now + 0.001, 6)
            self.events += self.source.step(self.now)

    def lift(self, t: float, square: str) -> None:
        self.run_until(t)
        self.occupied.discard(square)
        self.board.set_squares(self.occupied)

    def place(self, t: float, square: str) -> None:
        self.run_until(t)
        self.occupied.add(square)
        self.board.set_squares(self.occupied)


def started_game() -> Game:
    board, matrix = rig()
    game = Game(board, ReedMatrixSource(matrix))
    game.run_until(0.1)
    return game


# --- geometry --------------------------------------------------------------------------------


@pytest.mark.parametrize("corner", A1_CORNERS)
def test_cells_and_squares_are_inverse(corner: str) -> None:
    seen = {square_at(r, c, corner) for r in range(8) for c in range(8)}
    assert seen == set(chess.SQUARES)
    for square in chess.SQUARES:
        assert square_at(*cell_of(square, corner), corner) == square


def test_a1_corner_names() -> None:
    assert square_at(0, 0, "r0c0") == chess.A1
    assert square_at(0, 0, "r7c7") == chess.H8  # the board turned round
    assert square_at(0, 0, "r0c7") == chess.H1
    with pytest.raises(PinConfigError, match="unknown a1_corner 'top-left'"):
        square_at(0, 0, "top-left")


def test_placement_string() -> None:
    assert placement(START) == "????????/????????/8/8/8/8/????????/????????"
    assert placement(chess.BB_E4 | chess.BB_A8) == "?7/8/8/8/4?3/8/8/8"
    assert placement(0) == "8/8/8/8/8/8/8/8"


# --- scanning --------------------------------------------------------------------------------


@pytest.mark.parametrize("corner", A1_CORNERS)
def test_scan_reads_the_start_position(corner: str) -> None:
    _, matrix = rig(a1_corner=corner)
    assert matrix.scan(0.0) == START


def test_scan_reads_any_position_with_diodes() -> None:
    position = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    _, matrix = rig(position.occupied)
    assert matrix.scan(0.0) == position.occupied


def test_the_fake_board_wired_the_other_way_round_reads_turned() -> None:
    # the board is built with a1 at cell r7c7, the scanner believes r0c0: White's pieces
    # show on ranks 7-8 (what the spec's "orientation is configured" is about)
    pins = FakePins()
    board = FakeReedBoard(pins, ROWS, COLS, a1_corner="r7c7")
    board.set_squares({"a1", "e2"})
    assert squares(ReedMatrix(pins, ROWS, COLS).scan(0.0)) == {"h8", "d7"}


def test_rows_float_between_scans() -> None:
    board, matrix = rig()
    matrix.scan(0.0)
    assert all(p.mode == "input" and p.pull is None for p in matrix.rows)
    assert all(p.mode == "input" and p.pull == "up" for p in matrix.cols)
    row = board.pins[ROWS[3]]
    assert row.states() == [0]  # driven low once during the scan, as an output
    matrix.scan(0.02)
    assert row.states() == [0]  # every scan drives it low again: no level change recorded


def test_without_diodes_a_rectangle_makes_a_ghost() -> None:
    three = {"a1", "b1", "a2"}  # three corners of the rectangle a1-b1-a2-b2
    _, with_diodes = rig(three)
    assert squares(with_diodes.scan(0.0)) == three
    board, without = rig(three, diodes=False)
    assert squares(without.scan(0.0)) == three | {"b2"}  # b2 is empty but reads occupied
    assert board.shorts == 0  # idle rows float: ghosts, but no two outputs fighting


def test_without_diodes_one_move_fills_a_whole_rank() -> None:
    after_e4 = (START & ~chess.BB_E2) | chess.BB_E4
    _, with_diodes = rig(after_e4)
    assert with_diodes.scan(0.0) == after_e4
    _, without = rig(after_e4, diodes=False)
    # e4 joins rank 4 to file e, file e to the full first rank, and so every file: all of
    # rank 4 (and e2, still joined through e1 and rank 2) reads occupied
    assert squares(without.scan(0.0)) == squares(START | chess.BB_RANK_4)


def test_rows_idling_high_work_with_diodes_and_short_without() -> None:
    after_e4 = (START & ~chess.BB_E2) | chess.BB_E4
    pins = FakePins()
    board = FakeReedBoard(pins, ROWS, COLS)
    board.set_squares(squares(after_e4))
    matrix = ReedMatrix(pins, ROWS, COLS, idle_rows="high")
    assert matrix.scan(0.5) == after_e4 and board.shorts == 0
    row = pins[ROWS[0]]
    assert row.mode == "output" and row.history == [(0.0, 1), (0.5, 0), (0.5, 1)]
    board.diodes = False  # the same scanner on a board built without diodes
    matrix.scan(1.0)
    assert board.shorts > 0  # a low row joined to high rows: outputs fighting


def test_idle_rows_option_is_checked() -> None:
    with pytest.raises(PinConfigError, match="idle_rows must be 'float' or 'high'"):
        ReedMatrix(FakePins(), ROWS, COLS, idle_rows="low")  # type: ignore[arg-type]


# --- the event source ------------------------------------------------------------------------


def test_first_stable_scans_give_a_snapshot() -> None:
    _, matrix = rig()
    source = ReedMatrixSource(matrix, origin=100.0)
    assert source.step(100.0) == []  # one scan: not yet stable
    assert source.step(100.01) == []  # not due: 50 Hz
    (snapshot,) = source.step(100.02)
    assert isinstance(snapshot, Snapshot)
    assert snapshot.board == "????????/????????/8/8/8/8/????????/????????"
    assert snapshot.t == pytest.approx(0.02)
    assert source.scans == 2


def test_e2_e4_is_lift_e2_then_place_e4_with_scan_times() -> None:
    game = started_game()
    game.events.clear()
    game.lift(1.005, "e2")
    game.place(1.205, "e4")
    game.run_until(1.5)
    # scans run at 0.001, 0.021, ... 1.001, 1.021: e2 is empty at 1.021 and 1.041
    assert [type(e) for e in game.events] == [Lift, Place]
    assert [e.square for e in game.events] == ["e2", "e4"]  # type: ignore[attr-defined]
    assert [e.t for e in game.events] == pytest.approx([1.041, 1.241])


def test_a_one_scan_blink_is_ignored() -> None:
    game = started_game()
    game.events.clear()
    game.lift(1.010, "g1")  # the knight rocks: g1 reads empty for the scan at 1.021 only
    game.place(1.030, "g1")
    game.run_until(2.0)
    assert game.events == []


def test_three_stable_scans_ignore_a_two_scan_blink() -> None:
    board, matrix = rig()
    game = Game(board, ReedMatrixSource(matrix, stable_scans=3))
    game.run_until(0.1)
    assert [e.type for e in game.events] == ["snapshot"]
    game.lift(1.010, "g1")
    game.place(1.050, "g1")  # empty at 1.021 and 1.041
    game.run_until(2.0)
    assert [e.type for e in game.events] == ["snapshot"]


def test_a_capture_is_two_lifts_and_one_place() -> None:
    game = started_game()
    game.lift(1.0, "e2")
    game.place(1.3, "e4")
    game.lift(3.0, "d7")
    game.place(3.3, "d5")
    game.run_until(4.0)
    game.events.clear()
    game.lift(5.0, "e4")  # exd5: the capturing pawn up first
    game.lift(5.5, "d5")  # the captured pawn taken off
    game.place(5.8, "d5")
    game.run_until(6.5)
    assert [(e.type, e.square) for e in game.events] == [  # type: ignore[attr-defined]
        ("lift", "e4"),
        ("lift", "d5"),
        ("place", "d5"),
    ]
    assert [e.t for e in game.events] == pytest.approx(
        [5.021, 5.521, 5.821]
    )  # scans at 5.001, 5.021, ...


def test_lifts_come_before_places_within_one_scan() -> None:
    game = started_game()
    game.events.clear()
    game.lift(1.002, "g1")  # a fast hand: the knight is gone and down between two scans
    game.place(1.004, "f3")
    game.run_until(1.2)
    assert [(e.type, e.square) for e in game.events] == [("lift", "g1"), ("place", "f3")]  # type: ignore[attr-defined]


def test_scans_at_50_hz_whatever_the_caller_rate() -> None:
    game = started_game()
    start = game.source.scans
    game.run_until(1.1)
    assert game.source.scans - start == 50  # one second of 1 ms ticks: 50 scans
    # a late caller (200 ms stall) gets one scan, not a burst of catch-up scans
    before = game.source.scans
    assert game.source.next_due is not None
    game.source.step(game.now + 0.2)
    game.source.step(game.now + 0.201)
    assert game.source.scans == before + 1


def test_sensor_settings_for_the_start_event() -> None:
    _, matrix = rig()
    assert ReedMatrixSource(matrix).sensor_settings == {"noise_s": 0.05, "latency_s": 0.04}
    assert ReedMatrixSource(matrix, period_s=0.01, stable_scans=3).sensor_settings == {
        "noise_s": 0.05,
        "latency_s": 0.03,
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"period_s": 0.05}, r"at most 0.02 s \(50 Hz\)"),
        ({"period_s": 0}, r"must be above 0"),
        ({"stable_scans": 0}, r"stable_scans must be 1 or more"),
    ],
)
def test_source_settings_are_checked(options: dict[str, float], message: str) -> None:
    _, matrix = rig()
    with pytest.raises(PinConfigError, match=message):
        ReedMatrixSource(matrix, **options)  # type: ignore[arg-type]


def test_matrix_needs_eight_by_eight() -> None:
    with pytest.raises(PinConfigError, match="needs 8 row and 8 column GPIOs, not 7 and 8"):
        ReedMatrix(FakePins(), ROWS[:7], COLS)


# --- a whole game through fake pins ----------------------------------------------------------


def play_on_fake_hardware(
    stream: list[Event],
) -> tuple[list[Event], list[Event | PauseToggle], ReedMatrixSource]:
    """Act a simulated occupancy stream out on a fake reed board and fake clock buttons.

    Each `lift`/`place` of the stream moves a magnet at its time, each `press` is a bouncing
    button press; the loop scans at 50 Hz. Returns what the matrix and the buttons reported.
    """
    pins = FakePins()
    board = FakeReedBoard(pins, ROWS, COLS)
    occupied = set(squares(START))
    board.set_squares(occupied)
    pressed: list[Event | PauseToggle] = []
    buttons = {
        "white": ClockButton(pins.pin(2, "clock_white"), "white", pressed.append),
        "black": ClockButton(pins.pin(4, "clock_black"), "black", pressed.append),
    }
    source = ReedMatrixSource(ReedMatrix(pins, ROWS, COLS))
    seen: list[Event] = []
    now = 0.0
    seen += source.step(now)
    for event in [*stream[1:], Tick(t=stream[-1].t + 0.5)]:
        while source.next_due is not None and source.next_due <= event.t:
            now = source.next_due
            seen += source.step(now)
            for button in buttons.values():
                button.update(now)
        if isinstance(event, Lift):
            occupied.discard(event.square)
        elif isinstance(event, Place):
            occupied.add(event.square)
        elif isinstance(event, Press):
            pin = buttons[event.side].pin
            assert isinstance(pin, FakePin)
            pin.bounce(event.t, 0, n=2, interval=0.001)
            pin.bounce(event.t + 0.08, 1, n=2, interval=0.001)  # released 80 ms later
        board.set_squares(occupied)
    return seen, pressed, source


@pytest.mark.slow
def test_a_real_game_played_on_the_fake_board(shared: Path) -> None:
    game = read_game(shared / "data" / "games" / "real-games.pgn", 1)
    stream = simulate_game(game, "occupancy")
    seen, pressed, source = play_on_fake_hardware(stream)

    # every press comes out once, with the time of its first edge
    assert pressed == [e for e in stream if isinstance(e, Press)]
    # the board reports every lift and place of the game (the stream keeps a square's
    # emptying and filling again more than noise_s = 50 ms apart, i.e. 2 scans and more)
    assert isinstance(seen[0], Snapshot)
    changes = [e for e in seen[1:] if isinstance(e, Lift | Place)]
    wanted = [e for e in stream if isinstance(e, Lift | Place)]
    assert sorted((e.type, e.square) for e in changes) == sorted((e.type, e.square) for e in wanted)
    # each one late by the scan and the debounce only: 20 to 40 ms at 50 Hz and 2 scans
    queue = {
        key: [e.t for e in wanted if (e.type, e.square) == key]
        for key in {(e.type, e.square) for e in wanted}
    }
    for e in changes:
        sim_t = queue[(e.type, e.square)].pop(0)
        assert 0 < e.t - sim_t <= 0.04 + 1e-9, (e, sim_t)
    final = chess.Board()
    for move in game.mainline_moves():
        final.push(move)
    assert source.occupied == final.occupied
