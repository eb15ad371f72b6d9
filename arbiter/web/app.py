"""The web page of one live game: a Starlette app over a `GameFeed` and the session's queue.

Pages (one HTML page; its script picks the view from the path):
- `/` the arbiter's view: the board as sensed beside the game's position, both clocks, the
  moves, every ruling with its article, the history at any ply, downloads and, with the
  token, the controls;
- `/clock` the players' clock face (nothing on it tells a player that the opponent moved or
  that a duty is due, 12.6); with the players' token (or the arbiter's) and a game with
  no clock panel of its own, its two halves are the clock's buttons;
- `/teach` the teaching view: the duty in force in plain words, the refused move, drawn.

Data: `/events` (Server-Sent Events of the feed), `/api/state` (the same state as JSON),
`/game.pgn`, `/journal.jsonl`. Controls: `POST /api/control` (an arbiter's action: the
contract's `arbiter` event without `t`) with the arbiter's token, and `POST /api/press`
(`{"side": ...}`) with the players' token (a tablet used as the clock cannot act as the
arbiter) or the arbiter's, in the `X-Arbiter-Token` header; without it, 403. An accepted
control becomes a contract event stamped with the session's clock at receipt and goes onto
the session's queue, so it is journaled and ruled like any other input (never ruled here).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

from arbiter.i18n import error_text
from arbiter.web.errors import WebError
from arbiter.web.feed import GameFeed
from arbiter.web.hub import Message
from arbiter.web.server import sse_response
from arbiter.web.strings import page_language, page_strings
from rules.errors import ArbiterError
from rules.events import ArbiterAction, ClaimVerdict, Event, Press, SetPosition, parse_event
from rules.i18n import LANGUAGES, N_, number

#: the header that carries the controls' token
TOKEN_HEADER = "X-Arbiter-Token"
#: seconds between the `now` messages that keep the page's clocks in step
NOW_EVERY_S = 5.0
#: the largest control request read, in bytes
MAX_BODY = 16_384


def new_token() -> str:
    """A fresh token for the controls (printed at start)."""
    return secrets.token_urlsafe(12)


#: the page's refusals of a request, as templates of `ArbiterError.of`: each refusal is sent
#: in every language (`errors`, beside the English `error`), and the page shows its own
READ_ONLY_CONTROLS = N_("this page is read-only: the arbiter's controls need the token")
READ_ONLY_CLOCK = N_("this page is read-only: the clock's buttons need the token")
NOT_AN_OBJECT = N_("the request must be a JSON object")
NOT_AN_ACTION = N_("only the arbiter's actions are accepted here")
NO_CLAIM_OPEN = N_("there is no claim to rule on: a move or the game's end came after it")
OVER_NO_ACTIONS = N_("the game is over: no more actions")
OWN_CLOCK = N_("this game has a clock of its own: press its buttons")
PRESS_SIDE = N_("a press names its side: white or black")
OVER = N_("the game is over")
NO_GAME = N_("no game")
NO_JOURNAL = N_("this game has no journal file")
FEN_UNREADABLE = N_("the FEN cannot be read ({reason})")
FEN_ILLEGAL = N_("the FEN is not a legal chess position (kings, pawns, check)")


def position_problem(event: Event) -> WebError | None:
    """Why a `set_position` from the page cannot be played on (None: it can).

    Checked here, before the event is queued: the session journals an event before the
    rules read it, and an unreadable FEN in the journal would stop the game and its resume.
    """
    if not isinstance(event, SetPosition):
        return None
    import chess

    try:
        board = chess.Board(event.fen)
    except ValueError as exc:  # python-chess's reason, in our words where we know it
        return WebError.of(FEN_UNREADABLE, reason=exc)
    if not board.is_valid():
        return WebError.of(FEN_ILLEGAL)
    return None


def static_dir() -> Path:
    """The page's files, shipped in the package."""
    return Path(str(resources.files("arbiter.web") / "static"))


def create_app(
    feed: GameFeed,
    submit: Callable[[Event], None],
    *,
    token: str | None,
    press_token: str | None = None,
    journal: Path | None = None,
) -> Any:
    """The Starlette app of one game.

    Args:
        feed: the game's feed (attached to its session).
        submit: puts an event on the session's queue (thread-safe).
        token: the arbiter's token; None: the page is read-only for everyone.
        press_token: the players' token, for the clock's buttons only.
        journal: the journal file, for its download.
    """
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    index = static_dir() / "index.html"

    def page(request: Request) -> Any:
        return FileResponse(index, headers={"Cache-Control": "no-store"})

    def state(request: Request) -> Response:
        return JSONResponse(feed.greeting_data())

    def strings(request: Request) -> Response:
        """The page's words in its language (`arbiter.web.strings.page_language`)."""
        language = page_language(
            request.query_params.get("lang"),
            request.headers.get("accept-language", ""),
            feed.language,
        )
        return JSONResponse(
            {
                "language": language,
                "strings": page_strings(language),
                # the decimal separator of the language, as the rulings' sentences write it
                # (`rules.i18n.number`): the page writes its clocks' tenths with it
                "decimal": number(0.5, language, ".1f")[1],
            },
            headers={"Cache-Control": "no-store", "Content-Language": language.replace("_", "-")},
        )

    def events(request: Request) -> Any:
        return sse_response(
            feed.hub, keepalive_s=NOW_EVERY_S, keepalive=lambda: Message("now", {"t": feed.now()})
        )

    def refused(status: int, error: str | ArbiterError) -> Response:
        if isinstance(error, str):
            error = WebError.of(error)
        said = {language: error_text(error, language) for language in LANGUAGES}
        return JSONResponse({"error": said["en"], "errors": said}, status_code=status)

    def authorised(request: Request, *accepted: str | None) -> bool:
        given = request.headers.get(TOKEN_HEADER, "").encode()
        return any(
            t is not None and secrets.compare_digest(given, t.encode()) for t in accepted
        )

    async def body_of(request: Request) -> dict[str, Any] | None:
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            return None
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return None
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    async def control(request: Request) -> Response:
        if not authorised(request, token):
            return refused(403, READ_ONLY_CONTROLS)
        data = await body_of(request)
        if data is None:
            return refused(400, NOT_AN_OBJECT)
        fields = {k: v for k, v in data.items() if k not in ("t", "type")}
        try:
            event = parse_event({**fields, "type": "arbiter", "t": feed.now()})
        except ArbiterError as exc:
            return refused(400, exc)
        if not isinstance(event, ArbiterAction):
            return refused(400, NOT_AN_ACTION)
        if isinstance(event, ClaimVerdict) and not feed.verdict_open():
            return refused(409, NO_CLAIM_OPEN)
        if feed.over() and not isinstance(event, ClaimVerdict):
            return refused(409, OVER_NO_ACTIONS)
        problem = position_problem(event)
        if problem is not None:
            return refused(400, problem)
        submit(event)
        return JSONResponse({"queued": event.to_dict()}, status_code=202)

    async def press(request: Request) -> Response:
        if not authorised(request, press_token, token):
            return refused(403, READ_ONLY_CLOCK)
        if not feed.taps:
            return refused(409, OWN_CLOCK)
        data = await body_of(request)
        side = None if data is None else data.get("side")
        if side not in ("white", "black"):
            return refused(400, PRESS_SIDE)
        if feed.over():
            return refused(409, OVER)
        event = Press(t=feed.now(), side=side)
        submit(event)
        return JSONResponse({"queued": event.to_dict()}, status_code=202)

    def pgn(request: Request) -> Response:
        from arbiter.records.pgn import pgn_from_rulings

        session = feed.session
        if session is None:
            return refused(404, NO_GAME)
        start = session.game.start
        begun = (start.tags or {}).get("Date")  # journaled; a game begun before: today's
        text = pgn_from_rulings(
            start, feed.rulings_so_far(), date=begun or f"{datetime.now():%Y.%m.%d}"
        )
        return Response(
            text,
            media_type="application/x-chess-pgn",
            headers={"Content-Disposition": 'attachment; filename="game.pgn"'},
        )

    def journal_file(request: Request) -> Response:
        if journal is None or not journal.exists():
            return refused(404, NO_JOURNAL)
        data = journal.read_bytes()
        data = data[: data.rfind(b"\n") + 1]  # a line being written is not yet the journal's
        return Response(
            data,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{journal.name}"'},
        )

    routes = [
        Route("/", page),
        Route("/clock", page),
        Route("/teach", page),
        Route("/events", events),
        Route("/api/state", state),
        Route("/api/strings", strings),
        Route("/api/control", control, methods=["POST"]),
        Route("/api/press", press, methods=["POST"]),
        Route("/game.pgn", pgn),
        Route("/journal.jsonl", journal_file),
        Mount("/static", app=StaticFiles(directory=str(static_dir())), name="static"),
    ]
    return Starlette(routes=routes)


__all__ = ["NOW_EVERY_S", "TOKEN_HEADER", "create_app", "new_token", "static_dir"]
