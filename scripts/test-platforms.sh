#!/usr/bin/env bash
# Checks sp960 for Windows and macOS on a Debian (Linux x86-64) machine, and runs the Windows
# build's tests under Wine. `.ci/run` calls it after scripts/release.sh, whose Windows build
# (scripts/build-windows.sh) it tests: here that build is a no-op.
#
#   usage: scripts/test-platforms.sh [clippy] [wine]     (default: both, in that order)
#
# `.ci/run` runs the clippy half in the background beside the Linux tests, and the Wine half
# after scripts/release.sh.
#
# - Installs what it needs when missing (scripts/install-peers.sh platforms): rustup's
#   standard library for each target (`rustup target add`), mingw-w64 (the Windows linker)
#   and wine64. Everything is built by rustup's toolchain, the one that builds the host.
# - clippy -D warnings for x86_64-pc-windows-gnu (library, binaries and tests) and
#   aarch64-apple-darwin (library and binaries; macOS cannot be linked here, and with
#   --all-targets a dev-dependency's build script would need an Apple C compiler), in
#   $SP960_CROSS_TARGET/clippy.
# - Windows: the release build the download ships (scripts/build-windows.sh: sp960.exe, the
#   library's unit tests and the test suites that need no Linux peer, in release), run under
#   Wine (every unit test of src/; tests/portable.rs: the proxy before the built-in engine as a
#   UCI and an XBoard GUI, a match; and the CLI suites); then plays `sp960.exe match` under
#   Wine (once with --affinity, which must pin without a warning) and has python-chess (Linux)
#   replay its PGNs. A test that needs a peer Wine lacks (python-chess, bash, the Debian
#   engines) says SKIPPED, by the suites' one rule (CI is unset for them).
# - Everything is cached in $SP960_CROSS_TARGET (default ~/.cache/sp960-cross-target): later
#   runs build only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

clippy=false wine_half=false
for half in "${@:-clippy wine}"; do
  for word in $half; do
    case $word in
      clippy) clippy=true ;;
      wine) wine_half=true ;;
      *) echo "usage: $0 [clippy] [wine]" >&2; exit 2 ;;
    esac
  done
done

scripts/install-peers.sh platforms

cross_target="${SP960_CROSS_TARGET:-$HOME/.cache/sp960-cross-target}"
# Its own build directory: beside the Linux tests' (one cargo at a time in a directory).
export CARGO_TARGET_DIR="$cross_target/clippy"
# -Zchecksum-freshness (RUSTC_BOOTSTRAP lets stable cargo take it): a clean clone's files are
# all new, and by mtimes cargo would check sp960 again each time; by checksums only what
# changed.
export RUSTC_BOOTSTRAP=1
windows=(--target x86_64-pc-windows-gnu -Zchecksum-freshness
  --config 'target.x86_64-pc-windows-gnu.linker="x86_64-w64-mingw32-gcc"')
macos=(--target aarch64-apple-darwin -Zchecksum-freshness)
cargo --version

if $clippy; then
  echo "== clippy -D warnings, Windows (x86_64-pc-windows-gnu)"
  cargo clippy --locked "${windows[@]}" --lib --bins --tests -- -D warnings
  echo "== clippy -D warnings, macOS (aarch64-apple-darwin)"
  cargo clippy --locked "${macos[@]}" --lib --bins -- -D warnings
fi
$wine_half || exit 0

echo "== Windows build (scripts/build-windows.sh): sp960.exe as shipped, the scripted engine, the tests"
unset CARGO_TARGET_DIR
exe=$(scripts/build-windows.sh)
out=$(dirname "$exe")
tests_json="$cross_target/windows-tests.json"

export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$cross_target/wineprefix}"
wine=(/usr/lib/wine/wine64)
failed=0
# How a spawn that failed with os error 1359 is told: io::Error's Debug or its Display.
wine1359='code: 1359|os error 1359'
# The library's unit tests (target `lib`: the crate's, named sp960), then the suites.
mapfile -t suites < <(python3 scripts/windows-test-exe.py "$tests_json")
for suite in lib "${suites[@]}"; do
  test_exe=$(python3 scripts/windows-test-exe.py "$tests_json" "$suite")
  [ -n "$test_exe" ] || { echo "no Windows test executable for $suite"; failed=1; continue; }
  if [ "$suite" = lib ]; then
    echo "== Wine: the library's unit tests, src/ ($(basename "$test_exe"))"
  else
    echo "== Wine: tests/$suite.rs ($(basename "$test_exe"))"
  fi
  log="$cross_target/wine-$suite.log"
  # One test at a time: Wine's process creation is the fragile part here. Once in a few
  # hundred spawns it fails with ERROR_INTERNAL_ERROR (os error 1359) before the program
  # starts; a suite that failed only that way is run once more, and says so.
  run_suite() { env -u CI timeout 600 "${wine[@]}" "$test_exe" --test-threads=1 >"$log" 2>&1; }
  ok=0
  run_suite && ok=1
  if [ "$ok" -eq 0 ] && grep -qE "$wine1359" "$log" \
    && [ "$(grep -c '^test .* FAILED$' "$log")" -le "$(grep -cE "$wine1359" "$log")" ]; then
    echo "Wine could not start a process (os error 1359) in: $(grep '^test .* FAILED$' "$log" | tr '\n' ' ')- running the suite once more"
    run_suite && ok=1
  fi
  if [ "$ok" -eq 1 ]; then
    grep -E '^test result:' "$log"
  else
    failed=1
    grep -E '^test .* FAILED$|panicked|^test result:' "$log" || tail -n 20 "$log"
  fi
  grep -E '^SKIPPED' "$log" | sed 's/^/  /' || true
done

echo "== Wine: sp960.exe match, its PGN replayed by python-chess"
pgn=$(mktemp --suffix=.pgn)
trap 'rm -f "$pgn"' EXIT
rm -f "$pgn"
timeout 300 "${wine[@]}" "$out/sp960.exe" match --sp 0,860 --sp 0:959 --depth 2 \
  --concurrency 2 --pgn "$pgn" 2>/dev/null | tail -n 2
python3 tests/python/replay_games.py "$pgn"
games=$(grep -c '^\[Event ' "$pgn")
[ "$games" -eq 6 ] || { echo "expected 6 games, the PGN has $games"; failed=1; }

echo "== Wine: sp960.exe match --affinity: its worker and engines pinned, no warning"
pinned=$(mktemp --suffix=.pgn)
said=$(mktemp)
trap 'rm -f "$pgn" "$pinned" "$said"' EXIT
rm -f "$pinned"
if timeout 300 "${wine[@]}" "$out/sp960.exe" match --sp 860 --depth 2 --affinity \
  --pgn "$pinned" >/dev/null 2>"$said"; then
  if grep -q 'not pinned' "$said"; then
    grep 'not pinned' "$said"
    failed=1
  fi
  python3 tests/python/replay_games.py "$pinned" || failed=1
  games=$(grep -c '^\[Event ' "$pinned" || true)
  [ "$games" -eq 2 ] || { echo "expected 2 games, the PGN has $games"; failed=1; }
else
  echo "sp960.exe match --affinity failed:"
  cat "$said"
  failed=1
fi

exit "$failed"
