#!/usr/bin/env bash
# `sp960 fen all` as a whole process, side by side with `true` (the cost of starting any
# small binary), in one hyperfine run; prints medians and their ratio.
# Usage: benches/fen_all.sh   (RUNS=N to change the number of runs, default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --quiet
bin="$PWD/target/release/sp960"
json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N --warmup 50 --runs "${RUNS:-1000}" --export-json "$json" --style basic \
  --command-name 'true' "$(command -v true)" \
  --command-name 'sp960 fen all' "$bin fen all" \
  --command-name 'sp960 fen all --format epd' "$bin fen all --format epd" >&2
python3 - "$json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
for r in results:
    print(f"{r['command']:<28} median {r['median'] * 1e3:6.2f} ms  ({r['median'] / base:4.1f}x true)")
PY
