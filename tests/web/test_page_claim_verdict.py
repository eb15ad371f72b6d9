"""Rejecting a claim from the page (issue 13 item 2, issue 12 item 1), in a real browser.

A live game (5 min) repeats the start position three times; White's claim is upheld and
ends the game, and the session stays open for the arbiter's verdict. Beside the claim's
ruling, behind the token, the arbiter's page offers to reject it; the read-only page does
not, and its POST is refused. The rejection is journaled, ruled (9.5.3), and the game goes
on: the next move stands.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from web_game import TOKEN, LiveGame, live_game

from rules.events import Claim, Lift, Place, Press, Start

READY = "document.querySelector('[data-clock=white]') !== null"
SHUFFLE = [("g1", "f3", "N"), ("g8", "f6", "n"), ("f3", "g1", "N"), ("f6", "g8", "n")]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveGame]:
    start = Start(t=0.0, time_control="300+0", white="Ana", black="Ben")
    yield from live_game(tmp_path_factory.mktemp("claim"), start)


def move(game: LiveGame, side: str, frm: str, to: str, piece: str) -> None:
    game.put(Lift, square=frm, piece=piece)
    game.put(Place, square=to, piece=piece)
    game.put(Press, side=side)
    game.settle()


def open_page(browser: Any, game: LiveGame, token: str | None) -> Any:
    page = browser.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    if token is None:
        page.goto(game.url)
        page.evaluate("sessionStorage.clear()")
        page.reload()
    else:
        page.goto(f"{game.url}?token={token}")
    page.wait_for_function(READY, timeout=10_000)
    return page


def test_an_upheld_claim_is_rejected_from_the_page_and_the_game_goes_on(
    browser: Any, game: LiveGame
) -> None:
    for _ in range(2):
        for i, (frm, to, piece) in enumerate(SHUFFLE):
            move(game, "white" if i % 2 == 0 else "black", frm, to, piece)
    game.put(Claim, side="white", kind="threefold")
    game.settle()
    assert game.session.game.over  # upheld: 9.2.2

    arbiter = open_page(browser, game, TOKEN)
    arbiter.wait_for_selector(".rulings li[data-type=claim] #claim-reject", timeout=3000)
    assert arbiter.is_visible("#claim-confirm")
    assert "upheld; you may overrule" in arbiter.inner_text("#claim")
    assert "1/2-1/2" in arbiter.inner_text("#result")

    reader = open_page(browser, game, None)
    reader.wait_for_selector(".rulings li[data-type=claim]", timeout=3000)
    assert reader.query_selector("#claim-reject") is None
    status = reader.evaluate(
        """async () => (await fetch('/api/control', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({action: 'claim_verdict', valid: false})})).status"""
    )
    assert status == 403

    arbiter.click("#claim-reject")
    arbiter.wait_for_selector(".rulings li[data-type=arbiter_action]", timeout=3000)
    assert "rejects White's claim; the game goes on" in arbiter.inner_text(".rulings")
    arbiter.wait_for_selector("#claim-reject", state="detached", timeout=3000)
    arbiter.wait_for_selector("#result", state="detached", timeout=3000)  # no result: it goes on
    game.settle()
    journal = [json.loads(line) for line in game.journal_lines()]
    verdicts = [e for e in journal if e.get("action") == "claim_verdict"]
    assert len(verdicts) == 1 and verdicts[0]["valid"] is False
    assert not game.session.game.over

    move(game, "white", "e2", "e4", "P")  # the game goes on
    arbiter.wait_for_function(
        "document.querySelector('#position [data-square=e4]').dataset.piece === 'P'",
        timeout=3000,
    )
    late = arbiter.evaluate(
        f"""async () => (await fetch('/api/control', {{method: 'POST',
            headers: {{'Content-Type': 'application/json', 'X-Arbiter-Token': '{TOKEN}'}},
            body: JSON.stringify({{action: 'claim_verdict', valid: true}})}})).status"""
    )
    assert late == 409  # a move stood since: nothing left to overrule
    assert arbiter.errors == [] and reader.errors == []
    arbiter.close()
    reader.close()
