"""The one formatter of rulings: one plain sentence per ruling, in the game's language.

`format_ruling(ruling, language)` is the only place where a ruling becomes words: the
terminal, the PGN comments, the spoken arbiter and `arbiter replay --json` all call it. A
ruling holds no text; its class and kind choose a catalogue key (`key_of`), whose English
sentence (`EN`) is the message id of the gettext catalogue (`rules.i18n`), and its fields
fill the sentence, which cites the article (FIDE's numbers in every language). The words
that fill a sentence (the side, the reason a game ended, a piece) are translated too.
A missing key or field never breaks a ruling: the English text, then the bare key, stand in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import chess

from rules.i18n import LANGUAGES, N_, Nn_, Np_, localized, translations
from rules.rulings import (
    ArbiterDid,
    ClaimRuling,
    GameOver,
    Illegal,
    Mismatch,
    MoveStands,
    Note,
    Obligation,
    Penalty,
    Reinstate,
    Ruling,
    Violation,
)

__all__ = [
    "EN",
    "LANGUAGES",
    "NOTES",
    "Plural",
    "format_ruling",
    "key_of",
    "message",
    "ruling_dict",
    "ruling_json",
]


@dataclass(frozen=True, slots=True)
class Plural:
    """A sentence with plural forms: `count` names the field whose number chooses the form."""

    singular: str
    plural: str
    count: str


#: every sentence of a ruling, by catalogue key; the English text is the message id
EN: dict[str, str | Plural] = {
    "move": N_("{Side} played {san}."),
    "move.inferred": N_("{Side} played {san} (the order of plies seen at once was inferred)."),
    "obligation.move_piece": N_(
        "{Side} touched the piece on {square} and must move it (Art. {article})."
    ),
    "obligation.capture_piece": N_(
        "{Side} touched the opponent's piece on {square} and must capture it (Art. {article})."
    ),
    "obligation.capture_with": N_(
        "{Side} touched the pieces on {with} and {square} and must capture {square} with"
        " {with} (Art. {article})."
    ),
    "obligation.castle": N_(
        "{Side} touched king and rook and must castle with the rook on {rook} (Art. {article})."
    ),
    "obligation.king_move": N_("{Side} touched the king and must move it (Art. {article})."),
    "obligation.declared_move": N_("{Side} must play the declared move {move} (Art. {article})."),
    "obligation.none": N_("{Side} is free to make any legal move (Art. {article})."),
    "violation.touch_move": N_(
        "{Side} did not move or capture the piece touched on {square} (Art. {article})."
    ),
    "violation.castling_rook_first": N_(
        "{Side} touched the rook on {square} before the king and may not castle with it this"
        " move (Art. {article})."
    ),
    "violation.released": N_(
        "{Side} moved the piece released on {square} again; the first move stands (Art. {article})."
    ),
    "violation.promotion_choice": N_(
        "{Side} changed the promotion piece after it touched {square} (Art. {article})."
    ),
    "violation.not_your_move": N_(
        "{Side} handled the piece on {square} while it was not their move (Art. {article})."
    ),
    "violation.two_hands": N_("{Side} used two hands for one move (Art. {article})."),
    "illegal.open": N_(
        "{Side}'s move is illegal ({defect_text}); it can still be corrected before the clock"
        " is pressed (Art. {article})."
    ),
    "illegal.completed": N_(
        "{Side} completed an illegal move ({defect_text}); illegal move number {count}"
        " (Art. {article})."
    ),
    "reinstate.illegal_move": N_(
        "The position before the illegal move is reinstated (Art. {article})."
    ),
    "reinstate.claim_upheld": N_(
        "The claim is upheld: the position before the move is reinstated (Art. {article})."
    ),
    "reinstate.strict": N_(
        "The move is refused: the position is reinstated and the duty stands (Art. {article})."
    ),
    "reinstate.arbiter": N_("The arbiter reinstated the position (Art. {article})."),
    "penalty.time_added": Plural(
        *Nn_(
            "{Opponent} receives {seconds:g} second (Art. {article}).",
            "{Opponent} receives {seconds:g} seconds (Art. {article}).",
            "seconds",
        )
    ),
    "penalty.increment_removed": N_(
        "{Side} loses the {seconds:g}-second increment of the illegal press (Art. {article})."
    ),
    "penalty.time_deducted": Plural(
        *Nn_(
            "{Side} loses {seconds:g} second (Art. {article}).",
            "{Side} loses {seconds:g} seconds (Art. {article}).",
            "seconds",
        )
    ),
    "penalty.warning": N_("{Side} is warned (Art. {article})."),
    "penalty.game_lost": N_("{Side} loses the game (Art. {article})."),
    "mismatch": N_("The board differs from the game: {what}."),
    "claim.valid": N_("{Side}'s claim ({kind_text}) is correct (Art. {article})."),
    "claim.invalid": N_("{Side}'s claim ({kind_text}) is not correct (Art. {article})."),
    "claim.inadmissible": N_(
        "{Side} touched a piece first and may not claim on this move (Art. {article})."
    ),
    "clock": N_("Clocks: White {white_text}, Black {black_text}."),
    "flag": N_("{Side}'s time has run out (Art. {article})."),
    "draw_offer": N_("{Side} offers a draw (Art. {article})."),
    "game_over": N_("The game is over: {result}, {reason_text} (Art. {article})."),
    "game_over.declared": N_("The game is over: {result}, {reason_text}."),
    "game_over.declared_with": N_("The game is over: {result}, {reason_text} ({explanation})."),
    "game_over.explained": N_(
        "The game is over: {result}, {reason_text} (Art. {article}). {explanation}."
    ),
    "warning": N_("{Side}: {text}"),
    "note": N_("{text}"),
    "arbiter_action.pause": N_("The arbiter stopped the clocks (Art. {article})."),
    "arbiter_action.resume": N_("The arbiter restarted the clocks (Art. {article})."),
    "arbiter_action.hold_start": N_("The clocks wait to be started (Art. {article})."),
    "arbiter_action.start_clocks": N_("The clocks were started (Art. {article})."),
    "arbiter_action.add_time.white": N_(
        "The arbiter added {seconds:g} s to White's clock (Art. {article})."
    ),
    "arbiter_action.add_time.black": N_(
        "The arbiter added {seconds:g} s to Black's clock (Art. {article})."
    ),
    "arbiter_action.set_clock": N_(
        "The arbiter set the clocks: White {white_clock}, Black {black_clock} (Art. {article})."
    ),
    "arbiter_action.uphold_claim": N_(
        "The arbiter overrules the ruling and upholds {Side}'s claim (Art. {article})."
    ),
    "arbiter_action.reject_claim": N_(
        "The arbiter overrules the ruling and rejects {Side}'s claim; the game goes on"
        " (Art. {article})."
    ),
    "arbiter_action.confirm_claim": N_(
        "The arbiter confirms the ruling on {Side}'s claim (Art. {article})."
    ),
}

#: why a game ended (`game_over` reason)
REASONS: dict[str, str] = {
    "checkmate": N_("checkmate"),
    "stalemate": N_("stalemate"),
    "fivefold_repetition": N_("the same position for the fifth time"),
    "seventyfive_moves": N_("75 moves each without a capture or pawn move"),
    "dead_position": N_("no sequence of legal moves can lead to mate"),
    "threefold_repetition": N_("threefold repetition claimed"),
    "fifty_moves": N_("fifty-move rule claimed"),
    "agreement": N_("draw agreed"),
    "resignation": N_("resignation"),
    "resignation_dead_position": N_("resignation, but the opponent could not mate"),
    "time": N_("time ran out"),
    "time_dead_position": N_("time ran out, but the opponent could not mate"),
    "illegal_moves": N_("second completed illegal move"),
    "illegal_moves_dead_position": N_("second illegal move, but the opponent could not mate"),
    "profile": N_("automatic draw under the event's rules"),
    "arbiter_decision": N_("the arbiter's decision"),
}

#: what makes a move illegal (`illegal` defect)
DEFECTS: dict[str, str] = {
    "unreachable": N_("no legal move leads to this position"),
    "in_check": N_("the king is left in check"),
    "no_move": N_("the clock was pressed without a move"),
    "not_promoted": N_("the pawn was left on the last rank"),
    "two_hands": N_("two hands were used"),
    "other": N_("not a legal move"),
}

#: what a claim is about (`claim` kind)
CLAIM_KINDS: dict[str, str] = {
    "threefold": N_("threefold repetition"),
    "fifty": N_("fifty moves"),
    "touch_move": N_("touch-move"),
    "any": N_("draw"),
}

#: the sentence of each `note` topic
NOTES: dict[str, str] = {
    "draw_before_both_moved": N_(
        "A draw cannot be agreed before both players have made a move (Art. 5.2.3)."
    ),
    "resignation_undecided": N_(
        "Undecided: the arbiter decides whether the opponent of the player who resigned can"
        " still mate (Art. 5.1.2)."
    ),
    "flag_undecided": N_(
        "Undecided: the arbiter decides whether the opponent of the player whose time ran out"
        " can still mate (Art. 6.9)."
    ),
    "illegal_moves_undecided": N_(
        "Undecided: the arbiter decides whether the opponent of the player who made a second"
        " illegal move can still mate (Art. 7.5.5)."
    ),
    "no_claim_to_rule": N_(
        "There is no claim the arbiter can still rule on: a move or the game's end came after"
        " it (Art. 9.5)."
    ),
}

#: the sides as the subject of a sentence (`{Side}`, `{Opponent}`)
SIDE_NAMES: dict[str, tuple[str, str]] = {
    "white": Np_("side", "White"),
    "black": Np_("side", "Black"),
}

#: a piece as a `mismatch` names it, in words (a player putting pieces back reads no FEN
#: letters): the piece of the game's position, or what a blind sensor saw (`X`, `x`: a white
#: or black piece it cannot name; `?`: a piece whose colour it cannot tell either)
PIECE_NAMES: dict[str, tuple[str, str]] = {
    "K": Np_("piece", "the white king"),
    "Q": Np_("piece", "the white queen"),
    "R": Np_("piece", "the white rook"),
    "B": Np_("piece", "the white bishop"),
    "N": Np_("piece", "the white knight"),
    "P": Np_("piece", "the white pawn"),
    "k": Np_("piece", "the black king"),
    "q": Np_("piece", "the black queen"),
    "r": Np_("piece", "the black rook"),
    "b": Np_("piece", "the black bishop"),
    "n": Np_("piece", "the black knight"),
    "p": Np_("piece", "the black pawn"),
    "X": Np_("piece", "the white piece"),
    "x": Np_("piece", "the black piece"),
    "?": Np_("piece", "the piece"),
}

#: the piece letters of algebraic notation, which FIDE lets each language write its own way
#: (Appendix C.4): `{san}` in a sentence uses them; the PGN keeps the English letters
SAN_LETTERS: dict[str, tuple[str, str]] = {
    "K": Np_("notation", "K"),
    "Q": Np_("notation", "Q"),
    "R": Np_("notation", "R"),
    "B": Np_("notation", "B"),
    "N": Np_("notation", "N"),
}

PUT_ON = N_("put {piece} on {square}")
TAKE_OFF = N_("take {piece} off {square}")
#: a clock under ten seconds, with tenths
SECONDS_LEFT = N_("{seconds:.1f}s")


def key_of(ruling: Ruling) -> str:
    """The catalogue key of a ruling's sentence: its type, and its kind where that matters."""
    match ruling:
        case ArbiterDid(action="add_time"):
            return f"arbiter_action.add_time.{ruling.side}"
        case ArbiterDid(action=action):
            return "arbiter_action." + action
        case MoveStands(inferred=inferred):
            return "move.inferred" if inferred else "move"
        case Obligation(kind=kind, with_square=with_square):
            if kind == "capture_piece" and with_square is not None:
                return "obligation.capture_with"
            return "obligation." + kind
        case Violation(kind=kind) | Penalty(kind=kind):
            return f"{ruling.type}.{kind}"
        case Illegal(completed=completed):
            return "illegal.completed" if completed else "illegal.open"
        case Reinstate(reason=reason):
            return "reinstate." + reason
        case ClaimRuling(valid=valid):
            if not ruling.admissible:
                return "claim.inadmissible"
            return "claim.valid" if valid else "claim.invalid"
        case GameOver(article=None, explanation=str()):
            return "game_over.declared_with"  # with the arbiter's own words
        case GameOver(article=None):
            return "game_over.declared"  # the arbiter's declaration (12.2) names no article
        case GameOver(explanation=str()):
            return "game_over.explained"  # why the side that would win cannot mate
    return ruling.type


def format_ruling(ruling: Ruling, language: str = "en") -> str:
    """The plain sentence of `ruling` in `language` (English where a catalogue lacks it)."""
    fields = ruling.fields()
    if isinstance(ruling, Mismatch):
        fields["what"] = _what(ruling, language)
    elif isinstance(ruling, ArbiterDid) and ruling.action == "set_clock":
        fields["white_clock"] = _clock_text(ruling.white or 0.0, language)
        fields["black_clock"] = _clock_text(ruling.black or 0.0, language)
    elif isinstance(ruling, Note):
        note = NOTES.get(ruling.topic)
        fields["text"] = ruling.topic if note is None else translations(language).gettext(note)
    elif isinstance(ruling, GameOver) and ruling.why and language != "en":
        # the typed reasons in the players' language (a ruling read back from JSON has only
        # the English `explanation`, which then stands); imported here, as the analysis is
        # not needed to say anything else (`arbiter --help` imports this module)
        from rules.winnability.explain import say

        fields["explanation"] = ". ".join(say(reason, language) for reason in ruling.why)
    return message(key_of(ruling), language, side=ruling.side, article=ruling.article, **fields)


def ruling_dict(ruling: Ruling, language: str = "en") -> dict[str, Any]:
    """The contract's JSON object of `ruling`, its sentence in `language` under `message`."""
    if language == "en":
        return ruling.to_dict(format_ruling)
    return ruling.to_dict(lambda r: format_ruling(r, language))


def ruling_json(ruling: Ruling, language: str = "en") -> str:
    """`ruling_dict` as one line of JSON, as `arbiter replay --json` writes it."""
    return json.dumps(ruling_dict(ruling, language), separators=(", ", ": "), ensure_ascii=False)


def _what(ruling: Mismatch, language: str) -> str:
    """What to do to make the board show the game: put back what is missing, take off the rest."""
    tr = translations(language)
    missing = {p.square for p in ruling.missing}
    names = chess.SQUARE_NAMES
    put, take = tr.gettext(PUT_ON), tr.gettext(TAKE_OFF)

    def piece(letter: str) -> str:
        named = PIECE_NAMES.get(letter)
        return letter if named is None else tr.pgettext(*named)

    return "; ".join(
        [put.format(piece=piece(p.piece), square=names[p.square]) for p in ruling.missing]
        + [
            take.format(piece=piece(p.piece), square=names[p.square])
            for p in ruling.extra
            if p.square not in missing
        ]
    )


def _clock_text(seconds: float, language: str) -> str:
    seconds = max(0.0, seconds)
    if seconds < 10:
        return _fill(translations(language).gettext(SECONDS_LEFT), {"seconds": seconds}, language)
    whole = int(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def plural_count(value: Any) -> int:
    """The number that chooses a plural form: a whole number as itself; a fraction, or no
    number, as 2, whose form is the one fractions take in all six languages (en "2.5
    seconds", sr/bs "2,5 sekunde", cs/pl "2,5 sekundy", mk "2,5 секунди")."""
    if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
        return abs(int(value))
    return 2


def message(key: str, language: str = "en", **fields: Any) -> str:
    """The sentence for `key` in `language`, filled with `fields` (side, square, article, ...)."""
    tr = translations(language)
    side = fields.get("side")
    if isinstance(side, str):
        other = "black" if side == "white" else "white"
        fields.setdefault("Side", _side_name(side, language))
        fields.setdefault("Opponent", _side_name(other, language))
    for field, texts in (("reason", REASONS), ("defect", DEFECTS), ("kind", CLAIM_KINDS)):
        if field in fields:
            text = texts.get(fields[field])
            fields.setdefault(f"{field}_text", fields[field] if text is None else tr.gettext(text))
    if language != "en" and isinstance(fields.get("san"), str):
        fields["san"] = _san(fields["san"], language)
    for name in ("white", "black"):
        if isinstance(fields.get(name), int | float):
            fields.setdefault(f"{name}_text", _clock_text(float(fields[name]), language))
    entry = EN.get(key)
    if entry is None:
        return key
    if isinstance(entry, Plural):
        template = tr.ngettext(entry.singular, entry.plural, plural_count(fields.get(entry.count)))
    else:
        template = tr.gettext(entry)
    return _fill(template, fields, language)


def _san(san: str, language: str) -> str:
    """`san` with the piece letters of `language` (squares and files are lower case)."""
    tr = translations(language)
    return "".join(tr.pgettext(*SAN_LETTERS[c]) if c in SAN_LETTERS else c for c in san)


def _side_name(side: str, language: str) -> str:
    named = SIDE_NAMES.get(side)
    return side.capitalize() if named is None else translations(language).pgettext(*named)


def _fill(template: str, fields: dict[str, Any], language: str) -> str:
    """`template` filled with `fields`, their numbers written as `language` writes them
    (`rules.i18n.number`: "2,5 s"): a missing field reads `?`; a bad template stands."""
    try:
        return template.format_map(_Defaulting(localized(fields, language)))
    except (ValueError, TypeError, KeyError, IndexError):
        return template


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"
