"""Tests of `arbiter simulate`: streams of real games as four kinds of board would send them."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest
from corpus_pass import corpus_pass, per_sensor

from arbiter import cli
from arbiter.errors import PgnError, SimulateError
from arbiter.simulate.game import simulate_game
from arbiter.simulate.pgn import read_game
from rules.events import (
    Accept,
    Claim,
    Event,
    Lift,
    Offer,
    Place,
    Press,
    Promote,
    Resign,
    Snapshot,
    Start,
    Tick,
    parse_line,
)

SENSORS = ("identity", "occupancy", "snapshot", "snapshot-colour")
ROOT = Path(__file__).resolve().parents[2]


def games_of(path: Path, count: int) -> Iterator[chess.pgn.Game]:
    with path.open() as handle:
        for _ in range(count):
            game = chess.pgn.read_game(handle)
            if game is None:
                return
            yield game


def pgn(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    return game


def side(color: chess.Color) -> str:
    return "white" if color else "black"


def colour_only(fen_board: str) -> str:
    return "".join(("X" if c.isupper() else "x") if c.isalpha() else c for c in fen_board)


def placement(pieces: dict[str, str]) -> str:
    """FEN piece placement of square names -> letters (any letter, '?' included)."""
    ranks = []
    for rank in "87654321":
        row, empty = "", 0
        for file in "abcdefgh":
            letter = pieces.get(file + rank)
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def occupancy(fen_board: str) -> str:
    return "".join("?" if c.isalpha() or c == "?" else c for c in fen_board)


def sensed_positions(events: list[Event], sensor: str) -> list[str]:
    """The board the sensor shows at each press, replayed from lifts, places and snapshots.

    For the camera the still scene of a move may come after its press: take its snapshots in
    order instead, one a move.
    """
    if sensor == "snapshot-colour":
        return [e.board for e in events if isinstance(e, Snapshot)]
    start = next(e for e in events if isinstance(e, Start))
    board = chess.Board(start.fen or chess.STARTING_FEN)
    pieces: dict[str, str] = {
        chess.square_name(s): p.symbol() for s, p in board.piece_map().items()
    }
    out = []
    shown = board.board_fen()
    for event in events:
        if isinstance(event, Lift):
            assert event.square in pieces, f"lift from the empty square {event.square}"
            del pieces[event.square]
        elif isinstance(event, Place):
            pieces[event.square] = event.piece or "?"
        elif isinstance(event, Snapshot):
            shown = event.board
        elif isinstance(event, Press):
            if sensor in ("identity", "occupancy"):
                shown = placement(pieces)
            out.append(shown)
    return out


def expected_positions(game: chess.pgn.Game, sensor: str) -> list[str]:
    board = game.board()
    out = []
    for move in game.mainline_moves():
        board.push(move)
        fen = board.board_fen()
        if sensor == "occupancy":
            fen = occupancy(fen)
        elif sensor == "snapshot-colour":
            fen = colour_only(fen)
        out.append(fen)
    return out


# ------------------------------------------------------------------ structure


@pytest.mark.parametrize("sensor", SENSORS)
def test_streams_of_real_games_show_every_move_and_press(shared: Path, sensor: str) -> None:
    data = shared / "data" / "games"
    games = [*games_of(data / "clocked-games.pgn", 15), *games_of(data / "real-games.pgn", 15)]
    for number, game in enumerate(games):
        events = simulate_game(game, sensor, seed=number)
        assert isinstance(events[0], Start)
        assert not any(isinstance(e, Start) for e in events[1:])
        times = [e.t for e in events]
        assert times == sorted(times), f"game {number}: t runs backwards"
        presses = [e for e in events if isinstance(e, Press)]
        board = game.board()
        expected_sides = []
        for move in game.mainline_moves():
            expected_sides.append(side(board.turn))
            board.push(move)
        assert [p.side for p in presses] == expected_sides
        seen = sensed_positions(events, sensor)
        if sensor == "occupancy":
            seen = [occupancy(s) for s in seen]
        assert seen == expected_positions(game, sensor), f"game {number}: boards differ"


@pytest.mark.parametrize("sensor", SENSORS)
def test_hands_act_inside_the_movers_own_time(shared: Path, sensor: str) -> None:
    """Each move's lifts and places lie between the opponent's press and the mover's press."""
    for number, game in enumerate(games_of(shared / "data/games/clocked-games.pgn", 10)):
        events = simulate_game(game, sensor, seed=number)
        window_start = 0.0
        for event in events[1:]:
            if isinstance(event, Lift | Place):
                assert event.t >= window_start
            if isinstance(event, Snapshot) and event.seen_at is None:
                assert event.t >= window_start
            if isinstance(event, Press):
                window_start = event.t


def test_occupancy_and_camera_never_name_a_piece_kind(shared: Path) -> None:
    game = next(games_of(shared / "data/games/clocked-games.pgn", 1))
    for event in simulate_game(game, "occupancy"):
        if isinstance(event, Lift | Place):
            assert event.piece is None
    for event in simulate_game(game, "snapshot-colour"):
        if isinstance(event, Snapshot):
            assert set(event.board) <= set("Xx/12345678")
    lifts = [e for e in simulate_game(game, "identity") if isinstance(e, Lift)]
    assert lifts and all(e.piece for e in lifts)


@pytest.mark.parametrize(
    ("sensor", "settings"),
    [
        ("identity", (0.3, 0.3, 0.3, 2)),
        ("occupancy", (0.05, 0.25, 0.0, 2)),
        ("snapshot", (0.1, 0.25, 0.0, 2)),
        ("snapshot-colour", (0.1, 0.0, 1.0, 4)),
    ],
)
def test_start_declares_the_sensor_settings_and_tags(
    shared: Path, sensor: str, settings: tuple[float, float, float, int]
) -> None:
    game = next(games_of(shared / "data/games/clocked-games.pgn", 1))
    start = simulate_game(game, sensor)[0]
    assert isinstance(start, Start)
    assert (start.noise_s, start.slide_s, start.latency_s, start.max_plies) == settings
    assert start.time_control == "1500+25"
    assert start.white == "MagnusCarlsen" and start.black == "RainnWilson"
    assert start.site == "Chess.com" and start.auto_press is False and start.fen is None


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("180+2", "180+2"), ("60+0", "60+0"), ("180", "180"), ("1/259200", "-"), ("?", "-")],
)
def test_time_control_from_the_tag(tag: str, expected: str) -> None:
    game = pgn(f'[TimeControl "{tag}"]\n[Result "*"]\n\n1. e4 e5 *\n')
    start = simulate_game(game, "identity")[0]
    assert isinstance(start, Start) and start.time_control == expected


def test_missing_time_control_is_untimed() -> None:
    start = simulate_game(pgn("1. e4 e5 *\n"), "identity")[0]
    assert isinstance(start, Start) and start.time_control == "-"


def test_same_seed_same_stream_other_seed_other_stream(shared: Path) -> None:
    game = next(games_of(shared / "data/games/real-games.pgn", 1))
    one = [e.to_json() for e in simulate_game(game, "identity", seed=7)]
    again = [e.to_json() for e in simulate_game(game, "identity", seed=7)]
    other = [e.to_json() for e in simulate_game(game, "identity", seed=8)]
    assert one == again and one != other


# ------------------------------------------------------------------ move shapes


def move_events(events: list[Event], ply: int) -> list[Event]:
    """The events of ply `ply` (1-based): after the previous press, up to its own press."""
    presses = [i for i, e in enumerate(events) if isinstance(e, Press)]
    begin = presses[ply - 2] + 1 if ply > 1 else 1
    return events[begin : presses[ply - 1] + 1]


def hand(events: list[Event]) -> list[tuple[str, str, str | None]]:
    return [(e.type, e.square, e.piece) for e in events if isinstance(e, Lift | Place)]


CASTLE = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *\n"


def test_castling_touches_the_king_first_in_both_orders() -> None:
    shapes = set()
    for seed in range(12):
        events = move_events(simulate_game(pgn(CASTLE), "identity", seed=seed), 7)
        steps = hand(events)
        assert steps[0] == ("lift", "e1", "K")
        assert sorted(steps) == sorted(
            [("lift", "e1", "K"), ("place", "g1", "K"), ("lift", "h1", "R"), ("place", "f1", "R")]
        )
        assert steps.index(("place", "g1", "K")) < steps.index(("place", "f1", "R"))
        shapes.add(tuple(steps))
    assert len(shapes) == 2


EN_PASSANT = "1. e4 Nf6 2. e5 d5 3. exd6 *\n"


def test_en_passant_removes_the_captured_pawn_before_or_after() -> None:
    orders = set()
    for seed in range(15):
        steps = hand(move_events(simulate_game(pgn(EN_PASSANT), "identity", seed=seed), 5))
        assert sorted(steps) == sorted(
            [("lift", "e5", "P"), ("lift", "d5", "p"), ("place", "d6", "P")]
        )
        orders.add(tuple(s[1] for s in steps))
    assert orders == {("e5", "d5", "d6"), ("d5", "e5", "d6"), ("e5", "d6", "d5")}


CAPTURE = "1. e4 d5 2. exd5 *\n"


@pytest.mark.parametrize(
    ("sensor", "gap", "orders"),
    [
        ("identity", 0.3, {("e4", "d5", "d5"), ("d5", "e4", "d5"), ("e4", "d5")}),
        # a reed matrix cannot see a piece put onto another: the square must be seen empty
        ("occupancy", 0.05, {("e4", "d5", "d5"), ("d5", "e4", "d5")}),
    ],
)
def test_captures_take_the_piece_off_first_or_are_put_onto_it(
    sensor: str, gap: float, orders: set[tuple[str, ...]]
) -> None:
    shapes = set()
    for seed in range(20):
        events = move_events(simulate_game(pgn(CAPTURE), sensor, seed=seed), 3)
        steps = [e for e in events if isinstance(e, Lift | Place)]
        shapes.add(tuple(e.square for e in steps))
        assert [e.type for e in steps][-1] == "place"
        if len(steps) == 3:  # the captured pawn went off first: kept apart by noise_s
            off = next(e for e in steps if isinstance(e, Lift) and e.square == "d5")
            assert steps[-1].t - off.t > gap
    assert shapes == orders


def test_a_premove_capture_on_a_reed_board_borrows_less_than_a_tenth() -> None:
    """A 0.0 s capture cannot show the square empty; the move takes 60 ms of the next one."""
    game = pgn(
        '[TimeControl "60+0"]\n[Result "*"]\n\n'
        "1. e4 { [%clk 0:00:58] } d5 { [%clk 0:00:57] } 2. exd5 { [%clk 0:00:58] } "
        "Qxd5 { [%clk 0:00:55] } *\n"
    )
    events = simulate_game(game, "occupancy")
    clocks = clocks_at_presses(events, 60.0, 0.0)
    assert clocks == pytest.approx([58.0, 57.0, 57.94, 55.0], abs=0.002)
    steps = [e for e in move_events(events, 3) if isinstance(e, Lift | Place)]
    assert [(e.type, e.square) for e in steps][-1] == ("place", "d5")
    assert steps[-1].t - next(e.t for e in steps if e.square == "d5") == pytest.approx(0.06)


UNDERPROMOTION = "1. h4 g5 2. hxg5 Nf6 3. gxf6 Rg8 4. fxe7 Rh8 5. exd8=N Rg8 *\n"
QUEENING = "1. h4 g5 2. hxg5 Nf6 3. gxf6 Rg8 4. fxe7 Rh8 5. exd8=Q+ Kxd8 *\n"


def test_promotion_with_identity_sensor_places_the_new_piece() -> None:
    kinds = set()
    for seed in range(10):
        events = move_events(simulate_game(pgn(UNDERPROMOTION), "identity", seed=seed), 9)
        steps = hand(events)
        assert steps[-1] == ("place", "d8", "N")
        assert ("lift", "e7", "P") in steps
        assert not any(isinstance(e, Promote) for e in events)
        kinds.add(("place", "d8", "P") in steps)
        if ("place", "d8", "P") in steps:  # set down, then lifted within slide_s (4.6, 4.7.3)
            down = next(e for e in events if isinstance(e, Place) and e.piece == "P")
            up = next(
                e for e in events if isinstance(e, Lift) and e.square == "d8" and e.piece == "P"
            )
            assert 0 <= up.t - down.t < 0.3
    assert kinds == {True, False}


@pytest.mark.parametrize("sensor", ["occupancy", "snapshot-colour"])
def test_kindless_sensors_name_an_underpromotion_with_promote(sensor: str) -> None:
    events = move_events(simulate_game(pgn(UNDERPROMOTION), sensor), 9)
    promotes = [e for e in events if isinstance(e, Promote)]
    assert [(p.side, p.piece) for p in promotes] == [("white", "N")]
    queened = move_events(simulate_game(pgn(QUEENING), sensor), 9)
    assert not any(isinstance(e, Promote) for e in queened)


def test_camera_reports_one_still_scene_a_move_before_the_next_move(shared: Path) -> None:
    game = next(games_of(shared / "data/games/clocked-games.pgn", 2))
    events = simulate_game(game, "snapshot-colour", seed=3)
    snaps = [e for e in events if isinstance(e, Snapshot)]
    presses = [e for e in events if isinstance(e, Press)]
    assert len(snaps) == len(presses)
    for i, snap in enumerate(snaps):
        assert snap.seen_at is not None and snap.seen_at <= presses[i].t <= snap.t + 1.0
        assert snap.t - snap.seen_at <= 1.0
        if i + 1 < len(presses):
            assert snap.t <= presses[i + 1].t
    assert any(s.t < p.t for s, p in zip(snaps, presses, strict=True))
    assert any(s.t > p.t for s, p in zip(snaps, presses, strict=True))


# ------------------------------------------------------------------ clocks


def clocks_at_presses(events: list[Event], base: float, increment: float) -> list[float]:
    """Each mover's clock after its press, by plain arithmetic on the stream's presses."""
    left = {"white": base, "black": base}
    started = 0.0
    out = []
    for event in events:
        if isinstance(event, Press):
            left[event.side] += increment - (event.t - started)
            started = event.t
            out.append(left[event.side])
    return out


def test_presses_reproduce_the_pgn_clocks(shared: Path) -> None:
    for number, game in enumerate(games_of(shared / "data/games/clocked-games.pgn", 40)):
        base, _, inc = game.headers["TimeControl"].partition("+")
        events = simulate_game(game, "identity", seed=number)
        clocks = clocks_at_presses(events, float(base), float(inc or 0))
        pgn_clocks = [node.clock() for node in game.mainline()]
        assert clocks == pytest.approx(pgn_clocks, abs=0.002), f"game {number + 1}"


def test_first_move_think_is_base_plus_increment_minus_clock(shared: Path) -> None:
    game = next(games_of(shared / "data/games/clocked-games.pgn", 1))  # 1500+25, e4 at 24:55.5
    presses = [e for e in simulate_game(game, "identity") if isinstance(e, Press)]
    assert presses[0].t == pytest.approx(1500 + 25 - 1495.5)
    assert presses[1].t - presses[0].t == pytest.approx(1500 + 25 - 1443.5)  # 1... g6 24:03.5


def test_a_clock_that_rises_cannot_be_simulated() -> None:
    game = pgn(
        '[TimeControl "60+0"]\n[Result "*"]\n\n'
        "1. e4 { [%clk 0:00:59] } e5 { [%clk 0:00:58] } 2. Nf3 { [%clk 0:00:59.5] } *\n"
    )
    # the ply is named as the game score writes it (its SAN is written only for the error)
    with pytest.raises(SimulateError, match=r"x\.pgn, game 1: move 2\. Nf3: the clock rose"):
        simulate_game(game, "identity", where="x.pgn, game 1")


def test_synthetic_times_keep_every_clock_running_in_games_not_lost_on_time(
    shared: Path,
) -> None:
    checked = 0
    for number, game in enumerate(games_of(shared / "data/games/real-games.pgn", 60)):
        if "time" in game.headers["Termination"].lower():
            continue
        events = simulate_game(game, "occupancy", seed=number)
        base = float(game.headers["TimeControl"].split("+")[0])
        assert min(clocks_at_presses(events, base, 0.0)) > 0, f"game {number + 1}"
        checked += 1
    assert checked > 20


# ------------------------------------------------------------------ endings


def last_press(events: list[Event]) -> Press:
    return [e for e in events if isinstance(e, Press)][-1]


def test_a_loss_on_time_lets_the_losers_clock_run_out(shared: Path) -> None:
    found = 0
    for number, game in enumerate(games_of(shared / "data/games/real-games.pgn", 80)):
        if game.headers["Termination"] != "Time forfeit":
            continue
        events = simulate_game(game, "identity", seed=number)
        assert isinstance(events[-1], Tick)
        board = game.end().board()
        base = float(game.headers["TimeControl"].split("+")[0])
        clocks = clocks_at_presses(events, base, 0.0)
        loser_moves = [
            c
            for c, p in zip(clocks, [e for e in events if isinstance(e, Press)], strict=True)
            if p.side == side(board.turn)
        ]
        left = loser_moves[-1] if loser_moves else base
        assert 0 < left < events[-1].t - last_press(events).t
        assert events[-1].t - last_press(events).t == pytest.approx(left + 1.0, abs=0.002)
        found += 1
    assert found >= 5


def test_a_camera_loss_on_time_ticks_after_its_latency_too(shared: Path) -> None:
    """A camera's flag waits `latency_s` for a late still scene: the tick comes after that."""
    game = read_game(shared / "data/games/real-games.pgn", 3)  # lost on time
    identity = simulate_game(game, "identity", seed=2)
    camera = simulate_game(game, "snapshot-colour", seed=2)
    assert isinstance(identity[-1], Tick) and isinstance(camera[-1], Tick)
    assert camera[-1].t == pytest.approx(identity[-1].t + 1.0)


def test_a_clocked_loss_on_time_ticks_one_second_after_the_flag(shared: Path) -> None:
    for game in games_of(shared / "data/games/clocked-games.pgn", 120):
        if "won on time" in game.headers["Termination"]:
            break
    events = simulate_game(game, "snapshot")
    board = game.end().board()
    loser_clock = [n.clock() for n in game.mainline() if n.parent.board().turn == board.turn][-1]
    assert isinstance(events[-1], Tick)
    assert events[-1].t == pytest.approx(last_press(events).t + loser_clock + 1.0, abs=0.002)


def test_checkmate_needs_nothing_more() -> None:
    game = pgn('[Result "0-1"]\n[Termination "Normal"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    for sensor in SENSORS:
        events = simulate_game(game, sensor)
        assert not any(isinstance(e, Resign | Offer | Accept | Claim | Tick) for e in events)


@pytest.mark.parametrize("termination", ["Normal", "Hikaru won by resignation"])
def test_a_decisive_game_without_mate_ends_with_the_losers_resignation(termination: str) -> None:
    game = pgn(f'[Result "1-0"]\n[Termination "{termination}"]\n\n1. e4 e5 2. Qh5 Ke7 1-0\n')
    events = simulate_game(game, "identity")
    assert isinstance(events[-1], Resign) and events[-1].side == "black"
    assert events[-1].t >= last_press(events).t


def test_an_agreed_draw_is_offered_before_the_press_and_accepted_after() -> None:
    game = pgn(
        '[Result "1/2-1/2"]\n[Termination "Game drawn by agreement"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n'
    )
    events = simulate_game(game, "occupancy")
    offer = next(e for e in events if isinstance(e, Offer))
    press = last_press(events)
    assert offer.side == "white" and events.index(offer) == events.index(press) - 1
    assert offer.t <= press.t
    assert isinstance(events[-1], Accept) and events[-1].side == "black"


REPEAT = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"


def test_a_repetition_on_the_board_is_claimed_by_the_player_having_the_move() -> None:
    game = pgn(f'[Result "1/2-1/2"]\n[Termination "Normal"]\n\n{REPEAT} 1/2-1/2\n')
    events = simulate_game(game, "identity")
    claim = events[-1]
    assert isinstance(claim, Claim)
    assert (claim.side, claim.kind, claim.move) == ("white", "threefold", None)


def test_a_repetition_one_move_away_is_claimed_with_the_intended_move() -> None:
    game = pgn(
        f'[Result "1/2-1/2"]\n[Termination "Game drawn by repetition"]\n\n{REPEAT[:-4]} 1/2-1/2\n'
    )
    claim = simulate_game(game, "identity")[-1]
    assert isinstance(claim, Claim)
    assert (claim.side, claim.kind, claim.move) == ("black", "threefold", "f6g8")


@pytest.mark.parametrize(("halfmoves", "intended"), [(99, False), (98, True)])
def test_fifty_moves_are_claimed_done_or_with_the_intended_move(
    halfmoves: int, intended: bool
) -> None:
    """9.3.2: the 100 plies stand on the board; 9.3.1: the intended move completes them."""
    game = pgn(
        '[Result "1/2-1/2"]\n[Termination "Normal"]\n[SetUp "1"]\n'
        f'[FEN "8/8/8/4k3/8/8/8/R3K3 w - - {halfmoves} 80"]\n\n80. Ra2 1/2-1/2\n'
    )
    claim = simulate_game(game, "identity")[-1]
    assert isinstance(claim, Claim)
    assert (claim.side, claim.kind) == ("black", "fifty")
    if not intended:
        assert claim.move is None
    else:
        board = game.end().board()
        assert claim.move is not None
        board.push_uci(claim.move)
        assert board.halfmove_clock == 100


def test_a_game_from_a_position_starts_there_with_the_side_to_move() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    game = pgn(f'[SetUp "1"]\n[FEN "{fen}"]\n[Result "*"]\n\n1... Kd7 2. e4 *\n')
    events = simulate_game(game, "identity")
    start = events[0]
    assert isinstance(start, Start) and start.fen == fen
    assert [e.side for e in events if isinstance(e, Press)] == ["black", "white"]
    assert hand(events)[0] == ("lift", "e8", "k")


def test_a_platform_draw_without_a_claim_becomes_an_agreement() -> None:
    game = pgn('[Result "1/2-1/2"]\n[Termination "Normal"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n')
    events = simulate_game(game, "identity")
    assert isinstance(events[-1], Accept) and events[-1].side == "white"
    assert any(isinstance(e, Offer) and e.side == "black" for e in events)


def test_stalemate_and_dead_positions_need_nothing_more(shared: Path) -> None:
    ended = 0
    for game in games_of(shared / "data/games/clocked-games.pgn", 310):
        if game.headers["Termination"] in (
            "Game drawn by stalemate",
            "Game drawn by insufficient material",
        ):
            events = simulate_game(game, "identity")
            assert isinstance(events[-1], Press | Snapshot)
            ended += 1
    assert ended == 12


def test_results_the_laws_cannot_give_are_refused() -> None:
    lost_untimed = pgn('[Result "0-1"]\n[Termination "Time forfeit"]\n\n1. e4 e5 0-1\n')
    with pytest.raises(SimulateError, match="no clock"):
        simulate_game(lost_untimed, "identity", where="g.pgn, game 4")
    wrong_mate = pgn('[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n')
    with pytest.raises(SimulateError, match=r"g\.pgn, game 4: the last move mates"):
        simulate_game(wrong_mate, "identity", where="g.pgn, game 4")


# ------------------------------------------------------------------ bad input and the command


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_input_gives_one_clear_line(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clocked = str(shared / "data/games/clocked-games.pgn")
    not_pgn = tmp_path / "notes.txt"
    not_pgn.write_text("hello world\n")
    binary = tmp_path / "photo.pgn"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    bad_move = tmp_path / "bad.pgn"
    bad_move.write_text("1. e4 e5 2. Kxe8 *\n")
    cases = [
        ([str(tmp_path / "none.pgn")], "none.pgn: no such file"),
        ([str(not_pgn)], "notes.txt, game 1: no moves found"),
        ([str(binary)], "photo.pgn: not a PGN file"),
        ([str(bad_move)], "bad.pgn, game 1: illegal san: 'Kxe8'"),
        ([clocked, "--game", "0"], "--game counts from 1"),
        ([clocked, "--game", "311"], "has 310 games, so --game 311 is out of range"),
        ([clocked, "--sensor", "sonar"], "unknown --sensor 'sonar'"),
    ]
    for argv, message in cases:
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and out == ""
        assert err.startswith("arbiter simulate: ") and message in err, err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_read_game_counts_from_one(shared: Path) -> None:
    path = shared / "data/games/clocked-games.pgn"
    assert read_game(path, 2).headers["Black"] == "solskytz"
    with pytest.raises(PgnError):
        read_game(path, -1)


@pytest.mark.parametrize("sensor", SENSORS)
def test_the_command_prints_contract_json_lines(shared: Path, sensor: str) -> None:
    # game 3 of real-games.pgn is lost on time: its stream ends with a tick
    path = shared / "data/games/real-games.pgn"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arbiter.cli",
            "simulate",
            str(path),
            "--game",
            "3",
            "--sensor",
            sensor,
            "--seed",
            "5",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    events = [parse_line(line, line=i) for i, line in enumerate(lines, 1)]
    assert isinstance(events[0], Start) and isinstance(events[-1], Tick)
    assert all(json.loads(line)["t"] == e.t for line, e in zip(lines, events, strict=True))
    game = read_game(path, 3)
    assert [e.to_json() for e in simulate_game(game, sensor, seed=5)] == lines


# ------------------------------------------------------------------ replayed by the rules core


def replay(events: list[Event]) -> list[dict]:
    """All rulings of the stream, as the contract's dicts."""
    from rules.game import Game

    game = Game(events[0])
    rulings: list[dict] = []
    for event in events[1:]:
        rulings += [r.to_dict() for r in game.handle(event)]
    rulings += [r.to_dict() for r in game.finish()]
    return rulings


@pytest.mark.slow
@pytest.mark.parametrize("sensor", per_sensor(SENSORS))
@pytest.mark.parametrize(("name", "count"), [("real-games.pgn", 1083), ("clocked-games.pgn", 310)])
def test_the_rules_core_rules_each_stream_to_the_game_score(
    shared: Path, name: str, count: int, sensor: str, pytestconfig: pytest.Config
) -> None:
    """Moves, result, clocks (within 0.1 s of [%clk]) and no violation, illegal or mismatch.

    The streams (seed 0) are those of the golden digest, simulated and ruled once for both in
    the test session (`tests/corpus_pass.py`)."""
    ruled = corpus_pass(sensor, getattr(pytestconfig, "cache", None))
    assert ruled.games[name] == count, f"{name} holds {ruled.games[name]} games, not {count}"
    failures = ruled.failures[name]
    assert not failures, f"{len(failures)} games:\n" + "\n".join(failures[:10])


def _pgn(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    return game


@pytest.mark.parametrize(("result", "tail"), [("0-1", "3... Nf6"), ("1/2-1/2", "3... Kd7")])
def test_a_flagged_players_last_clock_of_zero_is_under_a_second(result: str, tail: str) -> None:
    """lichess cuts clocks down to whole seconds: 0:00:00 means under a second, still running."""
    moves = (
        "1. e4 { [%clk 0:00:50] } 1... e5 { [%clk 0:00:55] } 2. Nf3 { [%clk 0:00:20] }"
        " 2... Nc6 { [%clk 0:00:50] } 3. Bc4 { [%clk 0:00:00] }"
    )
    if result == "1/2-1/2":  # drawn on time: Black has a lone king left, cannot be mated by it
        setup = '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n'
        moves = (
            "1. e4 { [%clk 0:00:50] } 1... Kd7 { [%clk 0:00:55] } 2. Kd2 { [%clk 0:00:00] }"
        )
        tail = "2... Ke7 { [%clk 0:00:50] }"
    else:
        setup = ""
        tail += " { [%clk 0:00:45] }"
    headers = f'[Result "{result}"]\n[TimeControl "60+0"]\n[Termination "Time forfeit"]\n'
    game = _pgn(f"{headers}{setup}\n{moves} {tail} {result}\n")
    rulings = replay(simulate_game(game, "occupancy"))
    flags = [r for r in rulings if r["type"] == "flag"]
    assert flags and flags[0]["side"] == "white"
    assert any(r["type"] == "game_over" and r["result"] == result for r in rulings)


@pytest.mark.parametrize("moves", ["1. e4 e5 2. Z0 Nc6 3. Nf3 *", "1. e4 e5 2. -- *"])
def test_a_null_move_is_refused_naming_game_and_ply(moves: str) -> None:
    with pytest.raises(SimulateError, match=r"g\.pgn, game 2: move 2\. \(ply 3\) is a null move"):
        simulate_game(_pgn(f'[Result "*"]\n\n{moves}\n'), "occupancy", where="g.pgn, game 2")
