#!/usr/bin/env python3
"""`sp960 perft --divide` side by side with Stockfish 15.1's `go perft` on the same positions.

For each position and depth: Stockfish (`setoption name Threads value 1`, `UCI_Chess960 true`)
timed from `go perft D` to its `Nodes searched` line (its start-up and network loading left
out), and `sp960 perft FEN --depth D --divide` timed as a whole process (start-up included) on
one thread (RAYON_NUM_THREADS=1) and on two (its CPU time too: both cores busy shows as CPU
near twice the wall time). Runs alternate (Stockfish, sp960 on 1, sp960 on
2) RUNS times (default 5); the medians and the ratios to Stockfish are printed as a Markdown
table, with the load average before and after. The counts must agree.

Usage: cargo build --release && python3 benches/perft_vs_stockfish.py
"""

import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SP960 = os.path.join(TARGET, "release", "sp960")
STOCKFISH = "/usr/games/stockfish"
RUNS = int(os.environ.get("RUNS", "5"))

# (name, FEN, depth): each 0.4 s to 1 s of Stockfish's time on one core.
POSITIONS = [
    ("SP 518 (standard start)", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 6),
    ("SP 860", "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1", 6),
    (
        "Chess960 perft suite, position 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        6,
    ),
    ("case colours-differ", "1r1k1r2/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAfb - 0 1", 6),
    ("case standard-mode", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1", 6),
    ("case king-stays", "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", 6),
]


def stockfish(fen, depth):
    """Seconds from `go perft` to `Nodes searched`, and the count."""
    engine = subprocess.Popen(
        [STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        for line in engine.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"stockfish ended before {prefix!r}")

    send("uci")
    until("uciok")
    send("setoption name Threads value 1")
    send("setoption name UCI_Chess960 value true")
    send(f"position fen {fen}")
    send("isready")
    until("readyok")
    began = time.monotonic()
    send(f"go perft {depth}")
    nodes = int(until("Nodes searched").split(":")[1])
    wall = time.monotonic() - began
    send("quit")
    engine.wait()
    return wall, nodes


def sp960(fen, depth, threads):
    """Seconds of the whole `sp960 perft --divide` process (wall, CPU), and the count."""
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    out = subprocess.run(
        [SP960, "perft", fen, "--depth", str(depth), "--divide"],
        capture_output=True, text=True, check=True, env=env,
    ).stdout
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return (wall, cpu), int(out.rsplit("Nodes searched:", 1)[1])


def main():
    if not os.path.exists(SP960):
        sys.exit(f"{SP960} missing: cargo build --release first")
    load_before = os.getloadavg()
    times = {name: ([], [], [], []) for name, _, _ in POSITIONS}
    for _ in range(RUNS):
        for name, fen, depth in POSITIONS:
            sf, one, two, two_cpu = times[name]
            wall, expected = stockfish(fen, depth)
            sf.append(wall)
            for threads, into in ((1, one), (2, two)):
                (wall, cpu), nodes = sp960(fen, depth, threads)
                assert nodes == expected, f"{name}: sp960 {nodes}, Stockfish {expected}"
                into.append(wall)
                if threads == 2:
                    two_cpu.append(cpu)
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after; medians of {RUNS}")
    print()
    print(
        "| position | depth | Stockfish, 1 thread | sp960, 1 thread | ratio "
        "| sp960, 2 threads (CPU) | ratio | 2 threads' speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, _, depth in POSITIONS:
        sf, one, two, two_cpu = (statistics.median(t) for t in times[name])
        print(
            f"| {name} | {depth} | {sf:.3f} s | {one:.3f} s | {one / sf:.2f} | "
            f"{two:.3f} s ({two_cpu:.3f} s) | {two / sf:.2f} | {one / two:.2f}x |"
        )


if __name__ == "__main__":
    main()
