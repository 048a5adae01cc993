"""A scripted UCI engine for what real engines cannot be made to do on cue. It plays the
first legal move (python-chess) except when asked for its third move of a game from
- SP 860: it kills itself (SIGKILL);
- SP 959: it never answers (hangs);
- SP 1: it answers the illegal move e1e8.
Every other game it plays to the end."""
import os
import signal
import sys
import time

import chess

board = chess.Board(chess960=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Crasher")
        print("option name UCI_Chess960 type check default false")
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        fen_end = words.index("moves") if "moves" in words else len(words)
        board = chess.Board(" ".join(words[2:fen_end]), chess960=True)
        for move in words[fen_end + 1:]:
            board.push_uci(move)
    elif words[0] == "go":
        root = board.root().fen()
        if len(board.move_stack) >= 4 and root.startswith("rbknrnbq"):
            os.kill(os.getpid(), signal.SIGKILL)
        if len(board.move_stack) >= 4 and root.startswith("rkrnnqbb"):
            time.sleep(3600)
        if len(board.move_stack) >= 4 and root.startswith("bqnbnrkr"):
            print("bestmove e1e8", flush=True)
            continue
        move = min(board.legal_moves, key=lambda m: m.uci())
        print(f"bestmove {move.uci()}", flush=True)
    elif words[0] == "quit":
        break
