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
