"""What players' hands do at a board, told once and reported as each kind of sensor would.

A `Table` keeps the pieces physically on the board and in the hand. Each step (`lift`,
`place`, `touch`, `press`) is turned into the events that one sensor kind sends for it:

- `identity`: a board that knows each piece (DGT-like): `lift`/`place` with `piece`;
- `occupancy`: a reed-switch board: `lift`/`place` with no piece;
- `pegasus`: an occupancy board whose codec writes `?` on every `place` (the Pegasus);
- `snapshot`: a board reporting the whole board (with kinds) on every change (Millennium);
- `camera`: a colour-only camera: a still scene (`X`/`x`) once the hand has left the board,
  touches seen as `touch` events.

The sensor settings are those of events.md's "Values to start from" (the same as
`arbiter simulate`'s sensor kinds), so the rules core rules each stream as it would live.
"""

from __future__ import annotations

from typing import Any

import chess

from rules.events import Event, Lift, Place, Press, Sensor, Snapshot, Start, Tick, Touch
from rules.game import Game
from rules.rulings import Ruling

KINDS = ("identity", "occupancy", "pegasus", "snapshot", "camera")

#: what a whole-board report of each kind shows: kinds, colours, or occupancy only
REPORTS = {
    "identity": "kinds",
    "occupancy": "occupancy",
    "pegasus": "occupancy",
    "snapshot": "kinds",
    "camera": "colours",
}

SETTINGS: dict[str, dict[str, Any]] = {
    "identity": {"noise_s": 0.3, "slide_s": 0.3, "latency_s": 0.3},
    "occupancy": {"noise_s": 0.05},
    "pegasus": {"noise_s": 0.3, "slide_s": 0.3, "latency_s": 0.3},
    "snapshot": {"noise_s": 0.1},
    "camera": {"slide_s": 0.0, "latency_s": 1.0, "max_plies": 4},
}


class Table:
    """One game's physical board and hands, reported by the sensor `kind`."""

    def __init__(
        self,
        kind: str,
        fen: str | None = None,
        *,
        strict: bool = False,
        time_control: str | None = "5400+30",
        **settings: Any,
    ) -> None:
        self.kind = kind
        board = chess.Board(fen) if fen else chess.Board()
        self.squares: dict[int, chess.Piece] = board.piece_map()
        self.hand: list[chess.Piece] = []
        self.t = 0.0
        self.down = False  # the board's cable is out: the hands play on, nothing is reported
        fields = dict(SETTINGS[kind])
        fields.update(settings)
        self.events: list[Event] = [
            Start(t=0.0, fen=fen, time_control=time_control, strict=strict, **fields)
        ]

    # ------------------------------------------------------------------ steps

    def _at(self, dt: float) -> float:
        self.t = round(self.t + dt, 6)
        return self.t

    def _emit(self, event: Event) -> None:
        if not self.down:
            self.events.append(event)

    def lift(self, square: str, *, dt: float = 1.0) -> Table:
        """A hand lifts the piece on `square`."""
        sq = chess.parse_square(square)
        piece = self.squares.pop(sq)
        self.hand.append(piece)
        t = self._at(dt)
        if self.kind == "identity":
            self._emit(Lift(t=t, square=square, piece=piece.symbol()))
        elif self.kind in ("occupancy", "pegasus"):
            self._emit(Lift(t=t, square=square))
        elif self.kind == "snapshot":
            self._snapshot(t)
        return self

    def place(self, square: str, piece: str | None = None, *, dt: float = 1.0) -> Table:
        """A hand puts down `piece` (default: the piece lifted last) on `square`."""
        sq = chess.parse_square(square)
        if piece is None:
            held = self.hand.pop()
        else:
            held = chess.Piece.from_symbol(piece)
            if held in self.hand:
                self.hand.remove(held)
        self.squares[sq] = held
        t = self._at(dt)
        if self.kind == "identity":
            self._emit(Place(t=t, square=square, piece=held.symbol()))
        elif self.kind == "occupancy":
            self._emit(Place(t=t, square=square))
        elif self.kind == "pegasus":
            self._emit(Place(t=t, square=square, piece="?"))
        elif self.kind == "snapshot":
            self._snapshot(t)
        elif self.kind == "camera" and not self._own_in_hand():
            # the hand has left the board: the still scene comes a little later
            self._at(0.4)
            self._emit(Snapshot(t=self.t, board=self._placement("colours"), seen_at=t))
        return self

    def take_off(self, square: str, *, dt: float = 1.0) -> Table:
        """A captured piece leaves the board for good (it stays beside the board)."""
        self.lift(square, dt=dt)
        self.hand.pop()
        return self

    def move(self, uci: str, *, dt: float = 1.0) -> Table:
        """An ordinary move by hand: the taken piece off first, then lift and place."""
        move = chess.Move.from_uci(uci)
        to = chess.square_name(move.to_square)
        if move.to_square in self.squares:
            self.take_off(to, dt=dt)
        self.lift(chess.square_name(move.from_square), dt=dt)
        self.place(to, dt=dt)
        return self

    def touch(self, square: str, side: str, *, dt: float = 1.0) -> Table:
        """A piece touched: a board sees it lifted and put back; a camera sees the hand."""
        if self.kind == "camera":
            self._emit(Touch(t=self._at(dt), square=square, side=side))
            return self
        return self.lift(square, dt=dt).place(square, dt=dt)

    def press(self, side: str, *, dt: float = 0.5) -> Table:
        self._emit(Press(t=self._at(dt), side=side))
        if self.kind == "camera":
            self.tick(1.5)  # the still scene that the press waits for is the last one
        return self

    def tick(self, dt: float) -> Table:
        self.events.append(Tick(t=self._at(dt)))
        return self

    def sensor(self, status: str, *, dt: float = 1.0) -> Table:
        """The source says `disconnected` (nothing is reported until `reconnected`)."""
        self.down = status == "disconnected"
        self.events.append(Sensor(t=self._at(dt), status=status))
        return self

    def report(self, *, dt: float = 1.0) -> Table:
        """A whole-board report (a reconnected board's first dump, a camera's scene)."""
        self.events.append(Snapshot(t=self._at(dt), board=self._placement(REPORTS[self.kind])))
        return self

    def play(self, *ucis: str) -> Table:
        """Ordinary moves, each pressed by its player."""
        for uci in ucis:
            side = "white" if self._turn_of(uci) else "black"
            self.move(uci).press(side)
        return self

    # ------------------------------------------------------------------ reports

    def _turn_of(self, uci: str) -> bool:
        piece = self.squares[chess.Move.from_uci(uci).from_square]
        return piece.color

    def _own_in_hand(self) -> bool:
        return bool(self.hand)

    def _placement(self, shows: str) -> str:
        board = chess.Board(None)
        letters: dict[int, str] = {}
        for sq, piece in self.squares.items():
            board.set_piece_at(sq, piece)
            if shows == "colours":
                letters[sq] = "X" if piece.color else "x"
            elif shows == "occupancy":
                letters[sq] = "?"
        fen = board.board_fen()
        if shows == "kinds":
            return fen
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                letter = letters.get(chess.square(file, rank))
                if letter is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += letter
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def _snapshot(self, t: float) -> None:
        self._emit(Snapshot(t=t, board=self._placement("kinds")))

    # ------------------------------------------------------------------ ruling

    def rulings(self, *, finish: bool = True) -> list[Ruling]:
        start = self.events[0]
        assert isinstance(start, Start)
        game = Game(start)
        out: list[Ruling] = []
        for ev in self.events[1:]:
            out.extend(game.handle(ev))
        if finish:
            out.extend(game.finish())
        self.game = game
        return out
