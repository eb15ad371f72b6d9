"""The arbiter's own verdict on a claim (9.5, 4.8): the `claim_verdict` action (docs/events.md).

The rules core rules on a claim at once (`rules.claims`); the arbiter, who decides claims
(9.5), may see it otherwise: a repetition the sensor counted wrongly, a touch the board could
not see. `claim_verdict {valid}` overrules the core's ruling on the last claim as of the
moment of the verdict:

- rejecting a claim the core upheld: the game goes on from where it stood at the claim (the
  same position, and the same clocks: the time between the claim and the verdict is the
  arbiter's, charged to nobody, as with clocks stopped under 6.12.2), with what the Laws give
  an incorrect claim: for a draw claim 9.5.3 (the opponent's time added, the claim stands
  as a draw offer, an intended move must be played); for a touch-move claim (4.8) the move
  played stands;
- upholding a claim the core ruled incorrect: from the same point, the draw is declared
  (9.2, 9.3; 9.5 for a claim that named no rule), or the position before the opponent's
  last move is reinstated with the duty of the pieces he touched (4.8), and the penalty or
  draw offer of the core's ruling is undone with the rest of its effect;
- the verdict the core gave confirms it: nothing changes.

A verdict is for the last claim while nothing has happened since that the verdict would undo
(no move has stood, no position changed, and the game has not ended otherwise); after that,
or with no claim, the verdict is a `note` and changes nothing. To go back, the core keeps a
copy of the game as it stood just before each claim (`ClaimOnRecord`); the board as sensed
is the physical board, so it is kept as it stands now and compared with the restored game.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import chess

from rules import claims, ending
from rules.events import Claim, ClaimVerdict
from rules.rulings import ArbiterDid, ArbiterDoing, ClaimRuling, Note, Reason, Ruling
from rules.sides import SIDE

if TYPE_CHECKING:
    from rules.game import Game
    from rules.state import GameState
    from rules.turn import MoveRecord

__all__ = ["ClaimOnRecord", "claim", "open_claim", "verdict"]

#: a draw claim upheld by the arbiter: the reason and article of its `game_over`
_UPHELD_DRAW: dict[str, tuple[Reason, str]] = {
    "threefold": ("threefold_repetition", "9.2"),
    "fifty": ("fifty_moves", "9.3"),
    "any": ("arbiter_decision", "9.5"),
}


@dataclass(slots=True)
class ClaimOnRecord:
    """The last claim, the game as it stood just before it, and the core's verdict."""

    claim: Claim
    before: GameState
    #: the verdict in force (the core's), what the claim's ruling called its kind
    valid: bool
    kind: str
    #: what the claim's effect left, to tell whether anything happened since
    ply: int
    last: MoveRecord | None
    over: bool

    def still_open(self, game: GameState) -> bool:
        """Nothing happened since the claim that a verdict would undo."""
        last = game.records[-1] if game.records else None
        return game.ply == self.ply and last is self.last and game.over == self.over


def open_claim(game: GameState) -> ClaimOnRecord | None:
    """The last claim, if the arbiter may still give his verdict on it; else None."""
    on_record = game.claim_on_record
    return on_record if on_record is not None and on_record.still_open(game) else None


def claim(game: GameState, ev: Claim, out: list[Ruling]) -> None:
    """A claim ruled by the rules core (`rules.claims.claim`), kept for the arbiter's verdict."""
    game.keep_claim(None)  # a copy never carries an older claim's copy
    before = copy.deepcopy(game)
    start = len(out)
    claims.claim(cast("Game", game), ev, out)
    ruled = next((r for r in out[start:] if isinstance(r, ClaimRuling)), None)
    if ruled is None:
        return
    game.keep_claim(
        ClaimOnRecord(
            claim=ev,
            before=before,
            valid=ruled.valid,
            kind=ruled.kind,
            ply=game.ply,
            last=game.records[-1] if game.records else None,
            over=game.over,
        )
    )


def verdict(game: GameState, ev: ClaimVerdict, out: list[Ruling]) -> None:
    """The arbiter's verdict on the last claim (9.5, 4.8): confirm, uphold or reject it."""
    on_record = open_claim(game)
    if on_record is None:
        out.append(Note(t=ev.t, article="9.5", topic="no_claim_to_rule"))
        return
    game.keep_claim(None)
    side = on_record.claim.side
    article = "4.8" if on_record.kind == "touch_move" else "9.5"
    if ev.valid == on_record.valid:
        out.append(ArbiterDid(t=ev.t, side=side, action="confirm_claim", article=article))
        return
    _go_back(game, on_record, ev.t)
    action: ArbiterDoing = "uphold_claim" if ev.valid else "reject_claim"
    out.append(ArbiterDid(t=ev.t, side=side, action=action, article=article))
    if ev.valid:
        _uphold(game, on_record, ev.t, out)
    else:
        _reject(game, on_record, ev.t, out)


def _go_back(game: GameState, on_record: ClaimOnRecord, t: float) -> None:
    """The game as it stood at the claim, at `t`: its clocks as they read at the claim, the
    board as sensed as it stands now."""
    game.go_back_to(on_record.before)
    clock = game.clock
    if game.timed and clock.running is not None and not clock.paused:
        game.pause_clock(on_record.claim.t)
        game.resume_clock(t)


def _uphold(game: GameState, on_record: ClaimOnRecord, t: float, out: list[Ruling]) -> None:
    """A claim the core ruled incorrect, upheld: the draw (9.2, 9.3, 9.5) or, for 4.8, the
    position before the opponent's last move with the duty of what he touched."""
    ev = on_record.claim
    if on_record.kind == "touch_move":
        last = game.records[-1] if game.records else None
        if last is None or last.side == ev.side:
            # no move of the opponent to take back: the verdict cannot be carried out
            out.append(Note(t=t, article="4.8", topic="no_claim_to_rule"))
            return
        article = last.violation.article if last.violation is not None else None
        article = article or "4.8"
        claims.reinstate_before(cast("Game", game), ev.side, last, article, t, out)
        return
    reason, article = _UPHELD_DRAW.get(on_record.kind, _UPHELD_DRAW["any"])
    out.append(ClaimRuling(t=t, side=ev.side, article=article, kind=ev.kind, valid=True))
    ending.game_over(game, t, "1/2-1/2", reason, article, out)


def _reject(game: GameState, on_record: ClaimOnRecord, t: float, out: list[Ruling]) -> None:
    """A claim the core upheld, rejected: for a draw claim 9.5.3; for 4.8 the move stands."""
    ev = on_record.claim
    if on_record.kind == "touch_move":
        out.append(ClaimRuling(t=t, side=ev.side, article="4.8", kind="touch_move", valid=False))
        game.mismatch(t, out)
        game.clock_ruling(out, t)
        return
    intended = None
    if ev.move is not None and ev.side == SIDE[game.board.turn]:
        move = chess.Move.from_uci(ev.move)
        intended = move if move in game.board.legal_moves else None
    claims.incorrect_draw_claim(cast("Game", game), ev.side, ev.kind, intended, t, out)
    game.mismatch(t, out)
