"""A pulled cable, more plies than `max_plies` while it is out, and the pieces put back one at
a time in reverse move order (issue 17: put-back rulings), through `arbiter play`.

After 1. e4 the players make 4 plies (1... e6 2. d4 d5 3. Nc3) while a virtual DGT board's
cable is out; the board plugged back shows a position the program cannot explain (a
`mismatch`). The arbiter then takes the plies back by hand, last first, one piece at a time:
each board on the way (1. e4 plus 3, 2, 1 plies) is a legal position, and none may become a
move (before, 1... e6 2. d4 became moves). The players then play another game from the
restored position (1... e5 ... 4. Qxf7#); the PGN must be that game.
"""

from __future__ import annotations

import time
from pathlib import Path

import chess
import pytest

from rules.events import Lift, Place
from tests.faults.harness import HAND_S, Fault, Players, journal_game, pgn_moves, wait_for

pytestmark = pytest.mark.faults

#: a short game that ends in mate (1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#)
SCHOLARS = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
#: what the players play while the cable is out, after 1. e4 (then taken back)
WHILE_DOWN = ["e7e6", "d2d4", "d7d5", "b1c3"]


class ReverseOrder(Players):
    """An arbiter who takes back the plies made while the board was away, last first,
    one piece at a time (every piece of a ply off, then its pieces back)."""

    def strike(self, fault: Fault, move: chess.Move, done_steps: int) -> None:
        game = self.moves
        self.moves = game[: self.position.ply()] + [chess.Move.from_uci(u) for u in WHILE_DOWN]
        try:
            super().strike(fault, move, done_steps)  # the plies while down are WHILE_DOWN
        finally:
            self.moves = game

    def put_back(self, have: chess.BaseBoard, want: chess.BaseBoard) -> None:
        board = chess.Board()
        for move in self.moves[: self.position.ply()]:
            board.push(move)
        while board.ply() > len(journal_game(self.journal)[0].board.move_stack):
            after = board.copy(stack=False)
            board.pop()
            differ = [sq for sq in chess.SQUARES if after.piece_at(sq) != board.piece_at(sq)]
            for sq in differ:
                piece = after.piece_at(sq)
                if piece is not None:
                    self.board.act(Lift(t=0.0, square=chess.square_name(sq), piece=piece.symbol()))
                    self.wait_steps()
            for sq in differ:
                piece = board.piece_at(sq)
                if piece is not None:
                    self.board.act(Place(t=0.0, square=chess.square_name(sq), piece=piece.symbol()))
                    self.wait_steps()
            self.log.append(f"put back: the board shows ply {board.ply()}")
        wait_for(
            "the program to see the board put back",
            lambda: journal_game(self.journal)[0].phase.value == "playing",
            self.process,
        )

    def wait_steps(self) -> None:
        time.sleep(HAND_S * 4)  # a hand putting pieces back is slower than one moving


def test_plies_put_back_in_reverse_order_are_not_moves(tmp_path: Path) -> None:
    moves = [chess.Move.from_uci(u) for u in SCHOLARS]
    cable = Fault(ply=1, kind="cable", down_plies=len(WHILE_DOWN))
    players = ReverseOrder("dgt", moves, tmp_path, [cable])
    done = players.play()
    story = "\n".join(done.log)
    assert done.status == 0, f"{story}\n{done.out[-2000:]}{done.err}"
    assert done.mismatches == 1, story
    assert pgn_moves(done.pgn.read_text(encoding="utf-8")) == (SCHOLARS, "1-0"), story
    _, rulings, _ = journal_game(done.journal)
    assert not [r for r in rulings if r.type in ("illegal", "penalty", "violation")], story
