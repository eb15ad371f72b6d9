"""Serve a live session's page: `start_page(session, "[HOST:]PORT")` -> a running `LivePage`.

The composition of the web parts for one game: a `Hub`, a `GameFeed` attached to the
session as its sink, the app, and a `WebServer` on its own thread. Controls from the page go
onto the session's queue (`Session.queue` is thread-safe), where the session journals and
rules them like any other input.
"""

from __future__ import annotations

import importlib
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arbiter.web.app import create_app, new_token
from arbiter.web.errors import WebError
from arbiter.web.feed import GameFeed
from arbiter.web.hub import Hub
from arbiter.web.server import WebServer, bind, parse_address
from rules.i18n import N_

if TYPE_CHECKING:
    from arbiter.live.session import Session

#: what serving a page imports (Starlette's parts the app uses, and uvicorn)
SERVER_MODULES = (
    "starlette.applications", "starlette.responses", "starlette.routing",
    "starlette.staticfiles", "uvicorn",
)  # fmt: skip
#: how many ports above the one asked for `near=True` tries before any free port
NEAR_PORTS = 20


#: the page's addresses printed at start
PAGE_AT = N_("web page: {url}  (players' clock: {url}clock, teaching: {url}teach)")
CONTROLS_AT = N_("arbiter's controls: {url}")
TAP_CLOCK_AT = N_("players' clock with tap buttons: {url}")


@dataclass
class LivePage:
    """A game's page being served: its server, its feed, its token."""

    server: WebServer
    feed: GameFeed
    token: str | None
    press_token: str | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def control_url(self) -> str | None:
        """The arbiter's address with the token (None: read-only for everyone)."""
        return None if self.token is None else f"{self.url}?token={self.token}"

    def lines(self, language: str = "en") -> list[str]:
        """What to print at start: the page's addresses (in `language`)."""
        from arbiter.i18n import gettext

        url = self.url
        out = [gettext(PAGE_AT, language).format(url=url)]
        control = self.control_url()
        if control is not None:
            out.append(gettext(CONTROLS_AT, language).format(url=control))
        if self.press_token is not None:
            tap = f"{url}clock?token={self.press_token}"
            out.append(gettext(TAP_CLOCK_AT, language).format(url=tap))
        return out

    def stop(self) -> None:
        self.server.stop()


def has_own_clock(session: Session) -> bool:
    """Does the game have clock buttons of its own (the GPIO panel)? Then the page's tap
    zones are not the clock."""
    from arbiter.inputs.gpio import GpioSource

    return any(isinstance(s, GpioSource) for s in session.sources)


def start_page(
    session: Session,
    where: str,
    *,
    token: str | None = None,
    controls: bool = True,
    journal: Path | None = None,
    near: bool = False,
    sock: socket.socket | None = None,
) -> LivePage:
    """Serve `session`'s page at `where` (`[HOST:]PORT`), until `LivePage.stop`.

    Args:
        token: the controls' token; None with `controls`: a new one.
        controls: False: no controls at all (read-only for everyone).
        journal: the journal file, offered for download.
        near: the port is taken: try the next ones, then any free port (the demo).
        sock: the socket `reserve` bound for `where` before the game began.
    """
    host, port = parse_address(where)
    if controls and token is None:
        token = new_token()
    if not controls:
        token = None
    feed = GameFeed(Hub(), taps=not has_own_clock(session)).attach(session)
    if token is not None:  # the arbiter may give a verdict on a claim from the page
        from arbiter.live.session import VERDICT_WAIT_S

        session.verdict_wait_s = max(session.verdict_wait_s, VERDICT_WAIT_S)
    press_token = new_token() if token is not None and feed.taps else None
    app = create_app(
        feed, session.queue.put, token=token, press_token=press_token, journal=journal
    )
    if sock is not None:
        server = WebServer(app, host, port, on_stop=feed.hub.close, sock=sock)
        return LivePage(server.start(), feed, token, press_token)
    candidates = [port]
    if near and port != 0:
        candidates += [p for p in range(port + 1, port + NEAR_PORTS) if p <= 65535] + [0]
    failure: WebError | None = None
    for candidate in candidates:
        server = WebServer(app, host, candidate, on_stop=feed.hub.close)
        try:
            server.start()
        except WebError as exc:
            failure = failure or exc
            continue
        return LivePage(server, feed, token, press_token)
    assert failure is not None
    raise failure


def preload() -> None:
    """Import the web server's modules now (a second or so on a Pi): before the game's clock
    starts, so that the import does not eat the first seconds of the game."""
    for module in SERVER_MODULES:
        importlib.import_module(module)


def reserve(where: str | None) -> socket.socket | None:
    """Bind `--web [HOST:]PORT` before the game begins (None: no page): a port in use then
    stops the command before it has journaled anything; the server's modules are loaded
    too (`preload`)."""
    if where is None:
        return None
    sock = bind(*parse_address(where))
    preload()
    return sock


def serve_session(
    session: Session,
    where: str | None,
    *,
    token: str | None = None,
    journal: Path | None = None,
    near: bool = False,
    say: Callable[[str], None] | None = None,
    sock: socket.socket | None = None,
) -> LivePage | None:
    """`--web [HOST:]PORT` for a live game: serve its page and say where (`say`, and on the
    full-screen display); None when `where` is None (no page asked for)."""
    if where is None:
        return None
    page = start_page(session, where, token=token, journal=journal, near=near, sock=sock)
    display = session.display
    on_screen = display is not None and getattr(display, "tty", False)
    for line in page.lines(session.language):
        if on_screen:
            display.note(line)  # a full screen would hide a line printed before it
        elif say is not None:
            say(line)
    return page


__all__ = ["LivePage", "preload", "reserve", "serve_session", "start_page"]
