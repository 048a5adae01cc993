#!/usr/bin/env python3
"""Games replayed per second: `sp960 validate` on a Chess960 game file, side by side in one run
with python-chess 1.11.2, Debian's pgn-extract and a bare shakmaty loop (the floor).

Contenders, each a whole process on the same file, timed from start to exit:
- sp960 validate --quiet FILE, release build, RAYON_NUM_THREADS=1 and =2 (one core, two);
- the floor: examples/san_floor.rs (a minimal tokenizer, shakmaty's SAN parse and play, one
  thread);
- pgn-extract -s -o /dev/null FILE (it parses every game and checks its moves);
- python-chess: chess.pgn.read_game for every game, then the mainline replayed on
  chess.Board(FEN, chess960=True).
Rounds alternate the contenders (RUNS rounds, default 3; python-chess in the first PY_RUNS of
them, default RUNS), so that the load of a shared machine hits them alike; medians of wall
time, and CPU time (user + system) of each process. All must count the same games (sp960's
summary, the floor's and python-chess's count); sp960 and the floor the same mainline plies.

The file: GAMES=PATH, or by default the samples of fixtures/games/corpus/ concatenated, in
name order, COPIES times (default 20: about 5,000 games, 30 MB), written to a temporary file.
TCEC's Chess960 archive (5,232 games, 200 MB, kept out of git) is the larger file of
docs/benchmarks.md; fixtures/games/corpus/README.md says how to rebuild it from a clone of
TCEC-Chess/tcecgames.

Usage: cargo build --release && cargo build --release --example san_floor &&
       python3 benches/game_validate.py
"""

import glob
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SP960 = os.path.join(TARGET, "release", "sp960")
FLOOR = os.path.join(TARGET, "release", "examples", "san_floor")
PGN_EXTRACT = "/usr/games/pgn-extract"
RUNS = int(os.environ.get("RUNS", "3"))
PY_RUNS = int(os.environ.get("PY_RUNS", str(RUNS)))
COPIES = int(os.environ.get("COPIES", "20"))

PYTHON_CHESS = r"""
import sys
import chess
import chess.pgn
games = plies = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        games += 1
        board = chess.Board(game.headers.get("FEN", chess.STARTING_FEN), chess960=True)
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
print(games, plies)
"""


def concatenated(out_path, copies):
    """Writes the samples of fixtures/games/corpus/, in name order, `copies` times to
    `out_path`, each ending in a blank line (the file the benchmarks call "the samples")."""
    samples = sorted(glob.glob(os.path.join(ROOT, "fixtures/games/corpus/*.pgn")))
    with open(out_path, "wb") as out:
        for _ in range(copies):
            for sample in samples:
                with open(sample, "rb") as f:
                    data = f.read()
                out.write(data if data.endswith(b"\n\n") else data.rstrip(b"\n") + b"\n\n")


def timed(args, env=None):
    """Wall and CPU seconds of one whole process, and its stdout and stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    wall = time.monotonic() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def sp960(path, threads):
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    wall, cpu, done = timed([SP960, "validate", "--quiet", path], env)
    found = re.search(r"(\d+) records \((\d+) games\): (\d+) valid", done.stderr)
    assert found and done.returncode in (0, 1), done.stderr
    return wall, cpu, int(found.group(2))


def floor(path):
    wall, cpu, done = timed([FLOOR, path])
    assert done.returncode == 0, done.stderr
    games, plies = map(int, done.stdout.split())
    return wall, cpu, games, plies


def pgn_extract(path):
    wall, cpu, done = timed([PGN_EXTRACT, "-s", "-o", "/dev/null", path])
    assert done.returncode == 0, done.stderr[-500:]
    return wall, cpu


def python_chess(path):
    wall, cpu, done = timed([sys.executable, "-c", PYTHON_CHESS, path])
    assert done.returncode == 0, done.stderr[-500:]
    games, plies = map(int, done.stdout.split())
    return wall, cpu, games


def main():
    for binary in (SP960, FLOOR, PGN_EXTRACT):
        if not os.path.exists(binary):
            sys.exit(f"needs {binary} (see the usage line; apt-get install pgn-extract)")
    import chess

    assert chess.__version__ == "1.11.2", chess.__version__
    with tempfile.TemporaryDirectory() as tmp:
        path = os.environ.get("GAMES")
        if not path:
            path = os.path.join(tmp, "games.pgn")
            concatenated(path, COPIES)
        size = os.path.getsize(path)
        floor_wall, floor_cpu, games, plies = floor(path)
        print(f"{path}: {size / 1e6:.1f} MB, {games} games, {plies} mainline plies; "
              f"load average {os.getloadavg()[0]:.1f}; medians of {RUNS} rounds "
              f"(python-chess: {min(PY_RUNS, RUNS)})")
        rows = {name: [] for name in ("sp960, 1 thread", "sp960, 2 threads", "floor (san_floor)",
                                      "pgn-extract -s", "python-chess")}
        for round_ in range(RUNS):
            for threads in (1, 2):
                wall, cpu, counted = sp960(path, threads)
                assert counted == games, (counted, games)
                rows[f"sp960, {threads} thread{'s' if threads > 1 else ''}"].append((wall, cpu))
            wall, cpu, counted, counted_plies = floor(path)
            assert (counted, counted_plies) == (games, plies)
            rows["floor (san_floor)"].append((wall, cpu))
            rows["pgn-extract -s"].append(pgn_extract(path))
            if round_ < PY_RUNS:
                wall, cpu, counted = python_chess(path)
                assert counted == games, (counted, games)
                rows["python-chess"].append((wall, cpu))
        medians = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
                   for name, runs in rows.items() if runs}
        print(f"{'contender':<20} {'wall':>9} {'CPU':>9} {'games/s':>10} {'plies/s':>11}")
        for name, (wall, cpu) in medians.items():
            print(f"{name:<20} {wall:8.3f}s {cpu:8.3f}s {games / wall:10.0f} {plies / wall:11.0f}")
        one, two = medians["sp960, 1 thread"][0], medians["sp960, 2 threads"][0]
        print("ratios (wall time; the goals in brackets):")
        print(f"  sp960 1 thread vs pgn-extract: {medians['pgn-extract -s'][0] / one:6.2f}x  [>= 3x]")
        if "python-chess" in medians:
            print(f"  sp960 1 thread vs python-chess: {medians['python-chess'][0] / one:6.1f}x  [>= 20x]")
        print(f"  sp960 1 thread / floor: {one / medians['floor (san_floor)'][0]:6.2f}x the time  [<= 2x]")
        print(f"  sp960 2 threads vs 1: {one / two:6.2f}x  [near 2x]")
        print(f"  CPU, sp960 1 thread / floor: {medians['sp960, 1 thread'][1] / medians['floor (san_floor)'][1]:6.2f}x")


if __name__ == "__main__":
    main()
