"""The game's page over HTTP, without a browser: the state, the controls and their token,
the clock's tap zones, the downloads. The session is not running: what the page sends is
read from its queue, as the session loop would take it."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbiter.clock import FakeClock
from arbiter.live.session import Session
from arbiter.web.live import LivePage, start_page
from rules.events import AddTime, Lift, Place, Press, Resign, Start

TOKEN = "s3cret"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Session, LivePage]]:
    journal = tmp_path / "g.jsonl"
    clock = FakeClock(0.0)
    start = Start(t=0.0, time_control="180+2", white="W", black="B")
    session = Session.new(start, journal, clock)
    page = start_page(session, "127.0.0.1:0", token=TOKEN, journal=journal)
    try:
        yield session, page
    finally:
        page.stop()
        session.close()


def call(
    page: LivePage, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", page.server.address[1], timeout=5)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-Arbiter-Token"] = token
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def play(session: Session, *events: Any) -> None:
    for event in events:
        session.clock.set(event.t)  # type: ignore[attr-defined]
        session.submit(event)


def test_the_state_has_the_rulings_with_their_sentences(served: Any) -> None:
    session, page = served
    play(
        session,
        Lift(t=1.0, square="e2", piece="P"),
        Place(t=1.5, square="e4", piece="P"),
        Press(t=2.0, side="white"),
    )
    status, data = call(page, "GET", "/api/state")
    state = json.loads(data)
    assert status == 200
    assert state["info"]["white"] == "W" and state["info"]["increment"] == 2
    move = next(r for r in state["rulings"] if r["type"] == "move")
    assert move["san"] == "e4" and move["message"] == "White played e4."
    assert [r["n"] for r in state["rulings"]] == list(range(len(state["rulings"])))
    assert state["board"]["to_move"] == "black" and state["board"]["diff"] == []


def test_controls_need_the_token_and_become_contract_events(served: Any) -> None:
    session, page = served
    add = {"action": "add_time", "side": "black", "seconds": 30, "t": -5}
    assert call(page, "POST", "/api/control", add)[0] == 403
    assert call(page, "POST", "/api/control", add, token="wrong")[0] == 403
    assert session.queue.empty()
    session.clock.set(7.25)
    status, _ = call(page, "POST", "/api/control", add, token=TOKEN)
    assert status == 202
    event = session.queue.get_nowait()
    # stamped with the session's clock at receipt, whatever the page said
    assert event == AddTime(t=7.25, side="black", seconds=30)


@pytest.mark.parametrize(
    "body, words",
    [
        ({"action": "add_time", "side": "green", "seconds": 30}, "side"),
        ({"action": "fly"}, "'action' must be one of"),
        ({"action": "add_time", "side": "white", "seconds": 1e308}, "seconds"),
        ([1, 2], "JSON object"),
        ({"action": "set_position", "fen": "xyz"}, "cannot be read"),
        ({"action": "set_position", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "not a legal"),
    ],
)
def test_a_bad_control_is_refused_with_a_reason(served: Any, body: Any, words: str) -> None:
    session, page = served
    status, data = call(page, "POST", "/api/control", body, token=TOKEN)
    assert status == 400 and words in json.loads(data)["error"]
    assert session.queue.empty()


def test_a_tap_is_a_press_at_the_session_time_of_receipt(served: Any) -> None:
    session, page = served
    session.clock.set(3.5)
    assert call(page, "POST", "/api/press", {"side": "white"})[0] == 403
    players = page.press_token
    assert players is not None and players != TOKEN
    assert call(page, "POST", "/api/press", {"side": "black"}, token=players)[0] == 202
    assert session.queue.get_nowait() == Press(t=3.5, side="black")
    # the players' token is for the clock's buttons only
    assert call(page, "POST", "/api/control", {"action": "pause"}, token=players)[0] == 403
    assert call(page, "POST", "/api/press", {"side": "both"}, token=TOKEN)[0] == 400
    assert call(page, "POST", "/api/press", {"side": "white"}, token=TOKEN)[0] == 202
    assert session.queue.get_nowait() == Press(t=3.5, side="white")


def test_downloads_and_the_end_of_the_game(served: Any) -> None:
    session, page = served
    play(
        session,
        Lift(t=1.0, square="e2", piece="P"),
        Place(t=1.5, square="e4", piece="P"),
        Press(t=2.0, side="white"),
        Resign(t=3.0, side="black"),
    )
    status, pgn = call(page, "GET", "/game.pgn")
    assert status == 200 and b"1. e4" in pgn and b'[Result "1-0"]' in pgn
    status, journal = call(page, "GET", "/journal.jsonl")
    lines = journal.decode().splitlines()
    assert status == 200 and json.loads(lines[0])["type"] == "start" and len(lines) == 5
    add = {"action": "add_time", "side": "black", "seconds": 30}
    status, data = call(page, "POST", "/api/control", add, token=TOKEN)
    assert status == 409 and "over" in json.loads(data)["error"]


def test_a_page_with_no_token_is_read_only_for_everyone(tmp_path: Path) -> None:
    session = Session.new(Start(t=0.0, time_control="60"), None, FakeClock(0.0))
    page = start_page(session, "127.0.0.1:0", controls=False)
    try:
        assert page.control_url() is None
        status, _ = call(page, "POST", "/api/control", {"action": "pause"}, token="")
        assert status == 403 and session.queue.empty()
    finally:
        page.stop()


def test_a_resumed_game_shows_its_history(tmp_path: Path) -> None:
    history = [
        Start(t=0.0, time_control="60"),
        Lift(t=1.0, square="d2", piece="P"),
        Place(t=1.2, square="d4", piece="P"),
        Press(t=1.5, side="white"),
    ]
    session = Session.resume(history, None, lambda t: FakeClock(t))
    page = start_page(session, "127.0.0.1:0", controls=False)
    try:
        state = json.loads(call(page, "GET", "/api/state")[1])
        assert [r["san"] for r in state["rulings"] if r["type"] == "move"] == ["d4"]
        assert abs(state["now"] - 1.5) < 1e-6
    finally:
        page.stop()


def test_the_clocks_of_a_new_game_are_shown_before_any_press(served: Any) -> None:
    _, page = served
    state = json.loads(call(page, "GET", "/api/state")[1])
    assert state["info"]["clock"] == {
        "t": 0.0, "white": 180.0, "black": 180.0, "running": "white", "paused": False,
    }  # fmt: skip


def test_a_fault_of_the_page_never_stops_the_game(
    served: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session, page = served

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug of the page")

    monkeypatch.setattr("arbiter.web.feed.board_view", broken)
    play(
        session,
        Lift(t=1.0, square="e2", piece="P"),
        Place(t=1.5, square="e4", piece="P"),
        Press(t=2.0, side="white"),
    )
    assert session.game.ply == 1  # the game went on
    state = json.loads(call(page, "GET", "/api/state")[1])
    assert [r["san"] for r in state["rulings"] if r["type"] == "move"] == ["e4"]
    assert capsys.readouterr().err.count("could not follow the game") == 1


@pytest.mark.parametrize(
    ("body", "sr"),
    [
        ([1, 2], "zahtev mora biti JSON objekat"),
        ({"action": "set_position", "fen": "xyz"}, "FEN ne može da se pročita ("),
        ({"action": "set_position", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "FEN nije dozvoljena"),
        ({"action": "fly"}, "'action' mora biti jedno od"),
    ],
)
def test_a_refusal_comes_in_every_language(served: Any, body: Any, sr: str) -> None:
    """The page shows a refusal in its own language (`errors`), the English as before."""
    from rules.i18n import LANGUAGES

    _, page = served
    status, data = call(page, "POST", "/api/control", body, token=TOKEN)
    said = json.loads(data)
    assert status == 400 and set(said["errors"]) == set(LANGUAGES)
    assert said["errors"]["en"] == said["error"]
    assert said["errors"]["sr"].startswith(sr), said["errors"]["sr"]
    for language in LANGUAGES:
        if language != "en":
            assert said["errors"][language] != said["error"], (language, said)
