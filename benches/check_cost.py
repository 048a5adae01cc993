#!/usr/bin/env python3
"""`sp960 check` on Stockfish 15.1, side by side with Stockfish's own perft of the same starts.

For depths 3 and 4: Stockfish alone, fed `position fen` + `go perft D` for the 960 starts from
a script (the anchor: the engine's own perft time, start-up included), then `sp960 check
/usr/games/stockfish --depth D` over the same 960 starts (`--pairs 0 --random 0`; the castling
cases, the protocol and play rows come with it). Then the default run (depth 4, 100 pairs, 200
random positions of seed 1: shakmaty's counts of all its positions are kept, so only the engine
counts) and the same run with `--seed 2` (its pairs and random positions counted by shakmaty
while the engine counts). Each is run RUNS times (default 3), alternating; the medians of wall
time, sp960's own CPU and the engine's CPU are printed, and sp960's CPU as a share of the
engine's (the check's figures are its `--json` `cost`). With SP960_BEFORE=PATH, another build
runs the same checks beside this one, alternating run for run.

Usage: cargo build --release && python3 benches/check_cost.py
"""

import json
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
RUNS = int(os.environ.get("RUNS", "3"))


def stockfish_alone(depth, fens):
    script = "uci\nsetoption name UCI_Chess960 value true\nisready\n"
    script += "".join(f"position fen {fen}\ngo perft {depth}\n" for fen in fens)
    script += "isready\nquit\n"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    out = subprocess.run([STOCKFISH], input=script, capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert out.count("Nodes searched") == len(fens), "a perft went unanswered"
    return wall, 0.0, cpu


SP960_BEFORE = os.environ.get("SP960_BEFORE")


def check(args, binary=SP960):
    out = subprocess.run([binary, "check", STOCKFISH, "--json", *args], capture_output=True, text=True)
    report = json.loads(out.stdout)
    assert report["verdict"] == "ready", report.get("first_defect")
    cost = report["cost"]
    return cost["wall"], cost["sp960_cpu"], cost["engine_cpu"]


def median(runs):
    return tuple(statistics.median(r[i] for r in runs) for i in range(3))


def main():
    if not os.path.exists(STOCKFISH):
        sys.exit("needs Stockfish in /usr/games (apt-get install stockfish)")
    fens = subprocess.run([SP960, "fen", "all"], capture_output=True, text=True, check=True).stdout.split("\n")
    fens = [f for f in fens if f]
    load = os.getloadavg()[0]
    print(f"load average {load:.1f}; medians of {RUNS} runs")
    print(f"{'run':<58} {'wall':>8} {'sp960 CPU':>10} {'engine CPU':>11} {'sp960/engine':>13}")
    builds = [("", SP960)] + ([(" (before)", SP960_BEFORE)] if SP960_BEFORE else [])
    checks = [(f"960 starts, perft {depth}", ["--depth", str(depth), "--pairs", "0", "--random", "0"]) for depth in (3, 4)]
    checks += [
        ("the default run (depth 4)", ["--depth", "4"]),
        ("the default run's size, --seed 2 (counted)", ["--depth", "4", "--seed", "2"]),
    ]
    rows = []
    for depth in (3, 4):
        rows.append((f"Stockfish alone: 960 starts, perft {depth}", [stockfish_alone(depth, fens) for _ in range(RUNS)]))
    for name, args in checks:
        runs = {label: [] for label, _ in builds}
        for _ in range(RUNS):
            for label, binary in builds:
                runs[label].append(check(args, binary))
        for label, _ in builds:
            rows.append((f"sp960 check: {name}{label}", runs[label]))
    for name, runs in rows:
        wall, own, engine = median(runs)
        share = f"{own / engine:12.3f}" if own else f"{'-':>12}"
        print(f"{name:<58} {wall:7.2f}s {own:9.2f}s {engine:10.2f}s {share}")

if __name__ == "__main__":
    main()
