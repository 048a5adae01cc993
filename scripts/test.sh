#!/usr/bin/env bash
# The test command (README, "The two commands"; .ci/run runs it): installs every peer the
# tests play against on a Debian machine, then runs every test. Extra arguments go to
# `cargo test --locked` (e.g. `scripts/test.sh --test proxy_uci`).
#
# Installs only what is missing: Debian's chess engines, polyglot, pgn-extract, xboard, Xvfb,
# hyperfine and chromium (apt-get update first), python-chess 1.11.2 and scipy (pip), and the match runners
# cutechess-cli and fastchess into ~/.cache/sp960-peers/bin (or SP960_PEERS), built from
# pinned sources by scripts/build-runners.sh. The installs need root or sudo; a second run
# installs nothing. The tests then run with CI set, so a peer still missing fails its
# test instead of skipping it (plain `cargo test` skips it and says so).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'scripts/test.sh: %s\n' "$*" >&2; }

# Root runs the installs itself, anyone else through sudo.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		log "error: installing the test peers needs root or sudo, to run: $*"
		log "run scripts/test.sh as root, install sudo, or install them first (README, Install)"
		exit 1
	fi
}

# Debian's engines (into /usr/games), the GUI side (polyglot, xboard under Xvfb) and
# hyperfine; with recommends, as on the machines the tests were written on (xboard's fonts).
packages=(stockfish ethereal-chess glaurung fairy-stockfish toga2 sjaakii fairymax polyglot pgn-extract
	xboard xvfb xauth hyperfine chromium)
chess_ok() { python3 -c 'import chess; assert chess.__version__ == "1.11.2"' 2>/dev/null; }
if ! chess_ok; then
	command -v python3 >/dev/null 2>&1 || packages+=(python3)
	python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi
missing=()
for package in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
	command -v apt-get >/dev/null 2>&1 ||
		{ log "error: no apt-get to install ${missing[*]}"; exit 1; }
	log "installing Debian packages: ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# python-chess, the tests' independent oracle and GUI-side client. Debian's own python3
# is "externally managed" (PEP 668): PIP_BREAK_SYSTEM_PACKAGES lets pip install there (an
# older pip ignores it). As root it goes system-wide; otherwise into the user's site.
if ! chess_ok; then
	log "installing python-chess 1.11.2 with pip"
	user=()
	if [ "$(id -u)" -ne 0 ] && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then
		user=(--user) # not in a virtual environment, which has no user site
	fi
	PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore \
		python3 -m pip install --quiet --disable-pip-version-check "${user[@]}" chess==1.11.2
	chess_ok || { log "error: python3 still has no python-chess 1.11.2"; exit 1; }
fi

# scipy (with numpy): the independent statistics `sp960 results` is checked against
# (tests/results.rs, tests/python/results_oracle.py).
if ! python3 -c 'import scipy, numpy' 2>/dev/null; then
	log "installing scipy with pip"
	user=()
	if [ "$(id -u)" -ne 0 ] && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then
		user=(--user)
	fi
	PIP_BREAK_SYSTEM_PACKAGES=1 PIP_ROOT_USER_ACTION=ignore \
		python3 -m pip install --quiet --disable-pip-version-check "${user[@]}" scipy
	python3 -c 'import scipy, numpy' || { log "error: python3 still has no scipy"; exit 1; }
fi

# The match runners, where the tests look for them (tests/support/peers.rs).
peers=${SP960_PEERS:-$HOME/.cache/sp960-peers/bin}
scripts/build-runners.sh "$peers"
export PATH="$peers:$PATH"

export CI="${CI:-true}"
exec cargo test --locked "$@"
