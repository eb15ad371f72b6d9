"""`arbiter play --board PROTOCOL:PTY` end to end: a real game on a virtual board, read by the
`arbiter play` program as a user runs it, comes out as the same PGN; with the cable pulled in
the middle (one move made while it is out), the same PGN again; with the program killed in
the middle and `arbiter resume` (a move made while it was down), the same PGN again; and a
resignation sent on a live stream beside the board ends the game.

The path under test: PGN -> lifts/places (`moves_to_events`) -> `VirtualBoard` (board model
behind a pty, in this process) -> bytes -> the `arbiter play` subprocess (pyserial transport,
codec, `BoardAdapter`, session, journal, rules) -> journal and PGN. The boards have no clock,
so `--set auto_press=true`: a move counts once its piece is released (`slide_s`). The game
is the shortest real game of the shared data that ends in checkmate (31 plies, both sides
castle, captures), so the program ends by itself and writes the PGN.

`arbiter play` runs in real time (no speed-up), so the hands are timed as quick but plausible
players: `HAND_S` between a lift and a place, `GAP_S` between one move's last placement and
the next move (well above every board's `slide_s`, also on a loaded machine).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import chess
import chess.pgn
import pytest
from at_once import AtOnce

from arbiter.records.journal import read_journal
from firmware_bridge.transport import BACKOFF_S
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Event, Lift, Place, Sensor, Snapshot, Start
from rules.replay import replay

#: a virtual board on a pseudo-terminal, read in real time (by a real program)
pytestmark = pytest.mark.realtime

ROOT = Path(__file__).resolve().parents[2]
PROTOCOLS = ("dgt", "millennium", "certabo")
#: index (1-based) in real-games.pgn of DrDrunkenstein v mfm008: 31 plies, 16. Qxf7#
GAME_NUMBER = 898
HAND_S = 0.1
GAP_S = 0.45
#: the board's first move, after the program has read the board's start-up report
FIRST_T = 1.0
#: the next move after the cable was pulled: the transport reopens the port 0.5 s then
#: 1.5 s after the disconnect, and the board's full report follows at once
BACK_S = 3.0
#: real seconds the program may take beyond the stream before the test gives up on it
GRACE_S = 30.0


@pytest.fixture(scope="module")
def mate_game(shared: Path) -> chess.pgn.Game:
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        for _ in range(GAME_NUMBER - 1):
            assert chess.pgn.skip_game(handle)
        game = chess.pgn.read_game(handle)
    assert game is not None
    board = game.end().board()
    assert board.is_checkmate() and board.ply() == 31, "the shared game changed"
    return game


@pytest.fixture(scope="module")
def at_once(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AtOnce]:
    """The protocols' runs of one test made at the same time (`tests/at_once.py`): each
    waits in real time on its own board and program; the waits overlap."""
    runs = AtOnce(request, tmp_path_factory)
    yield runs
    runs.close()


def play_args(board: VirtualBoard, tmp_path: Path, game: chess.pgn.Game) -> list[str]:
    """`arbiter play` on `board`, journal and PGN in `tmp_path` (a Certabo board's
    calibration saved there too), the players of `game`, moves counting as presses."""
    args = [
        sys.executable, "-m", "arbiter.cli", "play",
        "--board", f"{board.protocol}:{board.path}",
        "--journal", str(tmp_path / "game.jsonl"), "--pgn", str(tmp_path / "game.pgn"),
        "--no-keyboard", "--display", "plain", "--set", "auto_press=true",
        "--white", game.headers["White"], "--black", game.headers["Black"],
    ]  # fmt: skip
    if board.protocol == "certabo":
        calibration = tmp_path / "certabo.json"
        board.save_calibration(calibration)
        args += ["--calibration", str(calibration)]
    return args


def board_name(protocol: str, board: VirtualBoard, tmp_path: Path) -> str:
    """How the journal's `start.sources` names the board (with a Certabo's calibration)."""
    name = f"board:{protocol}:{board.path}"
    if protocol == "certabo":
        name += f" calibration={tmp_path / 'certabo.json'}"
    return name


def run_play(
    protocol: str,
    events: list[Event],
    tmp_path: Path,
    game: chess.pgn.Game,
    outages: Sequence[tuple[float, float]] = (),
    beside: Callable[[VirtualBoard, Path], str] | None = None,
) -> tuple[subprocess.CompletedProcess[str], VirtualBoard, Path, Path]:
    """Play `events` on a virtual `protocol` board read by an `arbiter play` subprocess.

    The board's stream starts (its t = 0) once the program has journaled its `start`, i.e.
    once it is about to open the port, as players begin when the arbiter is ready. With
    `beside`, the program also reads a live stream on its standard input (`--events -`), as
    from a clock beside the board: it begins with a `start` (auto_press), and once the board
    is started `beside(board, journal)` returns the lines to send. Returns the finished
    process, the board, the journal and the PGN.
    """
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    board = VirtualBoard(protocol, events, outages=outages)
    args = play_args(board, tmp_path, game)
    if beside is not None:
        args += ["--events", "-"]
    process = subprocess.Popen(
        args, cwd=ROOT, stdin=subprocess.DEVNULL if beside is None else subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if process.stdin is not None:
            process.stdin.write('{"t": 0, "type": "start", "auto_press": true}\n')
            process.stdin.flush()
        deadline = time.monotonic() + GRACE_S
        while not (journal.exists() and journal.read_text(encoding="utf-8").strip()):
            if process.poll() is not None:
                out, err = process.communicate()
                pytest.fail(f"arbiter play ended before the game began: {out}{err}")
            assert time.monotonic() < deadline, "arbiter play never journaled its start"
            time.sleep(0.005)
        board.start()
        if beside is not None and process.stdin is not None:
            process.stdin.write(beside(board, journal))
            process.stdin.flush()
        try:
            out, err = process.communicate(timeout=events[-1].t + GRACE_S)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)  # a clean stop writes the PGN so far
            out, err = process.communicate(timeout=10)
            tail = journal.read_text(encoding="utf-8").splitlines()[-8:]
            pytest.fail(f"the game did not end; skipped {board.skipped}\n{out}{err}{tail}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        board.close()
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done, board, journal, pgn


def check_pgn(done: subprocess.CompletedProcess[str], pgn: Path, game: chess.pgn.Game) -> None:
    """The program ended the game by itself, and its PGN is the real game's, move for move."""
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "game over: 1-0 (checkmate)" in done.stdout, done.stdout[-2000:]
    with pgn.open(encoding="utf-8") as handle:
        record = chess.pgn.read_game(handle)
    assert record is not None and not record.errors, record and record.errors
    assert [m.uci() for m in record.mainline_moves()] == [m.uci() for m in game.mainline_moves()]
    for tag in ("Result", "White", "Black"):
        assert record.headers[tag] == game.headers[tag], tag
    assert record.end().board().is_checkmate()


def journal_rulings(journal: Path) -> tuple[list[Event], list[dict]]:
    events, warnings = read_journal(journal)
    assert not warnings
    return events, [r.to_dict() for r in replay(events, finish=False)]


def sensed_placement(events: list[Event]) -> chess.BaseBoard:
    """The board as the journal's sensor events show it (snapshots replace, lifts and places
    change it), as the rules keep it."""
    board = chess.BaseBoard()
    for event in events:
        if isinstance(event, Snapshot):
            board = chess.BaseBoard(event.board)
        elif isinstance(event, Lift):
            board.remove_piece_at(chess.parse_square(event.square))
        elif isinstance(event, Place) and event.piece:
            piece = chess.Piece.from_symbol(event.piece)
            board.set_piece_at(chess.parse_square(event.square), piece)
    return board


@pytest.mark.slow
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_real_game_on_the_board_comes_out_as_its_pgn(
    protocol: str, mate_game: chess.pgn.Game, at_once: AtOnce, request: pytest.FixtureRequest
) -> None:
    at_once.result(request, "protocol", lambda p, folder: real_game(p, mate_game, folder))


def real_game(protocol: str, mate_game: chess.pgn.Game, tmp_path: Path) -> None:
    """The mate game played on a `protocol` board, uninterrupted: its PGN, a clean journal."""
    events = moves_to_events(mate_game, first_t=FIRST_T, hand_s=HAND_S, gap_s=GAP_S)
    done, board, journal, pgn = run_play(protocol, events, tmp_path, mate_game)
    check_pgn(done, pgn, mate_game)
    assert board.skipped == [] and board.connects == 1
    history, rulings = journal_rulings(journal)
    start = history[0]
    assert isinstance(start, Start) and start.auto_press
    assert start.sources == [board_name(protocol, board, tmp_path)]
    assert not [e for e in history if isinstance(e, Sensor)]
    odd = [r for r in rulings if r["type"] in ("illegal", "penalty", "mismatch", "violation")]
    assert not odd
    # the journal alone rules the same game: it is the record, not the program's memory
    assert [r["uci"] for r in rulings if r["type"] == "move"] == [
        m.uci() for m in mate_game.mainline_moves()
    ]


def events_with_outage(game: chess.pgn.Game, ply: int) -> tuple[list[Event], tuple[float, float]]:
    """The game's lifts and places with the cable pulled after ply `ply` (0-based: plies
    before it were made with the board connected), ply `ply` made while it is out, and the
    cable plugged back in before the next ply."""
    moves = list(game.mainline_moves())
    before = moves_to_events(moves[:ply], first_t=FIRST_T, hand_s=HAND_S, gap_s=GAP_S)
    board = chess.Board()
    for move in moves[:ply]:
        board.push(move)
    pulled_at = before[-1].t + GAP_S
    during = moves_to_events(
        moves[ply : ply + 1], first_t=pulled_at + 0.3, hand_s=HAND_S, board=board
    )
    board.push(moves[ply])
    plugged_at = during[-1].t + 0.3
    after = moves_to_events(
        moves[ply + 1 :], first_t=pulled_at + BACK_S, hand_s=HAND_S, gap_s=GAP_S, board=board
    )
    return before + during + after, (pulled_at, plugged_at)


@pytest.mark.slow
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_pulled_cable_mid_game_gives_the_same_pgn(
    protocol: str, mate_game: chess.pgn.Game, at_once: AtOnce, request: pytest.FixtureRequest
) -> None:
    at_once.result(request, "protocol", lambda p, folder: pulled_cable(p, mate_game, folder))


def pulled_cable(protocol: str, mate_game: chess.pgn.Game, tmp_path: Path) -> None:
    """The mate game on a `protocol` board whose cable is out while 8. O-O is made."""
    ply = 14  # 8. O-O, king and rook, is made while the cable is out
    events, outage = events_with_outage(mate_game, ply)
    done, board, journal, pgn = run_play(protocol, events, tmp_path, mate_game, [outage])
    check_pgn(done, pgn, mate_game)
    assert board.skipped == [] and board.connects == 2
    history, rulings = journal_rulings(journal)
    sensors = [e for e in history if isinstance(e, Sensor) and e.status != "dropped"]
    assert [e.status for e in sensors] == ["disconnected", "reconnected"]
    down, up = sensors
    assert down.t < up.t
    # nothing before the outage is lost: the plies made before it were ruled before it,
    # and the board as journaled then shows exactly them
    moves = [m.uci() for m in mate_game.mainline_moves()]
    ruled = [r for r in rulings if r["type"] == "move"]
    assert [r["uci"] for r in ruled if r["t"] < down.t] == moves[:ply]
    position = chess.Board()
    for uci in moves[:ply]:
        position.push_uci(uci)
    before = [e for e in history if e.t < down.t]
    assert sensed_placement(before).board_fen() == position.board_fen()
    # the ply made while the cable was out is ruled from the board's report after it
    made_out = next(r for r in ruled if r["ply"] == ply + 1)
    assert made_out["uci"] == moves[ply] and made_out["t"] >= up.t
    odd = [r for r in rulings if r["type"] in ("illegal", "penalty", "mismatch", "violation")]
    assert not odd
    assert [r["uci"] for r in ruled] == moves


#: index (1-based) in real-games.pgn of DrDrunkenstein v Weetik: 15 plies (both castle),
#: then Black resigned
RESIGNED_GAME = 100


@pytest.mark.slow
def test_a_resignation_from_a_live_stream_beside_the_board_ends_the_game(
    shared: Path, tmp_path: Path
) -> None:
    """The board brings the moves, a live stream on stdin (a clock beside the board) the
    resignation: the PGN is the real game's. While the stream waits for its next line, the
    program still releases each piece after `slide_s` (a `tick` journaled per ply)."""
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        for _ in range(RESIGNED_GAME - 1):
            assert chess.pgn.skip_game(handle)
        game = chess.pgn.read_game(handle)
    assert game is not None and game.headers["Result"] == "1-0"
    plies = game.end().ply()
    assert plies == 15 and not game.end().board().is_game_over()

    def resign(board: VirtualBoard, journal: Path) -> str:
        assert board.wait_done(GRACE_S), "the board did not play the game"
        time.sleep(1.0)  # the last piece released, as the loser thinks it over
        last_t = read_journal(journal)[0][-1].t
        return json.dumps({"t": last_t, "type": "resign", "side": "black"}) + "\n"

    events = moves_to_events(game, first_t=FIRST_T, hand_s=HAND_S, gap_s=GAP_S)
    done, board, journal, pgn = run_play("dgt", events, tmp_path, game, beside=resign)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "game over: 1-0 (resignation)" in done.stdout, done.stdout[-2000:]
    with pgn.open(encoding="utf-8") as handle:
        record = chess.pgn.read_game(handle)
    assert record is not None
    assert [m.uci() for m in record.mainline_moves()] == [m.uci() for m in game.mainline_moves()]
    assert record.headers["Result"] == "1-0"
    history, rulings = journal_rulings(journal)
    start = history[0]
    assert isinstance(start, Start) and start.auto_press
    assert start.sources == ["events:-", f"board:dgt:{board.path}"]
    ruled = [r for r in rulings if r["type"] == "move"]
    ticks = [e.t for e in history if e.type == "tick"]
    # each released by time when its slide_s ran out (a tick just after), not at the next lift
    assert all(any(0 <= t - r["t"] < 1e-5 for t in ticks) for r in ruled), (ruled, ticks)
    assert history[-1].type == "resign"


@pytest.mark.slow
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_crash_mid_game_then_resume_gives_the_same_pgn(
    protocol: str, mate_game: chess.pgn.Game, tmp_path: Path
) -> None:
    """The program is killed mid-game (the Pi lost power, the board did not), a castling is
    made meanwhile; `arbiter resume JOURNAL` with no options reopens the journal's board
    (a Certabo with its calibration) and goes on: the same PGN. Not run with the other
    protocols' (`at_once`): the resumed program must be up within the 2 s before the board
    plays on, which a loaded machine already stretches (two of three failed together at
    load 16, one alone at load 13)."""
    history, _ = crash_then_resume(protocol, mate_game, tmp_path, unplugged=False)
    restart = next(i for i, e in enumerate(history) if e.type == "restart")
    # the restart is journaled as an outage of the board, whose first report is reconciled
    around = [e.status for e in history[restart - 1 : restart + 2] if isinstance(e, Sensor)]
    assert around == ["disconnected", "reconnected"]
    assert not [e for e in history[restart + 2 :] if isinstance(e, Sensor)]


@pytest.mark.slow
def test_resume_waits_for_a_board_not_plugged_in_yet(
    mate_game: chess.pgn.Game, tmp_path: Path
) -> None:
    """The Pi restarts before the board is back (a service started at boot): `arbiter
    resume` waits for the board as after a pulled cable, then reconciles the castling made
    meanwhile, and the game goes on to the same PGN."""
    history, resumed = crash_then_resume("dgt", mate_game, tmp_path, unplugged=True)
    assert "the board is not connected" in resumed.stdout
    assert "the board is connected again" in resumed.stdout
    restart = next(i for i, e in enumerate(history) if e.type == "restart")
    sensors = [e for e in history[restart:] if isinstance(e, Sensor)]
    # the restart's own outage, then the port that could not be opened, then the board back
    statuses = [e.status for e in sensors]
    assert statuses[:3] == ["reconnected", "disconnected", "reconnected"], statuses
    assert "cannot open" in (sensors[1].detail or "")


def crash_then_resume(
    protocol: str, mate_game: chess.pgn.Game, tmp_path: Path, *, unplugged: bool
) -> tuple[list[Event], subprocess.CompletedProcess[str]]:
    """Kill `arbiter play` mid-game, make 8. O-O while it is down, `arbiter resume`; with
    `unplugged`, the board is also away when the program comes back and returns 5 s later.
    Checks the PGN and that nothing before the crash is lost; returns the journal's events
    and the resumed run."""
    ply = 14  # 8. O-O is made while the program is down
    moves = list(mate_game.mainline_moves())
    before = moves_to_events(moves[:ply], first_t=FIRST_T, hand_s=HAND_S, gap_s=GAP_S)
    position = chess.Board()
    for move in moves[:ply]:
        position.push(move)
    killed_at = before[-1].t + 0.6  # the last ply before it released (slide_s) and journaled
    during = moves_to_events(
        moves[ply : ply + 1], first_t=killed_at + 0.5, hand_s=HAND_S, board=position
    )
    position.push(moves[ply])
    resumed_at = killed_at + 2.0
    # the resumed program must be up before the board comes back (unplugged) and must have
    # read the board before the next move begins: a loaded machine takes seconds to start
    # Python (CI: 2 cores), and a port that could not be opened is tried again after up to
    # BACKOFF_S[-1] (5 s)
    back = resumed_at + (5.0 if unplugged else 0.0)
    after = moves_to_events(
        moves[ply + 1 :],
        first_t=back + (BACKOFF_S[-1] + 1.0 if unplugged else 3.0),
        hand_s=HAND_S,
        gap_s=GAP_S,
        board=position,
    )
    outages = [(killed_at + 0.2, back)] if unplugged else []
    journal, pgn = tmp_path / "game.jsonl", tmp_path / "game.pgn"
    board = VirtualBoard(protocol, before + during + after, outages=outages)
    try:
        first = subprocess.Popen(
            play_args(board, tmp_path, mate_game), cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + GRACE_S
            while not (journal.exists() and journal.read_text(encoding="utf-8").strip()):
                assert first.poll() is None, "arbiter play ended before the game began"
                assert time.monotonic() < deadline, "arbiter play never journaled its start"
                time.sleep(0.005)
            board.start()
            while board.stream_time() < killed_at:
                time.sleep(0.005)
            first.kill()
        finally:
            first.kill()
            first.wait(timeout=10)
        # the PGN is rewritten after every move (issue 12 item 8): the record so far
        assert pgn.read_text(encoding="utf-8").rstrip().endswith("*")
        while board.stream_time() < resumed_at:  # the castling, made while it is down
            time.sleep(0.01)
        if unplugged:
            assert not Path(board.path).exists()
        resumed = subprocess.run(
            [sys.executable, "-m", "arbiter.cli", "resume", str(journal), "--pgn", str(pgn),
             "--no-keyboard", "--display", "plain"],
            cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=after[-1].t + GRACE_S,
        )  # fmt: skip
    finally:
        board.close()
    check_pgn(resumed, pgn, mate_game)
    assert board.skipped == []
    history, rulings = journal_rulings(journal)
    restarts = [i for i, e in enumerate(history) if e.type == "restart"]
    assert len(restarts) == 1
    restart = history[restarts[0]]
    assert history[0].sources == [board_name(protocol, board, tmp_path)]  # type: ignore[attr-defined]
    ruled = [r for r in rulings if r["type"] == "move"]
    uci = [m.uci() for m in moves]
    assert [r["uci"] for r in ruled if r["t"] < restart.t] == uci[:ply]  # nothing lost
    assert [r["uci"] for r in ruled if r["t"] >= restart.t] == uci[ply:]
    odd = [r for r in rulings if r["type"] in ("illegal", "penalty", "mismatch", "violation")]
    assert not odd
    # the resumed program read the pieces, not only where they stand (the calibration)
    snapshots = [e for e in history[restarts[0] :] if isinstance(e, Snapshot)]
    assert all("?" not in e.board for e in snapshots)
    return history, resumed
