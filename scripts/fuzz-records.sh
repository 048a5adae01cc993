#!/usr/bin/env bash
# Fuzzes the FEN/EPD record parser and the PGN game checker for a bounded time: the `fuzz_`
# property tests of src/records/record_tests.rs (random bytes, record-like bytes, edited real
# FENs, EPD operations after real positions, every legal move as a `bm`, the board parser
# against shakmaty's, normalize round trips) and of src/records/game_tests.rs (random bytes
# and game-like token soup: every finding located, no panic), CASES cases each (default
# 20000), round after
# round with fresh random seeds until the budget is spent. A failure stops it with exit 1;
# proptest then saves the case under proptest-regressions/ (commit it) and prints it.
# It runs on the test build (`cargo test`'s: debug, dependencies at opt-level 2), which
# scripts/test.sh has already built in CI, so it compiles nothing there; a round of 10 x 20,000
# cases takes about 4 s on it.
# Usage: scripts/fuzz-records.sh [SECONDS]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-60}
cargo test --locked --lib --quiet --no-run
log=$(mktemp)
trap 'rm -f "$log"' EXIT
deadline=$((SECONDS + budget))
rounds=0
while true; do
  remaining=$((deadline - SECONDS))
  ((remaining > 0)) || break
  status=0
  SP960_FUZZ_CASES=${CASES:-20000} timeout "$remaining" \
    cargo test --locked --lib --quiet -- record::tests::properties::fuzz_ \
    game::tests::properties::fuzz_ >"$log" 2>&1 || status=$?
  if ((status == 124)); then
    break
  elif ((status != 0)); then
    cat "$log"
    echo "fuzz-records: FAILED in round $((rounds + 1))" >&2
    exit 1
  elif ! grep -q "test result: ok. 10 passed" "$log"; then
    # A filter that matches no test passes too: a moved test module must not turn this off.
    cat "$log"
    echo "fuzz-records: the filters did not run the 10 properties (8 record, 2 game)" >&2
    exit 1
  fi
  rounds=$((rounds + 1))
done
# A budget spent before one round ended (a build lock waited on, a slow machine) tested nothing.
((rounds > 0)) || { echo "fuzz-records: no round finished in ${budget}s" >&2; exit 1; }
echo "fuzz-records: $rounds full rounds of 10 properties x ${CASES:-20000} cases in ${budget}s, no failure"
# The plain closing line CI reads: one property run per round and property.
echo "fuzz: $((rounds * 10)) passed, 0 failed"
