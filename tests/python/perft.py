"""python-chess as the oracle of `sp960 perft`.

usage: perft.py DEPTH FENS
    For each FEN of the file FENS (one a line, read as a Chess960 board: either castling
    notation), prints one JSON object a line: {"fen": FEN, "total": N, "divide":
    {MOVE: COUNT}}, the moves in python-chess's Chess960 notation (king takes rook), the
    last ply counted in bulk.
"""
import json
import sys

import chess


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main():
    depth = int(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as fens:
        for line in fens:
            fen = line.strip()
            if not fen:
                continue
            board = chess.Board(fen, chess960=True)
            divide = {}
            for move in list(board.legal_moves):
                board.push(move)
                divide[board.uci(move, chess960=True)] = 1 if depth == 1 else perft(board, depth - 1)
                board.pop()
            print(json.dumps({"fen": fen, "total": sum(divide.values()), "divide": divide}))


if __name__ == "__main__":
    main()
