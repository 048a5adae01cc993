#!/usr/bin/env bash
# Installs what the tests, the other platforms and the downloads need on a Debian machine, the
# one list of those Debian and PyPI packages. Only what is missing; one `apt-get update` and one
# `apt-get install` for everything asked, so `.ci/run` installs all of it at once, in the
# background, while the first builds run.
#
#   usage: scripts/install-peers.sh [--list] GROUP...    GROUP: tests platforms release all
#
#   tests      Debian's chess engines (into /usr/games), polyglot, pgn-extract, xboard, Xvfb,
#              hyperfine, chromium, zstd; what scripts/build-runners.sh builds cutechess-cli and
#              fastchess with; python-chess 1.11.2 and scipy (pip)
#   platforms  rustup's standard library for the other targets (`rustup target add`: Windows,
#              macOS arm64 and x86-64, Linux aarch64 musl), mingw-w64 (the Windows linker),
#              wine64
#   release    qemu-user-static (the aarch64 download run), llvm-14 (llvm-lipo: the universal
#              macOS binary)
#   --list     print the Debian packages of the groups, install nothing
#
# Needs root or sudo for apt-get; pip installs system-wide as root, else into the user's site.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'install-peers: %s\n' "$*" >&2; }

list=false
groups=()
for arg in "$@"; do
  case $arg in
    --list) list=true ;;
    tests | platforms | release) groups+=("$arg") ;;
    all) groups+=(tests platforms release) ;;
    *) echo "usage: $0 [--list] tests|platforms|release|all ..." >&2; exit 2 ;;
  esac
done
[ "${#groups[@]}" -gt 0 ] || { echo "usage: $0 [--list] tests|platforms|release|all ..." >&2; exit 2; }

packages=()
pip_wanted=false
targets_wanted=false
# The targets the downloads and the other platforms' lints are built for, with rustup's
# toolchain (the one that builds the host): prebuilt standard libraries, nothing to compile.
rust_targets=(x86_64-pc-windows-gnu aarch64-apple-darwin x86_64-apple-darwin aarch64-unknown-linux-musl)
for group in "${groups[@]}"; do
  case $group in
    tests)
      # With recommends, as on the machines the tests were written on (xboard's fonts).
      packages+=(stockfish ethereal-chess glaurung fairy-stockfish toga2 sjaakii fairymax polyglot
        pgn-extract xboard xvfb xauth hyperfine chromium zstd)
      # shellcheck disable=SC2207 # one package a line
      packages+=($(scripts/build-runners.sh --packages))
      pip_wanted=true
      ;;
    platforms)
      packages+=(mingw-w64 wine64)
      targets_wanted=true
      ;;
    release) packages+=(qemu-user-static llvm-14) ;;
  esac
done
chess_ok() { python3 -c 'import chess; assert chess.__version__ == "1.11.2"' 2>/dev/null; }
scipy_ok() { python3 -c 'import scipy, numpy' 2>/dev/null; }
if $pip_wanted && ! { chess_ok && scipy_ok; }; then
  command -v python3 >/dev/null 2>&1 || packages+=(python3)
  python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi
if $list; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

# rustup's standard library for each target (a download of about 30 MB each, once).
if $targets_wanted; then
  installed_targets=$(rustup target list --installed 2>/dev/null || true)
  wanted=()
  for target in "${rust_targets[@]}"; do
    grep -qx "$target" <<<"$installed_targets" || wanted+=("$target")
  done
  if [ "${#wanted[@]}" -gt 0 ]; then
    log "[${SECONDS}s] rustup target add ${wanted[*]}"
    said=$(rustup target add "${wanted[@]}" 2>&1) || {
      printf '%s\n' "$said" >&2
      log "error: rustup target add ${wanted[*]} failed (the other platforms' builds need them)"
      exit 1
    }
  fi
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    log "error: installing needs root or sudo, to run: $*"
    exit 1
  fi
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || { log "error: no apt-get to install ${missing[*]}"; exit 1; }
  log "[${SECONDS}s] installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  log "[${SECONDS}s] Debian packages installed"
fi

# python-chess, the tests' independent oracle and GUI-side client, and scipy (with numpy), the
# statistics `sp960 results` is checked against. Debian's own python3 is "externally managed"
# (PEP 668): PIP_BREAK_SYSTEM_PACKAGES lets pip install there (an older pip ignores it).
pip_install() {
  local user=()
  if [ "$(id -u)" -ne 0 ] && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then
    user=(--user) # not in a virtual environment, which has no user site
  fi
  PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore \
    python3 -m pip install --quiet --disable-pip-version-check "${user[@]}" "$@"
}
if $pip_wanted; then
  if ! chess_ok; then
    log "installing python-chess 1.11.2 with pip"
    pip_install chess==1.11.2
    chess_ok || { log "error: python3 still has no python-chess 1.11.2"; exit 1; }
  fi
  if ! scipy_ok; then
    log "installing scipy with pip"
    pip_install scipy
    scipy_ok || { log "error: python3 still has no scipy"; exit 1; }
  fi
fi
