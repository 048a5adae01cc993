"""python-chess reads a match runner's PGN and says how each game really ended.

usage: runner_games.py GAMES.pgn

Every game must carry a FEN tag, parse without errors and replay legally from that FEN in
Chess960 mode. Prints one JSON object per game: white, black, fen, result, moves, the
runner's reason (the text after the last comma of the last move's comment, as cutechess-cli
and fastchess write it: "White mates", "Draw by 3-fold repetition", "Black makes an illegal
move: e8g8", ...) and `by_rules`: whether the final position itself bears the reason and the
result out (checkmate, stalemate, threefold repetition, fifty moves, insufficient material).
"""
import json
import sys

import chess
import chess.pgn


def rule_verdict(board, reason, result):
    """True when the final board shows `reason` and `result` is what it gives."""
    winner = "1-0" if board.turn == chess.BLACK else "0-1"
    if reason in ("White mates", "Black mates"):
        return board.is_checkmate() and result == winner and reason.startswith(
            "White" if winner == "1-0" else "Black")
    checks = {
        "Draw by stalemate": board.is_stalemate,
        "Draw by 3-fold repetition": lambda: board.is_repetition(3),
        "Draw by fifty moves rule": lambda: board.halfmove_clock >= 100,
        "Draw by insufficient mating material": board.is_insufficient_material,
    }
    check = checks.get(reason)
    return check is not None and check() and result == "1/2-1/2"


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
            last = game
            for node in game.mainline():
                if node.move not in board.legal_moves:
                    sys.exit(f"game {number}: illegal {node.move} in {board.fen()}")
                board.push(node.move)
                moves += 1
                last = node
            comment = last.comment.strip()
            reason = comment.rsplit(", ", 1)[-1] if comment else ""
            result = game.headers.get("Result", "*")
            print(json.dumps({
                "white": game.headers.get("White", ""),
                "black": game.headers.get("Black", ""),
                "fen": fen,
                "result": result,
                "moves": moves,
                "reason": reason,
                "by_rules": rule_verdict(board, reason, result),
            }))


main()
