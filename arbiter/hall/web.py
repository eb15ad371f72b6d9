"""The hall's web page, served by the station (`arbiter hall --web PORT`).

Built on the game page's parts (`arbiter.web.server.WebServer`, `arbiter.web.hub.Hub`,
`sse_response`; Starlette on uvicorn in a thread): a poller, woken by every step the
station replays (at most every 0.1 s; else twice a second, for the link alarms), publishes
the hall's state when it changed, so the station's MQTT thread never waits on a browser.

    GET  /                      the grid of every board and the alarms
    GET  /board/NAME            one board: position, clocks, record, the arbiter's controls
    GET  /favicon.svg           the pages' icon (the game page's, `arbiter/web/static`)
    GET  /events                the hall's state as Server-Sent Events (`hall` messages)
    GET  /api/hall              the same state as JSON
    GET  /api/board/NAME.pgn    the board's PGN as the station holds it
    POST /api/board/NAME/control  {"action": ...} sent to the board over the broker; answers
                                with the board's acknowledgement (token needed)
    POST /api/alarms/ID/clear   the arbiter dealt with alarm ID (token needed)
    GET  /api/v1.0/eboards      the boards in the shape of DGT LiveChess's local API (read side)
    WS   /api/v1.0              LiveChess's WebSocket: `eboards`, and each board's
                                `eboardevent` feed (`arbiter.hall.livechess`)
"""

from __future__ import annotations

import collections
import dataclasses
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from arbiter.hall.errors import HallError
from arbiter.hall.livechess import PATH as LIVECHESS_PATH
from arbiter.hall.livechess import LiveChessFeeds, eboards
from arbiter.hall.station import Station
from arbiter.hall.view import board_row, natural
from arbiter.i18n import Localized
from rules.i18n import N_

#: seconds between two looks of the poller at the station when nothing wakes it (a link's
#: alarms come from the station's timer)
POLL_S = 0.5
#: seconds at least between two states sent: a ruling wakes the poller at once, and a burst
#: of rulings across the hall is sent as one state
MIN_GAP_S = 0.1
#: seconds a control request waits for the board's acknowledgement
ACK_WAIT_S = 5.0
#: the pages' refusals, as templates of `ArbiterError.of`: each sent in every language
#: (`errors`, beside the English `error`), and the page shows its own
NO_GAME_OF_BOARD = N_("no game of board {name!r} here")
READ_ONLY = N_("this page is read-only: the arbiter's controls need the token")
NO_SUCH_BOARD = N_("no board {name!r} in the hall")
NOT_JSON = N_("the request is not JSON")
GIVE_ACTION = N_('give {{"action": {{"action": "pause", ...}}}}')
NO_ACK = N_(
    "board {name} did not acknowledge within {seconds:g} s (it gets the action when it is"
    " back, if the broker keeps it)"
)
BOARD_REFUSED = N_("board {name} refused it: {reason}")
CLEAR_NEEDS_TOKEN = N_("clearing an alarm needs the arbiter's token")
NO_SUCH_ALARM = N_("no such alarm")
TOKEN_HEADER = "X-Arbiter-Token"
#: uvicorn's WebSocket protocol for the LiveChess feed: the `websockets` package's sans-I/O
#: one (a dependency of the project)
WEBSOCKETS = "websockets-sansio"


def hall_state(station: Station, names: dict[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """The grid and the alarms, as the page and `/api/hall` show them."""
    with station.lock:
        boards = [board_row(station.boards[n], names) for n in sorted(station.boards, key=natural)]
        alarms = [
            {
                "id": a.ident,
                "board": a.board,
                "kind": a.kind,
                "text": a.text,
                "t": a.t,
                "texts": a.texts,
            }
            for a in station.alarms
        ]
    return {"boards": boards, "alarms": alarms}


class HallPage:
    """The hall's page for `station` (see the module docstring).

    Args:
        station: the station.
        names: board -> (white, black) from the pairings, over the boards' own names.
        token: the arbiter's token for the controls; None: the page is read-only.
    """

    def __init__(
        self,
        station: Station,
        names: dict[str, tuple[str, str]] | None = None,
        token: str | None = None,
    ) -> None:
        from arbiter.web.hub import Hub, Message

        self.station = station
        self.names = names
        self.token = token
        self._message = Message
        self._state = hall_state(station, names)
        self.hub = Hub(greeting=lambda: [Message("hall", self._state)])
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.server: Any = None
        #: wall time of the first step replayed since the last state sent, and the seconds
        #: from such a step to the state that shows it (the page's share of the latency)
        self._woken_at: float | None = None
        self.delays: collections.deque[float] = collections.deque(maxlen=100_000)
        station.listeners.append(self._stepped)
        self.livechess = LiveChessFeeds(station)

    def _stepped(self, board: str, steps: list[Any]) -> None:
        if self._woken_at is None:
            self._woken_at = time.time()
        self._wake.set()

    def poll(self) -> bool:
        """Publish the hall's state if it changed since the last look; True if it did."""
        woken, self._woken_at = self._woken_at, None
        state = hall_state(self.station, self.names)
        if state == self._state:
            return False

        def step() -> list[Any]:
            self._state = state
            return [self._message("hall", state)]

        self.hub.transact(step)
        if woken is not None:
            self.delays.append(time.time() - woken)
        return True

    def _polling(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(POLL_S)
            self._wake.clear()
            self.poll()
            self._stop.wait(MIN_GAP_S)

    def app(self) -> Any:
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles

        from arbiter.web.server import sse_response

        static = Path(__file__).parent / "static"
        station = self.station

        def refused(status: int, template: str, **fields: Any) -> Response:
            """A refusal in every language (`errors`), the page shows its own."""
            from arbiter.i18n import error_text
            from rules.i18n import LANGUAGES

            error = HallError.of(template, **fields)
            said = {language: error_text(error, language) for language in LANGUAGES}
            return JSONResponse({"error": said["en"], "errors": said}, status_code=status)

        def authorised(request: Request) -> bool:
            given = request.headers.get(TOKEN_HEADER, "").encode()
            return self.token is not None and secrets.compare_digest(given, self.token.encode())

        def page(request: Request) -> Any:
            return FileResponse(static / "hall.html", headers={"Cache-Control": "no-store"})

        def board_page(request: Request) -> Any:
            return FileResponse(static / "board.html", headers={"Cache-Control": "no-store"})

        def icon(request: Request) -> Any:
            """The game page's icon, shipped once (`arbiter.web`'s static files)."""
            from arbiter.web.app import static_dir

            return FileResponse(static_dir() / "favicon.svg", media_type="image/svg+xml")

        def state(request: Request) -> Response:
            return JSONResponse(self._state)

        def strings(request: Request) -> Response:
            """The pages' words in their language (`arbiter.hall.strings`)."""
            from arbiter.hall.strings import hall_strings
            from arbiter.i18n import language_for
            from arbiter.web.strings import page_language

            accept = request.headers.get("accept-language", "")
            language = page_language(request.query_params.get("lang"), accept, language_for())
            from rules.i18n import LANGUAGES

            words = hall_strings(language)
            return JSONResponse({"language": language, "strings": words, "languages": LANGUAGES})

        def events(request: Request) -> Any:
            return sse_response(self.hub)

        def pgn(request: Request) -> Response:
            text = self.board_pgn(request.path_params["name"])
            if text is None:
                return refused(404, NO_GAME_OF_BOARD, name=request.path_params["name"])
            return PlainTextResponse(text, media_type="application/x-chess-pgn")

        async def control(request: Request) -> Response:
            if not authorised(request):
                return refused(403, READ_ONLY)
            name = request.path_params["name"]
            if name not in station.boards:
                return refused(404, NO_SUCH_BOARD, name=name)
            try:
                body = json.loads(await request.body() or b"{}")
            except ValueError:
                return refused(400, NOT_JSON)
            action = body.get("action") if isinstance(body, dict) else None
            if not isinstance(action, dict) or not isinstance(action.get("action"), str):
                return refused(400, GIVE_ACTION)
            ident = station.send(name, action)
            from starlette.concurrency import run_in_threadpool

            ack = await run_in_threadpool(self._wait_ack, ident)
            if ack is None:
                return refused(504, NO_ACK, name=name, seconds=ACK_WAIT_S)
            if "error" in ack:
                english, errors = str(ack["error"]), ack.get("errors") or {}
                reason = Localized(lambda language: str(errors.get(language, english)))
                return refused(400, BOARD_REFUSED, name=name, reason=reason)
            return JSONResponse({"board": name, "seq": ack.get("seq")})

        def clear(request: Request) -> Response:
            if not authorised(request):
                return refused(403, CLEAR_NEEDS_TOKEN)
            try:
                ident = int(request.path_params["ident"])
            except ValueError:
                return refused(400, NO_SUCH_ALARM)
            station.clear(ident)
            self.poll()
            return JSONResponse({"cleared": ident})

        def boards(request: Request) -> Response:
            return JSONResponse(eboards(station))

        routes = [
            Route("/", page),
            Route("/board/{name}", board_page),
            Route("/favicon.svg", icon),
            Route("/events", events),
            Route("/api/hall", state),
            Route("/api/strings", strings),
            Route("/api/board/{name}.pgn", pgn),
            Route("/api/board/{name}/control", control, methods=["POST"]),
            Route("/api/alarms/{ident}/clear", clear, methods=["POST"]),
            Route("/api/v1.0/eboards", boards),
            WebSocketRoute(LIVECHESS_PATH, self.livechess.serve),
            Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
        ]
        return Starlette(routes=routes)

    def board_pgn(self, name: str) -> str | None:
        """The board's PGN as the station holds it, with the pairing's names; None if the
        station holds no game of that board."""
        from arbiter.records.pgn import pgn_from_rulings

        with self.station.lock:
            link = self.station.boards.get(name)
            start = link.replay.start if link is not None else None
            if link is None or start is None:
                return None
            rulings = list(link.replay.rulings)
        if self.names and name in self.names:
            white, black = self.names[name]
            start = dataclasses.replace(start, white=white, black=black)
        return pgn_from_rulings(start, rulings)

    def _wait_ack(self, ident: str) -> dict[str, Any] | None:
        deadline = time.monotonic() + ACK_WAIT_S
        while time.monotonic() < deadline:
            with self.station.lock:
                entry = dict(self.station.acks.get(ident, {}))
            if entry and "pending" not in entry:
                return entry
            time.sleep(0.02)
        return None

    def start(self, host: str, port: int) -> HallPage:
        """Serve the page and start the poller."""
        from arbiter.web.server import WebServer

        self.server = WebServer(
            self.app(), host, port, on_stop=self.hub.close, ws=WEBSOCKETS
        ).start()
        self._thread = threading.Thread(target=self._polling, name="hall-page", daemon=True)
        self._thread.start()
        return self

    @property
    def url(self) -> str:
        return str(self.server.url) if self.server is not None else ""

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self.server is not None:
            self.server.stop()
