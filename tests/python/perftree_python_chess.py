#!/usr/bin/env python3
"""perftree's protocol for python-chess: `perftree_python_chess.py DEPTH FEN [MOVES]`.

Prints each legal move with its perft count (castling as king takes rook), a blank
line, then the total.
"""

import sys

import chess


def legal_moves(board):
    return list(board.legal_moves)


def perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in legal_moves(board):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main():
    depth = int(sys.argv[1])
    board = chess.Board(sys.argv[2], chess960=True)
    for move in sys.argv[3].split() if len(sys.argv) > 3 else []:
        board.push_uci(move)
    total = 0
    for move in legal_moves(board):
        board.push(move)
        count = perft(board, depth - 1)
        board.pop()
        print(board.uci(move, chess960=True), count)
        total += count
    print()
    print(total)


if __name__ == "__main__":
    main()
