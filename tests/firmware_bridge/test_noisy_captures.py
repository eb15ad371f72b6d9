"""Real games as each board sends them, damaged as real lines damage them, decoded by
`arbiter decode` and replayed by the rules core (`firmware_bridge.sim.noisy`).

What a careful arbiter expects, per kind of damage:

- **whatever a later report restores** (line noise, unsolicited messages, repeated reports,
  a board turned round, DGT's odd update orders, pieces slid across squares, Certabo partial
  reads, and every frame a protocol can tell is bad: Millennium parity and XOR checks,
  Certabo's record framing, flicker filter and weak reads, DGT framing with the dump the
  host then asks for, Chessnut's next header inside a cut message): exactly the game's
  moves. Where the damage showed the rules a board no hand made for a moment (a cut or
  flipped frame), the only other rulings allowed are provisional ones an arbiter's screen
  shows and the next report clears: an `illegal` not completed (4.7), a `mismatch` (7.4);
  and the game's own end (`game_over` by mate or stalemate);
- **what destroys information no later report restores** has tests of its own below.
- **bit flips on boards without a checksum** (DGT, Chessnut) can make a valid message that
  says something else; the decode must not crash, and one known case is an expected failure.
- **Sentio** (occupancy only) is checked for the damage that loses no record: a lost record
  can hide for good the moment a capture's square stood empty.

Each case is decoded in-process by the same code as `arbiter decode` (`decode_stream`); a few
run the command itself as a subprocess, from a capture and from a raw file.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

from arbiter.cli.decode import DecodeStats, decode_stream
from firmware_bridge.codecs.base import Codec
from firmware_bridge.registry import codec_class
from firmware_bridge.sim.noisy import (
    BOARD_KINDS,
    PROTOCOLS,
    WIRE_RATE,
    Frame,
    Wire,
    board_wire,
    noisy_wire,
)
from rules.events import Event, Sensor, Start, parse_line
from rules.replay import replay

ROOT = Path(__file__).resolve().parents[2]
#: real games sampled (seeded) from the first 200 of real-games.pgn
GAME_COUNT = 3
#: the game's own end (a mate, a stalemate, a dead position the moves reach)
ENDINGS = {"game_over"}
#: provisional rulings a damaged frame may cause before the next report clears them
PROVISIONAL = {"illegal_provisional", "mismatch"}
#: kinds whose damage the rules never see: no ruling but moves (and duties)
QUIET = {"clean", "noise", "unsolicited", "repeat", "rotated", "odd_order", "slide"}
#: per protocol, the kinds decoded exactly (moves == the game's)
EXACT: dict[str, tuple[str, ...]] = {
    "dgt": ("clean", "noise", "cut", "unsolicited", "repeat", "rotated", "odd_order", "slide"),
    "millennium": (
        "clean",
        "noise",
        "bitflip",
        "cut",
        "unsolicited",
        "bad_check",
        "bad_parity",
        "repeat",
        "rotated",
        "slide",
        "combined",
    ),
    "certabo": (
        "clean",
        "noise",
        "bitflip",
        "cut",
        "unsolicited",
        "repeat",
        "rotated",
        "partial",
        "combined",
    ),
    "chessnut": ("clean", "noise", "cut", "unsolicited", "repeat", "rotated", "slide"),
    # occupancy only (3.4): a lost record may hide a capture's empty square for good
    "sentio": ("clean", "noise", "unsolicited", "repeat", "rotated"),
}


@pytest.fixture(scope="module")
def games(shared: Path) -> list[tuple[int, list[chess.Move]]]:
    picks = sorted(random.Random(5).sample(range(200), GAME_COUNT))
    out = []
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        for index in range(picks[-1] + 1):
            game = chess.pgn.read_game(handle)
            assert game is not None
            if index in picks:
                out.append((index, list(game.mainline_moves())))
    return out


def codec_of(wire: Wire) -> Codec:
    cls = codec_class(wire.protocol)
    if wire.protocol == "certabo":
        return cls(calibration=wire.calibration)  # type: ignore[call-arg]
    if wire.protocol == "sentio":  # occupancy cannot tell: the orientation is configured
        return cls(orientation="rotated" if wire.rotated else "normal")  # type: ignore[call-arg]
    return cls()


def decode(wire: Wire, *, raw: bool = False) -> tuple[list[Event], DecodeStats]:
    """`arbiter decode` in-process: the capture (or the raw bytes) through `decode_stream`."""
    data = wire.raw() if raw else wire.capture_lines().encode()
    stats = DecodeStats()
    handle = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
    return list(decode_stream(codec_of(wire), handle, "capture", stats)), stats


def rulings_of(wire: Wire, events: list[Event]) -> tuple[list[str], list[dict]]:
    """The moves the rules make of `events` with the codec's sensor settings and
    `auto_press` (a board without a clock), and every other ruling but duties and clocks."""
    start = Start(t=0.0, auto_press=True, **codec_of(wire).sensor_settings)
    rulings = replay([start, *events])
    others = [r.to_dict() for r in rulings if r.type not in ("move", "obligation", "clock")]
    return [r.uci for r in rulings if r.type == "move"], others


def kind_of(ruling: dict) -> str:
    if ruling["type"] == "illegal" and not ruling.get("completed"):
        return "illegal_provisional"
    return str(ruling["type"])


CASES = [(p, k) for p in PROTOCOLS for k in EXACT[p]]


@pytest.mark.parametrize(("protocol", "kind"), CASES, ids=[f"{p}-{k}" for p, k in CASES])
def test_damaged_capture_still_gives_the_game(
    protocol: str, kind: str, games: list[tuple[int, list[chess.Move]]]
) -> None:
    for index, moves in games:
        wire = noisy_wire(protocol, moves, kind, seed=index)
        if kind not in ("clean", *BOARD_KINDS[protocol]):
            assert sum(wire.damaged.values()) > 0, "the damage did nothing"
        events, stats = decode(wire)
        got, others = rulings_of(wire, events)
        assert got == wire.moves, (index, others[:4])
        allowed = ENDINGS if kind in QUIET else ENDINGS | PROVISIONAL
        assert {kind_of(r) for r in others} <= allowed, (index, others[:4])
        if kind in ("noise", "bitflip", "cut", "bad_check", "bad_parity", "combined"):
            assert stats.dropped_bytes > 0, "the decode says nothing of what it dropped"
        if kind in ("clean", "repeat", "rotated", "slide", "odd_order"):
            assert stats.dropped_bytes == 0
            assert not [e for e in events if isinstance(e, Sensor)]


@pytest.mark.parametrize("protocol", ["dgt", "chessnut"])
def test_bit_flips_without_a_checksum_never_crash_the_decode(
    protocol: str, games: list[tuple[int, list[chess.Move]]]
) -> None:
    """DGT and Chessnut frames carry no checksum: a flip may leave a valid message that
    says something else. Decoding and replaying must still run to the end."""
    for index, moves in games:
        for kind in ("bitflip", "combined"):
            wire = noisy_wire(protocol, moves, kind, seed=index)
            events, stats = decode(wire)
            assert stats.dropped_bytes > 0 or kind == "bitflip", kind  # combined: noise
            got, _ = rulings_of(wire, events)
            assert got, kind


@pytest.mark.xfail(
    strict=True,
    reason="DGT has no checksum: a flipped index bit makes 8E put the rook on g8, not h8; the "
    "dump the host asks 0.25 s after the last update arrives 0.32 s after it, after slide_s "
    "0.3 released the rook, so Rg8 stands (a host quiet period under slide_s minus the "
    "dump's 70 ms would let the dump correct it)",
)
def test_a_dgt_flip_to_another_square_is_corrected_by_the_dump(shared: Path) -> None:
    wire = noisy_wire("dgt", _game(shared, 2), "bitflip", seed=2)
    got, _ = rulings_of(wire, decode(wire)[0])
    assert got == wire.moves


def test_certabo_weak_reads_in_two_records_of_three_at_a_slower_rate(shared: Path) -> None:
    """Weak reads of the same square in two of three records (at 0.25 s a record: 0.5 s,
    as long as Certabo's `noise_s`) would pass the majority filter if they counted as empty;
    a weak read keeps the square's piece (3.1), so the game comes out whole."""
    moves = _game(shared, 189)
    wire = board_wire("certabo", moves, seed=189, partial=True, record_s=0.25)
    got, others = rulings_of(wire, decode(wire)[0])
    assert got == wire.moves
    assert {kind_of(r) for r in others} <= ENDINGS


def _game(shared: Path, index: int) -> list[chess.Move]:
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        for _ in range(index + 1):
            game = chess.pgn.read_game(handle)
    assert game is not None
    return list(game.mainline_moves())


def _without(wire: Wire, lost: Frame) -> Wire:
    return Wire(
        wire.protocol,
        [f for f in wire.frames if f is not lost],
        wire.moves,
        wire.rotated,
        wire.calibration,
        states=wire.states,
    )


def _captured_at_once(moves: list[chess.Move]) -> int:
    """The first ply whose moved piece the very next ply captures on its square."""
    board = chess.Board()
    for ply, move in enumerate(moves[:-1]):
        board.push(move)
        following = moves[ply + 1]
        if board.is_capture(following) and following.to_square == move.to_square:
            return ply
    raise AssertionError("no recapture in this game")


@pytest.mark.parametrize("protocol", ["millennium", "chessnut"])
def test_the_last_report_of_the_game_lost(
    protocol: str, games: list[tuple[int, list[chess.Move]]]
) -> None:
    """A board that reports only changes: when the report of the game's last placement is
    lost, nothing after it shows that piece down. The last move is not made (the player
    still seems to hold the piece); no other move is, and nothing is invented."""
    _, moves = games[0]
    wire = board_wire(protocol, moves)
    last = wire.frames[-1]
    assert last.last
    got, others = rulings_of(wire, decode(_without(wire, last))[0])
    assert got == wire.moves[:-1]
    assert not [r for r in others if r["type"] in ("illegal", "penalty", "game_over")]


@pytest.mark.parametrize("protocol", ["millennium", "chessnut"])
def test_a_placement_lost_then_captured_at_once(
    protocol: str, games: list[tuple[int, list[chess.Move]]]
) -> None:
    """The report of a placement is lost and the opponent takes that piece at once: no
    report ever shows it down. The board later shows both plies made (two plies, within
    `max_plies`): a careful arbiter takes them (inferred); he never stays silent for the
    rest of the game."""
    _, moves = games[0]
    ply = _captured_at_once(moves)
    wire = board_wire(protocol, moves)
    placed = [f for f in wire.frames if f.ply == ply and f.role == "update"][-1]
    got, others = rulings_of(wire, decode(_without(wire, placed))[0])
    assert got == wire.moves, others[:4]  # the two plies are made together, inferred
    assert not [r for r in others if r["type"] in ("illegal", "penalty", "mismatch")]


# ---- `arbiter decode` itself ---------------------------------------------------------------


def run_decode(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "decode", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("protocol", ["dgt", "millennium", "chessnut"])
def test_arbiter_decode_of_a_combined_capture_replays_to_the_game(
    protocol: str, games: list[tuple[int, list[chess.Move]]], tmp_path: Path
) -> None:
    index, moves = games[1]
    kind = "combined" if protocol == "millennium" else "cut"
    wire = noisy_wire(protocol, moves, kind, seed=index)
    path = tmp_path / "capture.jsonl"
    path.write_text(wire.capture_lines(), encoding="utf-8")
    result = run_decode("--protocol", protocol, "--start", path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    events = [parse_line(line) for line in result.stdout.splitlines()]
    assert isinstance(events[0], Start)
    dropped = sum(e.bytes or 0 for e in events if isinstance(e, Sensor) and e.status == "dropped")
    assert dropped > 0
    assert f"dropped {dropped} bytes in " in result.stderr
    start = events[0]
    rulings = replay([Start(t=0.0, auto_press=True, **_settings(start)), *events[1:]])
    assert [r.uci for r in rulings if r.type == "move"] == wire.moves


def _settings(start: Start) -> dict[str, float]:
    return {"noise_s": start.noise_s, "slide_s": start.slide_s, "latency_s": start.latency_s}


@pytest.mark.parametrize("protocol", ["dgt", "millennium", "certabo"])
def test_a_raw_noisy_file_is_stamped_at_the_wire_rate(
    protocol: str, games: list[tuple[int, list[chess.Move]]], tmp_path: Path
) -> None:
    index, moves = games[2]
    wire = noisy_wire(protocol, moves[:30], "noise", seed=index)
    raw = wire.raw()
    path = tmp_path / "board.bin"
    path.write_bytes(raw)
    args: list[str | Path] = ["--protocol", protocol, path]
    if protocol == "certabo":
        assert wire.calibration is not None
        calibration = tmp_path / "certabo.json"
        wire.calibration.save(calibration)
        args += ["--calibration", calibration]
    result = run_decode(*args)
    assert result.returncode == 0, result.stderr
    assert "not for replay" in result.stderr
    assert "dropped" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    times = [line["t"] for line in lines]
    assert times == sorted(times)
    per_byte = 1 / WIRE_RATE[protocol]
    # every event is stamped no later than the last byte's time at the wire rate
    assert 0 < times[-1] <= (len(raw) - 1) * per_byte + 1e-9
    # the in-process decoder gives the same events
    events, stats = decode(wire, raw=True)
    assert stats.raw
    assert [e.to_dict() for e in events] == lines


def test_decode_of_a_truncated_capture_line_names_it_after_the_events(
    games: list[tuple[int, list[chess.Move]]], tmp_path: Path
) -> None:
    _, moves = games[0]
    text = noisy_wire("dgt", moves[:10], "noise", seed=1).capture_lines()
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: len(text) * 2 // 3], encoding="utf-8")  # a line cut in two
    result = run_decode("--protocol", "dgt", path)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "line" in result.stderr
    assert result.stdout.count("\n") > 5


def test_dgt_asks_for_a_dump_at_once_after_lost_bytes() -> None:
    """No checksum (1.3): bytes lost may have been a field update, so the codec asks for a
    board dump at the next `poll` instead of after the quiet period."""
    from firmware_bridge.codecs.dgt import DgtCodec

    codec = DgtCodec()
    codec.feed(bytes.fromhex("8E 00 05 34 00"), 10.0)
    assert codec.poll(10.05) == b""  # the quiet period runs
    events = codec.feed(bytes.fromhex("8E 00") + bytes.fromhex("8E 00 05 24 01"), 10.1)
    assert [e.type for e in events] == ["sensor", "place"]
    assert codec.poll(10.11) == b"\x42"
    assert codec.poll(10.5) == b""  # once


@pytest.mark.parametrize("protocol", ["sentio", "dgt"])
def test_decode_rotated_for_a_board_turned_round(
    protocol: str, games: list[tuple[int, list[chess.Move]]], tmp_path: Path
) -> None:
    """A Sentio cannot see how it is seated (occupancy only, 3.4): `--rotated` says it. A
    DGT board finds it from its first dump, and `--rotated` agrees."""
    _, moves = games[0]
    wire = noisy_wire(protocol, moves[:20], "rotated", seed=3)
    path = tmp_path / "turned.jsonl"
    path.write_text(wire.capture_lines(), encoding="utf-8")
    outcomes = {}
    for flags in ([], ["--rotated"]):
        result = run_decode("--protocol", protocol, "--start", *flags, path)
        assert result.returncode == 0, result.stderr
        events = [parse_line(line) for line in result.stdout.splitlines()]
        assert isinstance(events[0], Start)
        start = Start(t=0.0, auto_press=True, **_settings(events[0]))
        rulings = replay([start, *events[1:]])
        outcomes[bool(flags)] = [r.uci for r in rulings if r.type == "move"]
    assert outcomes[True] == wire.moves
    assert (outcomes[False] == wire.moves) is (protocol == "dgt")


@pytest.mark.parametrize("kept", [1, 2, 20, 36, 37])
def test_a_chessnut_position_cut_short_gives_way_to_the_next(kept: int) -> None:
    """No checksum (4.2): a position cut after `kept` bytes would take the next message's
    first bytes for its rest. The next position's `01 24` inside it shows the cut, wherever
    it falls, the cut message's last byte included."""
    from firmware_bridge.codecs.chessnut import ChessnutCodec
    from firmware_bridge.sim.chessnut_board import ChessnutBoard

    board = ChessnutBoard(reporting=True)
    first = board.position_message()
    after = board.lift("e2")
    events = ChessnutCodec().feed(first[:kept] + after, 1.0)
    snapshots = [e.board for e in events if e.type == "snapshot"]  # type: ignore[attr-defined]
    assert snapshots == ["rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"]
    assert [e.type for e in events] == ["sensor", "snapshot"]
