#!/usr/bin/env bash
# The test command (README, "The two commands"; .ci/run runs it): installs every peer the
# tests play against on a Debian machine, then runs every test. Extra arguments go to
# `cargo test --locked` (e.g. `scripts/test.sh --test proxy_uci`).
#
# Installs only what is missing (scripts/install-peers.sh tests): Debian's chess engines,
# polyglot, pgn-extract, xboard, Xvfb, hyperfine and chromium (apt-get update first),
# python-chess 1.11.2 and scipy (pip); and the match runners cutechess-cli and fastchess into
# ~/.cache/sp960-peers/bin (or SP960_PEERS), built from pinned sources by
# scripts/build-runners.sh, once per version. The installs need root or sudo; a second run
# installs nothing. The tests then run with CI set, so a peer still missing fails its
# test instead of skipping it (plain `cargo test` skips it and says so).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's engines, the GUI side, the runners' build packages, python-chess and scipy:
# scripts/install-peers.sh holds the list.
scripts/install-peers.sh tests

# The match runners, where the tests look for them (tests/support/peers.rs).
peers=${SP960_PEERS:-$HOME/.cache/sp960-peers/bin}
scripts/build-runners.sh "$peers"
export PATH="$peers:$PATH"

export CI="${CI:-true}"
exec cargo test --locked "$@"
