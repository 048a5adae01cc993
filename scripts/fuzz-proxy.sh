#!/usr/bin/env bash
# Hostile-GUI fuzzing of `sp960 proxy` against the real engines (issue 14): the proxy is
# SP960_PROXY when set (.ci/run: the unpacked Linux download, the binary users get), else the
# release build; the fuzzer, examples/hostile_gui, is the test build's (debug, dependencies at
# opt-level 2: scripts/test.sh has built it). Then it runs the fuzzer for SECONDS per engine with one fresh
# seed (printed; SEED=S reuses one), niced. Exits non-zero if any invariant broke; the
# fuzzer's report names the seed, the command index and the last lines each way, and
# `--seed S --commands N` reproduces it.
#
# Usage: scripts/fuzz-proxy.sh [SECONDS]          (default 30)
#   SEED=S            the seed (default: fresh)
#   ENGINES="a b"     only these of: stockfish ethereal glaurung fairy-uci sjaakii-xb fairy-xb
#   FUZZ_ARGS="..."   more fuzzer arguments, e.g. "--good-only" or "--keep-going --bound-ms 5000"
#   SP960_PROXY=PATH  the sp960 to fuzz (default: cargo's release build)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
seed=${SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
target=${CARGO_TARGET_DIR:-target}
cargo build --locked --quiet --example hostile_gui
fuzzer="$target/debug/examples/hostile_gui"
proxy=${SP960_PROXY:-}
if [ -z "$proxy" ]; then
  cargo build --locked --release --quiet --bin sp960
  proxy="$target/release/sp960"
fi
echo "fuzz-proxy: seed $seed, ${seconds}s per engine, proxy $proxy"

declare -A engine protocol init
engine[stockfish]=/usr/games/stockfish
engine[ethereal]=/usr/games/ethereal-chess
engine[glaurung]=/usr/games/glaurung
# Glaurung's 2-thread search crashes by itself in Chess960.
init[glaurung]="setoption name Threads value 1"
engine[fairy-uci]=/usr/games/fairy-stockfish
engine[sjaakii-xb]=/usr/games/sjaakii
protocol[sjaakii-xb]=xboard
engine[fairy-xb]=/usr/games/fairy-stockfish
protocol[fairy-xb]=xboard

failed=()
passed=0
for name in ${ENGINES:-stockfish ethereal glaurung fairy-uci sjaakii-xb fairy-xb}; do
  command=${engine[$name]:?unknown engine $name}
  if [ ! -x "$command" ]; then
    echo "fuzz-proxy: $name: $command is missing" >&2
    failed+=("$name")
    continue
  fi
  args=(--engine "$command" --proxy "$proxy" --seconds "$seconds" --seed "$seed"
        --protocol "${protocol[$name]:-uci}")
  [ -n "${init[$name]:-}" ] && args+=(--init "${init[$name]}")
  echo "== $name"
  # shellcheck disable=SC2086 # FUZZ_ARGS is a list of words
  if nice -n 15 "$fuzzer" "${args[@]}" ${FUZZ_ARGS:-}; then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
done
echo "fuzz-proxy: seed $seed: ${#failed[@]} engine(s) with a broken invariant${failed[*]:+: ${failed[*]}}"
# The plain closing line CI reads: one fuzz run per engine.
echo "fuzz-proxy: $passed passed, ${#failed[@]} failed"
[ "${#failed[@]}" -eq 0 ]
