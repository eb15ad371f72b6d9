"""Latency over the pty: from the last byte of a DGT field update written by the board to the
codec's event out of the BoardSource, and to the rules' `move` ruling in a live loop.

Run with `-s` to see the figures. The bounds are loose (a loaded CI machine), but a transport
that polled slowly (e.g. waiting a full read timeout before handing bytes on) fails them.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import chess.pgn
import pytest

from firmware_bridge.source import BoardSource
from firmware_bridge.virtual import VirtualBoard
from rules.events import Event, Lift, Place, Snapshot, Start
from rules.game import Game
from rules.rulings import MoveStands

#: a virtual board on a pseudo-terminal, read in real time (by a real program)
pytestmark = pytest.mark.realtime


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def wait_for(source: BoardSource, kind: type[Event], limit: float = 2.0) -> tuple[Event, float]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for event in source.poll_events(0.5):
            if isinstance(event, kind):
                return event, time.monotonic()
    raise AssertionError(f"no {kind.__name__} within {limit} s")


def started_dgt() -> tuple[VirtualBoard, BoardSource]:
    board = VirtualBoard("dgt").start()
    source = BoardSource(f"dgt:{board.path}", step_s=0.05).start()
    wait_for(source, Snapshot)
    return board, source


def written_at(board: VirtualBoard) -> float:
    assert board.last_write is not None
    return board.last_write[0]


def test_field_update_to_event_latency() -> None:
    board, source = started_dgt()
    stamped, delivered = [], []
    try:
        for i in range(300):
            event: Event = (
                Lift(t=0.0, square="e2") if i % 2 == 0 else Place(t=0.0, square="e2", piece="P")
            )
            board.act(event)
            sent = written_at(board)
            got, at = wait_for(source, type(event))
            stamped.append(got.t - (sent - source.zero))
            delivered.append(at - sent)
    finally:
        source.close()
        board.close()
    ms = [1000 * x for x in delivered]
    ms_stamp = [1000 * x for x in stamped]
    print(
        f"\nDGT field update -> event over the pty (300 updates): delivered median"
        f" {statistics.median(ms):.2f} ms, p99 {percentile(ms, 99):.2f} ms;"
        f" stamped median {statistics.median(ms_stamp):.2f} ms,"
        f" p99 {percentile(ms_stamp, 99):.2f} ms"
    )
    assert min(stamped) >= 0
    assert statistics.median(ms) < 20
    assert percentile(ms, 99) < 100


@pytest.mark.slow
def test_field_update_to_move_ruling_latency(shared: Path) -> None:
    with (shared / "data" / "games" / "real-games.pgn").open(encoding="utf-8") as handle:
        pgn = chess.pgn.read_game(handle)
    assert pgn is not None
    moves = list(pgn.mainline_moves())[:40]
    board, source = started_dgt()
    settings = source.start_settings()
    game = Game(Start(t=source.session_time(), auto_press=True, **settings))
    position = chess.Board()
    latencies: list[float] = []
    rules_cpu: list[float] = []  # time spent inside game.handle/advance per ply
    try:
        for move in moves:
            for lift_or_place in _piece_events(position, move):
                board.act(lift_or_place)
            sent = written_at(board)
            ruling_at = None
            cpu = 0.0
            deadline = time.monotonic() + 3
            while ruling_at is None:
                assert time.monotonic() < deadline, f"no move ruling for {move.uci()}"
                due = game.next_deadline()
                wait = 0.2 if due is None else max(0.0, due - source.session_time())
                events = source.poll_events(min(wait, 0.2))
                began = time.perf_counter()
                rulings = [r for event in events for r in game.handle(event)]
                rulings += game.advance(source.session_time())
                cpu += time.perf_counter() - began
                for ruling in rulings:
                    if isinstance(ruling, MoveStands):
                        assert ruling.uci == move.uci()
                        ruling_at = time.monotonic()
            latencies.append(ruling_at - sent)
            rules_cpu.append(cpu)
            position.push(move)
    finally:
        source.close()
        board.close()
    slide = settings["slide_s"]
    ms = [1000 * x for x in latencies]
    net = [1000 * (x - slide) for x in latencies]
    io = [1000 * (x - slide - c) for x, c in zip(latencies, rules_cpu, strict=True)]
    print(
        f"\nDGT last field update -> move ruling ({len(moves)} plies): median"
        f" {statistics.median(ms):.1f} ms, p99 {percentile(ms, 99):.1f} ms in all;"
        f" without slide_s ({slide} s): median {statistics.median(net):.1f} ms,"
        f" p99 {percentile(net, 99):.1f} ms; of which rules CPU up to"
        f" {1000 * max(rules_cpu):.1f} ms; without it: median {statistics.median(io):.1f} ms,"
        f" p99 {percentile(io, 99):.1f} ms"
    )
    assert statistics.median(net) < 30
    assert percentile(io, 99) < 60


def _piece_events(position: chess.Board, move: chess.Move) -> list[Event]:
    from firmware_bridge.virtual import moves_to_events

    return moves_to_events([move], board=position, first_t=0.0)
