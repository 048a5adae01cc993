#!/usr/bin/env python3
"""`sp960 match` against a python-chess loop driving the same two UCI engines through the
same games (every start, both colours) at a fixed node count, side by side in one run.

Reports, per runner: wall time, plies, wall per ply; for sp960 also its own CPU time (all
its threads, not the engines') as a share of the wall time: the runner's overhead.
Runs alternate (sp960, python, sp960, ...) so machine load hits both alike; medians.

Run: python3 benches/match_vs_python.py
Env: SP960 (default target/release/sp960), ENGINES (two paths, comma-separated; default
Stockfish and Ethereal), SPECS (default 0,959,860,0:959), NODES (default 10000),
RUNS (default 3).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import chess
import chess.engine

SP960 = os.environ.get("SP960", "target/release/sp960")
ENGINES = os.environ.get("ENGINES", "/usr/games/stockfish,/usr/games/ethereal-chess").split(",")
SPECS = os.environ.get("SPECS", "0,959,860,0:959")
NODES = int(os.environ.get("NODES", "10000"))
RUNS = int(os.environ.get("RUNS", "3"))


def starts():
    """The FENs of SPECS, as sp960 fen prints them (Shredder castling)."""
    out = subprocess.run([SP960, "fen", *SPECS.split(",")], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def run_sp960():
    with tempfile.TemporaryDirectory() as tmp:
        args = [SP960, "match", "--engine", ENGINES[0], "--engine", ENGINES[1],
                "--nodes", str(NODES), "--concurrency", "1", "--json",
                "--pgn", os.path.join(tmp, "games.pgn")]
        for spec in SPECS.split(","):
            args += ["--sp", spec]
        begin = time.perf_counter()
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        wall = time.perf_counter() - begin
    summary = json.loads(out)
    plies = sum(g["plies"] for g in summary["games"])
    return {"wall": wall, "plies": plies, "cpu": summary["runner_cpu_seconds"],
            "games": len(summary["games"])}


def run_python(fens):
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    begin = time.perf_counter()
    engines = [chess.engine.SimpleEngine.popen_uci(path) for path in ENGINES]
    plies = games = 0
    for fen in fens:
        for first_white in (True, False):
            board = chess.Board(fen, chess960=True)
            game = object()
            while not board.is_game_over(claim_draw=True):
                white_to_move = board.turn == chess.WHITE
                engine = engines[0 if white_to_move == first_white else 1]
                result = engine.play(board, chess.engine.Limit(nodes=NODES), game=game)
                board.push(result.move)
                plies += 1
            games += 1
    for engine in engines:
        engine.quit()
    wall = time.perf_counter() - begin
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    return {"wall": wall, "plies": plies, "cpu": cpu, "games": games}


def main():
    fens = starts()
    results = {"sp960 match": [], "python-chess loop": []}
    for _ in range(RUNS):
        results["sp960 match"].append(run_sp960())
        results["python-chess loop"].append(run_python(fens))
    print(f"engines: {' vs '.join(ENGINES)}; starts {SPECS} (both colours); nodes {NODES}; "
          f"{RUNS} runs each; load {os.getloadavg()[0]:.2f}")
    print(f"{'runner':<18} {'games':>5} {'wall s':>8} {'plies':>6} {'ms/ply':>7} "
          f"{'own CPU s':>9} {'own CPU/wall':>12}")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(r["wall"] for r in runs)
        plies = statistics.median(r["plies"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        per_ply = statistics.median(1000 * r["wall"] / r["plies"] for r in runs)
        share = statistics.median(r["cpu"] / r["wall"] for r in runs)
        medians[name] = per_ply
        print(f"{name:<18} {runs[0]['games']:>5} {wall:>8.2f} {plies:>6.0f} {per_ply:>7.2f} "
              f"{cpu:>9.3f} {100 * share:>11.2f}%")
    ratio = medians["sp960 match"] / medians["python-chess loop"]
    print(f"wall per ply, sp960 / python-chess: {ratio:.3f}")


if __name__ == "__main__":
    sys.exit(main())
