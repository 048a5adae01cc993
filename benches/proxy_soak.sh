#!/usr/bin/env bash
# Soak of `sp960 proxy` under hostile input (issue 24): runs the hostile-GUI fuzzer
# (examples/hostile_gui.rs) through ONE proxy for SECONDS, niced, and samples the proxy
# process's resident memory (VmRSS, VmHWM from /proc/PID/status) and its open file
# descriptors (/proc/PID/fd) every INTERVAL seconds. Linux only (/proc).
#
# Usage: benches/proxy_soak.sh [SECONDS] [INTERVAL]     (default 1500 and 30)
#   ENGINE=/usr/games/stockfish   the engine behind the proxy
#   SEED=S                        the fuzzer's seed (default: fresh, printed)
#   PROXY_ARGS="..."              more `sp960 proxy` arguments, e.g. "--max-overrun 500"
#   OUT=FILE                      the samples as TSV (default target/proxy_soak.tsv)
#   BUILD=0                       use the release binaries as they are (no cargo build)
#
# Prints one line per sample (seconds, RSS KiB, peak RSS KiB, fds, the fuzzer's commands so
# far are in its own closing report) and a summary: first/last/max RSS and fds after the
# warm-up (the first sample). Exits non-zero if the fuzzer reports a broken invariant or the
# proxy could not be found. It fails on nothing else: growth is for the reader to judge
# (docs/benchmarks.md, "Soak: sp960 proxy under hostile input").
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1500}
interval=${2:-30}
engine=${ENGINE:-/usr/games/stockfish}
seed=${SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
target=${CARGO_TARGET_DIR:-target}
out=${OUT:-$target/proxy_soak.tsv}
if [ "${BUILD:-1}" != 0 ]; then
  cargo build --locked --release --quiet --bin sp960 --example hostile_gui
fi
# Copies: a rebuild during the soak does not swap the binaries under it.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$target/release/sp960" "$target/release/examples/hostile_gui" "$scratch/"
proxy_args=()
for arg in ${PROXY_ARGS:-}; do proxy_args+=(--proxy-arg "$arg"); done
echo "proxy-soak: seed $seed, ${seconds}s, engine $engine, sample every ${interval}s"
nice -n 15 "$scratch/hostile_gui" --engine "$engine" --proxy "$scratch/sp960" \
  --seconds "$seconds" --seed "$seed" "${proxy_args[@]}" >"$scratch/fuzz.out" 2>&1 &
fuzzer=$!
pid=
for _ in $(seq 100); do
  pid=$(pgrep -P "$fuzzer" -x sp960 || true)
  [ -n "$pid" ] && break
  sleep 0.1
done
if [ -z "$pid" ]; then
  echo "proxy-soak: the proxy process did not appear" >&2
  kill "$fuzzer" 2>/dev/null || true
  exit 1
fi
# The first sample after the proxy's start-up (engine spawned, threads running).
sleep 2
printf 'seconds\trss_kib\thwm_kib\tfds\tthreads\n' >"$out"
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  threads=$(awk '/^Threads/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
  [ -z "$rss" ] && break
  now=$(( $(date +%s) - start ))
  printf '%s\t%s\t%s\t%s\t%s\n' "$now" "$rss" "$hwm" "$fds" "$threads" | tee -a "$out"
  sleep "$interval"
done
status=0
wait "$fuzzer" || status=$?
tail -n 25 "$scratch/fuzz.out"
awk -F'\t' 'NR == 2 {r0 = $2; f0 = $4} NR > 1 {r = $2; f = $4; if ($2 > rmax) rmax = $2; if ($4 > fmax) fmax = $4; n++}
  END {printf "proxy-soak: %d samples; RSS first %d KiB, last %d KiB, max %d KiB; fds first %d, last %d, max %d\n", n, r0, r, rmax, f0, f, fmax}' "$out"
echo "proxy-soak: fuzzer exit $status (samples in $out)"
exit "$status"
