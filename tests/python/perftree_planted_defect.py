#!/usr/bin/env python3
"""perftree_python_chess.py with a planted defect, for sp960's tests:
`perftree_planted_defect.py DEFECT DEPTH FEN [MOVES]`.

DEFECT: `king-stays` drops castling where the king does not move; `attacked` also lists
castling whose king passes through an attacked square (its path otherwise clear);
`exit` exits 1 with a message on stderr; `garbage` prints a line that is no move;
`no-total` leaves out the blank line and the total; `hang` sleeps for a minute.
"""

import os
import sys
import time

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perftree_python_chess as script  # noqa: E402

DEFECT = sys.argv.pop(1)


def king_stays(board, move):
    """Whether castling `move` (king takes rook) leaves the king on its square."""
    king_side = move.to_square > move.from_square
    return chess.square_file(move.from_square) == (6 if king_side else 2)


def through_attacked_squares(board):
    """Castlings refused only because the king passes through an attacked square."""
    extra = []
    if board.is_check():
        return extra
    king = board.king(board.turn)
    for rook in chess.scan_forward(board.clean_castling_rights() & board.occupied_co[board.turn]):
        move = chess.Move(king, rook)
        if board.is_legal(move):
            continue
        rank = chess.square_rank(king)
        king_to = chess.square(6 if rook > king else 2, rank)
        rook_to = chess.square(5 if rook > king else 3, rank)
        path = chess.between(king, king_to) | chess.BB_SQUARES[king_to]
        path |= chess.between(rook, rook_to) | chess.BB_SQUARES[rook_to]
        if path & board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]:
            continue
        after = board.copy(stack=False)
        after.remove_piece_at(king)
        after.remove_piece_at(rook)
        after.set_piece_at(king_to, chess.Piece(chess.KING, board.turn))
        after.set_piece_at(rook_to, chess.Piece(chess.ROOK, board.turn))
        if not after.is_attacked_by(not board.turn, king_to):
            extra.append(move)
    return extra


def legal_moves(board):
    moves = list(board.legal_moves)
    if DEFECT == "king-stays":
        return [m for m in moves if not (board.is_castling(m) and king_stays(board, m))]
    if DEFECT == "attacked":
        return moves + through_attacked_squares(board)
    return moves


script.legal_moves = legal_moves

if DEFECT == "exit":
    sys.exit("perftree_planted_defect: told to fail")
if DEFECT == "garbage":
    print("Traceback (most recent call last):")
if DEFECT == "hang":
    time.sleep(60)
if DEFECT == "no-total":
    depth, fen = int(sys.argv[1]), sys.argv[2]
    board = chess.Board(fen, chess960=True)
    for move in board.legal_moves:
        print(board.uci(move, chess960=True), 1)
    sys.exit(0)
script.main()
