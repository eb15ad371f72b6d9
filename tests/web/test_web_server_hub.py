"""The reusable web parts: `[HOST:]PORT`, the server on its thread, the SSE hub."""

from __future__ import annotations

import asyncio
import http.client
import socket
import threading

import pytest

from arbiter.web.errors import WebError
from arbiter.web.hub import Hub, Message
from arbiter.web.server import WebServer, parse_address, sse_response


def test_addresses_bind_localhost_unless_told() -> None:
    assert parse_address("8080") == ("127.0.0.1", 8080)
    assert parse_address("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    assert parse_address("0") == ("127.0.0.1", 0)
    for bad in ("http", "host:", "70000", "-1"):
        with pytest.raises(WebError):
            parse_address(bad)


def _app(hub: Hub):  # type: ignore[no-untyped-def]
    from starlette.applications import Starlette
    from starlette.routing import Route

    return Starlette(routes=[Route("/events", lambda request: sse_response(hub, 0.2))])


def _read_events(port: int, want: int) -> list[str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("content-type", "").startswith("text/event-stream")
    lines: list[str] = []
    while len([x for x in lines if x.startswith("data:")]) < want:
        line = response.fp.readline().decode()
        if not line:
            break
        lines.append(line.strip())
    conn.close()
    return [x.removeprefix("data: ") for x in lines if x.startswith("data:")]


def test_a_free_port_a_greeting_and_messages_published_from_another_thread() -> None:
    hub = Hub(greeting=lambda: [Message("state", {"n": 0})])
    with WebServer(_app(hub), "127.0.0.1", 0, on_stop=hub.close) as server:
        port = server.address[1]
        assert port > 0 and server.url == f"http://127.0.0.1:{port}/"
        got: list[str] = []
        reader = threading.Thread(target=lambda: got.extend(_read_events(port, 3)))
        reader.start()
        while hub.clients == 0 and reader.is_alive():
            reader.join(0.01)

        def publish() -> None:
            hub.publish(Message("step", {"n": 1}))
            hub.publish(Message("step", {"n": 2}))

        threading.Thread(target=publish).start()  # the session's thread, say
        reader.join(5)
    assert got == ['{"n":0}', '{"n":1}', '{"n":2}']


def test_a_port_in_use_is_a_clear_error() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.raises(WebError, match=f"port {port} .* already in use"):
            WebServer(_app(Hub()), "127.0.0.1", port).start()
    finally:
        taken.close()


def test_a_client_that_falls_behind_is_dropped_and_the_others_keep_up() -> None:
    async def scenario() -> tuple[bool, bool, int]:
        hub = Hub(max_queue=5)
        slow, quick = hub.subscribe(), hub.subscribe()
        for n in range(5):  # the retry line and 5 messages: one more than 5
            hub.publish(Message("m", n))
            assert await quick.next(0.1)  # the quick one reads as they come
        await asyncio.sleep(0)
        return slow.dropped, quick.dropped, hub.clients

    slow_dropped, quick_dropped, clients = asyncio.run(scenario())
    assert slow_dropped and not quick_dropped and clients == 1


def test_no_message_is_lost_or_doubled_between_the_greeting_and_the_stream() -> None:
    state: list[int] = []

    def greeting() -> list[Message]:
        return [Message("state", list(state))]

    hub = Hub(greeting=greeting)

    def step(n: int):  # type: ignore[no-untyped-def]
        def run() -> list[Message]:
            state.append(n)
            return [Message("step", n)]

        return run

    async def scenario() -> list[bytes]:
        def write() -> None:
            for n in range(2000):
                hub.transact(step(n))

        writer = threading.Thread(target=write)
        writer.start()
        await asyncio.sleep(0.001)
        sub = hub.subscribe()
        chunks: list[bytes] = []
        while writer.is_alive() or sub.pending:
            chunks += await sub.next(0.05) or []
        writer.join()
        return chunks

    chunks = asyncio.run(scenario())
    import json

    greeting_seen = json.loads(chunks[1].split(b"data: ")[1])
    steps = [json.loads(c.split(b"data: ")[1]) for c in chunks[2:]]
    assert greeting_seen + steps == list(range(2000))


def test_closing_the_hub_ends_every_stream() -> None:
    async def scenario() -> list[bytes] | None:
        hub = Hub()
        sub = hub.subscribe()
        await sub.next(0.01)  # the retry line
        hub.close()
        return await sub.next(1.0)

    assert asyncio.run(scenario()) is None
