"""The page's own script, unit-tested inside Chromium (no Node in CI): tests/web/
page_script_tests.js runs against the shipped arbiter/web/static/app.js."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from arbiter.web.app import static_dir

HERE = Path(__file__).resolve().parent


def test_the_page_script_passes_its_unit_tests(browser: Any) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_content("<main id='app'></main><script>window.ARBITER_NO_START = true;</script>")
    page.add_script_tag(content=(static_dir() / "app.js").read_text(encoding="utf-8"))
    outcome = page.evaluate((HERE / "page_script_tests.js").read_text(encoding="utf-8"))
    page.close()
    assert errors == []
    assert outcome["failed"] == [] and outcome["ran"] >= 10, outcome


def test_the_scripts_strings_are_in_one_object() -> None:
    """Every text the page shows of its own comes from STRINGS (to be translated later):
    the drawing code passes no quoted English words to the page."""
    source = (static_dir() / "app.js").read_text(encoding="utf-8")
    body = source[source.index("const page = {") :]
    # a quoted phrase of words that is not a class name
    words = re.findall(r'(?<!class: )"([A-Za-z][a-z]+ [a-z][^"]*)"', body)
    assert words == [], words
