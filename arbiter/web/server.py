"""Run an ASGI app (Starlette) on uvicorn in a background thread, and stream a `Hub` as SSE.

The live game runs on its own thread (the session loop); the web server gets a thread of its
own with its own asyncio loop, so a browser never slows a ruling and the session never waits
for the network. `WebServer` binds the socket itself before the thread starts, so a port in
use is a clear `WebError` at once (not a log line from a thread), and port 0 takes a free
port; `address` is then the address actually bound.

Why uvicorn with its plain install (no `[standard]` extras): on a Raspberry Pi it is pure
Python (h11), starts in a fraction of a second and needs no compiler; a page of a game sends
a few messages a second, far below what it serves.

The API (stable, also used by the hall view of issue 14): `parse_address`, `WebServer`
(`start`, `stop`, `address`, `url`), `sse_response`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from arbiter.web.errors import WebError
from arbiter.web.hub import Hub, Message, comment
from rules.i18n import N_
from rules.library_reasons import reason_of

#: the host a page binds to unless told otherwise: this machine only
DEFAULT_HOST = "127.0.0.1"
#: seconds between keep-alive comments on an idle event stream
KEEPALIVE_S = 15.0
#: seconds `start` waits for the server to accept connections
START_TIMEOUT_S = 10.0


#: what the web page's server says when it cannot start (`--web`), in the user's language
NOT_A_PORT = N_("--web {text!r}: give a port (e.g. 8080) or HOST:PORT (e.g. 0.0.0.0:8080)")
PORT_RANGE = N_("--web {text!r}: the port must be from 0 to 65535")
UNKNOWN_ADDRESS = N_("web page: the address {host!r} is not known ({reason})")
PORT_BUSY = N_(
    "web page: port {port} on {host} is already in use (another program, or another game); "
    "choose another port, e.g. --web 8081"
)
CANNOT_LISTEN = N_("web page: cannot listen on {host}:{port} ({reason})")
DID_NOT_START = N_("web page: the server did not start ({reason})")


def parse_address(text: str, default_host: str = DEFAULT_HOST) -> tuple[str, int]:
    """`[HOST:]PORT` as (host, port): `8080` -> (default_host, 8080), `0.0.0.0:8080`,
    `[::1]:8080`. Port 0 asks for a free port."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host = default_host
    host = host.strip("[]") or default_host
    try:
        port = int(port_text)
    except ValueError:
        raise WebError.of(NOT_A_PORT, text=text) from None
    if not 0 <= port <= 65535:
        raise WebError.of(PORT_RANGE, text=text)
    return host, port


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket at (host, port); a clear `WebError` if it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise WebError.of(UNKNOWN_ADDRESS, host=host, reason=reason_of(exc)) from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise WebError.of(PORT_BUSY, port=port, host=host) from None
        raise WebError.of(CANNOT_LISTEN, host=host, port=port, reason=reason_of(exc)) from None
    sock.setblocking(False)
    return sock


class WebServer:
    """An ASGI `app` served by uvicorn on a thread of its own.

    Args:
        app: the ASGI application.
        host, port: where to listen (port 0: a free port).
        on_stop: called (on the caller's thread) at `stop`, before the server shuts down:
            e.g. `hub.close` to end the endless event streams at once.
        sock: a socket already bound by `bind` (reserved before anything else was done, so
            that a port in use stops a command before it has begun its work).
        ws: uvicorn's WebSocket protocol ("none": the game's page needs none; the hall's
            LiveChess feed uses "websockets-sansio").
    """

    def __init__(
        self,
        app: Any,
        host: str = DEFAULT_HOST,
        port: int = 0,
        *,
        on_stop: Any = None,
        sock: socket.socket | None = None,
        ws: str = "none",
    ) -> None:
        self.app = app
        self.ws = ws
        self.host = host
        self.port = port
        self.on_stop = on_stop
        self._given = sock
        self._sock: socket.socket | None = None
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._failed: BaseException | None = None

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) actually bound (after `start`)."""
        if self._sock is None:
            return self.host, self.port
        name = self._sock.getsockname()
        return self.host, int(name[1])

    @property
    def url(self) -> str:
        """The page's address; a wildcard host is shown as this machine's name."""
        host, port = self.address
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{port}/"

    def start(self) -> WebServer:
        """Bind, then serve on a daemon thread; returns once connections are accepted."""
        import uvicorn

        self._sock = self._given if self._given is not None else bind(self.host, self.port)
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            loop="asyncio",
            http="h11",
            ws=self.ws,
            timeout_graceful_shutdown=1,
        )
        server = uvicorn.Server(config)  # off the main thread it installs no signal handler
        self._server = server
        sock = self._sock

        def serve() -> None:
            try:
                asyncio.run(server.serve(sockets=[sock]))
            except BaseException as exc:  # reported by start/stop, never lost in a thread
                self._failed = exc

        self._thread = threading.Thread(target=serve, name="arbiter-web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not server.started and self._thread.is_alive() and time.monotonic() < deadline:
            self._thread.join(0.01)
        if not server.started:
            self.stop()
            raise WebError.of(DID_NOT_START, reason=self._failed or "timeout")
        return self

    def stop(self) -> None:
        """End the streams (`on_stop`), stop the server, wait for its thread (a few s)."""
        if self.on_stop is not None:
            with contextlib.suppress(Exception):
                self.on_stop()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5.0)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(2.0)
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def sse_response(
    hub: Hub,
    keepalive_s: float = KEEPALIVE_S,
    keepalive: Callable[[], Message] | None = None,
) -> Any:
    """A Starlette response that streams `hub` to one client as Server-Sent Events.

    After `keepalive_s` seconds with nothing to send, it sends `keepalive()` (e.g. the
    server's time), or an SSE comment: idle connections stay open through proxies, and a
    client that went away is noticed.
    """
    from starlette.responses import StreamingResponse

    def idle() -> bytes:
        return keepalive().encode() if keepalive is not None else comment("keep-alive")

    async def stream() -> AsyncIterator[bytes]:
        sub = hub.subscribe()
        try:
            while True:
                chunk = await sub.next(keepalive_s)
                if chunk is None:
                    return
                yield b"".join(chunk) if chunk else idle()
        finally:
            sub.close()

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


__all__ = ["DEFAULT_HOST", "WebServer", "bind", "parse_address", "sse_response"]
