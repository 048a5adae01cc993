#!/usr/bin/env bash
# The one Windows build of sp960 (x86_64-pc-windows-gnu, release profile): the sp960.exe the
# download ships (scripts/release.sh), and the test executables and the scripted engine that
# scripts/test-platforms.sh and scripts/test-release.sh run under Wine against that same
# sp960.exe. One set of dependencies, one sp960.
#
#   usage: scripts/build-windows.sh        (prints the shipped sp960.exe's path)
#
# - rustup's toolchain (the host's) with the target's prebuilt standard library
#   (scripts/install-peers.sh platforms adds it); mingw-w64 links.
# - From a fixed directory, $SP960_CROSS_TARGET/source/sp960-VERSION: the commit's tree
#   (`git archive`; with uncommitted changes, `git stash create`'s tree, so a developer tests
#   what they have), with source paths remapped to sp960-VERSION/ and crates/ (no machine path
#   in what is shipped). A second run of the same tree builds nothing.
# - Writes $SP960_CROSS_TARGET/windows-tests.json: cargo's artifact messages for the library's
#   unit tests and the suites below (scripts/windows-test-exe.py reads it).
# The test executables are compiled in the same profile, flags and directory as sp960.exe, so
# std and the dependencies are built once for both. sp960.exe is built beside an example, which
# turns on the dev-dependencies' features as the test build does (btoi's `default`, getrandom's
# `std`): one set of crates, one sp960.exe, the one the tests start and the download ships
# (cargo's --unit-graph of the two commands agrees unit for unit).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'build-windows: [%ss] %s\n' "$SECONDS" "$*" >&2; }
die() { log "error: $*"; exit 1; }

target=x86_64-pc-windows-gnu
command -v x86_64-w64-mingw32-gcc >/dev/null && rustup target list --installed | grep -qx "$target" ||
  die "needs mingw-w64 and rustup's $target standard library (scripts/install-peers.sh platforms)"

# The suites that need no Linux peer, run under Wine (scripts/test-platforms.sh).
suites=(portable cli roll_cli validate_cli book engine)

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name=sp960-$version
cross_target="${SP960_CROSS_TARGET:-$HOME/.cache/sp960-cross-target}"
cargo_home=${CARGO_HOME:-$HOME/.cargo}
src="$cross_target/source/$name"
tree=$(git stash create 2>/dev/null || true)
tree=${tree:-HEAD}
out="$cross_target/$target/release"
# One build at a time (.ci/run's lanes call this from test-platforms.sh and test-release.sh at
# once), and none when the tree built last is this one: its files stay as they are, so a suite
# running from them under Wine is not disturbed.
mkdir -p "$cross_target"
exec 9>"$cross_target/build-windows.lock"
flock 9
tree_id=$(git rev-parse "$tree^{tree}")
built="$cross_target/windows-build.tree"
if [ "$(cat "$built" 2>/dev/null)" = "$tree_id" ] && [ -s "$cross_target/windows-tests.json" ] &&
  [ -f "$out/sp960.exe" ]; then
  log "tree $tree_id is built"
  echo "$out/sp960.exe"
  exit 0
fi
rm -f "$built"
rm -rf "$cross_target/source"
mkdir -p "$cross_target/source"
git archive --format=tar --prefix="$name/" "$tree" | tar -x -C "$cross_target/source"

# RUSTC_BOOTSTRAP: stable cargo takes -Zchecksum-freshness (below).
export RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$cross_target"
# The cc crate has every build script that compiles C rerun when SOURCE_DATE_EPOCH changes
# (psm's, under the dev-dependencies): release.sh sets it and the other callers do not, and it
# changes with each commit. Unset, the dependencies are built once.
unset SOURCE_DATE_EPOCH
export RUSTFLAGS="--remap-path-prefix=$src=$name --remap-path-prefix=$cargo_home/registry/src=crates --remap-path-prefix=$cargo_home/git/checkouts=crates"
# -Zchecksum-freshness: `git archive` gives every file the commit's time, which can be older
# than the cached build of another commit, and cargo, by mtimes, would then call the old
# build fresh; by checksums a changed file is rebuilt and an unchanged one is not.
windows=(--release --locked --target "$target" -Zchecksum-freshness
  --config "target.$target.linker=\"x86_64-w64-mingw32-gcc\"")
log "cargo test --release --no-run ($target): the unit tests and ${suites[*]}"
(cd "$src" && cargo test "${windows[@]}" --no-run --lib "${suites[@]/#/--test=}" \
  --message-format=json >"$cross_target/windows-tests.json.new")
mv "$cross_target/windows-tests.json.new" "$cross_target/windows-tests.json"
# Last, so that release/sp960.exe is this build's (the test build links the same one).
log "cargo build --release ($target): sp960.exe, examples/fake_uci_engine"
(cd "$src" && cargo build "${windows[@]}" --bin sp960 --example fake_uci_engine)
# Wine 8 lacks Windows 10's bcryptprimitives.dll, which std calls: a stand-in beside each
# executable (docs/platforms.md). Never shipped: release.sh packs sp960.exe alone.
for dir in "$out" "$out/deps" "$out/examples"; do
  x86_64-w64-mingw32-gcc -shared -O2 -o "$dir/bcryptprimitives.dll" \
    scripts/windows/bcryptprimitives.c -ladvapi32
done
echo "$tree_id" >"$built"
echo "$out/sp960.exe"
