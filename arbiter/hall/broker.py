"""An embedded MQTT broker for `arbiter hall --demo`: amqtt (pure Python, asyncio) on a
thread of its own, listening on the local machine only.

A demo on a fresh machine needs no broker set up; a real hall uses Mosquitto
(docs/hall.md). amqtt is imported only here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from typing import Any

from arbiter.hall.errors import HallError
from rules.i18n import N_

#: seconds to wait for the broker to listen
START_TIMEOUT_S = 15.0


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class EmbeddedBroker:
    """amqtt listening on `host:port` (port 0: a free one), anonymous, on its own thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port or free_port(host)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        #: client connections amqtt failed on (see `_dropped`)
        self.dropped = 0

    def start(self) -> EmbeddedBroker:
        """Start it and wait until it listens.

        Raises:
            HallError: amqtt is not installed, or the broker cannot listen.
        """
        try:
            from amqtt.broker import Broker  # type: ignore[import-untyped]  # noqa: F401
        except ImportError:
            raise HallError.of(
                N_(
                    "the embedded broker needs amqtt (pip install amqtt); or give a broker with"
                    " --broker mqtt://HOST[:PORT]"
                )
            ) from None
        # its logs are not the hall's: a client's dropped connection is the hall's business
        # (the board reconnects, the station fills the gap), not a traceback on the screen
        for name in ("amqtt", "transitions", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self._thread = threading.Thread(target=self._run, name="hall-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S) or self._error is not None:
            why: object = self._error or HallError.of(
                N_("it did not listen within {seconds:.0f} s"), seconds=START_TIMEOUT_S
            )
            raise HallError.of(
                N_("the embedded broker on {host}:{port}: {why}"),
                host=self.host,
                port=self.port,
                why=why,
            )
        return self

    def _config(self) -> dict[str, Any]:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
            },
        }

    def _run(self) -> None:
        from amqtt.broker import Broker

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        loop.set_exception_handler(self._dropped)

        async def begin() -> None:
            self._broker = Broker(self._config(), loop=loop)
            await self._broker.start()

        try:
            loop.run_until_complete(begin())
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.close()

    def _dropped(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """A client's connection that failed inside amqtt (0.12 can fail a connection that
        comes while another subscribes): counted; the client reconnects."""
        self.dropped += 1

    def stop(self) -> None:
        """Shut the broker down and end its thread."""
        loop, broker = self._loop, self._broker
        if loop is None or broker is None or not loop.is_running():
            return
        done = asyncio.run_coroutine_threadsafe(broker.shutdown(), loop)
        with contextlib.suppress(Exception):
            done.result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
