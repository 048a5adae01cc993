#!/usr/bin/env python3
"""Soak: `sp960 match` over thousands of fast games (the built-in engine at a small depth),
its memory sampled while it plays: current and peak resident set (VmRSS, VmHWM from
/proc/PID/status) and open file descriptors, against the games finished (read from the
match's state file, PGN.state). Memory must stay flat: no growth with the number of games
beyond the PGN on disk.

Prints a row every tenth of the match, then the growth of VmRSS from the first tenth to
the end (a least-squares slope over all samples past the first tenth, in KB per 1000
games). Linux only (/proc).

Run: nice python3 benches/match_soak.py
Env: SP960 (default target/release/sp960), SPECS (default 0-959), ROUNDS (default 3),
DEPTH (default 2), CONCURRENCY (default 2), INTERVAL (seconds between samples, default 0.5).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

SP960 = os.environ.get("SP960", "target/release/sp960")
SPECS = os.environ.get("SPECS", "0-959")
ROUNDS = os.environ.get("ROUNDS", "3")
DEPTH = os.environ.get("DEPTH", "2")
CONCURRENCY = os.environ.get("CONCURRENCY", "2")
INTERVAL = float(os.environ.get("INTERVAL", "0.5"))


def status(pid):
    """VmRSS and VmHWM in KB."""
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def games_done(state):
    try:
        with open(state) as f:
            return json.load(f)["games"]
    except (OSError, ValueError, KeyError):
        return None


def main():
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "soak.pgn")
        state = pgn + ".state"
        args = [SP960, "match", "--sp", SPECS, "--rounds", ROUNDS, "--depth", DEPTH,
                "--concurrency", CONCURRENCY, "--pgn", pgn]
        print("$ " + " ".join(args), flush=True)
        begin = time.perf_counter()
        child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples = []  # (seconds, games, rss KB, hwm KB, fds, pgn bytes)
        while child.poll() is None:
            try:
                rss, hwm = status(child.pid)
                fds = len(os.listdir(f"/proc/{child.pid}/fd"))
            except (OSError, KeyError):
                break
            games = games_done(state)
            size = os.path.getsize(pgn) if os.path.exists(pgn) else 0
            if games is not None:
                samples.append((time.perf_counter() - begin, games, rss, hwm, fds, size))
            time.sleep(INTERVAL)
        child.wait()
        wall = time.perf_counter() - begin
        total = games_done(state)
        if child.returncode != 0 or not samples:
            sys.exit(f"sp960 match failed (exit {child.returncode})")
    print(f"{total} games in {wall:.0f} s ({total / wall:.1f} games/s)")
    print(f"{'games':>6} {'seconds':>8} {'VmRSS MB':>9} {'VmHWM MB':>9} {'fds':>4} {'PGN MB':>7}")
    shown = set()
    for sample in samples:
        tenth = sample[1] * 10 // max(total, 1)
        if tenth not in shown or sample is samples[-1]:
            shown.add(tenth)
            seconds, games, rss, hwm, fds, size = sample
            print(f"{games:>6} {seconds:>8.1f} {rss / 1024:>9.2f} {hwm / 1024:>9.2f} {fds:>4} "
                  f"{size / 1e6:>7.2f}")
    late = [s for s in samples if s[1] >= total / 10]
    if len(late) >= 2:
        n = len(late)
        mean_x = sum(s[1] for s in late) / n
        mean_y = sum(s[2] for s in late) / n
        var = sum((s[1] - mean_x) ** 2 for s in late)
        slope = sum((s[1] - mean_x) * (s[2] - mean_y) for s in late) / var if var else 0.0
        first, last = late[0], late[-1]
        print(f"VmRSS from game {first[1]} to {last[1]}: {first[2] / 1024:.2f} -> "
              f"{last[2] / 1024:.2f} MB; slope {slope * 1000:+.1f} KB per 1000 games; "
              f"peak (VmHWM) {max(s[3] for s in samples) / 1024:.2f} MB; "
              f"fds {min(s[4] for s in samples)}..{max(s[4] for s in samples)}")


if __name__ == "__main__":
    main()
