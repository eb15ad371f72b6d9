"""A relay's reader of the broadcast folder (as Lichess Broadcaster or a pgn4web viewer polls
DGT LiveChess's export): the round's index, then each game's PGN, following the moves."""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess.pgn


class Relay:
    """What a relay does with the folder: poll it, and follow each game's moves."""

    def __init__(self, folder: Path, round_number: int) -> None:
        self.folder = folder
        self.round = round_number
        self.seen: dict[int, list[str]] = {}

    def poll(self) -> dict[int, list[str]]:
        tournament = json.loads((self.folder / "tournament.json").read_text(encoding="utf-8"))
        count = tournament["rounds"][self.round - 1]["count"]
        index = json.loads(
            (self.folder / f"round-{self.round}/index.json").read_text(encoding="utf-8")
        )
        assert len(index["pairings"]) == count
        for board in range(1, count + 1):
            path = self.folder / f"round-{self.round}/game-{board}.pgn"
            if not path.exists():
                continue
            game = chess.pgn.read_game(io.StringIO(path.read_text(encoding="utf-8")))
            assert game is not None
            sans = [n.san() for n in game.mainline()]
            before = self.seen.get(board, [])
            assert sans[: len(before)] == before, "a relay never sees moves taken back"
            self.seen[board] = sans
        return self.seen


class CloudReader:
    """What a reader of LiveChess's cloud feed does with `round-N/game-M.json`: each move's
    first word is its SAN (the open readers take only that), the next its clock."""

    def __init__(self, folder: Path, round_number: int) -> None:
        self.folder = folder
        self.round = round_number
        self.seen: dict[int, list[str]] = {}
        self.clocks: dict[int, list[int | None]] = {}
        self.results: dict[int, str] = {}

    def poll(self) -> dict[int, list[str]]:
        for path in sorted((self.folder / f"round-{self.round}").glob("game-*.json")):
            board = int(path.stem.split("-")[1])
            data = json.loads(path.read_text(encoding="utf-8"))
            assert data["serialNr"] == str(board) and isinstance(data["live"], bool)
            position = chess.Board()
            sans, clocks = [], []
            for move in data["moves"]:
                san, _, clock = move.partition(" ")
                position.push_san(san)  # every move is legal from the start
                sans.append(san)
                clocks.append(int(clock.split("+")[0]) if clock else None)
            before = self.seen.get(board, [])
            assert sans[: len(before)] == before, "a reader never sees moves taken back"
            self.seen[board] = sans
            self.clocks[board] = clocks
            self.results[board] = data["result"]
        return self.seen
