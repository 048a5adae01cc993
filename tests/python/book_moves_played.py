"""Did a runner play each opening of a PGN book? usage: book_moves_played.py BOOK PLAYED

For each game of PLAYED (a runner's PGN, games in the book's order), python-chess replays it
in Chess960 and compares its start and its first moves with the book game's: prints one
JSON line per game with how many of the book's moves it played, exits 1 unless every game
played all of its opening's moves from the same start.
"""

import json
import sys

import chess
import chess.pgn


def read(path):
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def line(game):
    board = game.board()
    start = board.fen(shredder=True)
    moves = []
    for move in game.mainline_moves():
        moves.append(board.uci(move, chess960=True))
        board.push(move)
    return start, moves


book = [line(game) for game in read(sys.argv[1])]
played = [line(game) for game in read(sys.argv[2])]
failed = len(book) != len(played)
for number, ((book_start, book_moves), (start, moves)) in enumerate(zip(book, played), 1):
    same = 0
    while same < min(len(book_moves), len(moves)) and book_moves[same] == moves[same]:
        same += 1
    ok = start == book_start and same == len(book_moves)
    failed |= not ok
    print(json.dumps({"game": number, "same_start": start == book_start,
                      "book_moves": len(book_moves), "played_of_them": same}))
sys.exit(1 if failed else 0)
