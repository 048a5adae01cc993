#!/usr/bin/env bash
# Builds and checks sp960 for Windows and macOS on a Debian (Linux x86-64) machine, and runs
# the Windows build's tests under Wine. `.ci/run` calls it after the Linux tests.
#
#   usage: scripts/test-platforms.sh
#
# - Installs what it needs with apt when missing (root or sudo): Debian's rustc-web/cargo-web
#   1.96 with the standard library's source (rust-web-src: std is built for each target with
#   -Zbuild-std, since rustup cannot add targets here), rust-web-clippy, mingw-w64 (the
#   Windows linker) and wine64.
# - clippy -D warnings for x86_64-pc-windows-gnu (library, binaries and tests) and
#   aarch64-apple-darwin (library and binaries; macOS cannot be linked here, and with
#   --all-targets a dev-dependency's build script would need an Apple C compiler).
# - Windows: builds sp960.exe, the library's unit tests and the test suites that need no
#   Linux peer, and runs them under Wine (every unit test of src/, about 80 s;
#   tests/portable.rs: the proxy before the built-in engine as a UCI and an XBoard GUI, a
#   match; and the CLI suites); then plays
#   `sp960.exe match` under Wine (once with --affinity, which must pin without a warning)
#   and has python-chess (Linux) replay its PGNs. A test that needs a peer Wine lacks (python-chess,
#   bash, the Debian engines) says SKIPPED, by the suites' one rule (CI is unset for them).
# - The build is cached in $SP960_CROSS_TARGET (default ~/.cache/sp960-cross-target): the
#   first run builds std for both targets (about 5 minutes on 2 cores), later runs only
#   what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(rustc-web cargo-web rust-web-src rust-web-clippy mingw-w64 wine64)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "test-platforms: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Debian's toolchain, not rustup's: its std source is what -Zbuild-std compiles.
export RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc
export CARGO_TARGET_DIR="${SP960_CROSS_TARGET:-$HOME/.cache/sp960-cross-target}"
cargo=(/usr/bin/cargo)
windows=(--target x86_64-pc-windows-gnu -Zbuild-std
  --config 'target.x86_64-pc-windows-gnu.linker="x86_64-w64-mingw32-gcc"')
macos=(--target aarch64-apple-darwin -Zbuild-std)
"${cargo[@]}" --version

echo "== clippy -D warnings, Windows (x86_64-pc-windows-gnu)"
/usr/bin/cargo-clippy clippy --locked "${windows[@]}" --lib --bins --tests -- -D warnings
echo "== clippy -D warnings, macOS (aarch64-apple-darwin)"
/usr/bin/cargo-clippy clippy --locked "${macos[@]}" --lib --bins -- -D warnings

suites=(portable cli roll_cli validate_cli book engine)
echo "== Windows build: sp960.exe, the scripted engine, the unit tests and the suites ${suites[*]}"
"${cargo[@]}" build --locked "${windows[@]}" --bins --example fake_uci_engine
"${cargo[@]}" test --locked "${windows[@]}" --no-run --lib "${suites[@]/#/--test=}" \
  --message-format=json >"$CARGO_TARGET_DIR/windows-tests.json"
out="$CARGO_TARGET_DIR/x86_64-pc-windows-gnu/debug"
for dir in "$out" "$out/deps" "$out/examples"; do
  x86_64-w64-mingw32-gcc -shared -O2 -o "$dir/bcryptprimitives.dll" \
    scripts/windows/bcryptprimitives.c -ladvapi32
done

export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$CARGO_TARGET_DIR/wineprefix}"
wine=(/usr/lib/wine/wine64)
failed=0
# How a spawn that failed with os error 1359 is told: io::Error's Debug or its Display.
wine1359='code: 1359|os error 1359'
# The library's unit tests (target `lib`: the crate's, named sp960), then the suites.
for suite in lib "${suites[@]}"; do
  exe=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    message = json.loads(line)
    target = message.get("target", {})
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and (target["kind"] == ["lib"] if sys.argv[2] == "lib" else
                 target["kind"] == ["test"] and target["name"] == sys.argv[2]):
        print(message["executable"])' "$CARGO_TARGET_DIR/windows-tests.json" "$suite" | tail -n 1)
  [ -n "$exe" ] || { echo "no Windows test executable for $suite"; failed=1; continue; }
  if [ "$suite" = lib ]; then
    echo "== Wine: the library's unit tests, src/ ($(basename "$exe"))"
  else
    echo "== Wine: tests/$suite.rs ($(basename "$exe"))"
  fi
  log="$CARGO_TARGET_DIR/wine-$suite.log"
  # One test at a time: Wine's process creation is the fragile part here. Once in a few
  # hundred spawns it fails with ERROR_INTERNAL_ERROR (os error 1359) before the program
  # starts; a suite that failed only that way is run once more, and says so.
  run_suite() { env -u CI timeout 600 "${wine[@]}" "$exe" --test-threads=1 >"$log" 2>&1; }
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
