#!/usr/bin/env bash
# Tests the archives of scripts/release.sh as a user would use them.
#
#   usage: scripts/test-release.sh [OUT_DIR]       (default: target/dist)
#
# - OUT_DIR/SHA256SUMS checks; each archive's own SHA256SUMS checks after unpacking.
# - Linux: the archive is unpacked into an empty directory; the binary is static (`file`, `ldd`)
#   and runs with an empty environment (`env -i`). Then, in a mount namespace where every Rust
#   program is hidden (cargo, rustc, ... in /usr/bin; ~/.cargo, ~/.rustup: `command -v cargo`
#   and `command -v rustc` must fail), with only the unpacked directory and /usr/bin:/bin on
#   PATH and an empty HOME: `sp960 fen 860`, `sp960 --version`, the man page rendered by
#   `man -l`, and launchers written by the unpacked binary (`sp960 proxy --write-launcher`,
#   in front of Stockfish and of `sp960 engine`) that python-chess starts by their paths alone
#   (no arguments) from another directory, playing a Chess960 game from SP 860 to its end by the
#   rules (tests/python/release_launcher_game.py); a launcher with a broken settings file
#   refuses to start, with a clear message.
# - Linux aarch64, under Debian's qemu-aarch64-static (installed here when missing): the binary
#   is static, for aarch64; run through qemu, `sp960 fen 860` and `sp960 validate` of the
#   fixtures (the golden diagnostics, byte for byte); then a launcher written by it (in front of
#   `sp960 engine`, found on PATH) that python-chess starts by its path alone from another
#   directory, twice, playing a game from SP 860 to its end. A path alone means the kernel must
#   run an aarch64 program: binfmt_misc is mounted and qemu-aarch64 registered when they are not,
#   with the line of Debian's /usr/lib/binfmt.d/qemu-aarch64.conf (what systemd-binfmt does at
#   boot on Debian), so the launcher and the engine it starts run under qemu, found by the kernel.
# - macOS, not run (no Mac here): tests/python/check_macho.py reads the universal binary: arm64
#   and x86_64 slices, minimum macOS 11.0 and 10.12 or lower, only dylibs under /usr/lib/, an
#   ad-hoc signature with the identifier sp960 whose page hashes it recomputes. It must fail on
#   copies with one byte of __text flipped (in each slice) and when asked for another identifier.
#   Before it, tests/python/test_macho_sign.py: scripts/macho_sign.py, the signer release.sh
#   uses, writes rcodesign 0.29.0's bytes for two programs zig links (rcodesign's output
#   recorded there), and refuses what it cannot sign.
# - Windows, under Wine: `sp960.exe fen 860` from the unpacked zip, and tests/portable.rs's
#   launcher test (the Windows build scripts/build-windows.sh made, under Wine) with SP960_EXE set to that sp960.exe: it
#   writes a launcher with it and plays a game through the launcher started by path alone.
#   Wine 8 lacks Windows 10's bcryptprimitives.dll: the stand-in (scripts/windows/) goes into
#   the Wine prefix's system32, not into the unpacked archive.
# Needs what scripts/test.sh and scripts/test-platforms.sh install (Stockfish, python-chess,
# rustup's Windows target, mingw-w64, Wine), root or unprivileged user namespaces (unshare), and root
# (or sudo) for qemu's binfmt_misc entry.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

log() { printf 'test-release: %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

expected_fen='rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1'

# ---------------------------------------------------------------------------------------------
# The user's side on Linux, run inside the mount namespace: `--as-user DIR PYTHON WORK`.
if [ "${1:-}" = --as-user ]; then
  dir=$2 python=$3 work=$4 out=$5
  # Hide every Rust program: /usr/bin seen through an overlay whose upper layer deletes
  # (whiteouts: character devices 0/0) cargo*, rust*, clippy-driver; an empty tmpfs over
  # rustup's and cargo's homes.
  mkdir "$work/overlay"
  mount -t tmpfs tmpfs "$work/overlay"
  mkdir "$work/overlay/upper" "$work/overlay/work"
  for program in /usr/bin/cargo* /usr/bin/rust* /usr/bin/clippy-driver*; do
    if [ -e "$program" ] || [ -L "$program" ]; then mknod "$work/overlay/upper/${program##*/}" c 0 0; fi
  done
  mount -t overlay overlay \
    -o "lowerdir=/usr/bin,upperdir=$work/overlay/upper,workdir=$work/overlay/work" /usr/bin
  for home in "$HOME/.cargo" "$HOME/.rustup" /root/.cargo /root/.rustup; do
    if [ -d "$home" ] && ! mountpoint -q "$home"; then mount -t tmpfs tmpfs "$home"; fi
  done
  mkdir -p "$work/home" "$work/elsewhere" "$work/launchers"
  exec env -i HOME="$work/home" PATH="$dir:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb \
    DIR="$dir" PYTHON="$python" WORK="$work" OUT="$out" REPO="$repo" EXPECTED_FEN="$expected_fen" \
    bash -euo pipefail -c '
    say() { printf "test-release:   %s\n" "$*" >&2; }
    for program in cargo rustc; do
      if command -v "$program" >/dev/null; then
        echo "$program is on PATH here: $(command -v "$program")" >&2; exit 1
      fi
    done
    say "no Rust here: command -v cargo, command -v rustc fail; PATH=$PATH"
    cd "$WORK/elsewhere"
    [ "$(command -v sp960)" = "$DIR/sp960" ] || { echo "sp960 is not the unpacked one" >&2; exit 1; }
    fen=$(sp960 fen 860)
    [ "$fen" = "$EXPECTED_FEN" ] || { echo "sp960 fen 860 printed: $fen" >&2; exit 1; }
    say "sp960 fen 860: $fen"
    say "sp960 --version: $(sp960 --version)"
    sp960 --version | grep -qx "sp960 [0-9][0-9.]*" || { echo "bad --version" >&2; exit 1; }
    page=$(MANPAGER=cat MANWIDTH=80 man -l "$DIR/man/man1/sp960-fen.1" 2>&1)
    grep -q "sp960-fen" <<<"$page" || { echo "man -l did not render sp960-fen.1: $page" >&2; exit 1; }
    say "man -l man/man1/sp960-fen.1: $(grep -m1 -A1 "^NAME" <<<"$page" | tail -n 1 | sed "s/^ *//")"
    # The launchers: written by the unpacked binary, engines named as a user names them.
    sp960 proxy --write-launcher "$WORK/launchers/stockfish-960" --sp 860 -- /usr/games/stockfish
    sp960 proxy --write-launcher "$WORK/launchers/builtin-960" --sp 860 -- sp960 engine
    say "launchers written: $(cd "$WORK/launchers" && echo *)"
    grep -q "\"$DIR/sp960\"" "$WORK/launchers/builtin-960.sp960.json" ||
      { echo "the engine sp960 was not made absolute:" >&2; cat "$WORK/launchers/builtin-960.sp960.json" >&2; exit 1; }
    # A GUI starts each by its path alone, from a directory of its own.
    "$PYTHON" "$REPO/tests/python/release_launcher_game.py" \
      "$WORK/launchers/stockfish-960" "$WORK/launchers/builtin-960" "$WORK/elsewhere"
    # A broken settings file: a clear message and exit 2, not a standard-chess engine.
    cp "$WORK/launchers/builtin-960" "$WORK/launchers/broken-960"
    printf "{\"sp960-launcher\": 1,\n \"proxy\": [\"--sp\" \"860\"]}\n" >"$WORK/launchers/broken-960.sp960.json"
    set +e
    message=$("$WORK/launchers/broken-960" </dev/null 2>&1 >/dev/null); status=$?
    set -e
    [ "$status" -eq 2 ] && grep -q "broken-960.sp960.json" <<<"$message" ||
      { echo "broken settings file: exit $status, stderr: $message" >&2; exit 1; }
    say "broken settings file: exit 2, $message"
    # README, Install: the Linux lines, run as written, in a folder holding the downloads,
    # by a user with an empty home whose ~/.local/bin is on PATH.
    mkdir -p "$WORK/readme/home" "$WORK/readme/downloads"
    cp "$OUT"/* "$WORK/readme/downloads/"
    cd "$WORK/readme/downloads"
    printed=$(HOME="$WORK/readme/home" PATH="$WORK/readme/home/.local/bin:/usr/bin:/bin" \
      bash -euo pipefail "$WORK/readme-linux.sh" 2>&1) ||
      { echo "README Install (Linux) failed: $printed" >&2; exit 1; }
    [ "$(tail -n 1 <<<"$printed")" = "$EXPECTED_FEN" ] ||
      { echo "README Install (Linux) printed: $printed" >&2; exit 1; }
    page=$(HOME="$WORK/readme/home" PATH="$WORK/readme/home/.local/bin:/usr/bin:/bin" man -w sp960-fen)
    [ "$page" = "$WORK/readme/home/.local/share/man/man1/sp960-fen.1" ] ||
      { echo "man -w sp960-fen after the README steps: $page" >&2; exit 1; }
    say "README Install (Linux): $(grep -c . "$WORK/readme-linux.sh") lines run; sp960 fen 860 from ~/.local/bin; man -w sp960-fen: ~/.local/share/man/man1/sp960-fen.1"
  '
fi

# ---------------------------------------------------------------------------------------------
out=${1:-target/dist}
out=$(cd "$out" && pwd)
log "== $out/SHA256SUMS"
(cd "$out" && sha256sum --check --strict SHA256SUMS)
linux=$(cd "$out" && ls sp960-*-x86_64-linux.tar.gz)
windows=$(cd "$out" && ls sp960-*-x86_64-windows.zip)
arm=$(cd "$out" && ls sp960-*-aarch64-linux.tar.gz)
macos=$(cd "$out" && ls sp960-*-universal-macos.tar.gz)
top_linux=${linux%.tar.gz} top_windows=${windows%.zip} top_arm=${arm%.tar.gz} top_macos=${macos%.tar.gz}
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The python with python-chess (scripts/test.sh installs it), by its own path: the GUI side.
python=$(python3 -c 'import sys, chess; print(sys.executable)') ||
  fail "python3 has no python-chess (scripts/test.sh installs it)"

log "== Linux: $linux"
mkdir "$work/linux"
tar -xzf "$out/$linux" -C "$work/linux"
[ "$(ls -A "$work/linux")" = "$top_linux" ] || fail "$linux holds more than $top_linux/: $(ls -A "$work/linux")"
dir="$work/linux/$top_linux"
(cd "$dir" && sha256sum --check --strict --quiet SHA256SUMS) || fail "$linux: its SHA256SUMS"
log "  $top_linux/SHA256SUMS: OK ($(wc -l <"$dir/SHA256SUMS") files: $(cd "$dir" && ls -p | tr '\n' ' '))"
kind=$(file -b "$dir/sp960")
case "$kind" in
  *"statically linked"* | *"static-pie linked"*) log "  file: ${kind%%, BuildID*}" ;;
  *) fail "sp960 is not static: $kind" ;;
esac
ldd_says=$(ldd "$dir/sp960" 2>&1 || true)
case "$ldd_says" in
  *"not a dynamic executable"* | *"statically linked"*) log "  ldd: $(echo $ldd_says)" ;;
  *) fail "ldd sp960: $ldd_says" ;;
esac
[ "$(env -i "$dir/sp960" fen 860)" = "$expected_fen" ] || fail "env -i sp960 fen 860"
log "  env -i sp960 fen 860: OK"
if [ "$(id -u)" -eq 0 ]; then namespace=(unshare --mount); else namespace=(unshare --mount --map-root-user); fi
# README, Install: the ```sh block of the Linux steps, as a user copies it.
python3 - README.md "$work/readme-linux.sh" <<'EOF' || fail "README.md has no Linux install block"
import sys
lines = open(sys.argv[1]).read().split("\n")
marker = "# Linux: check, unpack, install (scripts/test-release.sh runs these lines)"
start = lines.index(marker)
assert lines[start - 1] == "```sh", "the marker must open a ```sh block"
end = lines.index("```", start)
open(sys.argv[2], "w").write("\n".join(lines[start:end]) + "\n")
EOF
"${namespace[@]}" bash "$0" --as-user "$dir" "$python" "$work" "$out" || fail "Linux archive, as a user"

log "== Linux aarch64: $arm (qemu-aarch64-static)"
scripts/install-peers.sh release || fail "scripts/install-peers.sh release (qemu-user-static)"
qemu=/usr/bin/qemu-aarch64-static
mkdir "$work/arm"
tar -xzf "$out/$arm" -C "$work/arm"
[ "$(ls -A "$work/arm")" = "$top_arm" ] || fail "$arm holds more than $top_arm/: $(ls -A "$work/arm")"
adir="$work/arm/$top_arm"
(cd "$adir" && sha256sum --check --strict --quiet SHA256SUMS) || fail "$arm: its SHA256SUMS"
log "  $top_arm/SHA256SUMS: OK ($(wc -l <"$adir/SHA256SUMS") files)"
kind=$(file -b "$adir/sp960")
case "$kind" in
  *"ARM aarch64"*"statically linked"*) log "  file: ${kind%%, BuildID*}" ;;
  *) fail "sp960 is not a static aarch64 program: $kind" ;;
esac
fen=$(env -i "$qemu" "$adir/sp960" fen 860)
[ "$fen" = "$expected_fen" ] || fail "qemu-aarch64-static sp960 fen 860 printed: $fen"
log "  env -i qemu-aarch64-static sp960 fen 860: $fen"
"$qemu" "$adir/sp960" validate fixtures/validate/valid.epd >/dev/null 2>"$work/arm-valid.log" ||
  { cat "$work/arm-valid.log" >&2; fail "qemu-aarch64-static sp960 validate fixtures/validate/valid.epd"; }
set +e
"$qemu" "$adir/sp960" validate fixtures/validate/invalid.fen >"$work/arm-invalid.out" 2>/dev/null
status=$?
set -e
[ "$status" -eq 1 ] && cmp -s "$work/arm-invalid.out" fixtures/validate/invalid.expected ||
  fail "qemu-aarch64-static sp960 validate fixtures/validate/invalid.fen: exit $status (expected 1), diagnostics: $(cmp "$work/arm-invalid.out" fixtures/validate/invalid.expected 2>&1)"
log "  qemu-aarch64-static sp960 validate: valid.epd exit 0 ($(sed 's/^sp960: validate: //;s/; [0-9.]* s$//' "$work/arm-valid.log")); invalid.fen exit 1, diagnostics = fixtures/validate/invalid.expected"
# The kernel runs aarch64 programs started by path (the launcher, and the engine it starts)
# through qemu once binfmt_misc knows them: Debian's entry, registered as systemd-binfmt would.
binfmt=/proc/sys/fs/binfmt_misc
if ! [ -e "$binfmt/qemu-aarch64" ]; then
  [ -e "$binfmt/register" ] || "${sudo[@]}" mount -t binfmt_misc binfmt_misc "$binfmt" ||
    fail "cannot mount binfmt_misc at $binfmt"
  "${sudo[@]}" sh -c "cat /usr/lib/binfmt.d/qemu-aarch64.conf >$binfmt/register" ||
    fail "cannot register qemu-aarch64 in $binfmt"
  log "  registered $binfmt/qemu-aarch64 from /usr/lib/binfmt.d/qemu-aarch64.conf"
fi
grep -qx enabled "$binfmt/qemu-aarch64" || fail "$binfmt/qemu-aarch64 is not enabled"
log "  binfmt_misc: qemu-aarch64, interpreter $(sed -n 's/^interpreter //p' "$binfmt/qemu-aarch64"), flags $(sed -n 's/^flags: //p' "$binfmt/qemu-aarch64")"
mkdir -p "$work/arm-elsewhere" "$work/arm-launchers"
(cd "$work/arm-elsewhere" && PATH="$adir:$PATH" "$qemu" "$adir/sp960" proxy \
  --write-launcher "$work/arm-launchers/builtin-960" --sp 860 -- sp960 engine) ||
  fail "qemu-aarch64-static sp960 proxy --write-launcher"
grep -q "\"$adir/sp960\"" "$work/arm-launchers/builtin-960.sp960.json" ||
  fail "the engine sp960 was not made absolute: $(cat "$work/arm-launchers/builtin-960.sp960.json")"
case "$(file -b "$work/arm-launchers/builtin-960")" in
  *"ARM aarch64"*) log "  launcher written: builtin-960 (aarch64) and builtin-960.sp960.json" ;;
  *) fail "the launcher is not an aarch64 program: $(file -b "$work/arm-launchers/builtin-960")" ;;
esac
timeout 900 "$python" tests/python/release_launcher_game.py \
  "$work/arm-launchers/builtin-960" "$work/arm-launchers/builtin-960" "$work/arm-elsewhere" ||
  fail "a game through the aarch64 launcher"

log "== macOS: $macos (its Mach-O structure and signature, read on Linux; not run)"
# The signer of scripts/release.sh writes rcodesign's bytes: two zig-linked programs signed by
# both (rcodesign's output recorded in the test), read back by check_macho.py.
zig_python="${SP960_ZIG_TOOLS:-$HOME/.cache/sp960-zig}/bin/python"
lipo=$(find /usr/bin -name 'llvm-lipo*' | sort -V | tail -n 1)
python3 tests/python/test_macho_sign.py "$zig_python" "$lipo" >"$work/macho-sign.log" 2>&1 ||
  { cat "$work/macho-sign.log" >&2; fail "scripts/macho_sign.py against rcodesign's bytes"; }
sed 's/^/test-release:   /' "$work/macho-sign.log" >&2
mkdir "$work/macos"
tar -xzf "$out/$macos" -C "$work/macos"
[ "$(ls -A "$work/macos")" = "$top_macos" ] || fail "$macos holds more than $top_macos/: $(ls -A "$work/macos")"
mdir="$work/macos/$top_macos"
(cd "$mdir" && sha256sum --check --strict --quiet SHA256SUMS) || fail "$macos: its SHA256SUMS"
log "  $top_macos/SHA256SUMS: OK ($(wc -l <"$mdir/SHA256SUMS") files: $(cd "$mdir" && ls -p | tr '\n' ' '))"
[ -x "$mdir/sp960" ] || fail "$top_macos/sp960 is not executable"
log "  file: $(file -b "$mdir/sp960")"
python3 tests/python/check_macho.py "$mdir/sp960" sp960 >"$work/macho.log" 2>&1 ||
  { cat "$work/macho.log" >&2; fail "the macOS binary's Mach-O structure or signature"; }
sed 's/^/test-release:   /' "$work/macho.log" >&2
# The check must be able to fail: one byte of each slice's __text flipped, and another identifier.
for arch in arm64 x86_64; do
  python3 - "$mdir/sp960" "$work/sp960-$arch-flipped" "$arch" <<'EOF' >&2
import struct, sys
sys.path.insert(0, "tests/python")
import check_macho
source, target, arch = sys.argv[1:4]
data = bytearray(open(source, "rb").read())
for i in range(struct.unpack_from(">I", data, 4)[0]):
    cputype, _, start, size, _ = struct.unpack_from(">iiIII", data, 8 + 20 * i)
    if check_macho.CPU.get(cputype) == arch:
        break
for cmd, _, raw in check_macho.load_commands(bytes(data[start:start + size]))[2]:
    if cmd == check_macho.LC_SEGMENT_64 and raw[8:15] == b"__TEXT\0":
        for s in range(struct.unpack_from("<I", raw, 64)[0]):
            section = raw[72 + 80 * s:72 + 80 * (s + 1)]
            if section[:7] == b"__text\0":
                text_size, text_offset = struct.unpack_from("<QI", section, 40)
flip = start + text_offset + text_size // 2
data[flip] ^= 0x01
open(target, "wb").write(data)
print(f"test-release:   {arch}: a copy with the byte at {flip:#x} (in __TEXT,__text) flipped")
EOF
  if said=$(python3 tests/python/check_macho.py "$work/sp960-$arch-flipped" sp960 2>&1 >/dev/null); then
    fail "check_macho.py passed a copy with a byte of the $arch slice's __text flipped"
  fi
  grep -q "$arch slice: page [0-9]* (file offset .*) does not match its hash" <<<"$said" ||
    fail "check_macho.py on the flipped $arch copy said: $said"
  log "    check_macho.py refuses it: ${said#*: }"
done
if said=$(python3 tests/python/check_macho.py "$mdir/sp960" not-sp960 2>&1 >/dev/null); then
  fail "check_macho.py passed the identifier sp960 as not-sp960"
fi
log "  check_macho.py asked for not-sp960 refuses: ${said#*: }"

log "== Windows: $windows (Wine)"
mkdir "$work/windows"
python3 -m zipfile -e "$out/$windows" "$work/windows"
[ "$(ls -A "$work/windows")" = "$top_windows" ] || fail "$windows holds more than $top_windows/"
wdir="$work/windows/$top_windows"
(cd "$wdir" && sha256sum --check --strict --quiet SHA256SUMS) || fail "$windows: its SHA256SUMS"
log "  $top_windows/SHA256SUMS: OK ($(wc -l <"$wdir/SHA256SUMS") files: $(cd "$wdir" && ls -p | tr '\n' ' '))"
cross_target="${SP960_CROSS_TARGET:-$HOME/.cache/sp960-cross-target}"
export WINEDEBUG=-all WINEPREFIX="${SP960_RELEASE_WINEPREFIX:-$cross_target/wineprefix-release}"
wine=(/usr/lib/wine/wine64)
# The stand-in for bcryptprimitives.dll (docs/platforms.md), in system32: every copy of
# sp960.exe (a launcher is one) finds it there, wherever it lies.
# The prefix is made here (wineserver -p chdirs into it, and fails where it does not exist yet:
# on a fresh machine, issue 37); wineboot --init below fills it.
mkdir -p "$WINEPREFIX"
# One Wine session for the whole section: a persistent wineserver, and its services (started by
# the first Windows program of a session) started here with no pipe to inherit. Started by a
# launcher instead, they keep a handle on that launcher's stdout, and a GUI waiting for that pipe
# to close after `quit` (python-chess does) waits until Wine's last program ends: with two
# launchers playing each other, never (measured: quit timed out at 60 s; primed, 0.01 s).
/usr/lib/wine/wineserver -p </dev/null >/dev/null 2>&1 || fail "wineserver -p ($WINEPREFIX)"
trap '/usr/lib/wine/wineserver -k 2>/dev/null; rm -rf "$work"' EXIT
"${wine[@]}" wineboot --init </dev/null >"$work/wineboot.log" 2>&1 ||
  { cat "$work/wineboot.log" >&2; fail "wineboot --init ($WINEPREFIX)"; }
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/windows/bcryptprimitives.c -ladvapi32
exe_windows=$("${wine[@]}" winepath -w "$wdir/sp960.exe" 2>/dev/null | tr -d '\r')
fen=$(cd "$work" && timeout 120 "${wine[@]}" "$wdir/sp960.exe" fen 860 | tr -d '\r')
[ "$fen" = "$expected_fen" ] || fail "wine sp960.exe fen 860 printed: $fen"
log "  wine sp960.exe fen 860: $fen"
log "  wine sp960.exe --version: $(timeout 120 "${wine[@]}" "$wdir/sp960.exe" --version | tr -d '\r')"

# A launcher written by the unpacked sp960.exe, in front of its built-in engine, started by
# python-chess (Linux) through Wine with no argument, from another directory: a game from SP 860.
mkdir -p "$work/wine-elsewhere" "$WINEPREFIX/drive_c/sp960-launchers"
(cd "$work/wine-elsewhere" && timeout 120 "${wine[@]}" "$wdir/sp960.exe" proxy \
  --write-launcher 'C:\sp960-launchers\builtin-960' --sp 860 -- "$exe_windows" engine) ||
  fail "wine sp960.exe proxy --write-launcher"
launcher="$WINEPREFIX/drive_c/sp960-launchers/builtin-960.exe"
[ -f "$launcher" ] && [ -f "${launcher%.exe}.sp960.json" ] ||
  fail "no launcher and settings file at C:\sp960-launchers: $(ls "$WINEPREFIX/drive_c/sp960-launchers" 2>&1)"
log "  launcher written: C:\sp960-launchers\builtin-960.exe and builtin-960.sp960.json"
timeout 600 "$python" tests/python/release_launcher_game.py --via "${wine[0]}" \
  'C:\sp960-launchers\builtin-960.exe' 'C:\sp960-launchers\builtin-960.exe' "$work/wine-elsewhere" ||
  fail "a game through the Windows launcher"

# The launcher test of tests/portable.rs, in the Windows build the download came from
# (scripts/build-windows.sh, which scripts/release.sh ran: a no-op here), run with SP960_EXE =
# the unpacked sp960.exe.
log "  tests/portable.rs launcher test under Wine, SP960_EXE=$top_windows/sp960.exe"
scripts/build-windows.sh >/dev/null 2>"$work/portable-build.log" ||
  { cat "$work/portable-build.log" >&2; fail "the Windows build (scripts/build-windows.sh)"; }
portable=$(python3 scripts/windows-test-exe.py "$cross_target/windows-tests.json" portable)
[ -n "$portable" ] || fail "no Windows build of tests/portable.rs in $cross_target/windows-tests.json"
test_name=${SP960_RELEASE_WINE_TEST:-launcher}
mkdir "$work/wine-cwd"
(cd "$work/wine-cwd" && SP960_EXE="$exe_windows" timeout 600 "${wine[@]}" "$portable" \
  "$test_name" --test-threads=1 >"$work/wine-portable.log" 2>&1) ||
  { cat "$work/wine-portable.log" >&2; fail "tests/portable.rs $test_name under Wine"; }
grep -E '^test |^test result:' "$work/wine-portable.log" | sed 's/^/  /' >&2
grep -q '^test result: ok. [1-9]' "$work/wine-portable.log" ||
  fail "no test named *$test_name* ran in tests/portable.rs"
if grep -q '^SKIPPED' "$work/wine-portable.log"; then
  grep '^SKIPPED' "$work/wine-portable.log" >&2
  fail "the launcher test skipped under Wine"
fi
log "all archives OK"
