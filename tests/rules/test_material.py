"""The cheap screens before the winnability analysis (rules.winnability.material)."""

from __future__ import annotations

import chess

from rules.winnability.material import few_minor_pieces, minor_pieces_only, pawns_locked


def test_locked_chain_is_locked() -> None:
    assert pawns_locked(chess.Board("4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 1"))


def test_a_pawn_that_can_advance_or_capture_is_not_locked() -> None:
    assert not pawns_locked(chess.Board("4k3/8/8/1p1p1p2/1P1P1P1P/8/8/4K3 w - - 0 1"))
    assert not pawns_locked(chess.Board("4k3/8/8/1p1p4/2P1P3/8/8/4K3 w - - 0 1"))
    assert not pawns_locked(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))


def test_few_minor_pieces() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1")
    assert few_minor_pieces(board, chess.WHITE)
    assert few_minor_pieces(board, chess.BLACK)
    assert not few_minor_pieces(chess.Board("4k3/8/8/8/8/8/4P3/2B1K3 w - - 0 1"), chess.WHITE)
    assert not few_minor_pieces(chess.Board("4k3/8/8/8/8/8/8/1NB1KN2 w - - 0 1"), chess.WHITE)


def test_czech_minor_piece_endings() -> None:
    assert minor_pieces_only(chess.Board("4k3/8/3n4/8/8/8/8/4KB2 w - - 0 1"))
    assert not minor_pieces_only(chess.Board("4k3/8/3n4/8/8/8/8/3RKB2 w - - 0 1"))
    assert not minor_pieces_only(chess.Board("4k3/8/3n4/8/8/8/8/2NBK3 w - - 0 1"))
