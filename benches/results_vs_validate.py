#!/usr/bin/env python3
"""`sp960 results` over a big game file beside `sp960 validate` over the same file, in one run.

Both replay every game with the one PGN game checker (records::game_stream: whole games cut
from 256 KiB blocks, checked on all cores while the next batch is read); `results` also tallies
each game by start and writes the report. The anchor is `validate --quiet`.

Contenders, each a whole process on the same file, timed from start to exit, rounds
alternating them (RUNS rounds, default 3): `sp960 validate --quiet FILE` and
`sp960 results FILE` (stdout and stderr to /dev/null). Medians of wall time, CPU time (user +
system) and peak resident memory (getrusage's ru_maxrss of the process, from os.wait4), and the
ratio results / validate. Both must count the same games.

The file: GAMES=PATH (e.g. TCEC's Chess960 archive, 200 MB), concatenated until it reaches
SIZE_MB (default 2000) into a temporary file under TMPDIR (removed at the end); without GAMES,
the samples of fixtures/games/corpus/ are used.

Usage: cargo build --release && GAMES=/path/to/tcec-all.pgn python3 benches/results_vs_validate.py
"""

import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SP960 = os.path.join(TARGET, "release", "sp960")
RUNS = int(os.environ.get("RUNS", "3"))
SIZE = int(os.environ.get("SIZE_MB", "2000")) * 1_000_000


def build_file(directory):
    sources = [os.environ["GAMES"]] if os.environ.get("GAMES") else sorted(
        glob.glob(os.path.join(ROOT, "fixtures/games/corpus/*.pgn")))
    path = os.path.join(directory, "big.pgn")
    written = 0
    with open(path, "wb") as out:
        while written < SIZE:
            for source in sources:
                # Copied in chunks: a parent that held the file would lend its peak memory to
                # the children's ru_maxrss (Linux counts the pages of the fork before exec).
                with open(source, "rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 20)
                out.write(b"\n\n")
                written += os.path.getsize(source) + 2
    return path, written


def run(command):
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024, status, err.decode("utf-8", "replace")


def main():
    with tempfile.TemporaryDirectory() as directory:
        path, size = build_file(directory)
        print(f"file: {size / 1e6:.0f} MB ({os.environ.get('GAMES', 'fixtures/games/corpus/*.pgn')} repeated)")
        contenders = {
            "validate": [SP960, "validate", "--quiet", path],
            "results": [SP960, "results", path],
        }
        samples = {name: [] for name in contenders}
        counts = {}
        for round_ in range(RUNS):
            for name, command in contenders.items():
                wall, cpu, rss, status, err = run(command)
                if name == "validate":
                    games = int(re.search(r"\((\d+) games?\)", err).group(1))
                else:
                    games = None
                    if status != 0:
                        sys.exit(f"results failed: {err[-500:]}")
                samples[name].append((wall, cpu, rss))
                counts.setdefault(name, games)
                print(f"round {round_ + 1} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU, {rss:.0f} MB peak RSS",
                      flush=True)
        # results: the games it counted and skipped, from its JSON.
        out = subprocess.run([SP960, "results", "--json", path], capture_output=True, check=True).stdout
        report = json.loads(out)
        tallied = report["games"] + sum(entry["games"] for entry in report["skipped"])
        if tallied != counts["validate"]:
            sys.exit(f"validate read {counts['validate']} games, results {tallied}")
        medians = {name: [statistics.median(s[i] for s in samples[name]) for i in range(3)]
                   for name in samples}
        print(f"\n{counts['validate']} games ({report['games']} counted by results), {RUNS} rounds, "
              f"load average {os.getloadavg()[0]:.1f}")
        print("| contender | wall (median) | CPU | peak RSS | MB/s |")
        print("|---|---|---|---|---|")
        for name, (wall, cpu, rss) in medians.items():
            print(f"| sp960 {name} | {wall:.2f} s | {cpu:.2f} s | {rss:.0f} MB | {size / 1e6 / wall:.0f} |")
        ratio = medians["results"][0] / medians["validate"][0]
        print(f"\nratio results / validate: {ratio:.2f}x wall, "
              f"{medians['results'][1] / medians['validate'][1]:.2f}x CPU")


if __name__ == "__main__":
    main()
