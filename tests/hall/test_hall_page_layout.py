"""The hall's pages as Chromium draws them, on a station fed by hand (no broker): six boards
in play with long names, at the browser tests' size (1280 x 860, six cards a row). The
header's link once the page's words come after the first state, the cards' footers and
names, and no request of the pages failing (their icon)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from arbiter.demo.game import demo_events
from arbiter.hall.replay import BoardReplay
from arbiter.hall.station import BoardLink, Station
from arbiter.hall.topics import BrokerAddress
from arbiter.hall.web import HallPage

BOARDS = 6
NAMES = {
    str(n): (f"Jana Nováková-Dvořáková {n}", f"Goran Nikolovski-Stojanovski {n}")
    for n in range(1, BOARDS + 1)
}


#: the status of the page's icon (its `link rel=icon`, else the browser's `/favicon.ico`)
ICON = """fetch((document.querySelector("link[rel~='icon']") || {}).href || "/favicon.ico")
  .then((r) => r.status)"""


def _station() -> Station:
    """A station never started, holding six games of the demo in play (its first 70 events)."""
    station = Station(BrokerAddress("127.0.0.1", 1))
    for n in range(1, BOARDS + 1):
        name = str(n)
        replay = BoardReplay(name, f"game-{name}")
        for seq, event in enumerate(demo_events(seed=70 + n)[:70], start=1):
            replay.offer(seq, event.to_dict(), None)
        station.boards[name] = BoardLink(name, replay, online=True)
    return station


@pytest.fixture(scope="module")
def hall() -> Iterator[HallPage]:
    page = HallPage(_station(), NAMES).start("127.0.0.1", 0)
    try:
        yield page
    finally:
        page.stop()


def test_the_link_keeps_the_boards_when_the_words_come_late(hall: HallPage, browser: Any) -> None:
    """The first state came before the page's words (1 load in 4 on the colleague's
    machine; here the words are held back): they must not put "connecting…" back."""
    tab = browser.new_page()
    held: list[Any] = []
    tab.route("**/api/strings*", lambda route: held.append(route))
    tab.goto(hall.url)
    tab.wait_for_function("document.getElementById('link').textContent === '6 boards'")
    assert len(held) == 1
    held[0].continue_()
    tab.wait_for_selector("#lang")  # the words came, and the menu with them
    assert tab.inner_text("#link") == "6 boards"
    tab.close()


def test_the_cards_footers_and_names_lay_out_on_their_lines(hall: HallPage, browser: Any) -> None:
    tab = browser.new_page()
    tab.goto(hall.url)
    tab.wait_for_selector(f".card[data-board='{BOARDS}'] .clocks")
    cards = tab.evaluate(
        """() => [...document.querySelectorAll('.card')].map((card) => {
          const lines = (n) => Math.round(  // line-height "normal": about 1.2 em a line
            n.getBoundingClientRect().height / (1.2 * parseFloat(getComputedStyle(n).fontSize)));
          const spans = [...card.querySelectorAll('.clocks span')];
          const top = (n) => n.getBoundingClientRect().top;
          return {
            lines: spans.map(lines),
            texts: spans.map((s) => s.textContent),
            level: Math.abs(top(spans[0]) - top(spans[2])),
            names: lines(card.querySelector('.names')),
            titles: [...card.querySelectorAll('.names span[title]')].map((s) => s.title),
            shown: [...card.querySelectorAll('.names span[title]')].map((s) => s.clientWidth),
          };
        })"""
    )
    assert len(cards) == BOARDS
    for n, card in enumerate(cards, start=1):
        assert card["lines"] == [1, 1, 1], card  # ♔ with its time, "Black to move" whole
        assert card["texts"][1] in ("White to move", "Black to move"), card
        assert card["level"] < 2, card  # both clocks on one line
        assert card["names"] == 1 and card["titles"] == list(NAMES[str(n)]), card
        assert all(width > 20 for width in card["shown"]), card  # both names begin to show
    tab.close()


def _failures(tab: Any) -> list[str]:
    """What goes wrong in `tab` from now on: errors on its console, answers of 400 and over."""
    failed: list[str] = []
    tab.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    tab.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    return failed


def test_no_request_of_the_pages_fails(hall: HallPage, browser: Any) -> None:
    for path in ("", "board/1"):
        tab = browser.new_page()
        failed = _failures(tab)
        tab.goto(hall.url + path)
        tab.wait_for_selector("#lang")
        tab.wait_for_timeout(500)  # the icon is asked for after the page
        assert failed == [], path
        assert tab.evaluate(ICON) == 200, path  # once per browser: asked for again here
        tab.close()
