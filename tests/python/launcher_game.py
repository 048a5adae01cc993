#!/usr/bin/env python3
"""A GUI-side client (python-chess) that starts an sp960 launcher as a GUI does: by its
path alone, with no arguments, from a working directory of its own choosing.

usage: launcher_game.py uci|xboard LAUNCHER CWD FEN LIMIT [MAX_PLIES]

The launcher gets the PATH in SP960_LAUNCHER_PATH when it is set (a GUI's own PATH).

Plays a Chess960 game from FEN (python-chess board in chess960 mode) with the engine on
both sides; LIMIT is nodes (UCI) or depth (XBoard). Every move is checked against
python-chess's board. Without MAX_PLIES the game is played to its end by the rules
(board.outcome(claim_draw=True)); with it, for at most that many plies. Prints one JSON
object: the protocol, the start FEN, the plies, the moves, the outcome (or null), and the
engine's name as it told it.
"""
import json
import os
import sys

import chess
import chess.engine


def main():
    protocol, launcher, cwd, fen, limit = sys.argv[1:6]
    max_plies = int(sys.argv[6]) if len(sys.argv) > 6 else None
    board = chess.Board(fen, chess960=True)
    if protocol == "uci":
        popen = chess.engine.SimpleEngine.popen_uci
        search = chess.engine.Limit(nodes=int(limit))
    else:
        popen = chess.engine.SimpleEngine.popen_xboard
        search = chess.engine.Limit(depth=int(limit))
    env = dict(os.environ)
    if "SP960_LAUNCHER_PATH" in os.environ:
        env["PATH"] = os.environ["SP960_LAUNCHER_PATH"]
    # The launcher's path alone: a list of one word, no shell, no arguments.
    with popen([launcher], cwd=cwd, env=env, timeout=30) as engine:
        name = engine.id.get("name")
        while board.outcome(claim_draw=True) is None:
            if max_plies is not None and board.ply() >= max_plies:
                break
            move = engine.play(board, search).move
            if move is None or move not in board.legal_moves:
                raise SystemExit(f"illegal move {move} in {board.fen()}")
            board.push(move)
    outcome = board.outcome(claim_draw=True)
    if max_plies is None and (outcome is None or not board.is_game_over(claim_draw=True)):
        raise SystemExit(f"the game did not end by the rules: {board.fen()}")
    print(json.dumps({
        "protocol": protocol,
        "start": chess.Board(fen, chess960=True).fen(),
        "plies": board.ply(),
        "moves": [move.uci() for move in board.move_stack],
        "outcome": None if outcome is None else {
            "termination": outcome.termination.name,
            "result": outcome.result(),
        },
        "engine": name,
    }))


main()
