"""The live game as the page sees it: a session sink that publishes JSON to a `Hub`.

`GameFeed` is one of the session's sinks (`Session(sinks=[...])`): after every step the
session calls it, on the session thread, with that step's typed rulings. It is the only
part of the web page that reads the `Game`, and it reads it only there; it turns each
ruling into the contract's JSON with its sentence (`rules.messages.ruling_dict`, the one
formatter) and snapshots what the page needs besides (the board as sensed, the position, the
duty in force and the squares it allows) into plain JSON values that the web thread only
copies. The page never builds a ruling or a message itself.

Messages on the event stream (`event:` name, then the JSON of `data:`):
- `state`: the greeting of a new client: `info` (the game's settings), every ruling so far,
  `board`, and `now` (the stream time when it was sent).
- `rulings`: the rulings of one step, with the `board` after it and `now`. In strict mode a
  refusal has `lessons`: its lesson for a child, by language (`arbiter.teach.lessons`).
- `board`: the board as sensed changed with no ruling (a piece lifted, put down).
- `now`: the stream time, every few seconds, so the page's clocks stay in step with the
  server's even with no ruling.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import chess

from arbiter.i18n import gettext, language_for
from arbiter.web.hub import Hub, Message
from rules.i18n import LANGUAGES, N_
from rules.messages import format_ruling, ruling_dict
from rules.rulings import Ruling
from rules.timecontrol import Period
from rules.verdicts import open_claim

if TYPE_CHECKING:
    from arbiter.live.session import Session
    from rules.game import Game


#: a fault of the page's own, said once on stderr (the game goes on)
PAGE_FAULT = N_("web page: the page could not follow the game ({reason})")


class GameFeed:
    """A session's sink that keeps the page's state and publishes its changes.

    Build it, `attach` it to a session (which takes the rulings so far: a resumed game
    shows its history), then let the session call it. Reading methods (`greeting`,
    `rulings_so_far`) are safe from any thread.
    """

    def __init__(self, hub: Hub | None = None, *, taps: bool = False) -> None:
        self.hub = hub if hub is not None else Hub()
        self.hub.greeting = self.greeting
        self.taps = taps
        self.session: Session | None = None
        self._lock = threading.Lock()
        self._info: dict[str, Any] = {}
        self._rulings: list[Ruling] = []
        self._dicts: list[dict[str, Any]] = []
        self._board: dict[str, Any] = {}
        self._sensed: tuple[str | None, ...] = ()
        self._speed = 1.0
        self._state: Message | None = None  # the greeting's state, kept until the next step
        self._duties = DutyView()
        self.faulted = False

    # ------------------------------------------------------------------ session thread

    def attach(self, session: Session) -> GameFeed:
        """Follow `session`: take its game's settings and rulings so far; become its sink.

        Call it before the session runs (or on its thread): it reads the game.
        """
        game = session.game
        real = session.clock.real_delay(1.0)
        self._speed = 1.0 / real if real > 0 else 1.0
        self.session = session

        def first() -> Iterable[Message]:
            with self._lock:
                self._info = game_info(game, self._speed, self.taps, session.language)
                self._rulings = list(session.rulings)
                self._dicts = _with_lessons(game, self._rulings, 0)
                self._sensed = tuple(game.sensed)
                self._board = board_view(game, self._duties)
            return [Message("state", self.greeting_data())]

        self.hub.transact(first)
        if self not in session.sinks:
            session.sinks.append(self)
        return self

    def __call__(self, rulings: list[Ruling], t: float) -> None:
        """The session's step: publish its rulings (and the board), or the board alone.

        The page is a view: a fault of its own is said once on stderr and never stops the
        game (the journal and the other sinks go on; the page catches up at the next step).
        """
        try:
            self._step(rulings)
        except Exception as exc:
            self._fault(exc)

    def _fault(self, exc: Exception) -> None:
        if not self.faulted:
            self.faulted = True
            said = gettext(PAGE_FAULT, language_for()).format(reason=repr(exc))
            sys.stderr.write(f"{said}\n")

    def _step(self, rulings: list[Ruling]) -> None:
        session = self.session
        if session is None:
            return
        game = session.game
        sensed = tuple(game.sensed)
        if not rulings and sensed == self._sensed:
            return
        try:
            board = board_view(game, self._duties)
        except Exception as exc:  # the rulings still go out, with the board as it was
            self._fault(exc)
            board = self._board
        now = session.clock.now()

        def step() -> Iterable[Message]:
            with self._lock:
                self._state = None
                self._sensed = sensed
                self._board = board
                if not rulings:
                    return [Message("board", {"board": board, "now": now})]
                first = len(self._rulings)
                self._rulings.extend(rulings)
                new = _with_lessons(game, rulings, first)
                self._dicts.extend(new)
            return [Message("rulings", {"rulings": new, "board": board, "now": now})]

        self.hub.transact(step)

    # ------------------------------------------------------------------ any thread

    def now(self) -> float:
        """The stream time now (the session's clock is safe to read from any thread)."""
        return self.session.clock.now() if self.session is not None else 0.0

    @property
    def language(self) -> str:
        """The game's language (the page's when neither its menu nor its browser chose)."""
        with self._lock:
            return str(self._info.get("language", "en"))

    def greeting_data(self) -> dict[str, Any]:
        with self._lock:
            return {
                "info": dict(self._info),
                "rulings": list(self._dicts),
                "board": self._board,
                "now": self.now(),
            }

    def greeting(self) -> list[Message]:
        """What a new client starts from: the whole state (`state`), then the time (`now`).

        The state is encoded once between two steps, however many clients connect; the
        `now` that follows it is fresh for each."""
        if self.session is None:
            return []
        with self._lock:
            state = self._state
        if state is None:
            state = Message("state", self.greeting_data())
            state.encode()
            with self._lock:
                self._state = state
        return [state, Message("now", {"t": self.now()})]

    def over(self) -> bool:
        """Is the game over (as of the last step)?"""
        with self._lock:
            return bool(self._board.get("over"))

    def verdict_open(self) -> bool:
        """May the arbiter still overrule the last claim (as of the last step)?"""
        with self._lock:
            return self._board.get("verdict") is not None

    def rulings_so_far(self) -> list[Ruling]:
        """A copy of the rulings so far (for the PGN)."""
        with self._lock:
            return list(self._rulings)


def _numbered(ruling: Ruling, n: int) -> dict[str, Any]:
    """The contract's JSON of `ruling` with its sentence, and its place `n` in the game."""
    out = ruling_dict(ruling)
    out["messages"] = sentences(ruling)
    out["n"] = n
    return out


def _with_lessons(game: Game, rulings: list[Ruling], first: int) -> list[dict[str, Any]]:
    """`rulings` as the page gets them (numbered from `first`); in strict (teaching) mode
    each refusal carries `lessons`, its lesson for a child in every language
    (`arbiter.teach.lessons`), which the teaching view shows under it.

    The rulings are taken step by step, a step being the rulings of one time: a completed
    illegal move's lesson depends on whether its own step ended the game (7.5.5)."""
    out = [_numbered(r, first + i) for i, r in enumerate(rulings)]
    if not game.start.strict:
        return out
    from arbiter.teach.lessons import lessons_by_language

    begin = 0
    for end in range(1, len(rulings) + 1):
        if end < len(rulings) and rulings[end].t == rulings[begin].t:
            continue
        for i, texts in lessons_by_language(rulings[begin:end]).items():
            out[begin + i]["lessons"] = texts
        begin = end
    return out


def sentences(ruling: Ruling) -> dict[str, str]:
    """The sentence of `ruling` in every language of the arbiter but English (which is the
    contract's `message`): a page shows the one of its own language."""
    return {lang: format_ruling(ruling, lang) for lang in LANGUAGES if lang != "en"}


def game_info(game: Game, speed: float, taps: bool, language: str = "en") -> dict[str, Any]:
    """The game's settings as the page shows them (names, control, mode, profile), and the
    clocks as they stand now (`clock`, in the form of a `clock` ruling): a game's first
    `clock` ruling comes only at its first press, but White's clock runs from the start.
    `language` is the game's, and `languages` those a page may choose."""
    start = game.start
    control = game.control
    first = control.periods[0] if control.periods else None
    clock = None
    if game.timed:
        white, black, running, paused = game.clock.reading(game.t)
        clock = {"t": game.t, "white": white, "black": black, "running": running,
                 "paused": paused}  # fmt: skip
    return {
        "clock": clock,
        "white": start.white or "White",
        "black": start.black or "Black",
        "event": start.event,
        "site": start.site,
        "round": start.round,
        "time_control": start.time_control or "-",
        "timed": game.timed,
        "mode": game.mode,
        "rules": start.rules or "fide-2023",
        "strict": bool(start.strict),
        "fen": game.start.fen or chess.STARTING_FEN,
        "increment": first.increment if first else 0.0,
        "delay": first.delay if first else 0.0,
        "bronstein": first.bronstein if first else 0.0,
        "hourglass": control.hourglass,
        # every period, for the clock face's symbols (the period, the moves to its control,
        # its increment or delay: docs/web.md, "The clock face's symbols")
        "periods": [_period(p) for p in control.periods],
        "speed": speed,
        "taps": taps,
        "language": language,
        "languages": dict(LANGUAGES),
    }


def _period(period: Period) -> dict[str, Any]:
    return {
        "seconds": period.seconds,
        "moves": period.moves,
        "increment": period.increment,
        "delay": period.delay,
        "bronstein": period.bronstein,
    }


def board_view(
    game: Game, duties_of: Callable[[Game], list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """The board as sensed, the game's position, where they differ, and the duties in force
    (`duties_of`: `duties`, or a `DutyView` that keeps them while they stand).

    Read on the session thread only. A duty's `targets` are the squares its piece may go to
    by a legal move (what the teaching view draws).
    """
    duties_of = duties_of or duties
    fen = game.fen()
    sensed = ["" if p is None else p for p in game.sensed]
    diff = sorted(chess.SQUARE_NAMES[sq] for sq in game.diff())
    return {
        "sensed": sensed,
        "fen": fen,
        "ply": game.ply,
        "to_move": "white" if game.board.turn else "black",
        "diff": diff,
        "over": game.over,
        "result": game.result,
        "duties": duties_of(game),
        "verdict": verdict_view(game),
    }


def verdict_view(game: Game) -> dict[str, Any] | None:
    """The claim the arbiter may still overrule (`rules.verdicts.open_claim`): its claimant,
    kind and the verdict in force; None when there is none. The page's controls beside the
    claim's ruling offer the other verdict (`claim_verdict`)."""
    on_record = open_claim(game)
    if on_record is None:
        return None
    return {"side": on_record.claim.side, "kind": on_record.kind, "valid": on_record.valid}


class DutyView:
    """`duties(game)`, made again only when the duty or the position changed: most events
    (a lift, a place, a tick) leave both as they were."""

    def __init__(self) -> None:
        self._key: tuple[object, str] | None = None
        self._value: list[dict[str, Any]] = []

    def __call__(self, game: Game) -> list[dict[str, Any]]:
        turn = game.turn
        key = (turn.obligation or turn.forced, game.fen())
        if key != self._key:
            self._key, self._value = key, duties(game)
        return self._value


def duties(game: Game) -> list[dict[str, Any]]:
    """The duty in force of the player having the move (Article 4; 9.5.3), if any: its
    touched square, the squares its moves may use, and its sentence.

    `targets` are the destinations of the moves that fulfil it; for a capture duty (4.3.2)
    they are the squares of the pieces that may capture the touched one.
    """
    turn = game.turn
    duty = turn.obligation or turn.forced
    if duty is None or duty.kind == "none":
        return []
    allowed = duty.allowed if duty.allowed is not None else frozenset(game.board.legal_moves)
    if duty.kind == "capture_piece":
        targets = {move.from_square for move in allowed}
    else:
        targets = {move.to_square for move in allowed}
    ruling = duty.ruling(game.t, turn.side)
    return [
        {
            "side": turn.side,
            "kind": duty.kind,
            "square": None if duty.square is None else chess.SQUARE_NAMES[duty.square],
            "targets": sorted(chess.SQUARE_NAMES[sq] for sq in targets),
            "message": ruling_dict(ruling).get("message", ""),
            "messages": sentences(ruling),
            "article": duty.article,
        }
    ]


__all__ = ["DutyView", "GameFeed", "board_view", "duties", "game_info", "verdict_view"]
