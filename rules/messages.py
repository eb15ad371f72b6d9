"""The message catalogue and the one formatter of rulings: one plain sentence per ruling.

`format_ruling(ruling)` is the only place where a ruling becomes words: the terminal, the
PGN comments and `arbiter replay --json` all call it. A ruling holds no text; its class and
kind choose a catalogue key (`key_of`) and its fields fill the sentence, which cites the
article. Other languages can be added as further catalogues with the same keys
(`CATALOGUES["sr"]`, ...). A missing key or field never breaks a ruling: the English text,
then the bare key, stand in.
"""

from __future__ import annotations

import json
from typing import Any

import chess

from rules.rulings import (
    ClaimRuling,
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
    "CATALOGUES",
    "NOTES",
    "format_ruling",
    "key_of",
    "message",
    "ruling_dict",
    "ruling_json",
]

EN: dict[str, str] = {
    "move": "{Side} played {san}.",
    "move.inferred": "{Side} played {san} (the order of plies seen at once was inferred).",
    "obligation.move_piece": "{Side} touched the piece on {square} and must move it"
    " (Art. {article}).",
    "obligation.capture_piece": "{Side} touched the opponent's piece on {square} and must"
    " capture it (Art. {article}).",
    "obligation.capture_with": "{Side} touched the pieces on {with} and {square} and must capture"
    " {square} with {with} (Art. {article}).",
    "obligation.castle": "{Side} touched king and rook and must castle with the rook on {rook}"
    " (Art. {article}).",
    "obligation.king_move": "{Side} touched the king and must move it (Art. {article}).",
    "obligation.declared_move": "{Side} must play the declared move {move} (Art. {article}).",
    "obligation.none": "{Side} is free to make any legal move (Art. {article}).",
    "violation.touch_move": "{Side} did not move or capture the piece touched on {square}"
    " (Art. {article}).",
    "violation.castling_rook_first": "{Side} touched the rook on {square} before the king and may"
    " not castle with it this move (Art. {article}).",
    "violation.released": "{Side} moved the piece released on {square} again; the first move"
    " stands (Art. {article}).",
    "violation.promotion_choice": "{Side} changed the promotion piece after it touched {square}"
    " (Art. {article}).",
    "violation.not_your_move": "{Side} handled the piece on {square} while it was not their move"
    " (Art. {article}).",
    "violation.two_hands": "{Side} used two hands for one move (Art. {article}).",
    "illegal.open": "{Side}'s move is illegal ({defect_text}); it can still be corrected before the"
    " clock is pressed (Art. {article}).",
    "illegal.completed": "{Side} completed an illegal move ({defect_text}); illegal move number"
    " {count} (Art. {article}).",
    "reinstate.illegal_move": "The position before the illegal move is reinstated"
    " (Art. {article}).",
    "reinstate.claim_upheld": "The claim is upheld: the position before the move is reinstated"
    " (Art. {article}).",
    "reinstate.strict": "The move is refused: the position is reinstated and the duty stands"
    " (Art. {article}).",
    "reinstate.arbiter": "The arbiter reinstated the position (Art. {article}).",
    "penalty.time_added": "{Opponent} receives {seconds:g} seconds (Art. {article}).",
    "penalty.increment_removed": "{Side} loses the {seconds:g}-second increment of the illegal"
    " press (Art. {article}).",
    "penalty.time_deducted": "{Side} loses {seconds:g} seconds (Art. {article}).",
    "penalty.warning": "{Side} is warned (Art. {article}).",
    "penalty.game_lost": "{Side} loses the game (Art. {article}).",
    "mismatch": "The board differs from the game: {what}.",
    "claim.valid": "{Side}'s claim ({kind_text}) is correct (Art. {article}).",
    "claim.invalid": "{Side}'s claim ({kind_text}) is not correct (Art. {article}).",
    "claim.inadmissible": "{Side} touched a piece first and may not claim on this move"
    " (Art. {article}).",
    "clock": "Clocks: White {white_text}, Black {black_text}.",
    "flag": "{Side}'s time has run out (Art. {article}).",
    "draw_offer": "{Side} offers a draw (Art. {article}).",
    "game_over": "The game is over: {result}, {reason_text} (Art. {article}).",
    "warning": "{Side}: {text}",
    "note": "{text}",
}

REASONS: dict[str, str] = {
    "checkmate": "checkmate",
    "stalemate": "stalemate",
    "fivefold_repetition": "the same position for the fifth time",
    "seventyfive_moves": "75 moves each without a capture or pawn move",
    "dead_position": "no sequence of legal moves can lead to mate",
    "threefold_repetition": "threefold repetition claimed",
    "fifty_moves": "fifty-move rule claimed",
    "agreement": "draw agreed",
    "resignation": "resignation",
    "resignation_dead_position": "resignation, but the opponent could not mate",
    "time": "time ran out",
    "time_dead_position": "time ran out, but the opponent could not mate",
    "illegal_moves": "second completed illegal move",
    "illegal_moves_dead_position": "second illegal move, but the opponent could not mate",
    "profile": "automatic draw under the event's rules",
    "arbiter_decision": "the arbiter's decision",
}

DEFECTS: dict[str, str] = {
    "unreachable": "no legal move leads to this position",
    "in_check": "the king is left in check",
    "no_move": "the clock was pressed without a move",
    "not_promoted": "the pawn was left on the last rank",
    "two_hands": "two hands were used",
    "other": "not a legal move",
}

CLAIM_KINDS: dict[str, str] = {
    "threefold": "threefold repetition",
    "fifty": "fifty moves",
    "touch_move": "touch-move",
    "any": "draw",
}

#: the sentence of each `note` topic
NOTES: dict[str, str] = {
    "draw_before_both_moved": "A draw cannot be agreed before both players have made a move"
    " (Art. 5.2.3).",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN}


def key_of(ruling: Ruling) -> str:
    """The catalogue key of a ruling's sentence: its type, and its kind where that matters."""
    match ruling:
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
    return ruling.type


def format_ruling(ruling: Ruling, language: str = "en") -> str:
    """The plain sentence of `ruling` in `language` (English where a catalogue lacks it)."""
    fields = ruling.fields()
    if isinstance(ruling, Mismatch):
        fields["what"] = _what(ruling)
    elif isinstance(ruling, Note):
        fields["text"] = NOTES.get(ruling.topic, ruling.topic)
    return message(key_of(ruling), language, side=ruling.side, article=ruling.article, **fields)


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    """The contract's JSON object of `ruling`, its English sentence included (`message`)."""
    return ruling.to_dict(format_ruling)


def ruling_json(ruling: Ruling) -> str:
    """`ruling_dict` as one line of JSON, as `arbiter replay --json` writes it."""
    return json.dumps(ruling_dict(ruling), separators=(", ", ": "), ensure_ascii=False)


def _what(ruling: Mismatch) -> str:
    """What to do to make the board show the game: put back what is missing, take off the rest."""
    missing = {p.square for p in ruling.missing}
    names = chess.SQUARE_NAMES
    return "; ".join(
        [f"put {p.piece} on {names[p.square]}" for p in ruling.missing]
        + [f"take {p.piece} off {names[p.square]}" for p in ruling.extra if p.square not in missing]
    )


def _clock_text(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{seconds:.1f}s"
    whole = int(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def message(key: str, language: str = "en", **fields: Any) -> str:
    """The sentence for `key`, filled with `fields` (side, square, article, ...)."""
    side = fields.get("side")
    if isinstance(side, str):
        fields.setdefault("Side", side.capitalize())
        fields.setdefault("Opponent", "Black" if side == "white" else "White")
    if "reason" in fields:
        fields.setdefault("reason_text", REASONS.get(fields["reason"], fields["reason"]))
    if "defect" in fields:
        fields.setdefault("defect_text", DEFECTS.get(fields["defect"], fields["defect"]))
    if "kind" in fields:
        fields.setdefault("kind_text", CLAIM_KINDS.get(fields["kind"], fields["kind"]))
    for name in ("white", "black"):
        if isinstance(fields.get(name), int | float):
            fields.setdefault(f"{name}_text", _clock_text(float(fields[name])))
    template = CATALOGUES.get(language, EN).get(key) or EN.get(key)
    if template is None:
        return key
    try:
        return template.format_map(_Defaulting(fields))
    except (ValueError, TypeError, KeyError, IndexError):
        return template


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"
