"""Writes a PGN book of random Chess960 games for `sp960 match --openings` (python-chess
makes the starts, the random legal moves and the SAN: castling, promotions and
disambiguation included). Usage: SEED GAMES PLIES OUT. No game ends over (mate,
stalemate, insufficient material): its last moves are taken back."""
import random
import sys

import chess
import chess.pgn


def main(seed, games, plies, out):
    rng = random.Random(int(seed))
    with open(out, "w") as book:
        for number in range(int(games)):
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            for _ in range(int(plies)):
                if board.is_game_over(claim_draw=False):
                    break
                moves = list(board.legal_moves)
                # Prefer castling and promotions when there are any, to exercise them.
                special = [m for m in moves if board.is_castling(m) or m.promotion]
                board.push(rng.choice(special if special and rng.random() < 0.5 else moves))
            while board.move_stack and (board.is_game_over(claim_draw=False)
                                        or board.is_insufficient_material()):
                board.pop()
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"random {number}"
            print(game, file=book, end="\n\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
