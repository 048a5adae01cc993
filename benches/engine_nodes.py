#!/usr/bin/env python3
"""Search speed of `sp960 engine` next to Stockfish (the anchor) in one run: both search the
same Chess960 positions to the same node count through python-chess; prints the median wall
time per search and nodes per second of each, and their ratio.

Usage: cargo build --release && python3 benches/engine_nodes.py [NODES] [REPEATS]
(defaults 200000 nodes, 5 repeats; Stockfish at /usr/games/stockfish, 1 thread).
"""

import os
import statistics
import sys
import time

import chess
import chess.engine

NODES = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SP960 = [os.path.join(ROOT, "target", "release", "sp960"), "engine"]
STOCKFISH = "/usr/games/stockfish"
POSITIONS = [chess.Board.from_chess960_pos(sp) for sp in (0, 518, 860, 959)]
# A middlegame from SP 860 with both castlings pending.
middlegame = chess.Board.from_chess960_pos(860)
for uci in "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6".split():
    middlegame.push_uci(uci)
POSITIONS.append(middlegame)


def measure(command, options):
    engine = chess.engine.SimpleEngine.popen_uci(command)
    engine.configure(options)
    times, rates = [], []  # both engines stop at the node limit: nodes/s = NODES / time
    try:
        for _ in range(REPEATS):
            for board in POSITIONS:
                started = time.perf_counter()
                engine.play(board, chess.engine.Limit(nodes=NODES), game=object())
                elapsed = time.perf_counter() - started
                times.append(elapsed)
                rates.append(NODES / elapsed)
    finally:
        engine.quit()
    return statistics.median(times), statistics.median(rates)


results = [
    ("stockfish 15.1 (1 thread)", *measure(STOCKFISH, {"Threads": 1, "Hash": 16})),
    ("sp960 engine", *measure(SP960, {})),
]
anchor = results[0][1]
print(f"{len(POSITIONS)} positions x {REPEATS}, go nodes {NODES}; load: {os.getloadavg()[0]:.2f}")
for name, seconds, nps in results:
    print(f"{name:<26} median {seconds * 1e3:8.1f} ms/search  {nps / 1e3:8.0f} knps  ({seconds / anchor:4.1f}x)")
