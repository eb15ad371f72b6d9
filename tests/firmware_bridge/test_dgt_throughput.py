"""DGT decode throughput against the wire (`eboard-protocols.md` 1.1: 9600 baud 8N1, i.e.
960 bytes/s). The stream is what a board in UPDATE_NICE mode sends during real games: field
updates for every move, a board dump after each (the codec's quiet-period request), clock
times, and the keep-alive serial-number replies."""

from __future__ import annotations

import time
from pathlib import Path

import chess.pgn

from firmware_bridge.codecs.dgt import DgtCodec
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_times

WIRE_BYTES_PER_S = 9600 / 10


def realistic_stream(shared: Path, games: int) -> bytes:
    out = bytearray()
    with open(shared / "data" / "games" / "real-games.pgn", encoding="utf-8") as pgn:
        for _ in range(games):
            game = chess.pgn.read_game(pgn)
            assert game is not None
            model = DgtBoardModel()
            out += model.receive(DgtCodec().encode_startup())
            board = game.board()
            left, right = 300, 300
            for ply, move in enumerate(game.mainline_moves()):
                out += model.play(board, move)
                board.push(move)
                out += model.receive(b"\x42")  # dump after the quiet period
                left, right = (left - 2, right) if ply % 2 == 0 else (left, right - 2)
                lever = "right" if ply % 2 == 0 else "left"
                out += clock_times(left, right, lever=lever, turn=lever)
                out += model.receive(b"\x45")  # keep-alive reply
    return bytes(out)


def test_decode_is_much_faster_than_the_wire(shared: Path) -> None:
    stream = realistic_stream(shared, 20)
    chunks = [stream[i : i + 32] for i in range(0, len(stream), 32)]  # serial-read sized
    best = float("inf")
    for _ in range(3):
        codec = DgtCodec()
        start = time.perf_counter()
        events = 0
        for k, chunk in enumerate(chunks):
            events += len(codec.feed(chunk, k * 0.01))
        best = min(best, time.perf_counter() - start)
    rate = len(stream) / best
    ratio = rate / WIRE_BYTES_PER_S
    print(
        f"DGT decode: {len(stream)} bytes, {events} events in {best * 1000:.1f} ms: "
        f"{rate:,.0f} bytes/s = {ratio:,.0f}x the 9600-baud wire"
    )
    assert events > 1000
    assert codec.flush(999.0) == []  # the model's stream is clean
    assert ratio > 20  # lenient: a slow CI machine or a Pi must still keep up many times over
