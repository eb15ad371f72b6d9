"""Replay a whole stream through the rules core (pure: events in, rulings out)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules.errors import EventError
from rules.events import Event, Start
from rules.game import Game
from rules.i18n import N_
from rules.rulings import Ruling


def replay(
    events: Iterable[Event], *, strict: bool | None = None, finish: bool = True
) -> list[Ruling]:
    """All rulings of a stream; `strict` overrides the stream's own setting."""
    return list(iter_rulings(events, strict=strict, finish=finish))


def iter_rulings(
    events: Iterable[Event], *, strict: bool | None = None, finish: bool = True
) -> Iterator[Ruling]:
    """Rulings as they are decided; an error in the stream stops it after what came before."""
    game: Game | None = None
    for event in events:
        if game is None:
            if not isinstance(event, Start):
                raise EventError.of(
                    N_("a stream must begin with a 'start' event, not {kind!r}"), kind=event.type
                )
            if strict is not None and event.strict != strict:
                event = _with_strict(event, strict)
            game = Game(event)
            continue
        yield from game.handle(event)
    if game is None:
        raise EventError.of(N_("the stream is empty: it has no 'start' event"))
    if finish:
        yield from game.finish()


def _with_strict(start: Start, strict: bool) -> Start:
    from dataclasses import replace

    return replace(start, strict=strict)
