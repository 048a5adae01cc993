#!/usr/bin/env python3
"""python-chess's chess.engine as the GUI: whole Chess960 games through `sp960 proxy`.

Usage: pychess_game.py PATH/TO/sp960
Game 1: SP 860, Stockfish (white) vs Ethereal (black), each behind its own proxy.
Game 2: DFRC 0:959, Fairy-Stockfish vs Glaurung; the start is chosen through the proxy's
        UCI options (SP960_Start / SP960_BlackStart), the board from python-chess.
python-chess raises on any illegal move from an engine; this script also checks every
move against its own board and prints one summary line per game.
"""
import sys

import chess
import chess.engine

PROXY = sys.argv[1]
MAX_PLIES = 160
LIMIT = chess.engine.Limit(depth=4)


def proxy(engine, *options):
    return chess.engine.SimpleEngine.popen_uci([PROXY, "proxy", *options, "--", engine], timeout=20)


def play(board, white, black, name):
    """Plays to the end (or MAX_PLIES). The first time a side may castle, its engine is
    asked for the castling move (searchmoves; Ethereal ignores that and may play another
    move): the answer comes back through the proxy's castling translation."""
    engines = {chess.WHITE: white, chess.BLACK: black}
    castles = 0
    asked = set()
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        castling = [m for m in board.legal_moves if board.is_castling(m)]
        root_moves = None
        if castling and board.turn not in asked:
            asked.add(board.turn)
            root_moves = castling[:1]
        result = engines[board.turn].play(board, LIMIT, root_moves=root_moves)
        move = result.move
        assert move is not None and move in board.legal_moves, f"{name}: illegal {move} in {board.fen()}"
        castles += board.is_castling(move)
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    print(f"{name}: {board.ply()} plies, {castles} castling moves, "
          f"result {outcome.result() if outcome else 'unfinished (ply cap)'}")
    return castles


def main():
    ok = 0
    white = proxy("/usr/games/stockfish", "--sp", "860")
    black = proxy("/usr/games/ethereal-chess", "--sp", "860")
    try:
        assert "SP960_Start" in white.options, white.options.keys()
        board = chess.Board.from_chess960_pos(860)
        # A GUI-side opening that makes both castlings legal for white at ply 12.
        for uci in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6".split():
            board.push_uci(uci)
        castles = play(board, white, black, "SP 860 stockfish-ethereal")
        assert castles >= 1, "Stockfish was asked to castle"
        ok += 1
    finally:
        white.quit()
        black.quit()

    white = proxy("/usr/games/fairy-stockfish")
    black = proxy("/usr/games/glaurung")
    try:
        for engine in (white, black):
            engine.configure({"SP960_Start": 0, "SP960_BlackStart": 959})
        board = chess.Board("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1", chess960=True)
        play(board, white, black, "DFRC 0:959 fairy-glaurung")
        ok += 1
    finally:
        white.quit()
        black.quit()
    print(f"games: {ok} ok")


if __name__ == "__main__":
    main()
