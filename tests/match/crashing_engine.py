"""A scripted UCI engine for what real engines cannot be made to do on cue: it plays the
first legal move (python-chess), and kills itself (SIGKILL) when asked for its third move
of a game from SP 860. Every other game it plays to the end."""
import os
import signal
import sys

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
        if board.root().fen().startswith("rbknrnbq") and len(board.move_stack) >= 4:
            os.kill(os.getpid(), signal.SIGKILL)
        move = min(board.legal_moves, key=lambda m: m.uci())
        print(f"bestmove {move.uci()}", flush=True)
    elif words[0] == "quit":
        break
