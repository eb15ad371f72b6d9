"""The game's page in a real browser (Debian's Chromium): issue 13, item 5.

One live game (strict, 5 min + 2 s) for the module, played by events as a board source sends
them; the tests run in order on it: the position after moves, the clocks counting down, a
ruling on the page within 0.5 s, the arbiter's add-time from the page (clocks and journal),
the read-only page refused, and the screenshots of the three views (out/screenshots/).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_game import SCREENSHOTS, TOKEN, LiveGame, live_game

from rules.events import Lift, Place, Press, Start

READY = "document.querySelector('[data-clock=white]') !== null"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveGame]:
    start = Start(t=0.0, time_control="300+2", white="Ana", black="Ben", strict=True)
    yield from live_game(tmp_path_factory.mktemp("game"), start)


@pytest.fixture(scope="module")
def arbiter_page(browser: Any, game: LiveGame) -> Any:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{game.url}?token={TOKEN}")
    page.wait_for_function(READY, timeout=10_000)
    page.errors = errors
    return page


def move(game: LiveGame, side: str, frm: str, to: str, piece: str) -> None:
    game.put(Lift, square=frm, piece=piece)
    game.put(Place, square=to, piece=piece)
    game.put(Press, side=side)
    game.settle()


def piece_on(page: Any, square: str) -> str:
    return str(page.get_attribute(f"#position [data-square={square}]", "data-piece"))


def test_the_page_shows_the_position_after_moves_on_the_board(
    arbiter_page: Any, game: LiveGame
) -> None:
    move(game, "white", "e2", "e4", "P")
    move(game, "black", "e7", "e5", "p")
    move(game, "white", "g1", "f3", "N")
    arbiter_page.wait_for_function(
        "document.querySelector('#position [data-square=f3]').dataset.piece === 'N'",
        timeout=3000,
    )
    assert piece_on(arbiter_page, "e4") == "P" and piece_on(arbiter_page, "e5") == "p"
    assert piece_on(arbiter_page, "e2") == "" and piece_on(arbiter_page, "g1") == ""
    moves = arbiter_page.inner_text(".moves")
    assert "e4" in moves and "e5" in moves and "Nf3" in moves
    assert arbiter_page.errors == []


def test_the_clock_text_counts_down(arbiter_page: Any) -> None:
    # Black's clock runs after White's Nf3 and its press
    first = arbiter_page.inner_text("[data-clock=black]")
    time.sleep(1.3)
    second = arbiter_page.inner_text("[data-clock=black]")
    white = arbiter_page.inner_text("[data-clock=white]")
    time.sleep(0.3)
    assert _seconds(second) < _seconds(first) <= 302  # 5 min, and the 2-s increment of e5
    assert arbiter_page.inner_text("[data-clock=white]") == white  # White's stands


def test_a_ruling_appears_within_half_a_second(arbiter_page: Any, game: LiveGame) -> None:
    count = arbiter_page.evaluate("document.querySelectorAll('[data-type=obligation]').length")
    began = time.monotonic()
    game.put(Lift, square="b8", piece="n")  # Black touches the knight: a duty (4.3.1)
    arbiter_page.wait_for_function(
        f"document.querySelectorAll('[data-type=obligation]').length > {count}",
        timeout=2000,
        polling="raf",
    )
    took = time.monotonic() - began
    assert took < 0.5, f"the ruling took {took:.3f} s to reach the page"
    text = arbiter_page.inner_text(".rulings li[data-type=obligation]")
    assert "Art. 4.3.1" in text and "b8" in text


def test_the_arbiters_add_time_from_the_page_is_ruled_and_journaled(
    arbiter_page: Any, game: LiveGame
) -> None:
    before = _seconds(arbiter_page.inner_text("[data-clock=white]"))
    arbiter_page.select_option("#add-side", "white")
    arbiter_page.fill("#add-seconds", "90")
    arbiter_page.click("#add-time")
    arbiter_page.wait_for_function(
        f"(() => {{ const t = document.querySelector('[data-clock=white]').textContent;"
        f" const [m, s] = t.split(':'); return Number(m) * 60 + Number(s) > {before + 60}; }})()",
        timeout=3000,
    )
    # the reply to the POST may come after the clocks' update from the feed: wait for it too
    arbiter_page.wait_for_function(
        "document.getElementById('feedback').textContent === 'sent: Add time'", timeout=3000
    )
    game.settle()
    actions = [json.loads(line) for line in game.journal_lines()]
    added = [e for e in actions if e.get("action") == "add_time"]
    assert len(added) == 1 and added[0]["side"] == "white" and added[0]["seconds"] == 90
    assert "Art." in arbiter_page.inner_text(".rulings")


def test_the_read_only_page_cannot_act(browser: Any, game: LiveGame) -> None:
    page = browser.new_page()
    page.goto(game.url)
    page.evaluate("sessionStorage.clear()")
    page.reload()
    page.wait_for_function(READY, timeout=10_000)
    assert page.is_visible("#readonly") and page.query_selector("#add-time") is None
    lines = len(game.journal_lines())
    status = page.evaluate(
        """async () => (await fetch('/api/control', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({action: 'add_time', side: 'black', seconds: 60})})).status"""
    )
    wrong = page.evaluate(
        """async () => (await fetch('/api/control', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-Arbiter-Token': 'guess'},
            body: JSON.stringify({action: 'pause'})})).status"""
    )
    assert status == 403 and wrong == 403
    game.settle()
    assert len(game.journal_lines()) == lines  # nothing journaled
    page.close()


def test_screenshots_of_the_three_views(
    browser: Any, arbiter_page: Any, game: LiveGame
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Black's knight, lifted above, is still in the hand: the board as sensed differs (a move
    # in progress, drawn beside the position), the duty stands (the teaching view draws it)
    arbiter_page.wait_for_selector("#sensed [data-square=b8][data-piece='']", timeout=3000)
    assert "move in progress" in arbiter_page.inner_text("#sensed .caption")
    shots = {"arbiter": arbiter_page}
    for view, size in (("clock", (1024, 600)), ("teach", (1100, 760))):
        page = browser.new_page()
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"{game.url}{view}")
        page.wait_for_function(READY, timeout=10_000)
        shots[view] = page
    teach = shots["teach"].inner_text("#duty")
    assert "knight on b8" in teach and "a6" in teach and "c6" in teach
    face = shots["clock"].inner_text("body")
    assert "Nf3" not in face and "4.3.1" not in face  # 12.6: no move, no duty on the face
    for view, page in shots.items():
        path = Path(SCREENSHOTS / f"{view}.png")
        page.screenshot(path=str(path), full_page=view == "arbiter")
        assert path.stat().st_size > 10_000
    game.put(Place, square="b8", piece="n")  # put back: the duty stands
    game.settle()
    arbiter_page.wait_for_selector("#sensed", state="detached", timeout=3000)


def _seconds(text: str) -> float:
    minutes, _, seconds = text.partition(":")
    return int(minutes) * 60 + float(seconds)


def test_the_history_shows_the_position_at_any_ply(arbiter_page: Any) -> None:
    arbiter_page.click(".moves button[data-ply='1']")
    assert "history" in arbiter_page.inner_text("#position .caption")
    assert piece_on(arbiter_page, "e4") == "P" and piece_on(arbiter_page, "e5") == ""
    assert piece_on(arbiter_page, "g1") == "N"
    arbiter_page.click("#position .caption button")
    assert piece_on(arbiter_page, "f3") == "N" and piece_on(arbiter_page, "e5") == "p"


def test_a_tap_on_the_clock_face_is_a_press_journaled_with_its_time(
    browser: Any, game: LiveGame
) -> None:
    page = browser.new_page()
    page.goto(f"{game.url}clock?token={TOKEN}")
    page.wait_for_function(READY, timeout=10_000)
    assert page.query_selector("button.half[data-side=black]") is not None  # a tap zone
    before = game.session.clock.now()
    page.click("button.half[data-side=black]")
    page.wait_for_function("document.querySelector('#feedback').textContent !== ''")
    game.settle()
    presses = [json.loads(x) for x in game.journal_lines() if '"press"' in x]
    assert presses[-1]["side"] == "black"
    assert before <= presses[-1]["t"] <= game.session.clock.now()
    page.close()


def test_the_teaching_view_shows_a_refused_move_and_why(browser: Any, game: LiveGame) -> None:
    page = browser.new_page()
    page.goto(f"{game.url}teach")
    page.wait_for_function(READY, timeout=10_000)
    # Black touched the knight on b8 (above) and plays a pawn instead: refused (strict)
    move(game, "black", "d7", "d6", "p")
    page.wait_for_selector("#refused", timeout=3000)
    why = page.inner_text("#refused")
    assert why.startswith("Refused:") and "b8" in why and "4.3.1" in why
    assert page.get_attribute("[data-square=b8]", "class").count("touched") == 1
    page.screenshot(path=str(SCREENSHOTS / "teach-refused.png"))
    page.close()


def test_the_page_in_the_browsers_language_and_the_menus(browser: Any, game: LiveGame) -> None:
    page = browser.new_page()
    page.set_extra_http_headers({"Accept-Language": "pl-PL,pl;q=0.9"})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(game.url)
    page.wait_for_function(READY, timeout=10_000)
    page.wait_for_function("document.documentElement.lang === 'pl'", timeout=5000)
    assert "ruchy" in page.inner_text("body").lower()  # headings are upper case by CSS
    assert "Białe zagrały e4." in page.inner_text(".rulings")  # the formatter's Polish
    page.select_option("#language", "sr")
    page.wait_for_function("document.documentElement.lang === 'sr'", timeout=5000)
    assert "Beli je odigrao e4." in page.inner_text(".rulings")
    assert "potezi" in page.inner_text("body").lower()
    page.reload()  # the menu's choice is kept by this browser over its Accept-Language
    page.wait_for_function("document.documentElement.lang === 'sr'", timeout=5000)
    assert errors == []
    page.evaluate("localStorage.clear()")  # the other pages of this browser stay as they were
    page.close()
