#!/usr/bin/env python3
"""`sp960 book --plies N --engine ...` against a python-chess script doing the same
generation (same engine, nodes, plies, MultiPV, margin, window, positions per start, a
search remembered per position within a start, ucinewgame per start, Threads 1), side by
side in one run; then `sp960 book --concurrency 2` against `--concurrency 1`.

Reports, per generator: wall time, positions, positions per second, searches, and the
generator's own CPU against the engine's CPU:
- sp960: its `--timing` line (its own CPU from getrusage(RUSAGE_SELF), the engines' from
  getrusage(RUSAGE_CHILDREN) once they are reaped);
- python-chess: this process's CPU over the run (RUSAGE_SELF) and the engine's
  (RUSAGE_CHILDREN after it quits).
Runs alternate (sp960, python, sp960, ...) so machine load hits both alike; medians.

Run: cargo build --release && nice python3 benches/book_generate.py
Env: SP960 (default target/release/sp960), ENGINE (default /usr/games/stockfish),
SPECS (default 0-11), PLIES (6), NODES (5000), MULTIPV (5), MARGIN (50), WINDOW (-35,35),
PER_START (2), RUNS (3), SEED (7), ONLY (`python` or `concurrency`: one of the two parts).
"""
import os
import random
import re
import resource
import statistics
import subprocess
import tempfile
import time

import chess
import chess.engine

SP960 = os.environ.get("SP960", "target/release/sp960")
ENGINE = os.environ.get("ENGINE", "/usr/games/stockfish")
SPECS = os.environ.get("SPECS", "0-11")
PLIES = int(os.environ.get("PLIES", "6"))
NODES = int(os.environ.get("NODES", "5000"))
MULTIPV = int(os.environ.get("MULTIPV", "5"))
MARGIN = int(os.environ.get("MARGIN", "50"))
WINDOW = tuple(int(x) for x in os.environ.get("WINDOW", "-35,35").split(","))
PER_START = int(os.environ.get("PER_START", "2"))
RUNS = int(os.environ.get("RUNS", "3"))
SEED = int(os.environ.get("SEED", "7"))
ONLY = os.environ.get("ONLY", "")
TRIES = 50 * PER_START

TIMING = re.compile(
    r"timing: (\d+) positions, (\d+) evaluated, (\d+) searches, in ([\d.]+) s .*"
    r"CPU: sp960 ([\d.]+) s, engines ([\d.]+) s")


def run_sp960(concurrency):
    with tempfile.TemporaryDirectory() as tmp:
        args = [SP960, "book", *SPECS.split(), "--plies", str(PLIES), "--engine", ENGINE,
                "--nodes", str(NODES), "--multipv", str(MULTIPV), "--margin", str(MARGIN),
                f"--window={WINDOW[0]},{WINDOW[1]}", "--per-start", str(PER_START),
                "--seed", str(SEED), "--concurrency", str(concurrency), "--timing",
                "-o", os.path.join(tmp, "bench-FRC.epd")]
        begin = time.perf_counter()
        err = subprocess.run(args, check=True, capture_output=True, text=True).stderr
        wall = time.perf_counter() - begin
    m = TIMING.search(err)
    if not m:
        raise SystemExit(f"no timing line in: {err}")
    positions, evaluated, searches, _, own, engines = m.groups()
    return {"wall": wall, "positions": int(positions), "searches": int(searches),
            "cpu": float(own), "engine_cpu": float(engines)}


def score_value(score):
    """A PovScore from the side to move as one comparable number (mates beyond cp)."""
    pov = score.relative
    if pov.is_mate():
        mate = pov.mate()
        return 1_000_000 - mate if mate > 0 else -1_000_000 - mate
    return pov.score()


def run_python(fens):
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    child0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE)
    engine.configure({"Threads": 1})
    positions = searches = 0
    for index, fen in enumerate(fens):
        rng = random.Random(SEED * 1_000_003 + index)
        game = object()  # ucinewgame per start
        known = {}
        kept = set()
        tries = 0
        while len(kept) < PER_START and tries < TRIES:
            tries += 1
            board = chess.Board(fen, chess960=True)
            branched = False
            for _ in range(PLIES):
                if board.is_game_over():
                    break
                key = (board.epd(), MULTIPV)
                if key not in known:
                    searches += 1
                    infos = engine.analyse(board, chess.engine.Limit(nodes=NODES),
                                           multipv=MULTIPV, game=game)
                    known[key] = [(info["pv"][0], score_value(info["score"]), info["score"])
                                  for info in infos if info.get("pv")]
                lines = sorted(known[key], key=lambda line: -line[1])
                best = lines[0][1]
                close = [move for move, value, _ in lines if value >= best - MARGIN]
                branched |= len(close) > 1
                board.push(close[rng.randrange(len(close))])
            else:
                epd = board.epd()
                if epd not in kept:
                    key = (epd, 1)
                    if key not in known:
                        searches += 1
                        info = engine.analyse(board, chess.engine.Limit(nodes=NODES),
                                              multipv=1, game=game)[0]
                        known[key] = [(info["pv"][0], score_value(info["score"]),
                                       info["score"])]
                    white = known[key][0][2].white()
                    if not white.is_mate() and WINDOW[0] <= white.score() <= WINDOW[1]:
                        kept.add(epd)
            if not branched:
                break
        positions += len(kept)
    engine.quit()
    wall = time.perf_counter() - begin
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    child1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    engine_cpu = (child1.ru_utime - child0.ru_utime) + (child1.ru_stime - child0.ru_stime)
    return {"wall": wall, "positions": positions, "searches": searches, "cpu": cpu,
            "engine_cpu": engine_cpu}


def median(runs, key):
    return statistics.median(run[key] for run in runs)


def report(name, runs):
    wall = median(runs, "wall")
    positions = median(runs, "positions")
    searches = median(runs, "searches")
    cpu = median(runs, "cpu")
    engine_cpu = median(runs, "engine_cpu")
    share = 100 * cpu / engine_cpu if engine_cpu else float("nan")
    print(f"| {name} | {wall:.2f} s | {positions:.0f} | {positions / wall:.2f} | "
          f"{searches:.0f} | {1000 * wall / searches:.2f} ms | {1000 * cpu / searches:.3f} ms | "
          f"{1000 * engine_cpu / searches:.2f} ms | {share:.2f}% |")
    return positions / wall


def main():
    fens = subprocess.run([SP960, "fen", *SPECS.split()], check=True, capture_output=True,
                          text=True).stdout.splitlines()
    print(f"{len(fens)} starts, {PLIES} plies, {NODES} nodes, MultiPV {MULTIPV}, margin "
          f"{MARGIN} cp, window {WINDOW[0]},{WINDOW[1]}, {PER_START} per start, {RUNS} runs; "
          f"load average {os.getloadavg()[0]:.2f}")
    if ONLY != "concurrency":
        sp960_runs, python_runs = [], []
        for _ in range(RUNS):
            sp960_runs.append(run_sp960(1))
            python_runs.append(run_python(fens))
        print("| generator | wall | positions | positions/s | searches | wall/search | own CPU/search | "
              "engine CPU/search | own/engine CPU |")
        print("|---|---|---|---|---|---|---|---|---|")
        report("sp960 book", sp960_runs)
        report("python-chess", python_runs)
    if ONLY == "python":
        return
    one, two = [], []
    for _ in range(RUNS):
        one.append(run_sp960(1))
        two.append(run_sp960(2))
    print()
    print("| generator | wall | positions | positions/s | searches | wall/search | own CPU/search | "
          "engine CPU/search | own/engine CPU |")
    print("|---|---|---|---|---|---|---|---|---|")
    rate1 = report("sp960 book --concurrency 1", one)
    rate2 = report("sp960 book --concurrency 2", two)
    print(f"\n--concurrency 2 / 1: {rate2 / rate1:.2f}x positions per second; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
