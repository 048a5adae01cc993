"""A scripted UCI engine with the engine-side faults real engines cannot be made to show on
cue. It plays the first legal move (python-chess) except at its third move of a game from
- SP 2 (bqnnrbkr): it first writes a line of garbage bytes (NUL, 0xFF) and an `info
  string` with invalid UTF-8, then plays normally (the game goes on);
- SP 3 (bqnnrkrb): it writes 100,000 `info` lines, then plays normally (a flood);
- SP 4 (qbbnnrkr): it answers `bestmove` naming no move;
- SP 5 (qnbbnrkr): it answers `bestmove` with invalid UTF-8 bytes;
- SP 6 (qnbnrbkr): it writes `bestmo` without a line end and exits (mid-line).
Every other game it plays to the end."""
import os
import sys

import chess

out = sys.stdout.buffer
board = chess.Board(chess960=True)


def say(data: bytes):
    out.write(data)
    out.flush()


for line in sys.stdin.buffer:
    words = line.decode("utf-8", "replace").split()
    if not words:
        continue
    if words[0] == "uci":
        say(b"id name Hostile\noption name UCI_Chess960 type check default false\nuciok\n")
    elif words[0] == "isready":
        say(b"readyok\n")
    elif words[0] == "position":
        fen_end = words.index("moves") if "moves" in words else len(words)
        board = chess.Board(" ".join(words[2:fen_end]), chess960=True)
        for move in words[fen_end + 1:]:
            board.push_uci(move)
    elif words[0] == "go":
        root = board.root().fen()
        third = len(board.move_stack) >= 4
        if third and root.startswith("bqnnrbkr"):
            say(b"\x00\xff\xfe garbage \x01\x02\ninfo string caf\xe9 \xff\n")
        if third and root.startswith("bqnnrkrb"):
            say(b"".join(b"info depth %d nodes %d pv e2e4\n" % (i % 30, i) for i in range(100000)))
        if third and root.startswith("qbbnnrkr"):
            say(b"bestmove\n")
            continue
        if third and root.startswith("qnbbnrkr"):
            say(b"bestmove \xff\xfe\n")
            continue
        if third and root.startswith("qnbnrbkr"):
            say(b"bestmo")
            os._exit(0)
        move = min(board.legal_moves, key=lambda m: m.uci())
        say(b"bestmove %s\n" % move.uci().encode())
    elif words[0] == "quit":
        break
