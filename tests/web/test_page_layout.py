"""The arbiter's view as Chromium draws it, after the colleague's look at the pages: a game of
seventeen moves (both sides castled) whose last attempt is illegal and not yet put back, so
that the board as sensed is drawn beside the game's with the mismatch's long caption.

What is measured: each move's number on the line of its move, a ruling's article said once,
the two boards at one height, the coordinates clear of the pieces, the whole FEN in its
field, and no request of the page failing (its icon)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_game import TOKEN, LiveGame, live_game

from rules.events import Lift, Place, Press, Start

READY = "document.querySelector('#sensed .board') !== null"
#: the plies (side, from, to, piece); a castling moves the rook after the king
PLIES = [
    ("white", "e2", "e4", "P"), ("black", "e7", "e5", "p"), ("white", "g1", "f3", "N"),
    ("black", "b8", "c6", "n"), ("white", "f1", "c4", "B"), ("black", "g8", "f6", "n"),
    ("white", "d2", "d3", "P"), ("black", "f8", "c5", "b"), ("white", "c2", "c3", "P"),
    ("black", "d7", "d6", "p"), ("white", "b1", "d2", "N"), ("black", "a7", "a6", "p"),
    ("white", "b2", "b4", "P"), ("black", "c5", "a7", "b"), ("white", "a2", "a4", "P"),
    ("black", "e8", "g8", "k"), ("white", "e1", "g1", "K"),
]  # fmt: skip
ROOKS = {"e8": ("h8", "f8", "r"), "e1": ("h1", "f1", "R")}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveGame]:
    start = Start(t=0.0, time_control="300+2", white="Ana Petrović", black="Bojan Kostić")
    for live in live_game(tmp_path_factory.mktemp("layout"), start):
        for side, frm, to, piece in PLIES:
            live.put(Lift, square=frm, piece=piece)
            if frm in ROOKS:
                rook_from, rook_to, rook = ROOKS[frm]
                live.put(Lift, square=rook_from, piece=rook)
                live.put(Place, square=to, piece=piece)
                live.put(Place, square=rook_to, piece=rook)
            else:
                live.put(Place, square=to, piece=piece)
            live.put(Press, side=side)
            live.settle()
        # Black's pawn from h7 to h4 and the clock pressed: illegal, the board not put back
        live.put(Lift, square="h7", piece="p")
        live.put(Place, square="h4", piece="p")
        live.put(Press, side="black")
        live.settle()
        yield live


@pytest.fixture(scope="module")
def view(browser: Any, game: LiveGame) -> Iterator[Any]:
    """The arbiter's view at the browser tests' size (1280 x 860), with what went wrong."""
    page = browser.new_page()
    page.failed = []
    page.on("console", lambda m: page.failed.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: page.failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{game.url}?token={TOKEN}")
    page.wait_for_function(READY, timeout=10_000)
    page.wait_for_function("document.querySelectorAll('.moves button').length === 17")
    yield page
    page.close()


def test_a_moves_number_stays_on_the_line_of_its_move(view: Any) -> None:
    for width in range(700, 1290, 37):  # wherever the lines of moves happen to break
        view.set_viewport_size({"width": width, "height": 860})
        apart = view.evaluate(
            """() => [...document.querySelectorAll('.moves .no')].filter((no) => {
                 const move = no.nextElementSibling.getBoundingClientRect();
                 return Math.abs(no.getBoundingClientRect().top - move.top) > 8;
               }).map((no) => no.textContent)"""
        )
        assert apart == [], f"at {width} px these numbers end a line: {apart}"
    view.set_viewport_size({"width": 1280, "height": 860})


def test_a_rulings_article_is_said_once(view: Any) -> None:
    texts = view.eval_on_selector_all(".rulings li", "items => items.map((li) => li.innerText)")
    cited = [t for t in texts if "Art." in t]
    assert cited and all(t.count("4.3.1") <= 1 and t.count("7.5.1") <= 1 for t in cited), cited
    touched = view.inner_text(".rulings li[data-type=obligation]")
    assert touched.endswith("Black touched the piece on h7 and must move it.")


def test_the_sensed_board_stands_level_with_the_games(view: Any) -> None:
    caption = view.eval_on_selector("#sensed .caption", "c => c.getBoundingClientRect().height")
    tops = view.evaluate(
        "['#position', '#sensed'].map((id) =>"
        " document.querySelector(id + ' .board').getBoundingClientRect().top)"
    )
    assert caption > 40  # the mismatch's caption of three lines
    assert abs(tops[0] - tops[1]) <= 1, tops


def test_the_coordinates_are_clear_of_the_pieces(view: Any) -> None:
    overlaps = view.evaluate(
        """() => {
          const pieces = [...document.querySelectorAll('.board .pc')]
            .map((n) => n.getBoundingClientRect());
          const meet = (a, b) => a.left < b.right && b.left < a.right
            && a.top < b.bottom && b.top < a.bottom;
          return [...document.querySelectorAll('.board .coord')].filter((c) =>
            pieces.some((p) => meet(c.getBoundingClientRect(), p))).map((c) => c.textContent);
        }"""
    )
    assert overlaps == []
    labels = view.eval_on_selector_all("#position .coord", "cs => cs.map((c) => c.textContent)")
    assert sorted(labels) == sorted("abcdefgh12345678")


def test_the_whole_fen_fits_its_field(view: Any) -> None:
    fen = view.eval_on_selector("#reinstate-fen", "f => [f.value, f.scrollWidth, f.clientWidth]")
    assert fen[0].count("/") == 7 and fen[1] <= fen[2], fen


def test_no_request_of_the_page_fails(view: Any) -> None:
    view.reload()
    view.wait_for_function(READY, timeout=10_000)
    view.wait_for_timeout(500)  # the icon is asked for after the page
    assert view.failed == []
    icon = """fetch((document.querySelector("link[rel~='icon']") || {}).href || "/favicon.ico")
      .then((r) => [r.status, r.headers.get("content-type")])"""
    assert view.evaluate(icon) == [200, "image/svg+xml"]  # once per browser: asked again here
