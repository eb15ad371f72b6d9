"""The page in the players' languages (issue 15 item 1): its own words from the catalogue
(`/api/strings`: the menu's choice, the browser's Accept-Language, else the game's language),
and every ruling's sentence in every language, made by the one formatter."""

from __future__ import annotations

import http.client
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbiter.clock import FakeClock
from arbiter.live.session import Session
from arbiter.outputs.display import Display
from arbiter.web.live import LivePage, start_page
from arbiter.web.strings import PAGE_STRINGS, accepted_languages, page_language
from rules.events import Lift, Place, Press, Start, Touch
from rules.i18n import LANGUAGES

APP_JS = Path(__file__).resolve().parents[2] / "arbiter" / "web" / "static" / "app.js"


@pytest.fixture
def serbian_game(tmp_path: Path) -> Iterator[tuple[Session, LivePage]]:
    """A game whose language is Serbian (its display's), with its page served."""
    display = Display(io.StringIO(), tty=False, language="sr")
    start = Start(t=0.0, time_control="180+2", white="W", black="B", strict=True)
    session = Session.new(start, tmp_path / "g.jsonl", FakeClock(0.0), display=display)
    page = start_page(session, "127.0.0.1:0", token=None, journal=tmp_path / "g.jsonl")
    try:
        yield session, page
    finally:
        page.stop()
        session.close()


def get(page: LivePage, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", page.server.address[1], timeout=5)
    conn.request("GET", path, None, headers or {})
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


def test_the_page_speaks_the_games_language_unless_asked_another(serbian_game: Any) -> None:
    _, page = serbian_game
    status, data = get(page, "/api/strings")
    assert status == 200 and data["language"] == "sr"
    assert data["strings"]["moves"] == "Potezi" and data["strings"]["white"] == "Beli"
    assert data["strings"]["teachDuty"]["castle"].startswith("{side}, dotakli ste kralja")
    # one sentence per piece: the piece in its case, the pronoun agreeing with it
    duty = data["strings"]["teachDuty"]
    assert duty["move_piece"]["n"] == "{side}, dotakli ste skakača na {square}: morate ga pomeriti."
    assert duty["move_piece"]["q"] == "{side}, dotakli ste damu na {square}: morate je pomeriti."
    assert duty["capture_piece"]["r"].startswith("{side}, dotakli ste protivnikovog topa")
    _, browser = get(page, "/api/strings", {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert browser["language"] == "pl" and browser["strings"]["pieceNames"]["q"] == "hetman"
    assert browser["strings"]["teachDuty"]["move_piece"]["r"].endswith("musisz nią ruszyć.")
    _, menu = get(page, "/api/strings?lang=mk", {"Accept-Language": "pl"})
    assert menu["language"] == "mk" and menu["strings"]["clocks"] == "Часовник"
    _, english = get(page, "/api/strings?lang=en")
    assert english["strings"]["moves"] == "Moves"
    _, unknown = get(page, "/api/strings?lang=xx", {"Accept-Language": "de-DE,fr;q=0.8"})
    assert unknown["language"] == "sr"  # neither is ours: the game's language


def test_the_page_gets_the_decimal_separator_of_its_language(serbian_game: Any) -> None:
    """`/api/strings` says how the page's language writes a decimal (the clocks' tenths),
    as the rulings' sentences write it (`rules.i18n.number`)."""
    _, page = serbian_game
    for language in LANGUAGES:
        _, data = get(page, f"/api/strings?lang={language}")
        assert data["decimal"] == ("." if language == "en" else ","), language


def test_every_ruling_and_duty_carries_its_sentence_in_every_language(serbian_game: Any) -> None:
    session, _ = serbian_game
    page = serbian_game[1]
    for event in (
        Lift(t=1.0, square="e2", piece="P"),
        Place(t=1.5, square="e4", piece="P"),
        Press(t=2.0, side="white"),
        Touch(t=3.0, side="black", square="g8"),
    ):
        session.clock.set(event.t)
        session.submit(event)
    _, state = get(page, "/api/state")
    assert state["info"]["language"] == "sr" and state["info"]["languages"] == LANGUAGES
    move = next(r for r in state["rulings"] if r["type"] == "move")
    assert move["message"] == "White played e4."  # the contract's sentence stays English
    assert set(move["messages"]) == set(LANGUAGES) - {"en"}
    assert move["messages"]["sr"] == "Beli je odigrao e4."
    assert move["messages"]["sr_Cyrl"] == "Бели је одиграо e4."
    duty = state["board"]["duties"][0]
    assert duty["kind"] == "move_piece" and "g8" in duty["messages"]["cs"]
    assert "Černý" in duty["messages"]["cs"] and "(čl. 4.3.1)" in duty["messages"]["cs"]


def _js_keys(text: str) -> dict[str, Any]:
    """The STRINGS object of app.js as a dict (its keys unquoted, its strings in "...")."""
    body = text[text.index("const STRINGS = {") + len("const STRINGS = ") :]
    body = body[: body.index("\n};") + 2]
    tokens = re.sub(
        r'"(?:[^"\\]|\\.)*"|(\w+)(?=\s*:)',
        lambda m: f'"{m.group(1)}"' if m.group(1) else m.group(0),
        body,
    )
    parsed: dict[str, Any] = json.loads(re.sub(r",(\s*[}\]])", r"\1", tokens))
    return parsed


def test_the_catalogues_page_words_are_the_scripts_strings() -> None:
    script = _js_keys(APP_JS.read_text(encoding="utf-8"))

    def check(marked: dict[str, Any], english: dict[str, Any], where: str) -> None:
        for key, value in marked.items():
            assert key in english, f"{where}{key} is not in app.js's STRINGS"
            if isinstance(value, dict):
                check(value, english[key], f"{where}{key}.")
            else:
                text = value[1] if isinstance(value, tuple) else value
                assert text == english[key], f"{where}{key}: {text!r} != {english[key]!r}"

    check(PAGE_STRINGS, script, "")
    words = {k for k, v in script.items() if isinstance(v, str) and re.search("[a-z]{3}", v)}
    untranslated = words - set(PAGE_STRINGS) - {"title"}
    assert not untranslated, f"STRINGS with words the catalogue lacks: {untranslated}"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("sr-Latn-RS,sr;q=0.9,en;q=0.5", ["sr", "en"]),
        ("sr-Cyrl-RS, sr;q=0.5", ["sr_Cyrl", "sr"]),
        ("de-DE,cs;q=0.7,pl;q=0.8", ["pl", "cs"]),
        ("en;q=0, mk", ["mk"]),
        ("*, bs;q=0.1", ["bs"]),
        ("", []),
        ("pl;q=abc", []),
    ],
)
def test_accept_language_is_read_by_its_weights(header: str, expected: list[str]) -> None:
    assert accepted_languages(header) == expected


def test_the_menu_wins_over_the_browser_and_the_browser_over_the_game() -> None:
    assert page_language("cs", "pl", "sr") == "cs"
    assert page_language(None, "pl", "sr") == "pl"
    assert page_language("klingon", "", "mk") == "mk"
    assert page_language(None, "", "nonsense") == "en"
