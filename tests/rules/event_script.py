"""A small builder of physical event streams for rules tests: `L e2`, `P e4`, `press`, ...

Times advance by `dt` (default 1 s, longer than noise_s and slide_s) unless a step says
otherwise, so each test reads like the Laws' scenarios.
"""

from __future__ import annotations

from typing import Any

import chess

from rules.events import (
    ARBITER_ACTION_TYPES,
    Accept,
    Adjust,
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
    Touch,
)
from rules.game import Game
from rules.rulings import Ruling


class Script:
    """Events of one game, built step by step, ruled by a fresh `Game`."""

    def __init__(
        self, fen: str | None = None, *, time_control: str | None = "5400+30", **settings: Any
    ) -> None:
        self.t = 0.0
        self.board = chess.Board(fen) if fen else chess.Board()
        self.events: list[Event] = [Start(t=0.0, fen=fen, time_control=time_control, **settings)]

    def _at(self, dt: float) -> float:
        self.t = round(self.t + dt, 6)
        return self.t

    def lift(
        self, square: str, piece: str | None = "auto", *, side: str | None = None, dt: float = 1.0
    ) -> Script:
        if piece == "auto":
            p = self.board.piece_at(chess.parse_square(square))
            piece = p.symbol() if p else None
        self.events.append(Lift(t=self._at(dt), square=square, piece=piece, side=side))
        return self

    def place(
        self, square: str, piece: str | None, *, side: str | None = None, dt: float = 1.0
    ) -> Script:
        self.events.append(Place(t=self._at(dt), square=square, piece=piece, side=side))
        return self

    def touch(self, square: str, side: str | None = None, *, dt: float = 1.0) -> Script:
        side = side or ("white" if self.board.turn else "black")
        self.events.append(Touch(t=self._at(dt), square=square, side=side))
        return self

    def press(self, side: str | None = None, *, dt: float = 0.5) -> Script:
        side = side or ("white" if self.board.turn else "black")
        self.events.append(Press(t=self._at(dt), side=side))
        return self

    def add(self, cls: type[Event], dt: float = 1.0, **fields: Any) -> Script:
        self.events.append(cls(t=self._at(dt), **fields))
        return self

    def adjust(self, side: str) -> Script:
        return self.add(Adjust, side=side)

    def claim(self, side: str, kind: str = "any", move: str | None = None) -> Script:
        return self.add(Claim, side=side, kind=kind, move=move)

    def offer(self, side: str) -> Script:
        return self.add(Offer, side=side)

    def accept(self, side: str) -> Script:
        return self.add(Accept, side=side)

    def resign(self, side: str) -> Script:
        return self.add(Resign, side=side)

    def promote(self, side: str, piece: str) -> Script:
        return self.add(Promote, side=side, piece=piece)

    def arbiter(self, action: str, **fields: Any) -> Script:
        return self.add(ARBITER_ACTION_TYPES[action], **fields)

    def tick(self, dt: float) -> Script:
        return self.add(Tick, dt=dt)

    def snapshot(self, board: str, *, dt: float = 1.0, seen_at: float | None = None) -> Script:
        self.events.append(Snapshot(t=self._at(dt), board=board, seen_at=seen_at))
        return self

    def play(self, *sans: str, pressed: bool = True) -> Script:
        """Play moves the ordinary way: lift, (take), place, press."""
        for san in sans:
            move = self.board.parse_san(san)
            self._hands(move)
            self.board.push(move)
            if pressed:
                self.press(side="black" if self.board.turn else "white")
        return self

    def _hands(self, move: chess.Move) -> None:
        b = self.board
        frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
        piece = b.piece_at(move.from_square)
        assert piece is not None
        if b.is_castling(move):
            rank = "1" if b.turn else "8"
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rook_from, rook_to = (
                ("h" if kingside else "a") + rank,
                ("f" if kingside else "d") + rank,
            )
            self.lift(frm).place(to, piece.symbol()).lift(rook_from).place(
                rook_to, "R" if b.turn else "r"
            )
            return
        if b.is_en_passant(move):
            taken = chess.square_name(move.to_square + (-8 if b.turn else 8))
            self.lift(frm).lift(taken).place(to, piece.symbol())
            return
        if b.is_capture(move):
            self.lift(to)
        self.lift(frm)
        symbol = piece.symbol()
        if move.promotion:
            symbol = chess.Piece(move.promotion, b.turn).symbol()
        self.place(to, symbol)

    def rulings(self, *, strict: bool | None = None, finish: bool = True) -> list[Ruling]:
        start = self.events[0]
        assert isinstance(start, Start)
        if strict is not None:
            from dataclasses import replace

            start = replace(start, strict=strict)
        game = Game(start)
        out: list[Ruling] = []
        for ev in self.events[1:]:
            out.extend(game.handle(ev))
        if finish:
            out.extend(game.finish())
        self.game = game
        return out


def of(rulings: list[Ruling], rtype: str, /, **match: Any) -> list[Ruling]:
    """The rulings of type `rtype` whose fields include `match`."""
    found = []
    for r in rulings:
        if r.type != rtype:
            continue
        d = r.to_dict()
        if all(d.get(k) == v for k, v in match.items()):
            found.append(r)
    return found


def moves(rulings: list[Ruling]) -> list[str]:
    return [r.uci for r in rulings if r.type == "move"]


def over(rulings: list[Ruling]) -> tuple[str, str] | None:
    g = [r for r in rulings if r.type == "game_over"]
    return (g[0].result, g[0].reason) if g else None
