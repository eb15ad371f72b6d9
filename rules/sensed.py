"""The board as the sensors see it, and which legal moves explain it.

See events.md, "The board as sensed".

The sensed board is 64 slots holding a FEN letter, `X`/`x` (a white/black piece of unknown
kind), `?` (a piece of unknown colour) or None. Matching asks: which legal move, or sequence
of up to `max_plies` legal moves, turns the game's position into what the sensors show?
Unknown kinds match any piece of that colour, so the same code serves e-boards that identify
pieces, occupancy boards and colour-only cameras.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import ne

import chess

from rules.placement import (
    _SLOT_CHAR,
    Sensed,
    board_fen_of,
    placement_of,
    rank_fen,
    sensed_from_placement,
)
from rules.values import quick_init

__all__ = [
    "SEARCH_NODES",
    "BeyondBudget",
    "LegalMoves",
    "Match",
    "PieceMoves",
    "SearchBudget",
    "Sensed",
    "board_fen_of",
    "compatible",
    "find_match",
    "placement_of",
    "rank_fen",
    "sensed_from_board",
    "sensed_from_placement",
]


_COLOR_OF_LETTER = {c: c.isupper() for c in "PNBRQKpnbrqk"}
_SQUARES = range(64)


_LETTERS = tuple(
    (color, piece_type, chess.Piece(piece_type, color).symbol())
    for color in chess.COLORS
    for piece_type in chess.PIECE_TYPES
)


def sensed_from_board(board: chess.Board) -> Sensed:
    """The slots of a position as a perfect sensor would show it.

    Read from the bitboards, a piece type and colour at a time: this runs after every move,
    and asking the board square by square costs several times more.
    """
    out: Sensed = [None] * 64
    occupied_co = board.occupied_co
    for color, piece_type, letter in _LETTERS:
        for sq in chess.scan_forward(board.pieces_mask(piece_type, color) & occupied_co[color]):
            out[sq] = letter
    return out


def slots_text(sensed: Sensed) -> str:
    """The 64 slots as a string, a1 first, "1" for an empty square (fast to count and slice)."""
    return "".join(map(_SLOT_CHAR.__getitem__, sensed))


#: `str.translate` table: "1" where a slot shows a piece of unknown colour, else "0"
_UNKNOWN_BIT = str.maketrans({c: ("1" if c == "?" else "0") for c in _SLOT_CHAR.values()})
_OWN_LETTERS = {chess.WHITE: "PNBRQKX", chess.BLACK: "pnbrqkx"}


def own_on_board(sensed: Sensed, board: chess.Board, moved: set[int]) -> int:
    """How many slots show a piece of the side to move of `board`.

    A slot of unknown colour (`?`) counts as his where he put a piece down (`moved`), else
    as whatever the position has there (an empty square of the position counts as his).
    """
    us = board.turn
    text = slots_text(sensed)
    known = sum(text.count(letter) for letter in _OWN_LETTERS[us])
    if "?" not in text:
        return known
    unknown = int(text.translate(_UNKNOWN_BIT)[::-1], 2)
    moved_mask = 0
    for sq in moved:
        moved_mask |= chess.BB_SQUARES[sq]
    theirs = unknown & board.occupied_co[not us] & ~moved_mask
    return known + chess.popcount(unknown) - chess.popcount(theirs)


def own_in_hand_by_count(sensed: Sensed, board: chess.Board, moved: set[int]) -> int:
    """How many pieces of the side to move of `board` the slots do not show (`own_on_board`)."""
    return chess.popcount(board.occupied_co[board.turn]) - own_on_board(sensed, board, moved)


_BACKRANKS = chess.BB_RANK_1 | chess.BB_RANK_8
#: `Board.castling_xfen()` by everything it reads (a game has a handful of distinct answers)
_CASTLING_XFEN: dict[tuple[object, ...], str] = {}


def _castling_xfen(board: chess.Board) -> str:
    """`board.castling_xfen()`, kept by what it depends on: the castling rights, the kings,
    the rooks on the back ranks and their colours, promoted kings, Chess960, and whether
    the board has moves (python-chess trusts the rights of a board that has)."""
    rooks = board.rooks & _BACKRANKS
    key = (
        board.castling_rights,
        board.kings,
        rooks,
        board.occupied_co[chess.WHITE] & (board.kings | rooks),
        board.promoted & board.kings,
        board.chess960,
        not board.move_stack,
    )
    found = _CASTLING_XFEN.get(key)
    if found is None:
        found = board.castling_xfen()
        if len(_CASTLING_XFEN) < 10_000:
            _CASTLING_XFEN[key] = found
    return found


def fen_of(board: chess.Board, letters: Sensed, placement: str | None = None) -> str:
    """`board.fen()` (legal en passant only, X-FEN castling), its placement from `letters`.

    `letters` must be `sensed_from_board(board)`; the rules core keeps it at hand, and the
    FEN of every move ruling is built from it at a fraction of python-chess's cost.
    `placement`: `board_fen_of(letters)`, when the caller keeps that too.
    """
    if placement is None:
        placement = board_fen_of(letters)
    ep = board.ep_square
    ep_name = chess.SQUARE_NAMES[ep] if ep is not None and board.has_legal_en_passant() else "-"
    castling = _castling_xfen(board) if board.castling_rights else "-"
    return (
        f"{placement} {'w' if board.turn else 'b'} {castling}"
        f" {ep_name} {board.halfmove_clock} {board.fullmove_number}"
    )


def compatible(letter: str | None, piece: chess.Piece | None) -> bool:
    """Whether a sensed slot can show `piece` (None: empty)."""
    if letter is None:
        return piece is None
    if piece is None:
        return False
    if letter == "?":
        return True
    if letter == "X":
        return piece.color == chess.WHITE
    if letter == "x":
        return piece.color == chess.BLACK
    return letter == piece.symbol()


def letter_color(letter: str | None) -> bool | None:
    """The colour a sensed letter shows (None: empty or unknown)."""
    if letter is None or letter == "?":
        return None
    if letter in ("X", "x"):
        return letter == "X"
    return _COLOR_OF_LETTER[letter]


def differing(board: chess.Board, sensed: Sensed, expected: Sensed | None = None) -> set[int]:
    """Squares where the sensors cannot be showing the game's position.

    `expected` is `sensed_from_board(board)` when the caller keeps it at hand (it is the
    hot path of the rules core: comparing letters is much cheaper than asking the board).
    """
    if expected is None:
        expected = sensed_from_board(board)
    out = set()
    # the unequal slots found in C, in square order; only those are looked at one by one
    for sq in compress(_SQUARES, map(ne, sensed, expected)):
        if not letters_compatible(sensed[sq], expected[sq]):
            out.add(sq)
    return out


def letters_compatible(have: str | None, want: str | None) -> bool:
    """Whether a sensed letter can show the piece letter `want` (None: empty)."""
    if have == want:
        return True
    if have is None or want is None:
        return False
    if have == "?":
        return True
    if have == "X":
        return want.isupper()
    if have == "x":
        return want.islower()
    return False


def changed_squares(board: chess.Board, move: chess.Move) -> tuple[int, ...]:
    """Every square a move changes (king and rook for castling, the taken pawn e.p.)."""
    if move.to_square != board.ep_square and not board.kings & chess.BB_SQUARES[move.from_square]:
        return (move.from_square, move.to_square)  # neither castling nor en passant
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        if chess.square_file(move.to_square) > chess.square_file(move.from_square):
            return (move.from_square, move.to_square, chess.square(7, rank), chess.square(5, rank))
        return (move.from_square, move.to_square, chess.square(0, rank), chess.square(3, rank))
    if board.is_en_passant(move):
        return (
            move.from_square,
            move.to_square,
            chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square)),
        )
    return (move.from_square, move.to_square)


#: python-chess's own legality test of a pseudo-legal move, given the king's square and the
#: pieces that shield it (`Board._is_safe`, `Board._slider_blockers`): `LegalMoves` works them
#: out once per position instead of once per generation. Private, so checked: without them
#: (another python-chess) the public generator serves, with the same moves in the same order.
_SHARED_SETUP = all(
    hasattr(chess.Board, name) for name in ("_is_safe", "_slider_blockers", "_generate_evasions")
)


class LegalMoves:
    """The legal moves of one position: by departure square, each square's generated once,
    and whether there is any (5.1.1, 5.2.1) and whether the king is in check.

    A touched piece's moves (Article 4.3) and the moves that may explain the board (4.7) are
    the same few moves of the same piece: the rules core asks for them several times a ply.
    What every generation needs first (the king, the pieces pinned to it, the checkers) is
    worked out once for the position. The board must not change while this is in use
    (pushes undone at once are fine).
    """

    __slots__ = ("_by_square", "_by_target", "_setup", "_shared", "_targets_of", "board")

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self._by_square: dict[int, list[chess.Move]] = {}
        self._by_target: dict[int, list[chess.Move]] = {}
        self._targets_of: dict[int, int] = {}  # `_targets`, by square
        self._setup: tuple[int, int, int] | None = None  # (king, blockers, checkers)
        # a variant's board may end the game by its own rules: python-chess's generator
        self._shared = _SHARED_SETUP and type(board) is chess.Board

    def _king_setup(self) -> tuple[int, int, int] | None:
        """(king square, its blockers, its checkers) of the side to move; None: no king."""
        if self._setup is None:
            board = self.board
            king_mask = board.kings & board.occupied_co[board.turn]
            if not king_mask:
                return None
            king = chess.msb(king_mask)
            self._setup = (
                king,
                board._slider_blockers(king),
                board.attackers_mask(not board.turn, king),
            )
        return self._setup

    def generate(
        self, from_mask: int = chess.BB_ALL, to_mask: int = chess.BB_ALL
    ) -> Iterator[chess.Move]:
        """`board.generate_legal_moves(from_mask, to_mask)`: the same moves in the same order."""
        board = self.board
        setup = self._king_setup() if self._shared else None
        if setup is None:
            yield from board.generate_legal_moves(from_mask, to_mask)
            return
        king, blockers, checkers = setup
        is_safe = board._is_safe
        if checkers:
            for move in board._generate_evasions(king, checkers, from_mask, to_mask):
                if is_safe(king, blockers, move):
                    yield move
        else:
            for move in board.generate_pseudo_legal_moves(from_mask, to_mask):
                if is_safe(king, blockers, move):
                    yield move

    def any(self) -> bool:
        """Whether the side to move has a legal move.

        Out of check, a knight, bishop, rook or queen that shields nothing and attacks a
        square not its own side's has one (python-chess would find it legal too); only where
        none does are the moves generated.
        """
        setup = self._king_setup() if self._shared else None
        if setup is not None and not setup[2]:
            board = self.board
            own = board.occupied_co[board.turn]
            free = own & ~board.pawns & ~board.kings & ~setup[1]
            attacks_mask = board.attacks_mask
            while free:
                sq = free.bit_length() - 1
                if attacks_mask(sq) & ~own:
                    return True
                free ^= chess.BB_SQUARES[sq]
        return any(True for _ in self.generate())

    def in_check(self) -> bool:
        """Whether the side to move is in check (`board.is_check()`)."""
        setup = self._king_setup() if self._shared else None
        if setup is None:
            return self.board.is_check()
        return bool(setup[2])

    def from_mask(self, mask: int) -> Iterable[chess.Move]:
        """`board.generate_legal_moves(from_mask=mask)`, in the same order.

        Only the side to move's pieces have moves, so a mask holding one of them gives that
        piece's moves, kept; several are generated afresh (the order mixes their moves).
        """
        own = mask & self.board.occupied_co[self.board.turn]
        if own and not own & (own - 1):
            sq = own.bit_length() - 1
            moves = self._by_square.get(sq)
            if moves is None:
                moves = self._by_square[sq] = self._piece_moves(sq, own)
            return moves
        return self.generate(mask)

    def has_move_from(self, sq: int) -> bool:
        """Whether the side to move's piece on `sq` has a legal move (`from_mask` not empty).

        Asked as python-chess's generation would answer it (`_targets`; a king out of check:
        a step onto a square no opponent's piece attacks) without making the moves; they
        are generated (and kept) only for a king in check or castling, and en passant.
        """
        moves = self._by_square.get(sq)
        if moves is not None:
            return bool(moves)
        board = self.board
        mask = chess.BB_SQUARES[sq]
        own = board.occupied_co[board.turn]
        if not mask & own:
            return False  # only the side to move's pieces have moves
        setup = self._king_setup() if self._shared else None
        if setup is not None:
            if not mask & board.kings:
                if not mask & board.pawns or board.ep_square is None:
                    return bool(self._targets(sq, mask, setup))
            elif not setup[2]:
                them = not board.turn
                for to in chess.scan_reversed(chess.BB_KING_ATTACKS[sq] & ~own):
                    if not board.is_attacked_by(them, to):
                        return True
        return bool(self.from_mask(mask))

    def moves_between(self, from_sq: int, to_sq: int) -> list[chess.Move]:
        """The legal moves of the side to move's piece on `from_sq` to `to_sq`, in
        `from_mask`'s order (four promotions, or one move, or none).

        Tested as python-chess's generation would test them (`has_move_from`) rather than
        found among the piece's moves, which are generated (and kept) only for a king in
        check or castling, and en passant.
        """
        kept = self._by_square.get(from_sq)
        if kept is not None:
            return [m for m in kept if m.to_square == to_sq]
        board = self.board
        mask = chess.BB_SQUARES[from_sq]
        own = board.occupied_co[board.turn]
        setup = self._king_setup() if self._shared else None
        if setup is not None and mask & own:
            target = chess.BB_SQUARES[to_sq]
            if not mask & board.kings:
                if not mask & board.pawns:
                    if self._targets(from_sq, mask, setup) & target:
                        return [_plain_moves_from(from_sq)[to_sq]]
                    return []
                if board.ep_square is None:
                    if not self._targets(from_sq, mask, setup) & target:
                        return []
                    if to_sq >> 3 in (0, 7):
                        return [chess.Move(from_sq, to_sq, piece) for piece in _PROMOTIONS]
                    return [_plain_moves_from(from_sq)[to_sq]]
            elif not setup[2] and chess.BB_KING_ATTACKS[from_sq] & ~own & target:
                # a step, not castling
                if board.is_attacked_by(not board.turn, to_sq):
                    return []
                return [_plain_moves_from(from_sq)[to_sq]]
        return [m for m in self.from_mask(mask) if m.to_square == to_sq]

    def _targets(self, sq: int, mask: int, setup: tuple[int, int, int]) -> int:
        """The squares the side to move's piece on `sq` (`mask`), not a king, may move to (for
        a pawn, with no en passant possible): where a knight, bishop, rook or queen attacks
        but onto its own pieces, where a pawn captures or steps (`_pawn_moves`); along the
        line through its king only, if it shields the king; in check, only onto the checking
        piece or between it and the king, and nowhere in double check (as python-chess's
        `generate_legal_moves` finds and tests each of those moves)."""
        targets = self._targets_of.get(sq)
        if targets is not None:
            return targets
        board = self.board
        us = board.turn
        if mask & board.pawns:
            targets = chess.BB_PAWN_ATTACKS[us][sq] & board.occupied_co[not us]
            single, double = _pawn_pushes(board, mask)
            targets |= single | double
        else:
            targets = board.attacks_mask(sq) & ~board.occupied_co[us]
        king, blockers, checkers = setup
        if blockers & mask:  # pinned: only along the line through its king
            targets &= chess.ray(king, sq)
        if checkers:
            if checkers & (checkers - 1):
                targets = 0  # only the king moves out of a double check
            else:
                targets &= chess.between(king, checkers.bit_length() - 1) | checkers
        self._targets_of[sq] = targets  # asked at a touch, again for the move made
        return targets

    def _piece_moves(self, sq: int, mask: int) -> list[chess.Move]:
        """The legal moves of the side to move's piece on `sq` (`mask`: that square).

        Out of check, a knight, bishop, rook or queen moves where it attacks but onto its own
        pieces, a pawn as `_pawn_moves` says; along the line to its king only, if it shields
        the king: python-chess's own generation and legality test
        (`generate_pseudo_legal_moves`, `_is_safe`) give exactly these, in this order, at
        several times the cost. En passant, kings (castling, attacked squares) and evasions
        go to python-chess.
        """
        board = self.board
        setup = self._king_setup() if self._shared else None
        if setup is None or setup[2] or mask & board.kings:
            return list(self.generate(mask))
        if mask & board.pawns:
            if board.ep_square is not None:
                return list(self.generate(mask))  # en passant has legality of its own
            moves = _pawn_moves(board, sq, mask)
        else:
            row = _plain_moves_from(sq)
            moves = [
                row[to]
                for to in chess.scan_reversed(
                    board.attacks_mask(sq) & ~board.occupied_co[board.turn]
                )
            ]
        king, blockers, _ = setup
        if blockers & mask:  # pinned: only along the line through its king
            king_mask = chess.BB_SQUARES[king]
            return [m for m in moves if chess.ray(sq, m.to_square) & king_mask]
        return moves

    def to_mask(self, mask: int) -> list[chess.Move]:
        """`board.generate_legal_moves(to_mask=mask)`, in the same order, kept per mask.

        The captures of touched opponent pieces (4.3.2): asked again at each later touch.
        """
        moves = self._by_target.get(mask)
        if moves is None:
            moves = self._by_target[mask] = self._captures_of(mask)
        return moves

    def _captures_of(self, mask: int) -> list[chess.Move]:
        """`generate_legal_moves(to_mask=mask)`. Out of check, onto one opponent piece (no
        push, no castling, no en passant can end there): its attackers' captures, pieces
        then pawns, each in python-chess's order, tested by python-chess's `_is_safe`."""
        board = self.board
        setup = self._king_setup() if self._shared else None
        if (
            setup is None
            or setup[2]
            or mask & (mask - 1)
            or not mask & board.occupied_co[not board.turn]
            or mask & board.castling_rights
        ):
            return list(self.generate(chess.BB_ALL, mask))
        king, blockers, _ = setup
        sq = mask.bit_length() - 1
        attackers = board.attackers_mask(board.turn, sq)
        moves = [_plain_moves_from(f)[sq] for f in chess.scan_reversed(attackers & ~board.pawns)]
        for f in chess.scan_reversed(attackers & board.pawns):
            if sq >> 3 in (0, 7):
                moves += [chess.Move(f, sq, piece) for piece in _PROMOTIONS]
            else:
                moves.append(_plain_moves_from(f)[sq])
        is_safe = board._is_safe
        return [m for m in moves if is_safe(king, blockers, m)]


class PieceMoves(Collection[chess.Move]):
    """The legal moves of the side to move's piece on `square` (`LegalMoves.from_mask`),
    generated only if iterated: whether a move is among them is asked square by square
    (`LegalMoves.moves_between`). The touch-move duty of one touched piece (Article 4.3.1)
    is its moves, and is asked only whether the move made was one of them.

    Like its `LegalMoves`, it answers for the position it was made in: a duty lasts no
    longer than its turn.
    """

    __slots__ = ("legal", "square")

    def __init__(self, legal: LegalMoves, square: int) -> None:
        self.legal = legal
        self.square = square

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, chess.Move) or move.from_square != self.square:
            return False
        return move in self.legal.moves_between(self.square, move.to_square)

    def __iter__(self) -> Iterator[chess.Move]:
        return iter(self.legal.from_mask(chess.BB_SQUARES[self.square]))

    def __len__(self) -> int:
        return len(list(self.legal.from_mask(chess.BB_SQUARES[self.square])))

    def __repr__(self) -> str:
        return f"PieceMoves({chess.SQUARE_NAMES[self.square]}: {[m.uci() for m in self]})"


_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def _pawn_pushes(board: chess.Board, mask: int) -> tuple[int, int]:
    """The squares the side to move's pawn on `mask` reaches by a single and by a double
    push (Article 3.7.1, 3.7.2), as bitboards (empty where blocked)."""
    if board.turn == chess.WHITE:
        single = mask << 8 & ~board.occupied
        return single, single << 8 & ~board.occupied & (chess.BB_RANK_3 | chess.BB_RANK_4)
    single = mask >> 8 & ~board.occupied
    return single, single >> 8 & ~board.occupied & (chess.BB_RANK_6 | chess.BB_RANK_5)

#: the plain moves (no promotion) from each square, each made once and then shared: a
#: python-chess move is a value (compared and hashed by its squares) that nothing changes,
#: and making one costs more than finding it here (a row is made when first asked)
_PLAIN_MOVES: list[list[chess.Move] | None] = [None] * 64


def _plain_moves_from(sq: int) -> list[chess.Move]:
    """The plain moves from `sq`, indexed by their arrival square (one shared object each)."""
    row = _PLAIN_MOVES[sq]
    if row is None:
        row = _PLAIN_MOVES[sq] = [chess.Move(sq, to) for to in range(64)]
    return row


def _pawn_moves(board: chess.Board, sq: int, mask: int) -> list[chess.Move]:
    """The pseudo-legal moves of the side to move's pawn on `sq` (`mask`: that square), no en
    passant, in python-chess's order (`generate_pseudo_legal_moves`): captures, the single
    push, the double push; each to the last rank as four promotions, queen first."""
    us = board.turn
    out = []
    row = _plain_moves_from(sq)
    for to in chess.scan_reversed(chess.BB_PAWN_ATTACKS[us][sq] & board.occupied_co[not us]):
        if to >> 3 in (0, 7):
            out += [chess.Move(sq, to, piece) for piece in _PROMOTIONS]
        else:
            out.append(row[to])
    single, double = _pawn_pushes(board, mask)
    for to in chess.scan_reversed(single):
        if to >> 3 in (0, 7):
            out += [chess.Move(sq, to, piece) for piece in _PROMOTIONS]
        else:
            out.append(row[to])
    for to in chess.scan_reversed(double):
        out.append(row[to])
    return out


@quick_init  # one is made at every move
@dataclass(frozen=True, slots=True)
class Match:
    """A legal sequence of plies that explains the sensed board."""

    moves: tuple[chess.Move, ...]
    inferred: bool  # other sequences explain it too: the order was inferred


#: the work one search for the plies explaining a board report may do, in plies tried (each
#: a candidate ply of the differing region looked at: its squares' letters compared with the
#: report, and where it could still lead to an explanation, a push, a generation of the
#: moves of the pieces in the region and a pop). The search prunes every ply after which the
#: report's remaining differences need more plies than are left (`_Needs`), and explores a
#: position reached again by other plies with the same squares changed only once, so a far
#: report is decided in a few dozen plies; the budget is left for reports close enough to
#: the game that many orders of their plies are plausible. Counted in plies, not in seconds,
#: so that a replay rules exactly as the game did (issue 17, D4). 400 plies (about 7 us each
#: here, 4 ms at most, some 15 ms on a Raspberry Pi 4) reach real outages of six or seven
#: plies of a game (issue 17 item 1); 100 plies, the first bound, left some of them to a
#: `mismatch` (bench/far_report.py: 32 of 300 random reports beyond the budget, now 5).
SEARCH_NODES = 400

#: at most the squares one ply changes: castling moves four (king and rook), en passant three
_SQUARES_PER_PLY = 4


class SearchBudget:
    """The plies a search (or several, sharing it) may still try (`SEARCH_NODES`)."""

    __slots__ = ("left",)

    def __init__(self, nodes: int = SEARCH_NODES) -> None:
        self.left = nodes


@dataclass(frozen=True, slots=True)
class BeyondBudget:
    """The search ran out of its budget before it could say which plies explain the report.

    The rules core then treats the report as one no legal sequence explains in reach: a
    `mismatch` (events.md), never an illegal move it could not prove.
    """

    nodes: int


class _OutOfNodes(Exception):
    """Unwinds the search when its budget is spent (caught in `find_match`, never escapes)."""


def _consistent(board: chess.Board, sensed: Sequence[str | None], squares: Iterable[int]) -> bool:
    return all(compatible(sensed[sq], board.piece_at(sq)) for sq in squares)


def find_match(
    board: chess.Board,
    sensed: Sensed,
    *,
    max_plies: int = 1,
    promotion: int | None = None,
    diff: set[int] | None = None,
    legal: LegalMoves | None = None,
    budget: SearchBudget | None = None,
) -> Match | BeyondBudget | None:
    """The legal move (or sequence of up to `max_plies`) that turns `board` into `sensed`.

    `promotion` is the piece type a `promote` event named; sensors that cannot tell a queen
    from a knight get a queen otherwise (events.md, "When a move is made"). Returns None when
    nothing explains the board, or when sequences that explain it end in different positions.
    `legal`: the position's legal moves, kept by the caller (`LegalMoves` of `board`).
    The search for sequences tries at most `budget`'s plies (a fresh `SEARCH_NODES` when
    None); beyond it the answer is `BeyondBudget` (issue 17, D4).
    """
    if diff is None:
        diff = differing(board, sensed)
    if not diff:
        return None
    singles = []
    own = board.occupied_co[board.turn]
    pair = len(diff) == 2 and legal is not None
    if pair:
        a, b = diff
        pair = bool(own >> a & 1) != bool(own >> b & 1)
    candidates: Iterable[chess.Move]
    if pair:
        # the usual report: one piece of the mover's moved; only its moves to the other
        # square can explain it (as the filter below would leave of all its moves)
        assert legal is not None
        candidates = legal.moves_between(a, b) if own >> a & 1 else legal.moves_between(b, a)
    else:
        # the moving piece's square is always among the differences: it is empty now
        from_mask = 0
        for sq in diff:
            from_mask |= chess.BB_SQUARES[sq]
        candidates = (
            legal.from_mask(from_mask)
            if legal is not None
            else board.generate_legal_moves(from_mask=from_mask)
        )
        if len(diff) > 1:
            # the move's own square would have to change too (an empty square filled, or
            # taken and refilled): it cannot explain a board whose arrival square is as
            # before, unless nothing but its departure changed
            candidates = [move for move in candidates if move.to_square in diff]
    for move in candidates:
        changed = changed_squares(board, move)
        if not diff.issubset(changed):
            continue
        if len(changed) == 2:
            # neither castling nor en passant: the departure square empties and the arrival
            # square shows the piece (promoted), as the position after the move would
            piece_type = move.promotion or board.piece_type_at(move.from_square)
            arrived = _LETTER_OF[(board.turn, piece_type)]  # type: ignore[index]
            ok = sensed[move.from_square] is None and letters_compatible(
                sensed[move.to_square], arrived
            )
        else:
            board.push(move)
            ok = _consistent(board, sensed, changed)
            board.pop()
        if ok:
            singles.append(move)
    if singles:
        return Match((_pick_promotion(singles, promotion),), inferred=False)
    if max_plies < 2:
        return None
    if budget is None:
        budget = SearchBudget()
    allowed = budget.left
    if len(diff) > _SQUARES_PER_PLY * max_plies:
        return None  # more squares differ than `max_plies` plies can change
    search = _Search(board, sensed, diff, budget)
    if not search.needs.within(board, max_plies):
        return None  # the report needs more plies of one side than `max_plies` holds
    stack_depth = len(board.move_stack)
    try:
        search.run(max_plies)
    except _OutOfNodes:
        while len(board.move_stack) > stack_depth:
            board.pop()  # the search's own plies, unwound
        return BeyondBudget(allowed)
    found = search.found
    if not found:
        return None
    ends = set()
    for seq in found:
        for m in seq:
            board.push(m)
        ends.add(board._transposition_key())
        for _ in seq:
            board.pop()
    if len(ends) != 1:
        return None
    shortest = min(found, key=len)
    return Match(shortest, inferred=len(found) > 1)


_LETTER_OF = {(color, piece_type): letter for color, piece_type, letter in _LETTERS}
#: a slot's need: what must still happen there for the board to show the report
_AGREES, _EMPTY, _WHITE_OFF, _BLACK_OFF, _WHITE, _BLACK, _ANY = range(7)
_SENSED_LETTERS = (None, *"PNBRQKpnbrqkXx?")


def _need(have: str | None, want: str | None) -> int:
    if letters_compatible(have, want):
        return _AGREES
    if have is None:
        # a piece to take off: only its own side's ply moves a piece other than a pawn away
        # (a pawn may also be taken en passant)
        if want in ("P", "p") or want is None:
            return _EMPTY
        return _WHITE_OFF if want.isupper() else _BLACK_OFF
    if have == "?":
        return _ANY
    return _WHITE if have.isupper() else _BLACK


#: (sensed letter, the position's letter) -> the slot's need
_NEED = {
    (have, want): _need(have, want) for have in _SENSED_LETTERS for want in (None, *"PNBRQKpnbrqk")
}


class _Needs:
    """What a report still needs of the position the search stands on, counted per kind:
    squares to empty (of a white piece, a black piece, a pawn), squares a white (black,
    either) piece must arrive on.

    Only the player whose ply it is puts pieces down, one per ply (two when castling, which
    a player does once); a ply empties at most two squares (castling, en passant), and only
    a player's own ply takes his piece (not a pawn: en passant) off a square without putting
    another there. So a
    position needs at least as many plies of each side as its arrivals, or its departures,
    of that side's pieces, whatever their order. This bound is exact (it never cuts a
    sequence that explains the report), and far tighter than the number of differing squares
    for a report many plies from the game."""

    __slots__ = ("counts", "letters")

    def __init__(self, board: chess.Board, sensed: Sensed, diff: set[int]) -> None:
        self.letters = sensed_from_board(board)
        self.counts = [0] * 7
        for sq in diff:
            self.counts[_NEED[(sensed[sq], self.letters[sq])]] += 1

    def met(self) -> bool:
        """Whether the position shows the report."""
        return self.counts[0] == sum(self.counts)

    def within(self, board: chess.Board, plies: int, *, after_ply: bool = False) -> bool:
        """Whether `plies` plies from `board` could still meet every need (`after_ply`: from
        the position after one more ply, whose castling rights are at most `board`'s)."""
        _, empty, white_off, black_off, white, black, either = self.counts
        if empty + white_off + black_off > 2 * plies:
            return False
        white_first = (board.turn == chess.WHITE) != after_ply
        white_plies = (plies + 1) // 2 if white_first else plies // 2
        black_plies = plies - white_plies
        # castling, once a game, puts two pieces down (and takes two off)
        rights = board.castling_rights
        white_room = white_plies + (1 if white_plies and rights & chess.BB_RANK_1 else 0)
        black_room = black_plies + (1 if black_plies and rights & chess.BB_RANK_8 else 0)
        return (
            white <= white_room
            and black <= black_room
            and white_off <= white_room
            and black_off <= black_room
            and white + black + either <= white_room + black_room
        )


def _after(board: chess.Board, move: chess.Move, letters: Sensed) -> list[tuple[int, str | None]]:
    """The letters a ply leaves on the squares it changes (`letters`: the position's), read
    without pushing it but for castling."""
    frm, to = move.from_square, move.to_square
    letter = letters[frm]
    if letter in ("K", "k") and (
        abs(to - frm) == 2 or letter_color(letters[to]) == _COLOR_OF_LETTER[letter]
    ):
        squares = changed_squares(board, move)  # castling: king and rook
        board.push(move)
        out = []
        for sq in squares:
            piece = board.piece_at(sq)
            out.append((sq, piece.symbol() if piece else None))
        board.pop()
        return out
    if move.promotion:
        letter = _LETTER_OF[(board.turn, move.promotion)]
    elif letter in ("P", "p") and to == board.ep_square and (to - frm) % 8:
        taken = to - 8 if letter == "P" else to + 8  # en passant: the pawn beside
        return [(frm, None), (to, letter), (taken, None)]
    return [(frm, None), (to, letter)]


class _Search:
    """Depth-first: sequences of legal plies, each inside the differing region, that leave
    the board as sensed (`run`).

    Each ply tried counts against `budget` (`_OutOfNodes` when spent). Its effect on the
    report's needs is worked out from its squares' letters before any push; it is pushed only
    where the plies left could still meet every need (`_Needs.within`), which also means, at
    the last level, only where it completes the explanation. A position reached again with
    the same squares changed and the same plies left, whose plies explained nothing the
    first time, is not searched again (a transposition)."""

    def __init__(self, board: chess.Board, sensed: Sensed, diff: set[int], budget: SearchBudget):
        self.board = board
        self.sensed = sensed
        self.diff = diff
        self.budget = budget
        self.needs = _Needs(board, sensed, diff)
        self.found: list[tuple[chess.Move, ...]] = []
        self.seq: list[chess.Move] = []
        self.dead: set[tuple[object, int, int]] = set()
        diff_mask = 0
        for sq in diff:
            diff_mask |= chess.BB_SQUARES[sq]
        self.diff_mask = diff_mask

    def run(self, plies: int) -> None:
        self._search(self.diff_mask, plies)

    def _search(self, changed: int, depth: int) -> None:
        """Sequences of up to `depth` more plies from the board; `changed`: the mask of the
        squares the plies so far changed, with the differing ones (the region)."""
        found = self.found
        if depth == 0 or len(found) > 8:
            return
        board = self.board
        key = None
        if depth > 1:
            key = (board._transposition_key(), depth, changed)
            if key in self.dead:
                return
        before = len(found)
        sensed = self.sensed
        needs = self.needs
        counts = needs.counts
        letters = needs.letters
        budget = self.budget
        seq = self.seq
        # only pieces standing in the region, only onto it (castling is generated by its
        # rook's square: the corners are let through and the king's square tested below);
        # the order is that of `legal_moves`. The last ply leaves its departure square
        # empty, so it can only start on a square the report does not show yet.
        movers = changed
        if depth == 1 and not board.chess960:
            movers = 0
            for sq in chess.scan_forward(changed & board.occupied_co[board.turn]):
                if _NEED[(sensed[sq], letters[sq])] != _AGREES:
                    movers |= chess.BB_SQUARES[sq]
        for move in board.generate_legal_moves(movers, changed | chess.BB_CORNERS):
            if not changed & chess.BB_SQUARES[move.to_square]:
                continue
            if move.promotion not in (None, chess.QUEEN):
                continue
            if budget.left <= 0:
                raise _OutOfNodes
            budget.left -= 1
            after = _after(board, move, letters)
            undo = []
            for sq, letter in after:
                have = sensed[sq]
                counts[_NEED[(have, letters[sq])]] -= 1
                counts[_NEED[(have, letter)]] += 1
                undo.append((sq, letters[sq]))
                letters[sq] = letter
            now_changed = changed
            for sq, _ in after:
                now_changed |= chess.BB_SQUARES[sq]
            if seq and needs.met():
                found.append((*seq, move))  # the report, explained
            elif depth > 1 and needs.within(board, depth - 1, after_ply=True):
                board.push(move)
                seq.append(move)
                self._search(now_changed, depth - 1)
                seq.pop()
                board.pop()
            for sq, letter in reversed(undo):
                counts[_NEED[(sensed[sq], letters[sq])]] -= 1
                counts[_NEED[(sensed[sq], letter)]] += 1
                letters[sq] = letter
        if key is not None and len(found) == before:
            self.dead.add(key)


def _pick_promotion(moves: list[chess.Move], promotion: int | None) -> chess.Move:
    if len(moves) == 1:
        return moves[0]
    want = promotion or chess.QUEEN
    for move in moves:
        if move.promotion == want:
            return move
    return moves[0]


@dataclass(frozen=True, slots=True)
class Attempt:
    """What an unexplained arrangement of the mover's pieces looks like (Articles 4.7, 7.5)."""

    kind: str  # castling_partial, capture_partial, not_promoted, in_check, unreachable
    move: chess.Move | None = None


def classify_attempt(board: chess.Board, sensed: Sequence[str | None], diff: set[int]) -> Attempt:
    """Name the arrangement that no legal move explains.

    - `castling_partial`: the king stands on its castling square, the rook not yet moved
      (4.7.2: not a made move; only castling on that side remains);
    - `capture_partial`: an en passant capture with the taken pawn still on the board (4.7.1:
      the capture is made once both are done, in either order);
    - `not_promoted`: a pawn stands on the last rank where a promotion would explain the board
      (4.7.3: not made; pressed, 7.5.2);
    - `in_check`: a move that would be legal but for the king left in check (7.5.1);
    - `unreachable`: anything else.
    """
    us = board.turn
    for move in board.legal_moves:
        if board.is_en_passant(move) and diff == {move.from_square, move.to_square}:
            if compatible(sensed[move.to_square], chess.Piece(chess.PAWN, us)):
                return Attempt("capture_partial", move)
        if board.is_castling(move) and diff == {move.from_square, move.to_square}:
            if compatible(sensed[move.to_square], chess.Piece(chess.KING, us)):
                return Attempt("castling_partial", move)
        if move.promotion == chess.QUEEN and diff.issubset(changed_squares(board, move)):
            if sensed[move.to_square] == chess.Piece(chess.PAWN, us).symbol():
                board.push(move)
                others = all(
                    compatible(sensed[sq], board.piece_at(sq))
                    for sq in changed_squares(board, move)
                    if sq != move.to_square
                )
                board.pop()
                if others:
                    return Attempt("not_promoted", move)
    for move in board.pseudo_legal_moves:
        changed = changed_squares(board, move)
        if diff.issubset(changed):
            board.push(move)
            ok = _consistent(board, sensed, changed)
            board.pop()
            if ok:
                return Attempt("in_check", move)
    return Attempt("unreachable", _guess_move(board, sensed, diff))


def _guess_move(
    board: chess.Board, sensed: Sequence[str | None], diff: set[int]
) -> chess.Move | None:
    """From-to of a single own piece that left one square and stands on another, if clear."""
    us = board.turn
    left = [sq for sq in diff if sensed[sq] is None and board.color_at(sq) == us]
    arrived = [
        sq for sq in diff if sensed[sq] is not None and letter_color(sensed[sq]) in (us, None)
    ]
    if len(left) == 1 and len(arrived) == 1:
        return chess.Move(left[0], arrived[0])
    return None
