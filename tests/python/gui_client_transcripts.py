#!/usr/bin/env python3
"""What python-chess 1.11.2 sends an engine in a Chess960 game, recorded by `sp960 proxy
--log` (tests/gui_clients.rs reads the transcripts).

usage: gui_client_transcripts.py PATH/TO/sp960 DIR PART  (PART: uci, xboard or no-option)

From SP 860 (RBKNRNBQ), python-chess's board plays 1. Nde3 Nde6 2. Ng3 Ng6 3. f4 f5 4. Bf2
Bf7 5. O-O, the engine answers (depth 1), then black's O-O is pushed and the engine answers
again; so each castling move reaches the engine in python-chess's own form.
- `uci`: chess.engine.SimpleEngine.popen_uci([sp960, proxy, --log, DIR/pychess-uci.log, --,
  stockfish]); then a standard game (chess.Board(), 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O)
  with the same engine, logged to DIR/pychess-uci-standard.log.
- `xboard`: popen_xboard with Sjaak II behind the proxy, logged to DIR/pychess-xboard.log.
- `no-option`: Toga II 3.0 (no UCI_Chess960 option) started directly in a Chess960 game;
  python-chess refuses it with EngineError.
Prints one `NAME: ok ...` or `NAME: EngineError ...` line per part.
"""
import sys

import chess
import chess.engine

SP960 = sys.argv[1]
DIR = sys.argv[2]
LIMIT = chess.engine.Limit(depth=1)
OPENING = "Nde3 Nde6 Ng3 Ng6 f4 f5 Bf2 Bf7 O-O".split()


def proxied(log, engine):
    return [SP960, "proxy", "--log", f"{DIR}/{log}", "--", engine]


def castle_both(engine):
    """Plays the SP 860 opening to white's O-O, asks the engine, then black's O-O, and asks
    again; returns the engine's two moves in SAN."""
    board = chess.Board.from_chess960_pos(860)
    for san in OPENING:
        board.push_san(san)
    answers = []
    for castle in [None, "O-O"]:
        if castle:
            board.push_san(castle)
        move = engine.play(board, LIMIT).move
        if move not in board.legal_moves:
            raise SystemExit(f"illegal {move} in {board.fen()}")
        answers.append(board.san(move))
    return answers


def uci():
    with chess.engine.SimpleEngine.popen_uci(
        proxied("pychess-uci.log", "/usr/games/stockfish"), timeout=20
    ) as engine:
        answers = castle_both(engine)
    print(f"uci: ok {' '.join(answers)}", flush=True)
    board = chess.Board()
    for san in "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O".split():
        board.push_san(san)
    with chess.engine.SimpleEngine.popen_uci(
        proxied("pychess-uci-standard.log", "/usr/games/stockfish"), timeout=20
    ) as engine:
        move = engine.play(board, LIMIT).move
    print(f"uci standard: ok {board.san(move)}", flush=True)


def xboard():
    with chess.engine.SimpleEngine.popen_xboard(
        proxied("pychess-xboard.log", "/usr/games/sjaakii"), timeout=20
    ) as engine:
        answers = castle_both(engine)
    print(f"xboard: ok {' '.join(answers)}", flush=True)


def no_option():
    try:
        with chess.engine.SimpleEngine.popen_uci("/usr/games/toga2", timeout=20) as engine:
            castle_both(engine)
        print("no-option: ok (expected an EngineError)")
    except chess.engine.EngineError as err:
        print(f"no-option: EngineError {err}")


{"uci": uci, "xboard": xboard, "no-option": no_option}[sys.argv[3]]()
