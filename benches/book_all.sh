#!/usr/bin/env bash
# `sp960 book all` (EPD to stdout, PGN and EPD to a file) as whole processes, side by side
# with `sp960 fen all --format epd` (the same 960 records without the book machinery) and
# `true`, in one hyperfine run; prints medians and ratios to the fen anchor.
# Usage: benches/book_all.sh   (RUNS=N to change the number of runs, default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --quiet
bin="$PWD/target/release/sp960"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
hyperfine -N --warmup 50 --runs "${RUNS:-500}" --export-json "$scratch/out.json" --style basic \
  --command-name 'true' "$(command -v true)" \
  --command-name 'sp960 fen all --format epd' "$bin fen all --format epd" \
  --command-name 'sp960 book all' "$bin book all" \
  --command-name 'sp960 book all -o all-FRC.epd' "$bin book all -o $scratch/all-FRC.epd" \
  --command-name 'sp960 book all --format pgn -o' "$bin book all --format pgn -o $scratch/all-FRC.pgn" >&2
python3 - "$scratch/out.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
anchor = results[1]["median"]
for r in results:
    print(f"{r['command']:<32} median {r['median'] * 1e3:6.2f} ms  ({r['median'] / anchor:4.2f}x fen all --format epd)")
PY
