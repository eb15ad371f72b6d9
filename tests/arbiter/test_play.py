"""`arbiter play` and `arbiter resume` as a user runs them: subprocesses, fake GPIO, a script."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest
from cli_inprocess import run_cli

from arbiter.live.setup import load_unfinished
from arbiter.records.journal import read_journal
from rules.events import Sensor
from rules.replay import replay

ROOT = Path(__file__).resolve().parents[2]


def arbiter(*args: str, **kw) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", *args],
        capture_output=True,
        text=True,
        cwd=kw.pop("cwd", ROOT),
        timeout=kw.pop("timeout", 60),
        stdin=subprocess.DEVNULL,
        **kw,
    )


def script(path: Path, moves: str, step: float = 0.45, end: str = "resign") -> Path:
    """A scripted stream: each move lifted, placed and pressed within `step` seconds."""
    board = chess.Board()
    t = 0.0
    out: list[dict] = [
        {"t": 0.0, "type": "start", "time_control": "60+1", "white": "A", "black": "B"}
    ]
    for uci in moves.split():
        move = chess.Move.from_uci(uci)
        side = "white" if board.turn else "black"
        piece = board.piece_at(move.from_square).symbol()  # type: ignore[union-attr]
        hand = [(move.from_square, move.to_square, piece)]
        if board.is_castling(move):
            rook_from, rook_to = {
                chess.G1: (chess.H1, chess.F1),
                chess.G8: (chess.H8, chess.F8),
            }[move.to_square]
            rook = board.piece_at(rook_from).symbol()  # type: ignore[union-attr]
            hand.append((rook_from, rook_to, rook))
        dt = 0.1
        for frm, to, letter in hand:
            for kind, square, at in (("lift", frm, dt), ("place", to, dt + 0.08)):
                name = chess.square_name(square)
                out.append({"t": round(t + at, 3), "type": kind, "square": name, "piece": letter})
            dt += 0.12
        out.append({"t": round(t + step - 0.05, 3), "type": "press", "side": side})
        board.push(move)
        t += step
    if end == "resign":
        loser = "white" if board.turn else "black"
        out.append({"t": round(t + 0.2, 3), "type": "resign", "side": loser})
    path.write_text("".join(json.dumps(o) + "\n" for o in out), encoding="utf-8")
    return path


MOVES = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 e1g1 e8g8"


def rulings_of(journal: Path) -> list[dict]:
    events, _ = read_journal(journal)
    return [r.to_dict() for r in replay(events, finish=False)]


def wait_for_lines(path: Path, n: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text(encoding="utf-8").splitlines()) >= n:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} did not reach {n} lines")


def test_killed_mid_game_then_resumed_gives_the_same_game(tmp_path: Path) -> None:
    stream = script(tmp_path / "script.jsonl", MOVES)
    common = ["--gpio", "fake", "--events", str(stream), "--display", "plain"]
    full_journal, full_pgn = tmp_path / "full.jsonl", tmp_path / "full.pgn"
    whole = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", *common,
         "--journal", str(full_journal), "--pgn", str(full_pgn)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    part_journal, part_pgn = tmp_path / "part.jsonl", tmp_path / "part.pgn"
    killed = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", *common,
         "--journal", str(part_journal), "--pgn", str(part_pgn)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    wait_for_lines(part_journal, 14)  # start + four plies and a bit
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait(timeout=10)
    assert killed.returncode == -signal.SIGKILL
    # the PGN is rewritten after every move (issue 12 item 8): the killed game's record so far
    assert part_pgn.read_text(encoding="utf-8").rstrip().endswith("*")
    before, _ = read_journal(part_journal)
    assert before[-1].type != "resign"  # killed in the middle of the game

    resumed = arbiter("resume", str(part_journal), "--pgn", str(part_pgn), "--display", "plain")
    _, err = whole.communicate(timeout=60)
    assert whole.returncode == 0, err
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stderr + err
    assert "game over: 0-1 (resignation)" in resumed.stdout

    after, _ = read_journal(part_journal)
    restarts = [e for e in after if e.type == "restart"]
    assert len(restarts) == 1
    assert restarts[0].to_dict() == {"t": before[-1].t, "type": "restart", "counted": False}
    assert restarts[0].t == before[-1].t  # the clocks stood as at the last event
    assert rulings_of(part_journal) == rulings_of(full_journal)
    assert part_pgn.read_text(encoding="utf-8") == full_pgn.read_text(encoding="utf-8")
    assert "O-O" in full_pgn.read_text(encoding="utf-8")


def test_play_on_an_unfinished_journal_resumes_it(tmp_path: Path) -> None:
    stream = script(tmp_path / "script.jsonl", "e2e4 e7e5 g1f3 b8c6", step=0.5)
    journal = tmp_path / "j.jsonl"
    args = ["--gpio", "fake", "--events", str(stream), "--journal", str(journal)]
    first = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", *args, "--display", "plain"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    wait_for_lines(journal, 5)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    again = arbiter("play", *args, "--display", "plain")
    assert again.returncode == 0, again.stderr
    assert "resumed the game" in again.stdout
    events, _ = read_journal(journal)
    assert [e.type for e in events].count("start") == 1
    assert [e.type for e in events].count("restart") == 1
    assert events[-1].type == "resign"
    # and once the game is over, the next `play` moves its journal aside for a new game
    third = arbiter(
        "play", "--tc", "1", "--force-tc", "--clock-start", "now", "--journal", str(journal),
        "--display", "plain",
    )  # a one-second game: refused as a mistyping unless forced
    assert third.returncode == 0, third.stderr
    assert (tmp_path / "j.1.jsonl").exists()
    assert "game over: 0-1 (time)" in third.stdout


def test_plain_lines_without_a_terminal(tmp_path: Path) -> None:
    done = arbiter(
        "play", "--tc", "0.5", "--force-tc", "--clock-start", "now", "--white", "Ann",
        "--journal", str(tmp_path / "j")
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "time control: 0.5 s (0.5)"  # the reading, before the game
    assert lines[1].startswith("Ann v Black")
    assert any("flag" in line and "6.9" in line for line in lines)
    assert "\x1b[" not in done.stdout  # no screen control codes in a log


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tc", "5+"], "--tc: time control '5+'"),
        (["--rules", "martian"], "--rules: unknown rules profile 'martian'"),
        (["--set", "noise_s=-1"], "--set noise_s: 'noise_s' must not be negative"),
        (["--set", "colour=red"], "--set colour: 'colour' is not a setting"),
        (["--gpio", "pi"], "--gpio: the GPIO back-end must be one of rpi, fake, none"),
        (["--events", "no-such-file.jsonl"], "no-such-file.jsonl: no such file"),
        (["--set", "fen=not a fen"], "the FEN 'not a fen' cannot be read"),
    ],
)
def test_bad_options_give_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_cli("play", *args, "--journal", str(tmp_path / "j.jsonl"))
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "j.jsonl").exists()  # nothing was played: no journal


def test_a_bad_config_key_names_the_file(tmp_path: Path) -> None:
    config = tmp_path / "arbiter.toml"
    config.write_text('[play]\ntc = "300"\nbuzz = true\n', encoding="utf-8")
    done = run_cli("play", "--config", str(config), "--journal", str(tmp_path / "j"))
    assert done.returncode == 2
    assert f"config {config} [play] buzz: unknown setting" in done.stderr


def test_resume_of_an_unreadable_journal_says_so(tmp_path: Path) -> None:
    missing = run_cli("resume", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot be read" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 0, "type": "lift", "square": "e2"}\n', encoding="utf-8")
    done = run_cli("resume", str(bad))
    assert done.returncode == 2 and "does not begin with a 'start'" in done.stderr
    assert "Traceback" not in missing.stderr + done.stderr


def test_the_config_file_gives_the_settings(tmp_path: Path) -> None:
    config = tmp_path / "arbiter.toml"
    config.write_text(
        '[play]\ntc = "0.4"\nforce_tc = true\nclock_start = "now"\nwhite = "Config White"\n'
        'gpio = "fake"\n'
        "[start]\nnoise_s = 0.3\n[gpio.pins]\nled_white = 14\n",
        encoding="utf-8",
    )
    journal = tmp_path / "j.jsonl"
    done = arbiter("play", "--config", str(config), "--white", "Cli", "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    start = read_journal(journal)[0][0].to_dict()
    assert start["time_control"] == "0.4" and start["white"] == "Cli" and start["noise_s"] == 0.3
    assert start["sources"] == ["gpio:fake"]


def test_an_e_board_on_a_virtual_dgt_feeds_the_live_session() -> None:
    """`--board dgt:DEVICE`: the real serial path to a simulated DGT board behind a pty."""
    import io
    import threading

    from arbiter.clock import MonotonicClock
    from arbiter.inputs.board import BoardAdapter
    from arbiter.live.session import Session
    from arbiter.outputs.display import Display
    from firmware_bridge.virtual import VirtualBoard
    from rules.events import Start

    moves = [chess.Move.from_uci(u) for u in ["e2e4", "e7e5", "g1f3"]]
    virtual = VirtualBoard("dgt", moves)
    try:
        clock = MonotonicClock()
        board = BoardAdapter(f"dgt:{virtual.path}", clock)
        settings = board.start_settings()
        assert settings["noise_s"] == 0.3  # the board's own sensor settings go into `start`
        start = Start(t=0.0, time_control="60", auto_press=True, sources=[board.name], **settings)
        out = io.StringIO()
        session = Session.new(start, None, clock, sources=[board], display=Display(out, tty=False))
        virtual.start()
        runner = threading.Thread(target=session.run)
        runner.start()
        assert virtual.wait_done(20)
        deadline = time.monotonic() + 5
        while session.game.ply < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        session.stop()
        runner.join(5)
    finally:
        virtual.close()
    assert [r.san for r in session.rulings if r.type == "move"] == ["e4", "e5", "Nf3"]
    assert "White played Nf3." in out.getvalue()


@pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("RPi") is not None,
    reason="RPi.GPIO is installed here",
)
def test_gpio_rpi_without_rpi_gpio_says_how_to_install_it(tmp_path: Path) -> None:
    done = arbiter("play", "--gpio", "rpi", "--journal", str(tmp_path / "j.jsonl"))
    assert done.returncode == 2
    assert "RPi.GPIO is not installed" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "j.jsonl").exists()


def test_a_bad_line_in_the_stream_is_said_journaled_and_skipped(tmp_path: Path) -> None:
    """Issue 17 item 2: the game goes on after a line that cannot be read."""
    stream = tmp_path / "bad.jsonl"
    stream.write_text(
        '{"t": 0, "type": "start", "time_control": "60"}\n'
        '{"t": 0.1, "type": "lift", "square": "e2", "piece": "P"}\n'
        '{"t": 0.2, "type": "place", "square": "e9"}\n'
        '{"t": 0.3, "type": "place", "square": "e4", "piece": "P"}\n'
        '{"t": 0.5, "type": "press", "side": "white"}\n'
        '{"t": 0.6, "type": "resign", "side": "black"}\n',
        encoding="utf-8",
    )
    journal = tmp_path / "j.jsonl"
    done = arbiter("play", "--events", str(stream), "--journal", str(journal), "--display", "plain")
    assert done.returncode == 0, done.stderr
    assert "line 3" in done.stdout and "e9" in done.stdout and "skipped" in done.stdout
    assert "game over: 1-0 (resignation)" in done.stdout and "Traceback" not in done.stderr
    events, _ = read_journal(journal)
    assert [e.type for e in events] == ["start", "lift", "sensor", "place", "press", "resign"]
    note = events[2]
    assert isinstance(note, Sensor) and note.status == "bad_line" and note.t == 0.1
    assert note.detail is not None and "line 3" in note.detail and "e9" in note.detail


def test_a_live_stream_on_stdin_lets_the_flag_fall_while_it_waits(tmp_path: Path) -> None:
    """`--events -` from a pipe brings lines as they happen: while it waits for the next one,
    the clock still runs out at its moment (not when the next line or the end comes)."""
    journal = tmp_path / "j.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", "--events", "-", "--journal",
         str(journal), "--display", "plain"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdin is not None
    try:
        process.stdin.write('{"t": 0, "type": "start", "time_control": "1.5"}\n')
        process.stdin.flush()  # and nothing more: the pipe stays open, silent
        deadline = time.monotonic() + 8
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() == 0, "the flag did not fall while the stream waited"
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate(timeout=10)
    assert "game over: 0-1 (time)" in out, out + err
    events, _ = read_journal(journal)
    assert [e.type for e in events] == ["start", "tick"]
    assert events[1].t == pytest.approx(1.5, abs=1e-3)


def test_ctrl_c_stops_cleanly_and_writes_the_pgn_so_far(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) stops `arbiter play` as `q` and SIGTERM do: the PGN of the game so far
    is written, and the journal goes on with `arbiter resume`."""
    moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"
    stream = script(tmp_path / "script.jsonl", moves, step=0.5)
    journal, pgn = tmp_path / "j.jsonl", tmp_path / "g.pgn"
    process = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", "--events", str(stream), "--journal",
         str(journal), "--pgn", str(pgn), "--display", "plain"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        wait_for_lines(journal, 8)  # start and two plies
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=10)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "interrupted" not in err
    assert "stopped; the game goes on with `arbiter resume`" in out
    with pgn.open(encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None and game.headers["Result"] == "*"
    played = [m.uci() for m in game.mainline_moves()]
    assert played and played == moves.split()[: len(played)]
    assert load_unfinished(journal) is not None  # resumable


def test_a_game_without_a_clock_charges_no_press_to_white(tmp_path: Path) -> None:
    """Newcomer trial row 5: no time control, every press sent as White's (one key for both
    players). Without a clock the press is the mover's: no 7.5.3, no time penalty, no loss."""
    stream = script(tmp_path / "s.jsonl", MOVES)
    lines = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines()]
    del lines[0]["time_control"]
    for line in lines:
        if line["type"] == "press":
            line["side"] = "white"
    stream.write_text("".join(json.dumps(o) + "\n" for o in lines), encoding="utf-8")
    journal = tmp_path / "j.jsonl"
    done = arbiter("play", "--events", str(stream), "--journal", str(journal), "--display", "plain")
    assert done.returncode == 0, done.stderr
    rulings = rulings_of(journal)
    assert [r["uci"] for r in rulings if r["type"] == "move"] == MOVES.split()
    assert not [r for r in rulings if r["type"] in ("illegal", "penalty")]
    over = [r for r in rulings if r["type"] == "game_over"]
    # White, to move after the twelfth ply, resigns
    assert [(r["result"], r["reason"]) for r in over] == [("0-1", "resignation")]
