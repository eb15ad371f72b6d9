"""What the board's sensors report: lifts, places, whole-board snapshots, the source's state.

The rules keep the board as sensed (events.md "The board as sensed"): each `lift` and `place`
changes it, a `snapshot` replaces it (its differences taken as lifts first, then places, in
the order that explains a legal move, own pieces first: 4.3.3). A square that blinks within
`noise_s` never changed; a piece put down is released after `slide_s` (4.7). A piece-blind
sensor's letters are filled in from what the hand holds. After a reconnection the first full
report is reconciled with the game (a move made meanwhile, or a `mismatch`: 7.4).
"""

from __future__ import annotations

import chess

from rules import hands, moves, presses, restoring
from rules.events import Adjust, Lift, Place, Promote, Sensor, Snapshot, Touch
from rules.rulings import Ruling
from rules.sensed import (
    Match,
    Sensed,
    compatible,
    find_match,
    letter_color,
    sensed_from_placement,
)
from rules.sides import SIDE
from rules.state import GameState
from rules.touch import castling_rook

PROMOTION_TYPES = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
#: a square's number by its name (`chess.parse_square` searches the list of names); the
#: events checked their squares when they were made
SQUARE_OF = {name: sq for sq, name in enumerate(chess.SQUARE_NAMES)}


def lift(
    game: GameState, ev: Lift, out: list[Ruling], *, t: float | None = None, update: bool = True
) -> None:
    """A piece left a square: a touch by the hand it is in (4.3), unless it only slid over."""
    if game.restoring and restoring.lift(game, ev, out):
        return
    t = ev.t if t is None else t
    sq = SQUARE_OF[ev.square]
    hand = hands.whose_hand(game, ev.side, sq)
    if game.pending:  # (a reply, or a release, needs something put down)
        if ev.side is None and presses.reply_after_press(game, sq, t, out):
            hand = hands.whose_hand(game, None, sq)  # the pressed move stands: a reply (6.2.1)
        if hand != SIDE[game.board.turn] and game.pending:
            moves.release_early(game, t, out)
            hand = hands.whose_hand(game, ev.side, sq)
    letter = game.sensed[sq]
    placed_t = game.unplace(sq)
    if placed_t is not None and t - placed_t <= game.start.slide_s:
        # slid over the square, never released there (events.md, slide_s)
        game.sense(sq, None)
        return
    game.take_up(sq, t, hand)
    if letter is None:
        return
    hands.touched(game, sq, letter, hand, t, out, update=update)
    if game.turn.moved_squares and not game.pending and hand == SIDE[game.board.turn]:
        # the taken piece came off last: the capture is made now (4.7.1)
        moves.settle_if_move(game, t, out)


def place(game: GameState, ev: Place, out: list[Ruling], *, t: float | None = None) -> None:
    """A piece put down: pending until released (slide_s, 4.7), unless the square blinked."""
    if game.restoring and restoring.place(game, ev, out):
        return
    t = ev.t if t is None else t
    sq = SQUARE_OF[ev.square]
    hand = ev.side or hands.holding_hand(game)
    recent = game.lifted_before(sq)
    letter = ev.piece
    if recent is not None:
        lift_t, before, lift_hand = recent
        same = letter is None or letter == before
        if t - lift_t <= game.start.noise_s and same and before is not None:
            # a sensor blink: the square never changed (events.md, noise_s)
            game.sense(sq, before)
            hands.undo_touch(game, sq, lift_hand, t, out)
            return
    if letter is None:
        letter = letter_in_hand(game, sq)
    game.put_down(sq, letter, t, hand)
    if hand == SIDE[game.board.turn]:
        us = game.board.turn
        last_rank = 7 if us == chess.WHITE else 0
        if (
            sq >> 3 == last_rank  # `chess.square_rank`
            and letter is not None
            and letter.upper() in "NBRQ"
            and letter_color(letter) == us
        ):
            game.first_promotion_piece(sq, letter)


def letter_in_hand(game: GameState, sq: int) -> str:
    """The piece a piece-blind sensor shows put down on `sq`: "?" where unclear.

    A piece of the player having the move, read from the game's position and not from this
    turn's lifts (a lifted piece may have been put down elsewhere since: a move refused in
    strict mode and put back, 4.7): his pieces that the board as sensed no longer shows on
    their squares, less those it shows elsewhere by a known letter. When all of them are of
    one kind, that is the piece put down (a queen lifted and put back on d1 is the queen). A
    pawn put on its last rank stays unknown: it may be the promotion's new piece (4.7.3).
    """
    board = game.board
    color = board.turn
    sensed = game.sensed
    off: list[str] = []
    for s in chess.scan_forward(board.occupied_co[color]):
        piece = board.piece_at(s)
        if s == sq or not compatible(sensed[s], piece):
            off.append(piece.symbol() if piece is not None else "?")
    for s, letter in enumerate(sensed):
        if s == sq or letter is None or letter in "Xx?" or letter_color(letter) != color:
            continue
        if compatible(letter, board.piece_at(s)):
            continue  # the position's own piece, counted above
        if letter in off:
            off.remove(letter)  # a piece of the hand's player shown away from its square
    kinds = set(off)
    if len(kinds) != 1:
        return "?"
    letter = kinds.pop()
    last_rank = 7 if color == chess.WHITE else 0
    if letter in "Pp" and chess.square_rank(sq) == last_rank:
        return "?"
    return letter


def snapshot(game: GameState, ev: Snapshot, out: list[Ruling]) -> None:
    """A whole-board report: lifts first, then places, own pieces first (events.md)."""
    seen = sensed_from_placement(ev.board)
    place_t = ev.seen_at if ev.seen_at is not None and ev.seen_at <= ev.t else ev.t
    if game.reconciling:
        reconcile(game, seen, place_t, ev.t, out)
        return
    if game.restoring:
        restoring.presses_before(game, place_t, out)  # a camera's presses before this scene
        if game.restoring and restoring.report(game, seen, place_t, ev.t, out):
            return
        if game.over:
            return
    presses.before_scene(game, seen, ev.seen_at, ev.t, out)  # a camera's press, put back after
    if game.over:
        return
    us = game.board.turn
    sensed = game.sensed  # read only; the slots change in place as the report is ruled
    changed = [sq for sq in range(64) if seen[sq] != sensed[sq]]
    game.full_report()
    lifts = [sq for sq in changed if game.sensed[sq] is not None]
    lifts.sort(key=lambda sq: letter_color(game.sensed[sq]) != us)
    lifts = lift_order(game, lifts, seen)
    for sq in lifts:
        if seen[sq] is not None and compatible(seen[sq], piece_of(game.sensed[sq])):
            # same colour/kind still there (a sensor that only knows colours)
            continue
        lift(game, Lift(t=ev.t, square=chess.square_name(sq)), out, update=False)
    if not game.over and game.turn.touches:
        hands.update_obligation(game, ev.t, out)
    for sq in changed:
        if seen[sq] is not None and game.sensed[sq] != seen[sq]:
            if game.sensed[sq] is not None and compatible(seen[sq], piece_of(game.sensed[sq])):
                continue
            place(game, Place(t=ev.t, square=chess.square_name(sq), piece=seen[sq]), out, t=place_t)
    if not game.over:
        game.report(seen)
        if game.start.slide_s == 0:
            moves.release_all(game, ev.t, out)
            if game.still_scene_source() and not game.over and not game.pending:
                moves.settle(game, ev.t, out, made_at=place_t)
        if not presses.within_latency(game, ev.t) or presses.pending_makes_move(game):
            presses.resolve_waiting(game, ev.t, out)
        # else: a board that reports every change is late by up to `latency_s`, its whole-board
        # reports too (a dump taken while the mover's piece is still reported in the hand): a
        # waiting press is matched when its window ends (events.md `latency_s`), not by it


def reconcile(game: GameState, seen: Sensed, seen_at: float, t: float, out: list[Ruling]) -> None:
    """The first full report after a reconnection: a move (or up to `max_plies`) made
    while the cable was out is recognised, with the next move in progress if the report
    caught a piece in the hand (`in_hand`); anything else is a `mismatch` (events.md)."""
    game.full_report()
    game.forget_hands()
    game.report(seen)
    diff = game.diff()
    if diff:
        match = game.match()
        held: int | None = None
        if not isinstance(match, Match):
            held, match = in_hand(game, diff)
        if not isinstance(match, Match):
            game.mismatch(t, out, diff)
            # the moves the presses made while the source was away are unknown: never a
            # press without a move for them (events.md: "while a source is disconnected")
            game.forget_presses()
            game.put_back()  # until the board shows the game again (`rules.restoring`)
        else:
            moves.made_all(game, match, t, seen_at, out)
            if held is not None and not game.over:
                # the piece is in a hand now: its lift, as the board would have reported it
                lift(game, Lift(t=t, square=chess.square_name(held)), out)
    presses.resolve_waiting(game, t, out)


def in_hand(game: GameState, diff: set[int]) -> tuple[int | None, Match | None]:
    """The first report after a reconnection (or a restart) caught a hand at the board: the
    plies made meanwhile (one, up to `max_plies`) and then one piece lifted from where it
    stood, the next move in progress (a `mismatch` is a difference "no move in progress
    explains", events.md). A report with no ply made and a piece off its square stays a
    `mismatch`, as the contract's `reconnected` rule says. Returns that square and the plies,
    with the board as sensed showing the piece back on its square (the caller reports its
    lift), or (None, None) with the board as sensed unchanged.

    Only a piece the game's position has on a square the report shows empty is tried, only
    where it still stands there after those plies, and only a piece of the player then to
    move: a player holding his own piece to move it (4.3.1), not pieces knocked about or an
    opponent's piece taken off first (those stay a `mismatch`, 7.4: the arbiter decides).
    """
    board = game.board
    for sq in sorted(diff):
        piece = board.piece_at(sq)
        if piece is None or game.sensed[sq] is not None:
            continue
        game.sense(sq, piece.symbol())
        match = game.match() if game.diff() else None
        if (
            isinstance(match, Match)
            and match.moves
            and _stays(board, match, sq)
            and piece.color == (board.turn ^ (len(match.moves) % 2 == 1))
        ):
            return sq, match
        game.sense(sq, None)
    return None, None


def _stays(board: chess.Board, match: Match, sq: int) -> bool:
    """Whether the piece on `sq` is still there, never moved nor taken, after the plies of
    `match` (a castling's rook or an en passant pawn leaves its square empty)."""
    if any(sq in (move.from_square, move.to_square) for move in match.moves):
        return False
    after = board.copy(stack=False)
    for move in match.moves:
        after.push(move)
    return after.piece_at(sq) == board.piece_at(sq)


def lift_order(game: GameState, lifts: list[int], seen: Sensed) -> list[int]:
    """Lifts in the order that explains a legal move: the moving piece (the king when
    castling, 4.4.1) first, then the rook or the taken piece; own pieces first otherwise."""
    if len(lifts) < 2:
        return lifts
    match = find_match(game.board, seen, max_plies=1, promotion=game.promo())
    if not isinstance(match, Match):
        return lifts
    move = match.moves[0]
    first = [move.from_square]
    rook = castling_rook(game.board, move)
    if rook is not None:
        first.append(rook)
    return [sq for sq in first if sq in lifts] + [sq for sq in lifts if sq not in first]


def piece_of(letter: str | None) -> chess.Piece | None:
    """The piece a sensed letter names, None for an empty square or an unknown kind."""
    if letter is None or letter in "Xx?":
        return None
    return chess.Piece.from_symbol(letter)


def sensor(game: GameState, ev: Sensor, out: list[Ruling]) -> None:
    """What a source says about itself: after `reconnected` the next full report is reconciled."""
    if ev.status == "disconnected":
        game.source_lost()
    elif ev.status == "reconnected":
        game.source_back()  # until the next full report reconciles the board


def promote(game: GameState, ev: Promote, out: list[Ruling]) -> None:
    """The piece a player promotes to, for sensors that cannot tell (4.4.4, events.md)."""
    game.name_promotion(ev.side, PROMOTION_TYPES[ev.piece.lower()])


def touch(game: GameState, ev: Touch, out: list[Ruling]) -> None:
    """A touch without a lift (a camera, the arbiter): 4.3 as for a lift."""
    if game.restoring:
        return  # a hand putting the board back touches pieces to restore them, not to move
    sq = chess.parse_square(ev.square)
    if ev.side != SIDE[game.board.turn] and game.pending:
        moves.release_early(game, ev.t, out)
    hands.touched(game, sq, game.sensed[sq], ev.side, ev.t, out)


def adjust(game: GameState, ev: Adjust, out: list[Ruling]) -> None:
    """4.2.1: only the player having the move adjusts, announcing it first."""
    if ev.side == SIDE[game.board.turn]:
        game.announce_adjust()
