#!/usr/bin/env python3
"""python-chess as a GUI that starts engines by their paths alone: a Chess960 game from SP 860
between two sp960 launchers, played to its end by the rules (scripts/test-release.sh).

Usage: release_launcher_game.py [--via LOADER] WHITE_LAUNCHER BLACK_LAUNCHER CWD
Each launcher is started as a GUI starts a registered engine: its path, no arguments, in CWD
(a directory of the GUI's choosing, not the launcher's). With --via, through that program
(Wine for a Windows launcher: `wine64 LAUNCHER.exe`, still no argument for the launcher). Checks that each answers `uci` with
the UCI_Chess960 option, that every move is legal on python-chess's own board, and that the
game ends by the rules (mate, stalemate, insufficient material, or a draw a player may
claim: threefold repetition, fifty moves), not by a ply cap. Prints one summary line.
"""
import sys

import chess
import chess.engine

ARGS = sys.argv[1:]
VIA = []
if ARGS[0] == "--via":
    VIA, ARGS = [ARGS[1]], ARGS[2:]
WHITE, BLACK, CWD = ARGS
LIMIT = chess.engine.Limit(time=0.02)
# A safety net only: a game that reaches it fails.
MAX_PLIES = 1000


def main():
    engines = {}
    try:
        for color, path in ((chess.WHITE, WHITE), (chess.BLACK, BLACK)):
            engine = chess.engine.SimpleEngine.popen_uci(VIA + [path] if VIA else path, cwd=CWD, timeout=60)
            assert "UCI_Chess960" in engine.options, f"{path}: no UCI_Chess960 in {list(engine.options)}"
            engines[color] = engine
        board = chess.Board.from_chess960_pos(860)
        assert board.shredder_fen() == "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1"
        castles = 0
        while board.outcome(claim_draw=True) is None:
            assert board.ply() < MAX_PLIES, f"no end after {MAX_PLIES} plies: {board.fen()}"
            result = engines[board.turn].play(board, LIMIT)
            move = result.move
            assert move is not None and move in board.legal_moves, f"illegal {move} in {board.fen()}"
            castles += board.is_castling(move)
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        names = " vs ".join(engines[c].id.get("name", "?") for c in (chess.WHITE, chess.BLACK))
        how = f"through {VIA[0]}, " if VIA else ""
        print(f"test-release:   python-chess, launchers by path alone{how and ' (' + how[:-2] + ')'}: SP 860, {names}: "
              f"{board.ply()} plies, {castles} castling moves, {outcome.result()} "
              f"({outcome.termination.name.lower()})", file=sys.stderr)
    finally:
        for engine in engines.values():
            engine.quit()


if __name__ == "__main__":
    main()
