"""The demo game: a real game, with a few arbiter incidents, as a simulated board reports it.

The bundled game (`arbiter/data/demo-game.pgn`: Carlsen v Hansen, 3-minute blitz, Chess.com
2017, won by mate, every move with its `[%clk]`) becomes the event stream of a board with a
clock (`arbiter.simulate.simulate_game`). Into the players' thinking time we then write what
happens at real boards, so that the demo shows the arbiter at work:

* a piece lifted and put back, then moved: the touch-move duty (4.3.1) begins and is honoured;
* a piece put down on a square no legal move reaches, then moved on before the press: an
  illegal move not completed (7.5.1, 4.7), which the player may still correct;
* a piece lifted and put back, then another piece moved: a touch-move violation (4.3.1),
  recorded, the move played standing (events.md, Supervision);
* an incorrect claim of a threefold repetition: the claim is refused, the opponent gets time
  (9.5.3) and the claim stands as a draw offer (9.1.2.3).

The incidents never change the moves, so the game still ends in the same mate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

import chess
import chess.pgn

from arbiter.errors import DemoError
from arbiter.simulate.game import simulate_game
from rules.events import Claim, Event, Lift, Place, Press, Start
from rules.i18n import N_
from rules.library_reasons import reason_of

#: the bundled game (package data)
DEMO_PGN = "demo-game.pgn"
#: the seed of the simulated hands and timings
DEMO_SEED = 7
#: the least thinking time (s) before a move for an incident to fit in it
MIN_GAP_S = 2.0
#: the first ply that may carry an incident (let the opening be seen first)
FIRST_INCIDENT_PLY = 5
#: how long the demo should last in real time, by default (the speed follows from it)
TARGET_S = 20.0


@dataclass(slots=True)
class _Ply:
    """One ply of the stream: the events from the previous press to this one's press."""

    index: int  # 0-based
    board: chess.Board  # before the move
    move: chess.Move
    begun: float  # the previous press (or the start)
    events: list[Event]  # the hand's events and the press, in order


def demo_game() -> chess.pgn.Game:
    """The bundled game."""
    try:
        text = resources.files("arbiter.data").joinpath(DEMO_PGN).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as exc:
        raise DemoError.of(
            N_("the demo game arbiter/data/{name} is missing ({reason})"),
            name=DEMO_PGN,
            reason=reason_of(exc),
        ) from None
    import io

    game = chess.pgn.read_game(io.StringIO(text))
    if game is None or game.errors:
        raise DemoError.of(N_("the demo game arbiter/data/{name} cannot be read"), name=DEMO_PGN)
    return game


def demo_events(game: chess.pgn.Game | None = None, seed: int = DEMO_SEED) -> list[Event]:
    """The demo's event stream: the game on a simulated board, with the incidents above."""
    game = game if game is not None else demo_game()
    stream = simulate_game(game, "identity", seed=seed, where=f"arbiter/data/{DEMO_PGN}")
    start = stream[0]
    if not isinstance(start, Start):
        raise DemoError("the simulated stream does not begin with 'start'")
    plies, tail = _split(game, stream)
    incidents = [_touch_honoured, _illegal_corrected, _touch_violation, _wrong_claim]
    for ply in plies:
        if not incidents or ply.index < FIRST_INCIDENT_PLY:
            continue
        if incidents[0](ply):
            incidents.pop(0)
    if incidents:
        raise DemoError(f"the demo game has no room for {len(incidents)} of its incidents")
    out: list[Event] = [start]
    for ply in plies:
        out.extend(ply.events)
    out.extend(tail)
    return out


def _split(game: chess.pgn.Game, stream: list[Event]) -> tuple[list[_Ply], list[Event]]:
    board = game.board()
    moves = iter(game.mainline_moves())
    plies: list[_Ply] = []
    current: list[Event] = []
    begun = stream[0].t
    for event in stream[1:]:
        current.append(event)
        if isinstance(event, Press):
            move = next(moves)
            plies.append(_Ply(len(plies), board.copy(stack=False), move, begun, current))
            board.push(move)
            begun, current = event.t, []
    return plies, current


def _quiet(ply: _Ply) -> tuple[Lift, Place, Press] | None:
    """The lift, place and press of a plain move with time to spare before it, else None."""
    b, m = ply.board, ply.move
    if b.is_capture(m) or b.is_castling(m) or m.promotion or len(ply.events) != 3:
        return None
    lift, place, press = ply.events
    if not (isinstance(lift, Lift) and isinstance(place, Place) and isinstance(press, Press)):
        return None
    if lift.t - ply.begun < MIN_GAP_S:
        return None
    return lift, place, press


def _side(ply: _Ply) -> str:
    return "white" if ply.board.turn else "black"


def _at(ply: _Ply, lift: Lift, share: float) -> float:
    return round(ply.begun + (lift.t - ply.begun) * share, 3)


def _touch_honoured(ply: _Ply) -> bool:
    """4.3.1: the piece to be moved is lifted and put back first; the duty is honoured."""
    found = _quiet(ply)
    if found is None:
        return False
    lift = found[0]
    _lift_and_put_back(ply, lift, lift.square, lift.piece)
    return True


def _lift_and_put_back(ply: _Ply, lift: Lift, square: str, piece: str | None) -> None:
    """Before the ply's first lift: the piece on `square` lifted and put back (a touch)."""
    ply.events[:0] = [
        Lift(t=_at(ply, lift, 0.3), square=square, piece=piece),
        Place(t=_at(ply, lift, 0.6), square=square, piece=piece),
    ]


def _illegal_corrected(ply: _Ply) -> bool:
    """7.5.1 not completed: the piece is put down where it cannot go, then moved on."""
    found = _quiet(ply)
    if found is None:
        return False
    lift, place, press = found
    b, m = ply.board, ply.move
    reachable = {mv.to_square for mv in b.legal_moves if mv.from_square == m.from_square}
    wrong = [
        sq
        for sq in sorted(chess.SQUARES, key=lambda s: chess.square_distance(s, m.to_square))
        if sq not in reachable and b.piece_at(sq) is None and sq != m.from_square
    ]
    if not wrong:
        return False
    bad = chess.square_name(wrong[0])
    ply.events[:] = [
        dataclasses.replace(lift, t=_at(ply, lift, 0.2)),
        Place(t=_at(ply, lift, 0.45), square=bad, piece=lift.piece),
        Lift(t=_at(ply, lift, 0.85), square=bad, piece=lift.piece),
        place,
        press,
    ]
    return True


def _touch_violation(ply: _Ply) -> bool:
    """4.3.1 broken: another own piece with a legal move is lifted and put back first."""
    found = _quiet(ply)
    if found is None:
        return False
    lift = found[0]
    b, m = ply.board, ply.move
    others = sorted(
        {mv.from_square for mv in b.legal_moves if mv.from_square != m.from_square},
        key=lambda s: chess.square_distance(s, m.from_square),
    )
    if not others:
        return False
    piece = b.piece_at(others[0])
    letter = piece.symbol() if piece else None
    _lift_and_put_back(ply, lift, chess.square_name(others[0]), letter)
    return True


def _wrong_claim(ply: _Ply) -> bool:
    """9.5.3: a threefold claim where there is no repetition; it stands as a draw offer."""
    found = _quiet(ply)
    if found is None:
        return False
    lift = found[0]
    ply.events[:0] = [Claim(t=_at(ply, lift, 0.25), side=_side(ply), kind="threefold")]
    return True


def default_speed(events: list[Event], target_s: float = TARGET_S) -> float:
    """The speed that plays `events` in about `target_s` real seconds (at least 1)."""
    return max(1.0, round(events[-1].t / target_s, 1)) if events else 1.0


def incident_times(events: list[Event]) -> Iterator[float]:
    """The times of the claims in a stream (for tests and the display's notes)."""
    return (e.t for e in events if isinstance(e, Claim))


__all__ = ["DEMO_PGN", "DemoError", "default_speed", "demo_events", "demo_game"]
