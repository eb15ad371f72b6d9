"""The players' clock face's symbols (issue 13 item 3), in a real browser: a simple delay
counting down on the running side (its end, `0` and the main time running, is in the page
script's unit tests), and a multi-period control's period and moves to the
control with its increment, as a DGT 3000 shows them (docs/web.md). The screenshots are
kept (out/screenshots/clock-delay.png, clock-periods.png)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from web_game import SCREENSHOTS, live_game

from rules.events import Lift, Place, Press, Start

READY = "document.querySelector('[data-marks=white]') !== null"


def marks(page: Any, side: str) -> list[str]:
    texts = "ns => ns.map(n => n.textContent)"
    found = page.eval_on_selector_all(f"[data-marks={side}] .mark", texts)
    return list(found)


def face(browser: Any, url: str) -> Any:
    page = browser.new_page()
    page.set_viewport_size({"width": 1024, "height": 600})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{url}clock")
    page.wait_for_function(READY, timeout=10_000)
    return page


def test_a_simple_delay_counts_down_on_the_running_side(
    browser: Any, tmp_path: Path
) -> None:
    games = live_game(tmp_path, Start(t=0.0, time_control="3600d20", white="Ana", black="Ben"))
    game = next(games)
    try:
        page = face(browser, game.url)
        first = marks(page, "white")
        # White's clock runs from the start: its delay counts down (the page opens a few
        # seconds into it on a loaded machine)
        assert len(first) == 1 and 10 <= int(first[0]) <= 20, first
        assert page.is_visible("[data-marks=white] .mark-delay.counting")
        assert marks(page, "black") == ["20"]  # Black's delay, not running
        assert not page.is_visible("[data-marks=black] .mark-delay.counting")
        digits = page.inner_text("[data-clock=white]")
        time.sleep(1.3)
        later = int(marks(page, "white")[0])
        assert later < int(first[0])
        assert page.inner_text("[data-clock=white]") == digits == "1:00:00"  # 6.3.2: held
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "clock-delay.png"))
        assert page.errors == []
        page.close()
    finally:
        games.close()


def test_a_multi_period_control_shows_the_period_and_the_moves_to_the_control(
    browser: Any, tmp_path: Path
) -> None:
    start = Start(t=0.0, time_control="40/5400+30:1800+30", white="Ana", black="Ben")
    games = live_game(tmp_path, start)
    game = next(games)
    try:
        page = face(browser, game.url)
        assert marks(page, "white") == ["P1", "▸40", "+30"]
        assert marks(page, "black") == ["P1", "▸40", "+30"]
        title = page.get_attribute("[data-marks=white] .mark-period", "title")
        assert title == "period 1: 40 moves to the time control"
        game.put(Lift, square="e2", piece="P")
        game.put(Place, square="e4", piece="P")
        game.put(Press, side="white")
        game.settle()
        page.wait_for_function(
            "document.querySelector('[data-marks=white] .mark-moves').textContent === '▸39'",
            timeout=3000,
        )
        assert marks(page, "black") == ["P1", "▸40", "+30"]
        face_text = page.inner_text("body")
        assert "e4" not in face_text  # 12.6: no move on the face
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / "clock-periods.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
        assert page.errors == []
        page.close()
    finally:
        games.close()
