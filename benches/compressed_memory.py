#!/usr/bin/env python3
"""`sp960 validate`'s peak memory on zstd game files from 10 MB to 2 GB compressed: the
memory must stay flat, whatever the file's size (issue 48).

The files: the samples of fixtures/games/corpus/ (the file docs/benchmarks.md calls "the
samples"), each game given a comment of random base64 before its first move (COMMENT bytes,
default 4096), so that the text does not compress far and a 2 GB compressed file is about
2.7 GB of text, not 40 GB; compressed by `zstd -1` as the text is written (frames of the
default window). Sizes in MB compressed: SIZES (default "10,100,500,2000"); each file is
written, validated RUNS times (default 1), and deleted before the next, so the disk holds one
at a time (in TMPDIR).

For each: the games sp960 counted (all valid, equal to the games written), wall and CPU time,
and the peak resident set (GNU time's %M) of sp960 alone.

Usage: cargo build --release && python3 benches/compressed_memory.py
"""

import base64
import glob
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
ZSTD = "/usr/bin/zstd"
RUNS = int(os.environ.get("RUNS", "1"))
COMMENT = int(os.environ.get("COMMENT", "4096"))
SIZES = [int(size) for size in os.environ.get("SIZES", "10,100,500,2000").split(",")]
SUMMARY = re.compile(rb"(\d+) records \((\d+) games\): (\d+) valid")


def sample_games():
    """The samples' games, each as (tags, movetext) bytes."""
    games = []
    for sample in sorted(glob.glob(os.path.join(ROOT, "fixtures/games/corpus/*.pgn"))):
        with open(sample, "rb") as f:
            text = f.read().replace(b"\r\n", b"\n")
        for chunk in re.split(rb"\n\n(?=\[)", text.strip(b"\n")):
            tags, _, moves = chunk.partition(b"\n\n")
            assert tags.startswith(b"[") and moves, sample
            games.append((tags, moves))
    return games


def write_file(path, megabytes, games):
    """Writes games, each with a random comment, through `zstd -1` until the compressed
    file reaches `megabytes`; returns the games and the bytes of text written."""
    zstd = subprocess.Popen([ZSTD, "-q", "-1", "-T2", "-f", "-o", path], stdin=subprocess.PIPE)
    written = text = 0
    goal = megabytes * 1e6
    while True:
        batch = []
        for tags, moves in games:
            comment = base64.b64encode(os.urandom(COMMENT * 3 // 4))
            batch.append(tags + b"\n\n{" + comment + b"} " + moves + b"\n\n")
        data = b"".join(batch)
        zstd.stdin.write(data)
        text += len(data)
        written += len(games)
        # zstd compresses as it reads: its output so far tells when to stop (a few MB over).
        if os.path.exists(path) and os.path.getsize(path) >= goal:
            break
    zstd.stdin.close()
    assert zstd.wait() == 0
    return written, text


def validate(path):
    rss_file = path + ".rss"
    began = time.monotonic()
    before = os.times()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, SP960, "validate",
                           "--quiet", path], capture_output=True)
    after = os.times()
    wall = time.monotonic() - began
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    with open(rss_file) as f:
        rss = int(f.read().split()[-1]) / 1024
    os.unlink(rss_file)
    found = SUMMARY.search(done.stderr)
    assert found and done.returncode == 0, done.stderr[-500:]
    return wall, cpu, rss, int(found.group(2)), int(found.group(3))


def main():
    for binary in (SP960, ZSTD, "/usr/bin/time"):
        if not os.path.exists(binary):
            sys.exit(f"needs {binary} (see the usage line; apt-get install zstd time)")
    games = sample_games()
    print(f"{len(games)} games a round, each with a {COMMENT}-byte comment; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'compressed':>11} {'text':>9} {'games':>9} {'wall':>8} {'CPU':>8} {'peak RSS':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for megabytes in SIZES:
            path = os.path.join(tmp, f"games-{megabytes}.pgn.zst")
            written, text = write_file(path, megabytes, games)
            rows = []
            for _ in range(RUNS):
                wall, cpu, rss, counted, valid = validate(path)
                assert counted == written == valid, (counted, written, valid)
                rows.append((wall, cpu, rss))
            wall, cpu, rss = (statistics.median(row[i] for row in rows) for i in range(3))
            print(f"{os.path.getsize(path) / 1e6:9.0f}MB {text / 1e6:7.0f}MB {written:9} "
                  f"{wall:7.2f}s {cpu:7.2f}s {rss:7.1f}MB", flush=True)
            os.unlink(path)


if __name__ == "__main__":
    main()
