"""Serve a live session's page: `start_page(session, "[HOST:]PORT")` -> a running `LivePage`.

The composition of the web parts for one game: a `Hub`, a `GameFeed` attached to the
session as its sink, the app, and a `WebServer` on its own thread. Controls from the page go
onto the session's queue (`Session.queue` is thread-safe), where the session journals and
rules them like any other input.
"""

from __future__ import annotations

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

if TYPE_CHECKING:
    from arbiter.live.session import Session

#: how many ports above the one asked for `near=True` tries before any free port
NEAR_PORTS = 20


@dataclass
class LivePage:
    """A game's page being served: its server, its feed, its token."""

    server: WebServer
    feed: GameFeed
    token: str | None

    @property
    def url(self) -> str:
        return self.server.url

    def control_url(self) -> str | None:
        """The arbiter's address with the token (None: read-only for everyone)."""
        return None if self.token is None else f"{self.url}?token={self.token}"

    def lines(self) -> list[str]:
        """What to print at start: the page's addresses."""
        out = [f"web page: {self.url}  (players' clock: {self.url}clock, teaching: "
               f"{self.url}teach)"]  # fmt: skip
        control = self.control_url()
        if control is not None:
            out.append(f"arbiter's controls: {control}")
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
    app = create_app(feed, session.queue.put, token=token, journal=journal)
    if sock is not None:
        server = WebServer(app, host, port, on_stop=feed.hub.close, sock=sock)
        return LivePage(server.start(), feed, token)
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
        return LivePage(server, feed, token)
    assert failure is not None
    raise failure


def reserve(where: str | None) -> socket.socket | None:
    """Bind `--web [HOST:]PORT` before the game begins (None: no page): a port in use then
    stops the command before it has journaled anything."""
    if where is None:
        return None
    return bind(*parse_address(where))


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
    for line in page.lines():
        if on_screen:
            display.note(line)  # a full screen would hide a line printed before it
        elif say is not None:
            say(line)
    return page


__all__ = ["LivePage", "reserve", "serve_session", "start_page"]
