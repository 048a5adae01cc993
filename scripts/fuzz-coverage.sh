#!/usr/bin/env bash
# Coverage-guided fuzzing (issue 14, item 4) of the FEN/EPD record parser (fuzz target
# record_line), of the PGN game checker (game_text) and of the proxy's protocol line readers (proxy_lines: arbitrary GUI and engine
# lines into the UCI and XBoard sessions), SECONDS per target, niced.
#
# libFuzzer through cargo-fuzz on stable Rust: `--sanitizer none` needs no nightly (the
# sanitizers do: `-Zsanitizer`). cargo-fuzz is installed from crates.io when missing. The
# corpus grows in fuzz/corpus/TARGET (not committed); a crash stops the run with exit 1,
# libFuzzer saves the input under fuzz/artifacts/TARGET/ and prints how to replay it:
# `cargo fuzz run --sanitizer none TARGET fuzz/artifacts/TARGET/crash-...`. Make it a test.
#
# Usage: scripts/fuzz-coverage.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-60}
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install --locked cargo-fuzz
fi
targets=(record_line game_text proxy_lines)
nice -n 15 cargo fuzz build --sanitizer none --release
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  echo "== $target (${seconds}s)"
  status=0
  nice -n 15 cargo fuzz run --sanitizer none --release "$target" -- \
    -max_total_time="$seconds" -max_len=4096 >"$log" 2>&1 || status=$?
  grep -E 'DONE|ERROR|panicked|SUMMARY|Test unit' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -40 "$log"
    echo "fuzz-coverage: $target FAILED (exit $status); the input is in fuzz/artifacts/$target/" >&2
    echo "fuzz-coverage: $passed passed, 1 failed"
    exit 1
  fi
  passed=$((passed + 1))
done
echo "fuzz-coverage: ${#targets[@]} targets x ${seconds}s, no crash"
echo "fuzz-coverage: $passed passed, 0 failed"
