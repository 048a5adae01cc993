"""python-chess as an independent reader of sp960 books.

usage: check_book.py epd|pgn|fen BOOK EXPECTED_FENS

Reads BOOK the way python-chess reads EPD lines, PGN games or FEN lines, in Chess960 mode,
and checks that record i is the position of line i of EXPECTED_FENS (`sp960 fen` output):
same board, side, castling rights and counters; EPD ids and PGN tags as sp960 documents.
Prints the number of records; exits 1 with the first difference.
"""
import sys

import chess
import chess.pgn


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def same(board, expected_fen, where):
    expected = chess.Board(expected_fen, chess960=True)
    if board.fen(shredder=True) != expected.fen(shredder=True):
        fail(f"{where}: {board.fen(shredder=True)} != {expected.fen(shredder=True)}")
    if board.castling_rights != expected.castling_rights or bin(board.castling_rights).count("1") != 4:
        fail(f"{where}: castling rights differ")
    if not board.is_valid():
        fail(f"{where}: python-chess says invalid: {board.status()!r}")


def main():
    kind, book, expected_path = sys.argv[1:4]
    expected = [line.strip() for line in open(expected_path) if line.strip()]
    count = 0
    if kind == "pgn":
        with open(book) as handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                where = f"game {count + 1}"
                if game.errors:
                    fail(f"{where}: {game.errors}")
                if game.headers.get("Variant") != "Chess960" or game.headers.get("SetUp") != "1":
                    fail(f"{where}: missing Variant/SetUp tags: {dict(game.headers)}")
                if not game.board().chess960 or list(game.mainline_moves()):
                    fail(f"{where}: not a moveless Chess960 game")
                same(game.board(), expected[count], where)
                count += 1
    else:
        for number, line in enumerate(open(book), 1):
            where = f"{book}:{number}"
            board = chess.Board(chess960=True)
            if kind == "epd":
                operations = board.set_epd(line)
                ident = operations.get("id", "")
                if not (ident.startswith("SP ") or ident.startswith("DFRC ")):
                    fail(f"{where}: id {ident!r}")
            else:
                board.set_fen(line.strip())
            same(board, expected[count], where)
            count += 1
    if count != len(expected):
        fail(f"{count} records, expected {len(expected)}")
    print(count)


main()
