"""Checks with python-chess (the oracle) that an `sp960 match --openings` PGN played every
opening of a book as given: each game's FEN tag is an opening's root, the opening's moves
come first (commented `book`), the engines' moves follow, and every opening was played
with both colours by each pairing. Usage: BOOK FORMAT(epd|pgn) PLIES(0 = all) GAMES_PGN
[EXTRA_ROOT_FEN...]. Prints a JSON summary; exits 1 with a message on the first problem."""
import collections
import json
import sys

import chess
import chess.pgn


def key(board):
    return board.fen(shredder=True, en_passant="legal")


def read_book(path, fmt, plies):
    openings = []
    if fmt == "epd":
        with open(path) as book:
            for line in book:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                board = chess.Board(None, chess960=True)
                try:
                    board.set_epd(line)
                except ValueError:
                    # A full FEN line (with the two counters), which sp960 also takes.
                    board.set_fen(line)
                openings.append((key(board), []))
    else:
        with open(path) as book:
            while (game := chess.pgn.read_game(book)) is not None:
                if game.errors:
                    sys.exit(f"python-chess cannot read the book: {game.errors}")
                board = game.board()
                root = key(board)
                moves = [m.uci() for m in game.mainline_moves()]
                if plies:
                    moves = moves[:plies]
                openings.append((root, moves))
    return openings


def main(book, fmt, plies, games_path, *extra_roots):
    openings = read_book(book, fmt, int(plies)) + [(root, []) for root in extra_roots]
    played = collections.Counter()
    games = 0
    with open(games_path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            games += 1
            board = game.board()
            root = key(board)
            nodes = list(game.mainline())
            moves = [node.move.uci() for node in nodes]
            books = sum(1 for node in nodes if node.comment.startswith("book"))
            matches = [i for i, (r, m) in enumerate(openings)
                       if r == root and moves[:len(m)] == m and books == len(m)]
            if not matches:
                sys.exit(f"round {game.headers['Round']}: no opening {root} {moves[:books]} "
                         f"({books} book moves) in the book")
            # The longest opening that fits (a shorter one may be its prefix).
            best = max(matches, key=lambda i: len(openings[i][1]))
            for node in nodes[:books]:
                if node.comment.split(" ")[0] != "book":
                    sys.exit(f"round {game.headers['Round']}: book move without 'book'")
            if any(node.comment.startswith("book") for node in nodes[books:]):
                sys.exit(f"round {game.headers['Round']}: 'book' after the opening")
            played[(best, game.headers["White"], game.headers["Black"])] += 1
    per_opening = collections.Counter(index for index, _, _ in played)
    for (index, white, black), count in played.items():
        if played.get((index, black, white)) != count:
            sys.exit(f"opening {index}: {white} - {black} without the colours swapped")
    print(json.dumps({
        "games": games,
        "openings": len(openings),
        "played": sorted(per_opening.items()),
    }))


if __name__ == "__main__":
    main(*sys.argv[1:])
