"""A python-chess GUI plays an engine behind `sp960 proxy --restart-engine 5` against a
seeded random mover, and kills the engine (SIGKILL) mid-search at three of its moves: the
game must go on to its end by the rules.

usage: restart_killed_engine.py SP960 LOG [uci|xboard ENGINE]   (default: uci Stockfish)

Prints one JSON object: the outcome, the plies, the kills and the Stockfish pids seen.
"""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import chess
import chess.engine


def engine_pid(proxy_pid):
    """The proxy's child: the engine."""
    out = subprocess.run(["pgrep", "-P", str(proxy_pid)], capture_output=True, text=True)
    pids = [int(pid) for pid in out.stdout.split()]
    return pids[0] if pids else None


def main():
    sp960, log = sys.argv[1], sys.argv[2]
    protocol = sys.argv[3] if len(sys.argv) > 3 else "uci"
    program = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish"
    command = [sp960, "proxy", "--protocol", protocol, "--restart-engine", "5", "--log", log,
               "--", program]
    if protocol == "uci":
        engine = chess.engine.SimpleEngine.popen_uci(command)
        engine.configure({"Hash": 16})
    else:
        engine = chess.engine.SimpleEngine.popen_xboard(command)
    proxy_pid = engine.protocol.transport.get_pid()
    board = chess.Board()
    rng = random.Random(7)
    clocks = {chess.WHITE: 8.0, chess.BLACK: 8.0}
    kills, pids, stockfish_moves = 0, [], 0
    while not board.is_game_over(claim_draw=True):
        if board.turn == chess.BLACK:
            board.push(rng.choice(list(board.legal_moves)))
            continue
        pid = engine_pid(proxy_pid)
        pids.append(pid)
        timer = None
        if stockfish_moves in (1, 3, 5):
            # Mid-search: Stockfish spends about 200 ms a move on this clock.
            timer = threading.Timer(0.05, os.kill, (pid, signal.SIGKILL))
            timer.start()
            kills += 1
        start = time.monotonic()
        result = engine.play(board, chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK]))
        clocks[chess.WHITE] -= time.monotonic() - start
        if timer is not None:
            timer.join()
        assert clocks[chess.WHITE] > 0, f"White flagged at ply {board.ply()}"
        assert result.move in board.legal_moves, result
        board.push(result.move)
        stockfish_moves += 1
    engine.quit()
    outcome = board.outcome(claim_draw=True)
    print(json.dumps({
        "termination": outcome.termination.name,
        "result": outcome.result(),
        "plies": board.ply(),
        "kills": kills,
        "distinct_pids": len(set(pids)),
        "white_clock_left": round(clocks[chess.WHITE], 3),
    }))


main()
