#!/usr/bin/env python3
"""`sp960 validate` on a compressed game file, side by side in one run with the same file
piped through Debian's zstd and with the uncompressed file; the one-core and two-core figures;
the memory each process kept (its peak resident set).

Contenders, each a whole process (or pipeline) on the same games, timed from start to exit:
- sp960 validate --quiet FILE.pgn               the uncompressed file (the anchor)
- sp960 validate --quiet FILE.pgn.zst           sp960 decompressing (ruzstd) beside its checking
- zstd -dc FILE.pgn.zst | sp960 validate --quiet -
- sp960 validate --quiet FILE.pgn at RAYON_NUM_THREADS=1 (the two-core ratio);
- SP960_BEFORE=PATH: another build's sp960 (say, of the commit before) for the uncompressed
  files, one thread and two, beside this one.
Rounds alternate the contenders (RUNS rounds, default 5) so that a shared machine's load hits
them alike; medians of wall time, CPU time (user + system) and peak RSS (each process's own,
from wait4; a pipeline's is sp960's). Every contender must count the same games.

The file, written to a temporary directory: the samples of fixtures/games/corpus/ (short
games: 109 plies on average, the file docs/benchmarks.md calls "the samples") concatenated
COPIES times (default 180: about 300 MB, 47,000 games), or GAMES=PATH (TCEC's archive, say);
compressed by `zstd -3` (frames of the default window: its decompression, not its ratio, is
what is timed), and also a head of it about 10 MB compressed, so that the peak RSS of a small
and a large compressed input are side by side.

Usage: cargo build --release && python3 benches/compressed_validate.py
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
SP960 = os.path.join(TARGET, "release", "sp960")
BEFORE = os.environ.get("SP960_BEFORE")
ZSTD = "/usr/bin/zstd"
RUNS = int(os.environ.get("RUNS", "5"))
COPIES = int(os.environ.get("COPIES", "180"))
from game_validate import concatenated  # noqa: E402 (benches/ is the script's directory)

SUMMARY = re.compile(rb"(\d+) records \((\d+) games\): (\d+) valid")


def run(stages, threads):
    """Runs a pipeline of commands (the last is sp960); returns wall s, CPU s of all, peak
    RSS in MB of the last, and the games it counted."""
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    began = time.monotonic()
    processes = []
    upstream = None
    rss_file = tempfile.NamedTemporaryFile(prefix="rss-", delete=False)
    rss_file.close()
    for index, args in enumerate(stages):
        last = index == len(stages) - 1
        if last:
            # GNU time starts sp960 from a small process: the peak RSS a child of this script
            # reports would include this script's own at the fork (the file was built here).
            args = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + args
        process = subprocess.Popen(args, stdin=upstream, env=env,
                                   stdout=subprocess.DEVNULL if last else subprocess.PIPE,
                                   stderr=subprocess.PIPE if last else subprocess.DEVNULL)
        if upstream is not None:
            upstream.close()
        upstream = process.stdout
        processes.append(process)
    stderr = processes[-1].stderr.read()
    cpu = 0.0
    for process in processes:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu += usage.ru_utime + usage.ru_stime
    wall = time.monotonic() - began
    with open(rss_file.name) as f:
        rss = int(f.read().split()[-1])  # kB
    os.unlink(rss_file.name)
    found = SUMMARY.search(stderr)
    assert found and processes[-1].returncode in (0, 1), stderr[-500:]
    assert all(p.returncode == 0 for p in processes[:-1]), [p.returncode for p in processes]
    return wall, cpu, rss / 1024, int(found.group(2))


def compress(path, out):
    subprocess.run([ZSTD, "-q", "-3", "-f", "-T2", path, "-o", out], check=True)


def main():
    for binary in (SP960, ZSTD, "/usr/bin/time") + ((BEFORE,) if BEFORE else ()):
        if not os.path.exists(binary):
            sys.exit(f"needs {binary} (see the usage line; apt-get install zstd time)")
    with tempfile.TemporaryDirectory() as tmp:
        games_pgn = os.environ.get("GAMES")
        if not games_pgn:
            games_pgn = os.path.join(tmp, "samples.pgn")
            concatenated(games_pgn, COPIES)
        zst_copy = os.path.join(tmp, os.path.basename(games_pgn) + ".zst")
        compress(games_pgn, zst_copy)
        # A head of the file about 10 MB compressed: the peak RSS of a small input.
        head = os.path.join(tmp, "head.pgn")
        ratio = os.path.getsize(games_pgn) / os.path.getsize(zst_copy)
        with open(games_pgn, "rb") as f, open(head, "wb") as out:
            data = f.read(int(10e6 * ratio))
            out.write(data[:data.rfind(b"\n[Event ") + 1])
        compress(head, head + ".zst")

        contenders = {}
        for label, pgn, zst in (("games", games_pgn, zst_copy),):
            contenders[f"{label}: validate FILE.pgn, 2 threads"] = ([[SP960, "validate", "--quiet", pgn]], 2)
            contenders[f"{label}: validate FILE.pgn, 1 thread"] = ([[SP960, "validate", "--quiet", pgn]], 1)
            contenders[f"{label}: validate FILE.pgn.zst, 2 threads"] = ([[SP960, "validate", "--quiet", zst]], 2)
            contenders[f"{label}: zstd -dc | validate -, 2 threads"] = (
                [[ZSTD, "-dc", zst], [SP960, "validate", "--quiet", "-"]], 2)
            if BEFORE:
                contenders[f"{label}: before, FILE.pgn, 2 threads"] = ([[BEFORE, "validate", "--quiet", pgn]], 2)
                contenders[f"{label}: before, FILE.pgn, 1 thread"] = ([[BEFORE, "validate", "--quiet", pgn]], 1)
        contenders["head: validate HEAD.pgn.zst, 2 threads"] = ([[SP960, "validate", "--quiet", head + ".zst"]], 2)

        rows = {name: [] for name in contenders}
        games = {}
        for _ in range(RUNS):
            for name, (stages, threads) in contenders.items():
                wall, cpu, rss, counted = run(stages, threads)
                key = name.split(":")[0]
                assert games.setdefault(key, counted) == counted, (name, counted, games[key])
                rows[name].append((wall, cpu, rss))
        sizes = {path: os.path.getsize(path) / 1e6 for path in (games_pgn, zst_copy, head + ".zst")}
        print(f"{games_pgn}: {sizes[games_pgn]:.1f} MB ({sizes[zst_copy]:.1f} MB as .zst), "
              f"{games['games']} games; head: {sizes[head + '.zst']:.1f} MB as .zst, "
              f"{games['head']} games")
        print(f"load average {os.getloadavg()[0]:.1f}; medians of {RUNS} rounds")
        medians = {name: tuple(statistics.median(r[i] for r in runs) for i in range(3))
                   for name, runs in rows.items()}
        print(f"{'contender':<44} {'wall':>8} {'CPU':>8} {'peak RSS':>9}")
        for name, (wall, cpu, rss) in medians.items():
            print(f"{name:<44} {wall:7.3f}s {cpu:7.3f}s {rss:7.1f}MB")
        print("ratios (wall time; the goals in brackets):")
        for label in ("games",):
            plain = medians[f"{label}: validate FILE.pgn, 2 threads"][0]
            one = medians[f"{label}: validate FILE.pgn, 1 thread"][0]
            zst = medians[f"{label}: validate FILE.pgn.zst, 2 threads"][0]
            pipe = medians[f"{label}: zstd -dc | validate -, 2 threads"][0]
            print(f"  {label}: FILE.pgn.zst / FILE.pgn {zst / plain:5.2f}x  [<= 1.1x]; "
                  f"zstd -dc | / FILE.pgn {pipe / plain:5.2f}x; 2 threads vs 1 {one / plain:5.2f}x  [>= 1.8x]")
            if BEFORE:
                b2 = medians[f"{label}: before, FILE.pgn, 2 threads"][0]
                b1 = medians[f"{label}: before, FILE.pgn, 1 thread"][0]
                print(f"  {label}, before: 2 threads vs 1 {b1 / b2:5.2f}x; this build's 2 threads "
                      f"vs before's {b2 / plain:5.2f}x")
        small = medians["head: validate HEAD.pgn.zst, 2 threads"][2]
        large = medians["games: validate FILE.pgn.zst, 2 threads"][2]
        print(f"  peak RSS, {sizes[head + '.zst']:.0f} MB .zst: {small:.1f} MB; "
              f"{sizes[zst_copy]:.0f} MB .zst: {large:.1f} MB  [flat]")


if __name__ == "__main__":
    main()
