"""python-chess replays every game of a PGN file in Chess960 mode.

usage: replay_games.py GAMES.pgn

Each game must carry a FEN tag, parse without errors, and every move must be legal from
that FEN. Prints one line per game: White, Black, FEN and the number of moves, tab-separated.
"""
import sys

import chess
import chess.pgn


def main():
    with open(sys.argv[1]) as handle:
        number = 0
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            number += 1
            fen = game.headers.get("FEN")
            if not fen:
                sys.exit(f"game {number}: no FEN tag")
            if game.errors:
                sys.exit(f"game {number}: {game.errors}")
            board = chess.Board(fen, chess960=True)
            moves = 0
            for move in game.mainline_moves():
                if move not in board.legal_moves:
                    sys.exit(f"game {number}: illegal {move} in {board.fen()}")
                board.push(move)
                moves += 1
            print("\t".join([game.headers["White"], game.headers["Black"], fen, str(moves)]))


main()
