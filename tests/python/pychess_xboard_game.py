#!/usr/bin/env python3
"""python-chess's XBoard client (chess.engine.SimpleEngine.popen_xboard) as the GUI:
Chess960 games through `sp960 proxy`, and the baseline without it.

usage: pychess_xboard_game.py PATH/TO/sp960

For each engine (Sjaak II, Fairy-Stockfish 11.1) behind the proxy: a game from SP 860
in which python-chess castles for each side at the first chance (it sends `O-O`), the
engine plays every other move; every move is checked against python-chess's board.
Prints `proxy ENGINE: ok ...` per game. Then the same for Fairy-Stockfish without the proxy,
which is expected to fail; prints `direct fairy-stockfish: EngineError ...` when it does.
"""
import sys

import chess
import chess.engine

PROXY = sys.argv[1]
MAX_PLIES = 60
LIMIT = chess.engine.Limit(depth=3)
ENGINES = {"sjaakii": "/usr/games/sjaakii", "fairy-stockfish": "/usr/games/fairy-stockfish"}


def play(command):
    board = chess.Board.from_chess960_pos(860)
    castled = set()
    with chess.engine.SimpleEngine.popen_xboard(command, timeout=20) as engine:
        while not board.is_game_over() and board.ply() < MAX_PLIES:
            castle = [m for m in board.legal_moves if board.is_castling(m)]
            if castle and board.turn not in castled:
                move = castle[0]
                castled.add(board.turn)
            else:
                move = engine.play(board, LIMIT).move
                if move not in board.legal_moves:
                    raise SystemExit(f"illegal {move} in {board.fen()}")
            board.push(move)
    replay = chess.Board.from_chess960_pos(860)
    castles = []
    for move in board.move_stack:
        if replay.is_castling(move):
            castles.append(replay.san(move))
        replay.push(move)
    if not castled:
        raise SystemExit("python-chess never sent a castling move")
    return f"{board.ply()} plies, castling: {' '.join(castles)}"


def main():
    for name, path in ENGINES.items():
        result = play([PROXY, "proxy", "--", path])
        print(f"proxy {name}: ok {result}", flush=True)
    try:
        result = play([ENGINES["fairy-stockfish"]])
        print(f"direct fairy-stockfish: ok {result} (expected a failure)")
    except chess.engine.EngineError as err:
        print(f"direct fairy-stockfish: EngineError {err}")


main()
