"""Rule profiles as data: FIDE 2023 and the local variants of our users' rule texts.

Each profile changes exactly what `events.md` ("Rule profiles") lists, and nothing else.
Penalty amounts by game class are FIDE's (7.5.5, 9.5.3, A.3): they are not profile data.

A profile of a seed's rule text speaks that text's language by default (issue 15): its
rulings, display and PGN comments are in it unless `--lang` or the environment choose
another (`rules.i18n.choose_language`). There is no `sr` or `mk` profile: the Serbian and
Macedonian texts rule nothing differently from FIDE 2023 that this software could apply
(docs/languages.md, "Profiles"); `--lang sr` and `--lang mk` give their language.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import ProfileError
from rules.i18n import N_


@dataclass(frozen=True, slots=True)
class Profile:
    """What a rule text decides differently from FIDE 2023."""

    name: str
    title: str
    #: threefold repetition, fifty moves and insufficient material end the game without a
    #: claim (Bosnian and Polish texts), `game_over` reason `profile`
    automatic_draws: bool = False
    #: the time control when `start` names none (Polish text: 900m60)
    default_time_control: str | None = None
    #: a completed illegal move loses at once when each player has less than this many
    #: seconds for the game (Czech text: fast play under 15 minutes)
    illegal_loses_under_s: float | None = None
    #: K+N v K+N, K+B v K+N and K+B v K+B with any bishops drawn as insufficient (Czech text)
    minor_pieces_drawn: bool = False
    #: the language of the rule text, spoken by default (a code of `rules.i18n.LANGUAGES`)
    language: str | None = None


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("fide-2023", "FIDE Laws of Chess 2023"),
        Profile("bs", "Bosnian rules text", automatic_draws=True, language="bs"),
        Profile(
            "pl",
            "Polish rules text",
            automatic_draws=True,
            default_time_control="900m60",
            language="pl",
        ),
        Profile(
            "cs",
            "Czech rules text",
            illegal_loses_under_s=900.0,
            minor_pieces_drawn=True,
            language="cs",
        ),
    )
}


def get_profile(name: str | None) -> Profile:
    """The profile called `name` (default FIDE 2023)."""
    if name is None:
        return PROFILES["fide-2023"]
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise ProfileError.of(
            N_("unknown rules profile {name!r}; known profiles: {known}"), name=name, known=known
        ) from None


def penalty_seconds(mode: str) -> float:
    """Time given to the opponent for a first illegal move or an incorrect claim.

    7.5.5 and 9.5.3: two minutes in standard play; A.3 (and B.3 through it): one minute in
    rapid and blitz.
    """
    return 120.0 if mode == "standard" else 60.0


def penalty_article(mode: str, article: str) -> str:
    """The article that sets the amount: the base article in standard play, A.3 otherwise."""
    return article if mode == "standard" else f"{article}, A.3"
