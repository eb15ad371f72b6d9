"""The hall's pages in the reader's language: the words the pages and hall.js show are the
keys of `arbiter.hall.strings`, translated in every language, and the station serves them
by the page's menu, else the browser's Accept-Language."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter.hall.station import Station
from arbiter.hall.strings import HALL_STRINGS, hall_strings
from arbiter.hall.topics import BrokerAddress
from arbiter.hall.web import HallPage
from rules.i18n import LANGUAGES

STATIC = Path(__file__).resolve().parents[2] / "arbiter" / "hall" / "static"


def _script_keys() -> set[str]:
    script = (STATIC / "hall.js").read_text(encoding="utf-8")
    block = script[
        script.index("const STRINGS = {") : script.index("};", script.index("const STRINGS"))
    ]
    return set(re.findall(r"(\w+): \"", block))


def test_the_script_and_the_pages_use_the_marked_keys() -> None:
    assert _script_keys() == set(HALL_STRINGS)
    for page in ("hall.html", "board.html"):
        used = set(re.findall(r'data-i18n="(\w+)"', (STATIC / page).read_text(encoding="utf-8")))
        assert used and used <= set(HALL_STRINGS), page
    script = (STATIC / "hall.js").read_text(encoding="utf-8")
    assert not re.search(
        r"\"(done|catching up|reconnecting…|Board )\"| to move", after_strings(script)
    )


def after_strings(script: str) -> str:
    """The script after its STRINGS: no English word of the page may be left there."""
    return script[script.index("const STRINGS") :].split("};", 1)[1]


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_word_is_translated(language: str) -> None:
    english, said = hall_strings("en"), hall_strings(language)
    same = {k for k in HALL_STRINGS if said[k] == english[k]}
    assert same <= {"token"}, f"{language}: {sorted(same)} not translated"
    for key, text in said.items():
        assert re.findall(r"\{\w+\}", text) == re.findall(r"\{\w+\}", english[key]), key


@pytest.fixture(scope="module")
def page() -> Iterator[HallPage]:
    station = Station(BrokerAddress("127.0.0.1", 1))  # never started: no broker needed
    hall = HallPage(station, {}, token=None).start("127.0.0.1", 0)
    try:
        yield hall
    finally:
        hall.stop()


def _get(page: HallPage, path: str, accept: str = "") -> dict[str, object]:
    port = int(page.url.rstrip("/").rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers={"Accept-Language": accept} if accept else {})
    answer = conn.getresponse()
    assert answer.status == 200
    data = json.loads(answer.read())
    conn.close()
    assert isinstance(data, dict)
    return data


def test_the_station_serves_the_words_by_menu_and_browser(page: HallPage) -> None:
    by_browser = _get(page, "/api/strings", "cs-CZ,cs;q=0.9,en;q=0.5")
    assert by_browser["language"] == "cs"
    assert by_browser["strings"]["pause"] == "Zastav hodiny"  # type: ignore[index]
    by_menu = _get(page, "/api/strings?lang=mk", "cs-CZ")
    assert by_menu["language"] == "mk"
    assert by_menu["strings"]["hall"] == "Салата"  # type: ignore[index]
    assert set(by_menu["languages"]) == set(LANGUAGES)  # type: ignore[arg-type]
