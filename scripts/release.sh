#!/usr/bin/env bash
# Release archives of sp960 for people without Rust, built on a Debian (Linux x86-64) machine.
#
#   usage: scripts/release.sh [OUT_DIR]        (default: target/dist)
#
# Writes into OUT_DIR (VERSION from Cargo.toml):
#   sp960-VERSION-x86_64-linux.tar.gz    `sp960`, one statically linked binary (glibc linked in:
#                                        no shared library, no loader), runs on any x86-64 Linux
#   sp960-VERSION-aarch64-linux.tar.gz   `sp960` for ARM64 Linux, statically linked with musl
#   sp960-VERSION-x86_64-windows.zip     `sp960.exe`, cross-built with mingw-w64 (the recipe of
#                                        scripts/test-platforms.sh, release profile)
#   sp960-VERSION-universal-macos.tar.gz `sp960`, one universal binary (arm64, macOS 11 or later;
#                                        x86_64, macOS 10.12 or later), signed ad hoc, identifier sp960
#   sp960-VERSION-source.tar.xz          the complete corresponding source (GPL-3.0): the
#                                        repository at the commit (`git archive`) plus every
#                                        crate of Cargo.lock (`cargo vendor`) and the cargo
#                                        configuration that builds from them offline
#   SHA256SUMS                           of the five
# Each binary archive holds one directory `sp960-VERSION-TARGET/` with the binary, README.md,
# docs/ and ARCHITECTURE.md (README's links), COPYING, NOTICE.txt (license, where the source is, macOS), man/man1/*.1, completions/ and a
# SHA256SUMS of those files.
#
# The Linux binary is built from the source archive's tree, offline, so the source archive is
# proven to be complete and to be what the binary was built from. Windows is built from the
# commit's tree (`git archive`), in the directory scripts/test-platforms.sh's Wine suites share.
#
# Deterministic where it can be: file order sorted, owners 0, every mtime SOURCE_DATE_EPOCH
# (default: the commit's time), gzip without a name or time, zip entries sorted with that time;
# source paths in the binaries mapped to `sp960-VERSION/` and `crates/`. The builds are cached:
# Linux in $SP960_RELEASE_TARGET (default ~/.cache/sp960-release-target, rustup's toolchain),
# Windows in $SP960_CROSS_TARGET (default ~/.cache/sp960-cross-target, shared with
# scripts/test-platforms.sh; rustup's target, added by scripts/install-peers.sh), macOS and Linux
# aarch64 in $SP960_ZIG_TARGET (default ~/.cache/sp960-zig-target; their tools, installed here
# when missing, in ~/.cache: see "macOS and Linux aarch64" below); man pages and
# completions come from examples/man_and_completions.rs in $CARGO_TARGET_DIR (default target/).
# The archives are of HEAD: uncommitted changes are refused (SP960_RELEASE_DIRTY=1 builds
# anyway, and the archives then say so).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'release: [%ss] %s\n' "$SECONDS" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# rustup's targets and mingw-w64 (Windows, macOS, aarch64), qemu-user-static (the tests),
# llvm's llvm-lipo (the universal macOS binary).
scripts/install-peers.sh platforms release

out=${1:-target/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || die "no version in Cargo.toml"
commit=$(git rev-parse HEAD)
dirty=""
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  [ "${SP960_RELEASE_DIRTY:-}" = 1 ] ||
    die "uncommitted changes: the archives are of the commit (SP960_RELEASE_DIRTY=1 to build anyway)"
  dirty=" plus uncommitted changes (a test build, not a release)"
  log "warning: building with uncommitted changes; the source archive is of HEAD"
fi
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct HEAD)}"
date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
name=sp960-$version
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# Source paths in panic messages and debug info: no machine paths in what we ship.
remap="--remap-path-prefix=$cargo_home/registry/src=crates --remap-path-prefix=$cargo_home/git/checkouts=crates"

work=$(mktemp -d)
xz_pid=""
trap '[ -z "$xz_pid" ] || kill "$xz_pid" 2>/dev/null; rm -rf "$work"' EXIT

# --- the source archive -------------------------------------------------------------------
log "source: git archive $commit, cargo vendor --locked"
mkdir -p "$work/source"
git archive --format=tar --prefix="$name/" HEAD | tar -x -C "$work/source"
src="$work/source/$name"
mkdir -p "$src/.cargo"
cargo vendor --locked --quiet --manifest-path "$src/Cargo.toml" "$src/vendor" >/dev/null
cat >"$src/.cargo/config.toml" <<'EOF'
# The crates of Cargo.lock, vendored (VENDORED.md): cargo builds from vendor/, offline.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
EOF
cat >"$src/VENDORED.md" <<EOF
# The vendored crates

\`vendor/\` holds the source of every crate in Cargo.lock (\`cargo vendor --locked\`), for every
platform, dev-dependencies included; \`.cargo/config.toml\` points cargo at it. With those two,
this directory builds without a network:

    cargo build --release --locked --offline

Each crate keeps its own license file; \`tests/licenses.rs\` checks that all of them can be part
of a GPL-3.0-or-later program. sp960 $version, commit $commit ($date).
EOF
# Deterministic tar: sorted names, owner 0, one mtime, modes as checked in; gzip without name
# or time, xz single-threaded.
det_tar() { # det_tar DIR ENTRY OUT.tar.gz|OUT.tar.xz
  local compress=(gzip -9n)
  [[ $3 == *.xz ]] && compress=(xz -6 -T1)
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --mode=u+rwX,go+rX,go-w \
    --format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$1" -cf - "$2" | "${compress[@]}" >"$3"
}
# xz: the vendored crates are 128 MB unpacked (windows-sys and linux-raw-sys a third of it);
# 13 MB as xz, 22 MB as gzip. It takes a core for a minute or two: it runs beside the builds.
rm -f "$out/$name-source.tar.xz"
det_tar "$work/source" "$name" "$work/$name-source.tar.xz" &
xz_pid=$!

# --- Linux: static, from the source archive's tree, offline --------------------------------
# A fixed build directory (so the cache applies), refilled from the tree that is archived each
# time, with fresh mtimes (cargo then rebuilds sp960 itself, never a stale one; the vendored
# crates, with an old fixed mtime, are cached). --offline: it builds from what the archive holds, or fails.
release_target="${SP960_RELEASE_TARGET:-$HOME/.cache/sp960-release-target}"
build_src="$release_target/source/$name"
rm -rf "$release_target/source"
mkdir -p "$release_target/source"
cp -r "$src" "$release_target/source/"
# The vendored crates keep one old mtime: build scripts' rerun-if-changed compares mtimes,
# and fresh ones from each `cargo vendor` made cargo rebuild every crate each time.
find "$build_src/vendor" -exec touch -h -d @946684800 {} +
linux_target=x86_64-unknown-linux-gnu
log "Linux: cargo build --release --offline, +crt-static ($linux_target)"
(
  cd "$build_src"
  # crt-static links glibc in (libc.a from libc6-dev). sp960 calls nothing that needs glibc's
  # dynamic loading (no NSS lookups: no user, host or group names; no dlopen, no iconv).
  RUSTFLAGS="-C target-feature=+crt-static --remap-path-prefix=$build_src=$name $remap" \
    CARGO_TARGET_DIR="$release_target" \
    cargo build --release --locked --offline --target "$linux_target" --bin sp960
)
linux_bin="$release_target/$linux_target/release/sp960"
# Static means: no program interpreter and no shared library needed.
readelf -lW "$linux_bin" | grep -q 'Requesting program interpreter' &&
  die "$linux_bin asks for a program interpreter: it is not static"
readelf -dW "$linux_bin" | grep -q '(NEEDED)' &&
  die "$linux_bin needs shared libraries: $(readelf -dW "$linux_bin" | grep '(NEEDED)')"
log "Linux: $(file -b "$linux_bin" | cut -d, -f1-6)"

# --- Windows: the one Windows build (scripts/build-windows.sh), whose tests run under Wine ---
log "Windows: scripts/build-windows.sh (release)"
# From the commit's tree in a fixed directory, as Linux: RUSTFLAGS name the source directory
# (remapped), and cargo rebuilds everything when they change; built in the checkout, a clone
# elsewhere would rebuild it all.
windows_exe=$(scripts/build-windows.sh)
# Only DLLs every Windows has: no mingw runtime (libgcc_s, libwinpthread, libstdc++) to ship.
dlls=$(x86_64-w64-mingw32-objdump -p "$windows_exe" | sed -n 's/^\s*DLL Name: //p' | sort -uf | tr '\n' ' ')
case "$dlls" in
  *libgcc*|*winpthread*|*libstdc*) die "sp960.exe needs mingw's DLLs: $dlls" ;;
esac
log "Windows: imports $dlls"

# --- macOS (universal) and Linux aarch64: zig as the linker, two cargo runs -----------------
# No Apple SDK and no cross gcc: cargo-zigbuild makes zig (PyPI's ziglang) the linker, which
# carries its own stubs of macOS's libSystem and its own musl; rustup's prebuilt standard
# libraries for the three targets, from the commit's tree as Windows is. Two cargo runs, as
# MACOSX_DEPLOYMENT_TARGET is one variable: 11.0 (the first macOS on Apple Silicon) for arm64,
# 10.12 for x86-64. Unset, arm64 is marked for the tools' newest macOS (15.0, issue 43) and refuses
# older ones; 10.12 for both gives arm64 an LC_VERSION_MIN_MACOSX of 10.12 (measured), which
# no arm64 macOS ever had. musl's crt1.o and libc come from zig (-Clink-self-contained=no),
# the linker's own, not rustup's copies beside std. rustc warns that it found no xcrun (no
# Apple SDK): zig's stubs of the system libraries stand in for it.
# The tools, pinned, installed once into ~/.cache when missing: ziglang and cargo-zigbuild
# (PyPI wheels, in a venv, reused while its versions file names these versions); llvm-lipo is
# Debian's llvm-NN (package llvm-14). The ad-hoc signature is written by scripts/macho_sign.py
# (rcodesign's bytes, tested in scripts/test-release.sh; rcodesign itself is 400 crates to build).
zig_tools="${SP960_ZIG_TOOLS:-$HOME/.cache/sp960-zig}"
zig_versions="ziglang==0.17.0 cargo-zigbuild==0.24.0"
if [ "$(cat "$zig_tools/versions" 2>/dev/null)" != "$zig_versions" ] || ! [ -x "$zig_tools/bin/cargo-zigbuild" ]; then
  log "installing $zig_versions (PyPI) into $zig_tools"
  rm -rf "$zig_tools"
  python3 -m venv "$zig_tools"
  # shellcheck disable=SC2086 # two requirement words
  "$zig_tools/bin/pip" install --quiet --disable-pip-version-check $zig_versions
  echo "$zig_versions" >"$zig_tools/versions"
fi
lipo=$(find /usr/bin -name 'llvm-lipo*' | sort -V | tail -n 1)
[ -n "$lipo" ] || die "no llvm-lipo (Debian's llvm-14: scripts/install-peers.sh release)"
zig_target="${SP960_ZIG_TARGET:-$HOME/.cache/sp960-zig-target}"
zig_src="$zig_target/source/$name"
rm -rf "$zig_target/source"
mkdir -p "$zig_target/source"
git archive --format=tar --prefix="$name/" HEAD | tar -x -C "$zig_target/source"
macos_targets=(aarch64-apple-darwin x86_64-apple-darwin)
arm_target=aarch64-unknown-linux-musl
flags="\"--remap-path-prefix=$zig_src=$name\", \"--remap-path-prefix=$cargo_home/registry/src=crates\""
configs=()
for target in "${macos_targets[@]}"; do configs+=(--config "target.$target.rustflags=[$flags]"); done
configs+=(--config "target.$arm_target.rustflags=[$flags, \"-Clink-self-contained=no\"]")
# -Zchecksum-freshness, as in scripts/build-windows.sh: `git archive` dates every file at the
# commit, which can be before the cached build of another commit; cargo then judges by
# checksums, not mtimes (by mtimes, a changed file older than the cache is not rebuilt).
zigbuild() { # zigbuild TARGET_DIR MACOSX_DEPLOYMENT_TARGET TARGET...
  local dir=$1 deployment=$2 targets=()
  shift 2
  for target in "$@"; do targets+=(--target "$target"); done
  log "cargo zigbuild --release $*, MACOSX_DEPLOYMENT_TARGET=$deployment"
  (
    cd "$zig_src"
    PATH="$zig_tools/bin:$PATH" RUSTC_BOOTSTRAP=1 \
      CARGO_TARGET_DIR="$dir" MACOSX_DEPLOYMENT_TARGET=$deployment \
      cargo-zigbuild zigbuild --release --locked -Zchecksum-freshness "${configs[@]}" \
      "${targets[@]}" --bin sp960
  )
}
# The two runs at once, each in its own build directory (one directory is one cargo at a
# time), so that while one compiles sp960 on one core (rustc's front end) the other can take
# the second. Their host tools (build scripts, derive macros) are built in each, once per
# cache.
x86_macos_target="$zig_target/x86_64-macos"
zigbuild "$x86_macos_target" 10.12 "${macos_targets[1]}" &
x86_macos_pid=$!
zigbuild "$zig_target" 11.0 "${macos_targets[0]}" "$arm_target"
wait "$x86_macos_pid" || die "the x86_64 macOS build failed"
arm_bin="$zig_target/$arm_target/release/sp960"
readelf -lW "$arm_bin" | grep -q 'Requesting program interpreter' &&
  die "$arm_bin asks for a program interpreter: it is not static"
readelf -dW "$arm_bin" | grep -q '(NEEDED)' && die "$arm_bin needs shared libraries"
log "Linux aarch64: $(file -b "$arm_bin" | cut -d, -f1-6)"
# Each slice signed ad hoc (no certificate: Apple Silicon runs nothing unsigned) with the
# identifier sp960, not the linker's file name, then one universal binary of the two.
macos_bin="$work/macos/sp960"
mkdir -p "$work/macos"
for target in "${macos_targets[@]}"; do
  dir=$zig_target
  [ "$target" = "${macos_targets[1]}" ] && dir=$x86_macos_target
  cp "$dir/$target/release/sp960" "$work/macos/sp960-$target"
  python3 scripts/macho_sign.py "$work/macos/sp960-$target" sp960 || die "signing the $target slice"
done
"$lipo" -create -output "$macos_bin" "$work/macos/sp960-${macos_targets[0]}" \
  "$work/macos/sp960-${macos_targets[1]}"
log "macOS: $("$lipo" -archs "$macos_bin"), each slice signed ad hoc as sp960 (scripts/macho_sign.py)"

log "source: waiting for xz"
wait "$xz_pid" || die "the source archive (tar | xz) failed"
xz_pid=""
# The archive holds the tree the Linux binary was built from: the same files.
diff <(tar -tJf "$work/$name-source.tar.xz" | grep -v '/$' | LC_ALL=C sort) \
  <(cd "$release_target/source" && find "$name" ! -type d | LC_ALL=C sort) >/dev/null ||
  die "the source archive and the tree the Linux binary was built from differ"
mv "$work/$name-source.tar.xz" "$out/"

# --- man pages and completions (from the same clap definitions as --help) -------------------
log "man pages and completions (examples/man_and_completions.rs)"
cargo run --locked --quiet --example man_and_completions -- "$work/share" >/dev/null

# --- the binary archives -----------------------------------------------------------------
notice() { # notice TARGET-DESCRIPTION BINARY-NOTE
  cat <<EOF
sp960 $version: $1
Built from commit $commit ($date)$dirty.

License
  sp960 is free software: GNU General Public License, version 3 or (at your option) any later
  version (GPL-3.0-or-later), in COPYING. There is no warranty. The binary contains
  shakmaty (GPL-3.0-or-later) and other crates under licenses that fit the GPL (MIT,
  Apache-2.0 and the like).

Source
  The complete corresponding source is the archive $name-source.tar.xz, published beside
  this one (the same commit, with the source of every crate the binary is built from, so it
  builds offline: \`cargo build --release --locked --offline\`). Whoever gave you this archive
  must also offer you that source (GPL-3.0, section 6).

What is here
  $2
  README.md, docs/       the manual (README.md first), as in the repository
  ARCHITECTURE.md        how the code is built, for those who read the source
  man/man1/              man pages: sp960.1 and one per command (sp960-fen.1, ...)
  completions/           shell completions: sp960.bash, _sp960 (zsh), sp960.fish,
                         sp960.elv (elvish), _sp960.ps1 (PowerShell)
  SHA256SUMS             the SHA-256 of every other file here

macOS
  The macOS download, $name-universal-macos.tar.gz, is built and checked on Linux (its Mach-O
  structure and signature are read there); it was not run on a Mac. It is signed ad hoc, not
  notarized: a browser marks it as downloaded, and macOS refuses to open it until the mark is
  removed, in the unpacked folder: xattr -d com.apple.quarantine sp960
EOF
}
package() { # package TARGET BINARY NAME-IN-ARCHIVE NOTICE-ARGS...
  local dir="$work/pkg/$name-$1"
  rm -rf "$work/pkg"
  mkdir -p "$dir/man" "$dir/completions"
  install -m 755 "$2" "$dir/$3"
  install -m 644 README.md COPYING ARCHITECTURE.md "$dir/"
  cp -r docs "$dir/docs" # README's links lead there
  cp -r "$work/share/man1" "$dir/man/man1"
  cp "$work/share/completions/"* "$dir/completions/"
  notice "$4" "$5" >"$dir/NOTICE.txt"
  find "$dir" -type d -exec chmod 755 {} + && find "$dir" -type f ! -name "$3" -exec chmod 644 {} +
  (cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >"$work/sums" &&
    mv "$work/sums" SHA256SUMS && chmod 644 SHA256SUMS)
}

package x86_64-linux "$linux_bin" sp960 \
  "Linux x86-64, one statically linked binary (no shared library needed; any distribution, kernel 3.2 or later)" \
  "sp960                  the program; put this directory on PATH, or copy sp960 to a directory on PATH"
det_tar "$work/pkg" "$name-x86_64-linux" "$out/$name-x86_64-linux.tar.gz"

package aarch64-linux "$arm_bin" sp960 \
  "Linux aarch64 (ARM64), one statically linked binary (musl linked in: no shared library needed; any distribution)" \
  "sp960                  the program; put this directory on PATH, or copy sp960 to a directory on PATH"
det_tar "$work/pkg" "$name-aarch64-linux" "$out/$name-aarch64-linux.tar.gz"

package universal-macos "$macos_bin" sp960 \
  "macOS, one universal binary: Apple Silicon (arm64, macOS 11 or later) and Intel (x86-64, macOS 10.12 or later)" \
  "sp960                  the program, signed ad hoc (see macOS below); put this folder on PATH"
det_tar "$work/pkg" "$name-universal-macos" "$out/$name-universal-macos.tar.gz"

package x86_64-windows "$windows_exe" sp960.exe \
  "Windows x86-64 (Windows 10 or later), sp960.exe needs no DLL beyond Windows' own" \
  "sp960.exe              the program; put this folder on PATH (Settings: Environment Variables)"
python3 - "$work/pkg" "$name-x86_64-windows" "$out/$name-x86_64-windows.zip" <<'EOF'
# A deterministic zip: entries sorted, each with SOURCE_DATE_EPOCH's time (zip keeps local
# time to 2 s; 1980 at the earliest), Unix modes kept, deflated.
import os, sys, time, zipfile
base, top, out = sys.argv[1:4]
stamp = time.gmtime(max(int(os.environ["SOURCE_DATE_EPOCH"]), 315532800))[:6]
paths = []
for root, dirs, files in os.walk(os.path.join(base, top)):
    paths += [os.path.join(root, f) for f in files]
with zipfile.ZipFile(out, "w") as archive:
    for path in sorted(os.path.relpath(p, base) for p in paths):
        info = zipfile.ZipInfo(path.replace(os.sep, "/"), date_time=stamp)
        info.create_system = 3
        info.external_attr = (os.stat(os.path.join(base, path)).st_mode & 0o777 | 0o100000) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(os.path.join(base, path), "rb") as f:
            archive.writestr(info, f.read(), compresslevel=9)
EOF

archives=("$name-x86_64-linux.tar.gz" "$name-aarch64-linux.tar.gz" "$name-x86_64-windows.zip"
  "$name-universal-macos.tar.gz" "$name-source.tar.xz")
(cd "$out" && sha256sum "${archives[@]}" >SHA256SUMS)
log "wrote $out:"
(cd "$out" && for f in "${archives[@]}" SHA256SUMS; do
  printf '  %-36s %8s bytes\n' "$f" "$(stat -c %s "$f")"
done)
