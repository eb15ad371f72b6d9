"""`arbiter decode`: captures and raw byte files into contract events, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import pytest

from firmware_bridge.capture import CaptureWriter
from firmware_bridge.sim.certabo_board import CertaboBoard
from firmware_bridge.sim.dgt_board import DgtBoardModel
from firmware_bridge.sim.millennium_board import MillenniumBoard
from firmware_bridge.source import BoardSource
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Start, parse_event
from rules.replay import replay
from rules.rulings import MoveStands

ROOT = Path(__file__).resolve().parents[2]
INITIAL = chess.STARTING_BOARD_FEN


def decode(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "decode", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def lines_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def first_game(shared: Path) -> chess.pgn.Game:
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    assert game is not None
    return game


def test_a_live_capture_decodes_to_the_live_events_and_replays_to_the_game(
    shared: Path, tmp_path: Path
) -> None:
    game = first_game(shared)
    moves = list(game.mainline_moves())[:30]
    speed = 12.0
    board = VirtualBoard("dgt", moves_to_events(moves), speed=speed).start()
    capture = tmp_path / "game.jsonl"
    assert board.started_at is not None
    source = BoardSource(
        f"dgt:{board.path}",
        capture_path=capture,
        clock=lambda: time.monotonic() * speed,
        zero=board.started_at * speed,
        step_s=0.003,
    ).start()
    live = []
    try:
        while not board.wait_done(0):
            live += source.poll_events(0.05)
        end = time.monotonic() + 1.0 / speed
        while time.monotonic() < end:
            live += source.poll_events(0.02)
    finally:
        source.close()
        board.close()
    result = decode("--protocol", "dgt", capture)
    assert result.returncode == 0, result.stderr
    assert "not for replay" not in result.stderr
    decoded = lines_of(result.stdout)
    assert decoded[0]["type"] == "snapshot" and decoded[0]["board"] == INITIAL
    expected = [e.to_dict() for e in live]
    assert [{k: v for k, v in d.items() if k != "t"} for d in decoded] == [
        {k: v for k, v in d.items() if k != "t"} for d in expected
    ]
    assert [d["t"] for d in decoded] == pytest.approx([d["t"] for d in expected], abs=2e-6)
    # with --start the output is a stream the rules take as it is
    result = decode("--protocol", "dgt", "--start", capture)
    events = [parse_event(d) for d in lines_of(result.stdout)]
    assert isinstance(events[0], Start) and events[0].slide_s == 0.3
    start = Start(t=0.0, auto_press=True, noise_s=0.3, slide_s=0.3, latency_s=0.3)
    rulings = replay([start, *events[1:]])
    assert [r.uci for r in rulings if isinstance(r, MoveStands)] == [m.uci() for m in moves]


def dgt_raw_game(moves: list[chess.Move]) -> tuple[bytes, list[int]]:
    """A DGT board's bytes for the start-up dump and `moves`, and where each message ends."""
    model = DgtBoardModel()
    model.receive(bytes([0x4B]))
    messages = [model.dump()]
    board = chess.Board()
    for move in moves:
        updates = model.play(board, move)
        messages += [updates[i : i + 5] for i in range(0, len(updates), 5)]
        board.push(move)
    ends, total = [], 0
    for message in messages:
        total += len(message)
        ends.append(total - 1)
    return b"".join(messages), ends


def test_a_raw_dgt_file_is_stamped_at_the_wire_rate(shared: Path, tmp_path: Path) -> None:
    moves = list(first_game(shared).mainline_moves())
    data, ends = dgt_raw_game(moves)
    path = tmp_path / "raw.bin"
    path.write_bytes(data)
    result = decode("--protocol", "dgt", path)
    assert result.returncode == 0, result.stderr
    assert "raw bytes" in result.stderr and "not for replay" in result.stderr
    decoded = lines_of(result.stdout)
    assert decoded[0] == {"t": 66 * 10 / 9600, "type": "snapshot", "board": INITIAL}
    assert len(decoded) == len(ends)
    assert [d["t"] for d in decoded] == pytest.approx([i * 10 / 9600 for i in ends])
    assert {d["type"] for d in decoded[1:]} == {"lift", "place"}
    # the whole game fits in about a second and a half at 9600 baud
    assert decoded[-1]["t"] == pytest.approx((len(data) - 1) * 10 / 9600)


def test_raw_millennium_and_certabo_files_decode_to_snapshots(tmp_path: Path) -> None:
    mill = MillenniumBoard()
    data = mill.status_frame() + mill.lift("e2") + mill.place("e4", "P")
    path = tmp_path / "mill.bin"
    path.write_bytes(b"\x00garbage" + data)
    result = decode("--protocol", "millennium", path)
    assert result.returncode == 0, result.stderr
    decoded = lines_of(result.stdout)
    assert decoded[0]["type"] == "sensor" and decoded[0]["status"] == "dropped"
    boards = [d["board"] for d in decoded if d["type"] == "snapshot"]
    assert boards == [
        INITIAL,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
    ]
    assert decoded[1]["t"] == pytest.approx((8 + 67 - 1) * 10 / 38400)

    certabo = CertaboBoard(line_break_every=64)
    records = [certabo.record()] * 3 + [certabo.lift("e2")] * 3
    cal = tmp_path / "cal.json"
    certabo.calibration().save(cal)
    path = tmp_path / "certabo.bin"
    path.write_bytes(b"".join(records))
    result = decode("--protocol", "certabo", "--calibration", cal, path)
    assert result.returncode == 0, result.stderr
    boards = [d["board"] for d in lines_of(result.stdout)]
    assert boards == [INITIAL, "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"]


def test_a_chessnut_capture_decodes_but_a_raw_chessnut_file_has_no_wire_rate(
    tmp_path: Path,
) -> None:
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    board = ChessnutBoard(reporting=True)
    path = tmp_path / "chessnut.jsonl"
    with CaptureWriter(path) as capture:
        capture.write(3.25, "tx", bytes([0x21, 0x01, 0x00]))
        capture.write(3.5, "rx", board.position_message())
    result = decode("--protocol", "chessnut", path)
    assert result.returncode == 0, result.stderr
    assert lines_of(result.stdout) == [{"t": 3.5, "type": "snapshot", "board": INITIAL}]
    raw = tmp_path / "chessnut.bin"
    raw.write_bytes(board.position_message())
    result = decode("--protocol", "chessnut", raw)
    assert result.returncode == 2
    assert "no wire rate" in result.stderr and "Traceback" not in result.stderr


def test_a_bad_capture_line_is_named_after_the_events_before_it(tmp_path: Path) -> None:
    model = DgtBoardModel()
    model.receive(bytes([0x4B]))
    path = tmp_path / "bad.jsonl"
    good = [
        json.dumps({"t": 1.0, "rx": model.dump().hex()}),
        json.dumps({"t": 1.5, "rx": model.lift("e2").hex()}),
    ]
    path.write_text("\n".join([*good, '{"t": 2.0, "rx": "8e0005zz"}', good[1]]) + "\n")
    result = decode("--protocol", "dgt", path)
    assert result.returncode == 2
    assert "line 3" in result.stderr and "hex" in result.stderr
    assert "Traceback" not in result.stderr
    decoded = lines_of(result.stdout)
    assert [d["type"] for d in decoded] == ["snapshot", "lift"]
    assert decoded[1] == {"t": 1.5, "type": "lift", "square": "e2", "piece": "P"}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"t": 1.0}', "exactly one of 'rx', 'tx' or 'link'"),
        ('{"t": 1.0, "link": "gone"}', "'link' must be"),
        ('{"rx": "42"}', "'t' must be a number"),
        ('{"t": 1.0, "rx": "42"', "not JSON"),
        ('{"t": 5.0, "rx": "42"}\n{"t": 4.0, "rx": "42"}', "line 2.*backwards"),
    ],
)
def test_malformed_capture_lines(text: str, match: str, tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(text + "\n")
    result = decode("--protocol", "dgt", path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    import re

    assert re.search(match, result.stderr), result.stderr


def test_unknown_protocol_missing_file_and_bad_calibration_are_clean_errors(
    tmp_path: Path,
) -> None:
    raw = tmp_path / "raw.bin"
    raw.write_bytes(b"\x86\x00\x43")
    result = decode("--protocol", "novag", raw)
    assert result.returncode == 2
    assert "unknown board protocol 'novag'" in result.stderr
    assert "dgt, millennium, certabo, sentio, chessnut" in result.stderr
    result = decode("--protocol", "dgt", tmp_path / "nothing.bin")
    assert result.returncode == 2 and "nothing.bin: no such file" in result.stderr
    result = decode("--protocol", "certabo", "--calibration", tmp_path / "none.json", raw)
    assert result.returncode == 2 and "none.json" in result.stderr
    result = decode("--protocol", "dgt", "--calibration", tmp_path / "none.json", raw)
    assert result.returncode == 2 and "Certabo" in result.stderr
    result = decode("--protocol", "dgt", tmp_path)
    assert result.returncode == 2 and "folder" in result.stderr
    for r in (result,):
        assert "Traceback" not in r.stderr
    result = decode("--protocol", "dgt")  # no FILE: argparse's own usage error
    assert result.returncode == 2 and "usage" in result.stderr
