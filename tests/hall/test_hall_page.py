"""The hall's page: its API (state, a board's PGN, controls behind the token, alarms, the
LiveChess-style eboards list) and, in Debian's Chromium, the grid and a board's view, with
screenshots in out/screenshots/hall-*.png."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbiter.demo.game import demo_events
from arbiter.hall.demo import SimulatedBoard
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress
from arbiter.hall.web import TOKEN_HEADER, HallPage
from tests.hall.brokers import Mosquitto
from tests.hall.conftest import need_mosquitto

TOKEN = "hall-token-123"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "out" / "screenshots"


def _until(condition, timeout: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Station, HallPage, list]]:  # type: ignore[type-arg]
    need_mosquitto()
    folder = tmp_path_factory.mktemp("hall")
    broker = Mosquitto(folder).start()
    address = BrokerAddress("127.0.0.1", broker.port)
    station = Station(address).start()
    assert station.connected.wait(10)
    page = HallPage(station, {"1": ("Ann", "Bob")}, token=TOKEN).start("127.0.0.1", 0)
    boards = [
        SimulatedBoard("1", demo_events(seed=21), address, folder, speed=3, fsync=False),
        SimulatedBoard("2", demo_events(seed=22), address, folder, speed=40, fsync=False),
        SimulatedBoard("3", demo_events(seed=23), address, folder, speed=40, fsync=False),
    ]
    for board in boards:
        board.start()
    assert _until(lambda: all(station.synced(b.name) for b in boards))
    try:
        yield station, page, boards
    finally:
        for board in boards:
            board.stop()
        page.stop()
        station.close()
        broker.stop()


def call(page: HallPage, method: str, path: str, body: Any = None, token: str | None = None):  # type: ignore[no-untyped-def]
    host, port = page.server.address
    conn = http.client.HTTPConnection(host, port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers[TOKEN_HEADER] = token
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, data


def test_the_state_lists_every_board_with_the_pairings_names(hall) -> None:  # type: ignore[no-untyped-def]
    _station, page, _boards = hall
    assert page.poll() in (True, False)
    status, data = call(page, "GET", "/api/hall")
    state = json.loads(data)
    assert status == 200
    rows = {row["board"]: row for row in state["boards"]}
    assert (
        rows["1"]["white"] == "Ann" and rows["2"]["white"] == "MagnusCarlsen"
    )  # pairing; else the start's own
    assert rows["1"]["fen"] and rows["1"]["online"] is True


def test_a_control_needs_the_token_and_is_acknowledged_by_the_board(hall) -> None:  # type: ignore[no-untyped-def]
    _station, page, boards = hall
    action = {"action": {"action": "add_time", "side": "white", "seconds": 15}}
    status, _ = call(page, "POST", "/api/board/1/control", action)
    assert status == 403
    status, data = call(page, "POST", "/api/board/1/control", action, token=TOKEN)
    assert status == 200, data
    seq = json.loads(data)["seq"]
    line = boards[0].journal_path.read_text(encoding="utf-8").splitlines()[seq - 1]
    assert json.loads(line)["action"] == "add_time"
    bad = {"action": {"action": "add_time", "side": "nobody", "seconds": 5}}
    status, data = call(page, "POST", "/api/board/1/control", bad, token=TOKEN)
    assert status == 400 and b"refused" in data
    said = json.loads(data)["errors"]  # in every language: the board's reason too (issue 15)
    assert said["en"] == json.loads(data)["error"]
    assert said["sr"].startswith("tabla 1 ju je odbila: 'side' mora biti"), said["sr"]
    status, data = call(page, "POST", "/api/board/9/control", action, token=TOKEN)
    assert status == 404 and json.loads(data)["errors"]["pl"] == "na sali nie ma szachownicy '9'"


def test_the_pgn_and_the_eboards_list(hall) -> None:  # type: ignore[no-untyped-def]
    station, page, _boards = hall
    assert _until(lambda: station.synced("2") and station.boards["2"].replay.over)
    status, data = call(page, "GET", "/api/board/2.pgn")  # a finished game: it holds still
    assert status == 200 and data.decode() == station.pgn("2")  # no pairing: the board's own
    status, data = call(page, "GET", "/api/board/1.pgn")
    assert status == 200 and '[White "Ann"]' in data.decode()  # the pairing's names
    assert call(page, "GET", "/api/board/9.pgn")[0] == 404
    status, data = call(page, "GET", "/api/v1.0/eboards")
    listed = {b["serialnr"]: b for b in json.loads(data)}
    assert set(listed) == {"1", "2", "3"} and listed["1"]["state"] == "ACTIVE"
    assert listed["1"]["board"].count("/") == 7


def test_an_alarm_is_cleared_with_the_token(hall) -> None:  # type: ignore[no-untyped-def]
    station, page, _boards = hall
    assert _until(lambda: any(a.board == "2" for a in station.alarms))  # the demo's wrong claim
    alarm = next(a for a in station.alarms if a.board == "2")
    assert call(page, "POST", f"/api/alarms/{alarm.ident}/clear")[0] == 403
    assert call(page, "POST", f"/api/alarms/{alarm.ident}/clear", token=TOKEN)[0] == 200
    assert all(a.ident != alarm.ident for a in station.alarms)


def test_the_page_in_chromium(hall, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, _unavailable

    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the Python package playwright is missing (pip install -e '.[dev]')")
    _station, page, _boards = hall
    base = page.url.replace("localhost", "127.0.0.1")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
            headless=True, viewport={"width": 1280, "height": 860},
        )  # fmt: skip
        try:
            tab = context.new_page()
            tab.goto(base)
            tab.wait_for_selector(".card[data-board='3']", timeout=10_000)
            assert tab.locator(".card").count() == 3
            assert "Ann" in tab.locator(".card[data-board='1']").inner_text()
            tab.wait_for_selector("#alarms li[data-board='3']", timeout=20_000)
            tab.screenshot(path=str(SCREENSHOTS / "hall-grid.png"), full_page=True)
            tab.locator(".card[data-board='1']").click()
            tab.wait_for_url("**/board/1")
            tab.fill("#token", TOKEN)
            tab.dispatch_event("#token", "change")
            tab.locator("button", has_text="Black +1 min").click()
            tab.wait_for_function(
                "document.getElementById('answer').textContent.includes('journaled')",
                timeout=10_000,
            )
            tab.wait_for_function("document.getElementById('pgn').textContent.length > 0")
            tab.screenshot(path=str(SCREENSHOTS / "hall-board.png"), full_page=True)
        finally:
            context.close()
