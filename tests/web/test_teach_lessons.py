"""The teaching view shows the lesson for a child under a refused move (issue 13 item 4,
issue 15 item 3), in the page's language, with the duty drawn on the board.

The feed gives each refusal of a strict game its lesson in every language (`lessons`, made
by `arbiter.teach.lessons`); the page only picks its language's. One test reads the feed's
JSON, one shows a Serbian strict game in Debian's Chromium (screenshot kept in
out/screenshots/teach-lesson-sr.png).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_game import SCREENSHOTS, LiveGame, live_game

from arbiter.clock import FakeClock
from arbiter.live.session import Session
from arbiter.outputs.display import Display
from arbiter.teach.lessons import lesson_of
from arbiter.web.feed import GameFeed
from rules.events import Lift, Place, Press, Start
from rules.i18n import LANGUAGES
from rules.rulings import Violation

READY = "document.querySelector('#duty') !== null"
#: the Serbian lesson under a refused move after the knight on g1 was touched (4.3.1)
SR_LESSON = (
    "Dotakao si figuru na g1, pa moraš da je pomeriš ili uzmeš. Vrati svoj potez i igraj"
    " figurom na g1."
)


def _touch_then_other_move(put: Any) -> None:
    """White touches the knight on g1 (lifts it and puts it back), then plays e2-e4."""
    put(Lift, square="g1", piece="N")
    put(Place, square="g1", piece="N")
    put(Lift, square="e2", piece="P")
    put(Place, square="e4", piece="P")
    put(Press, side="white")


def test_a_refusal_carries_its_lesson_in_every_language_in_strict_mode(tmp_path: Path) -> None:
    for strict in (True, False):
        clock = FakeClock(0.0)
        start = Start(t=0.0, time_control="300+2", strict=strict)
        session = Session.new(start, tmp_path / f"g{strict}.jsonl", clock)
        feed = GameFeed().attach(session)

        def put(make: Any, **fields: Any) -> None:
            clock.advance(1.0)  # noqa: B023 - called in this round only
            session.take(make(t=clock.now(), **fields))  # noqa: B023

        _touch_then_other_move(put)
        rulings = feed.greeting_data()["rulings"]
        taught = [r for r in rulings if "lessons" in r]
        session.close()
        if not strict:  # no refusal, and no lesson outside teaching mode
            assert taught == []
            continue
        assert [r["type"] for r in taught] == ["violation"]
        lessons = taught[0]["lessons"]
        assert set(lessons) == set(LANGUAGES)
        assert lessons["sr"] == SR_LESSON
        violation = next(r for r in feed.rulings_so_far() if isinstance(r, Violation))
        assert lessons["pl"] == lesson_of(violation, "pl")
        assert all("g1" in text for text in lessons.values())


@pytest.fixture(scope="module")
def serbian_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveGame]:
    """A strict game whose language is Serbian (its display's), on its thread, page served."""
    tmp = tmp_path_factory.mktemp("teach-lesson")
    display = Display(io.StringIO(), tty=False, language="sr")
    # a board without noise or sliding: the test's hands are faster than a pupil's
    start = Start(
        t=0.0, time_control="300+2", white="Ana", black="Ben", strict=True, noise_s=0.0,
        slide_s=0.0,
    )
    yield from live_game(tmp, start, display=display, token=None)


def test_the_teaching_view_shows_the_lesson_in_serbian_with_the_duty_drawn(
    browser: Any, serbian_game: LiveGame
) -> None:
    game = serbian_game
    page = browser.new_page()
    page.set_viewport_size({"width": 1100, "height": 760})
    page.set_extra_http_headers({"Accept-Language": "sr-RS,sr;q=0.9"})  # a pupil's browser
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{game.url}teach")
    page.wait_for_function(READY, timeout=10_000)
    page.wait_for_function("document.documentElement.lang === 'sr'", timeout=5000)
    _touch_then_other_move(game.put)
    game.settle()
    page.wait_for_selector("#lesson", timeout=3000)
    assert page.inner_text("#lesson") == SR_LESSON
    assert "4.3.1" in page.inner_text("#refused")
    # the duty stands after the refusal: the touched knight and the squares it may go to
    assert "touched" in str(page.get_attribute("[data-square=g1]", "class"))
    for target in ("f3", "h3"):
        assert "target" in str(page.get_attribute(f"[data-square={target}]", "class"))
    assert "target" not in str(page.get_attribute("[data-square=e4]", "class"))
    assert page.evaluate("window.ArbiterPage.lessonText({lessons: {en: 'x'}}, 'cs')") == "x"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "teach-lesson-sr.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    # the lesson stays until the next move stands: the pawn put back, the knight's move
    game.put(Lift, square="e4", piece="P")
    game.put(Place, square="e2", piece="P")
    game.put(Lift, square="g1", piece="N")
    game.put(Place, square="f3", piece="N")
    game.put(Press, side="white")
    game.settle()
    page.wait_for_selector("#lesson", state="detached", timeout=3000)
    assert errors == []
    page.close()
