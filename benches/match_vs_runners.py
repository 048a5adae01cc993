#!/usr/bin/env python3
"""`sp960 match` against fastchess and cutechess-cli on the same fixed-node games, side by
side in one run: Stockfish against itself at two node counts, every start of STARTS with
both colours, one game at a time, with an SPRT, resign and draw adjudication switched on in
all three (and sp960's --log DIR when this build has it).

Measured per runner:
- its OWN CPU time, without its engines: the runner is spawned, waited for with
  waitid(WEXITED | WNOWAIT), so the exited process stays a zombie whose /proc/PID/stat
  still holds its utime + stime (fields 14 and 15: all its threads, not its children),
  and only then reaped;
- the wall time from the spawn to the last game written: a thread polls the PGN file
  (os.stat every POLL_MS, a read when it grew) until it holds all the games, the last one
  complete; the time to the process end (engines quit, report printed) is reported too;
- the plies of its PGN, and from those the CPU per ply (the user part is shown too; the
  rest is system time, mostly one wake-up per engine output line).

The games must be the same move for move (python-chess reads the three PGNs; a runner
whose games differ is reported, and its figures are then not comparable).
Runs are interleaved (sp960, fastchess, cutechess-cli, sp960, ...) so machine load hits
all alike; medians are reported.

Run: cargo build --release && python3 benches/match_vs_runners.py
Env: SP960 (default target/release/sp960, or $CARGO_TARGET_DIR/release/sp960),
FASTCHESS, CUTECHESS (default: found on PATH or in ~/.cache/sp960-peers/bin),
ENGINE (default /usr/games/stockfish), NODES (the two engines' node counts, default
1000,500), STARTS (a SPEC as in `sp960 fen`, default 100-139: 40 starts), RUNS (default 3),
RUNNERS (default sp960,fastchess,cutechess-cli), POLL_MS (default 5), KEEP (a directory
to keep the PGNs and outputs in), LOG (default 1: sp960 gets --log DIR when its
`match --help` lists it; 0: never), PIN (a CPU list: every runner and its engines run under
`taskset -c PIN`, the placement experiment of docs/benchmarks.md; default: no pinning),
AFFINITY (a CPU list: each runner pins its game and engines with its own option, sp960
`--affinity AFFINITY` and fastchess `-use-affinity AFFINITY`; cutechess-cli has no such
option and runs under `taskset -c AFFINITY`; an sp960 build without `--affinity` too),
SP960_BEFORE (a second sp960 build, e.g. the commit before a change: it runs as the runner
`sp960-before`, interleaved with the others, and is compared with fastchess and with `sp960`:
before and after side by side in one run).
"""
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.expanduser("~/.cache/sp960-peers/bin")


def default_sp960():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "sp960")


def find(tool):
    path = os.environ.get("PATH", "") + os.pathsep + PEERS
    return shutil.which(tool, path=path) or tool


SP960 = os.environ.get("SP960", default_sp960())
FASTCHESS = os.environ.get("FASTCHESS", find("fastchess"))
CUTECHESS = os.environ.get("CUTECHESS", find("cutechess-cli"))
ENGINE = os.environ.get("ENGINE", "/usr/games/stockfish")
NODES = [int(n) for n in os.environ.get("NODES", "1000,500").split(",")]
STARTS = os.environ.get("STARTS", "100-139")
RUNS = int(os.environ.get("RUNS", "3"))
SP960_BEFORE = os.environ.get("SP960_BEFORE")
RUNNERS = os.environ.get(
    "RUNNERS",
    ("sp960-before," if SP960_BEFORE else "") + "sp960,fastchess,cutechess-cli").split(",")
POLL = float(os.environ.get("POLL_MS", "5")) / 1000
KEEP = os.environ.get("KEEP")
LOG = os.environ.get("LOG", "1") != "0"
PIN = os.environ.get("PIN")
AFFINITY = os.environ.get("AFFINITY")

# The same adjudication and SPRT in every runner (cutechess-cli has no SPRT option with
# these words; its -sprt takes the same four numbers).
SPRT = ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]
RESIGN = ["movecount=3", "score=1000"]
DRAW = ["movenumber=40", "movecount=8", "score=10"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def sp960_has(binary, option):
    """True when this build's `sp960 match --help` lists `option`."""
    out = subprocess.run([binary, "match", "--help"], capture_output=True, text=True).stdout
    return option in out


def sp960_has_log(binary=SP960):
    """True when this build's `sp960 match --help` lists --log."""
    return sp960_has(binary, "--log")


def is_sp960(runner):
    return runner in ("sp960", "sp960-before")


def command(runner, work, book, rounds):
    """The runner's argv for the match, its PGN path."""
    pgn = os.path.join(work, f"{runner}.pgn")
    names = ["a", "b"]
    if is_sp960(runner):
        binary = SP960_BEFORE if runner == "sp960-before" else SP960
        args = [binary, "match", "--sp", STARTS, "--concurrency", "1", "--pgn", pgn]
        for name, nodes in zip(names, NODES):
            args += ["--engine", f"{ENGINE} name={name} nodes={nodes}"]
        args += ["--sprt", *SPRT, "--resign", *RESIGN, "--draw", *DRAW]
        if LOG and sp960_has_log(binary):
            args += ["--log", os.path.join(work, f"{runner}-log")]
        if AFFINITY and sp960_has(binary, "--affinity"):
            args += ["--affinity", AFFINITY]
        elif AFFINITY:
            args = ["taskset", "-c", AFFINITY, *args]
        return args, pgn
    program = FASTCHESS if runner == "fastchess" else CUTECHESS
    args = [program]
    for name, nodes in zip(names, NODES):
        args += ["-engine", f"cmd={ENGINE}", f"name={name}", f"nodes={nodes}"]
    args += ["-each", "proto=uci", "tc=inf", "-variant", "fischerandom",
             "-openings", f"file={book}", "format=epd", "order=sequential",
             "-games", "2", "-rounds", str(rounds), "-repeat", "-concurrency", "1",
             "-recover", "-resign", *RESIGN, "-draw", *DRAW, "-sprt", *SPRT]
    if runner == "fastchess":
        args += ["-pgnout", f"file={pgn}"]
        if AFFINITY:
            args += ["-use-affinity", AFFINITY]
    else:
        args += ["-pgnout", pgn]
        if AFFINITY:
            args = ["taskset", "-c", AFFINITY, *args]
    return args, pgn


def complete_games(text):
    """How many games the PGN text holds, the last one counted only once its result
    ends the movetext."""
    games = text.count("[Event ")
    if games == 0:
        return 0
    last = text[text.rfind("[Event "):]
    result = last.split('[Result "', 1)[1].split('"', 1)[0] if '[Result "' in last else None
    tail = last.rstrip()
    if result is None or "\n\n" not in last or not tail.endswith(result):
        return games - 1
    return games


def watch(pgn, expected, begin, done, found):
    """Polls `pgn` until it holds `expected` complete games; stores the time."""
    size = -1
    while not done.is_set():
        try:
            now_size = os.stat(pgn).st_size
        except FileNotFoundError:
            now_size = -1
        if now_size != size:
            size = now_size
            stamp = time.perf_counter()
            with open(pgn, encoding="utf-8", errors="replace") as file:
                if complete_games(file.read()) >= expected:
                    found.append(stamp - begin)
                    return
        time.sleep(POLL)


def own_cpu_and_reap(process):
    """Waits for `process` to exit, reads its own utime + stime while it is a zombie,
    then reaps it. Returns (cpu seconds, exit status)."""
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    with open(f"/proc/{process.pid}/stat") as file:
        stat = file.read()
    fields = stat[stat.rfind(")") + 2:].split()
    # Fields 14 and 15 of stat(5); `fields` starts at field 3 (the state).
    user, system = int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS
    return user, system, process.wait()


def run_one(runner, work, book, rounds, expected):
    args, pgn = command(runner, work, book, rounds)
    if PIN:
        # The runner's own CPU is still its own: taskset execs it in the same process.
        args = ["taskset", "-c", PIN, *args]
    if os.path.exists(pgn):
        os.remove(pgn)
    out = open(os.path.join(work, f"{runner}.out"), "w")
    done, found = threading.Event(), []
    begin = time.perf_counter()
    process = subprocess.Popen(args, cwd=work, stdout=out, stderr=subprocess.STDOUT)
    watcher = threading.Thread(target=watch, args=(pgn, expected, begin, done, found))
    watcher.start()
    user, system, status = own_cpu_and_reap(process)
    end = time.perf_counter() - begin
    done.set()
    watcher.join()
    out.close()
    if status != 0:
        with open(os.path.join(work, f"{runner}.out")) as file:
            sys.exit(f"{runner} exited with {status}: {' '.join(args)}\n{file.read()[-3000:]}")
    if not found:
        # The last game was written after the last poll and before the end.
        with open(pgn, encoding="utf-8") as file:
            if complete_games(file.read()) >= expected:
                found.append(end)
    with open(pgn, encoding="utf-8") as file:
        games = read_games(file.read())
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
        shutil.copy(pgn, KEEP)
        shutil.copy(os.path.join(work, f"{runner}.out"), KEEP)
    return {"cpu": user + system, "user": user, "end": end, "last": found[0] if found else None,
            "plies": sum(len(moves) for _, moves in games), "games": games}


def read_games(text):
    """(result, UCI moves) of every game, by python-chess."""
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            sys.exit(f"python-chess cannot read a game: {game.errors}")
        moves = [move.uci() for move in game.mainline_moves()]
        games.append((game.headers.get("Result"), moves))
    return games


def main():
    for path in [SP960] + ([SP960_BEFORE] if "sp960-before" in RUNNERS else []) + [FASTCHESS if "fastchess" in RUNNERS else SP960,
                           CUTECHESS if "cutechess-cli" in RUNNERS else SP960]:
        if not (os.path.isfile(path) or shutil.which(path)):
            sys.exit(f"not found: {path} (see the docstring's env vars)")
    fens = subprocess.run([SP960, "fen", STARTS, "--format", "epd"], check=True,
                          capture_output=True, text=True).stdout
    starts = len(fens.splitlines())
    expected = 2 * starts
    results = {runner: [] for runner in RUNNERS}
    with tempfile.TemporaryDirectory() as work:
        book = os.path.join(work, "book.epd")
        with open(book, "w") as file:
            file.write(fens)
        for _ in range(RUNS):
            for runner in RUNNERS:
                results[runner].append(run_one(runner, work, book, starts, expected))
    load = os.getloadavg()[0]
    log = "sp960 --log DIR; " if LOG and sp960_has_log() else ""
    log += f"all under taskset -c {PIN}; " if PIN else ""
    log += (f"sp960 --affinity {AFFINITY}, fastchess -use-affinity {AFFINITY}, cutechess-cli "
            f"under taskset -c {AFFINITY}; " if AFFINITY else "")
    print(f"{log}{ENGINE} nodes={NODES[0]} vs nodes={NODES[1]}; starts {STARTS} ({starts}, both "
          f"colours, {expected} games); SPRT {' '.join(SPRT)}; resign {' '.join(RESIGN)}; "
          f"draw {' '.join(DRAW)}; {RUNS} runs each, interleaved; load {load:.2f}")
    print(f"{'runner':<14} {'games':>5} {'plies':>6} {'own CPU s':>9} {'user s':>6} "
          f"{'CPU/ply us':>10} {'to last game s':>14} {'to exit s':>9}")
    medians = {}
    for runner, runs in results.items():
        cpu = statistics.median(r["cpu"] for r in runs)
        user = statistics.median(r["user"] for r in runs)
        per_ply = statistics.median(1e6 * r["cpu"] / r["plies"] for r in runs)
        lasts = [r["last"] for r in runs if r["last"] is not None]
        last = statistics.median(lasts) if lasts else float("nan")
        end = statistics.median(r["end"] for r in runs)
        medians[runner] = (per_ply, last)
        print(f"{runner:<14} {len(runs[0]['games']):>5} {runs[0]['plies']:>6} {cpu:>9.3f} "
              f"{user:>6.2f} {per_ply:>10.1f} {last:>14.2f} {end:>9.2f}")
    reference = results[RUNNERS[0]][0]["games"]
    for runner, runs in results.items():
        for number, run in enumerate(runs, 1):
            if len(run["games"]) != expected:
                print(f"NOTE: {runner} run {number} wrote {len(run['games'])} games, not "
                      f"{expected} (did the SPRT stop it?)")
            longer, shorter, other = [], [], 0
            for game, (ours, theirs) in enumerate(zip(reference, run["games"]), 1):
                if ours == theirs:
                    continue
                same_result = ours[0] == theirs[0]
                if same_result and theirs[1][:len(ours[1])] == ours[1]:
                    longer.append(f"{game} (+{len(theirs[1]) - len(ours[1])})")
                elif same_result and ours[1][:len(theirs[1])] == theirs[1]:
                    shorter.append(f"{game} (-{len(ours[1]) - len(theirs[1])})")
                else:
                    other += 1
            if longer or shorter:
                print(f"{runner} run {number}: the same moves, but the adjudication comes later "
                      f"in games {', '.join(longer) or '-'} and earlier in games "
                      f"{', '.join(shorter) or '-'} (plies) than in {RUNNERS[0]}'s")
            if other:
                print(f"DIFFERENT GAMES: {runner} run {number}: {other} games differ from "
                      f"{RUNNERS[0]} run 1 in their moves or result")
    for ours in [runner for runner in RUNNERS if is_sp960(runner)]:
        for other in RUNNERS:
            if other == ours or (ours == "sp960-before" and other == "sp960"):
                continue
            cpu_ratio = medians[ours][0] / medians[other][0]
            wall_ratio = medians[ours][1] / medians[other][1]
            print(f"{ours} / {other}: own CPU per ply {cpu_ratio:.2f}, "
                  f"wall to the last game {wall_ratio:.3f}")


if __name__ == "__main__":
    sys.exit(main())
