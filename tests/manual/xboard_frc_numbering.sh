#!/usr/bin/env bash
# Checks that xboard's -defaultFrcPosition N is Scharnagl's SP N, for every N in 0..959:
# xboard plays one one-move game from each N (Sjaak II against itself, under Xvfb) and
# `sp960 identify` reads the PGN's FEN tag back. Takes a few minutes; not part of CI.
# Usage: tests/manual/xboard_frc_numbering.sh [FIRST [LAST]]   (needs xboard, xvfb, sjaakii)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin="$PWD/target/release/sp960"
work=$(mktemp -d)
trap 'kill "$xvfb" 2>/dev/null || true; rm -rf "$work"' EXIT
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1024x768x16 >/dev/null 2>&1 &
xvfb=$!
sleep 1
export DISPLAY=$display
cd "$work"
bad=0
for n in $(seq "${1:-0}" "${2:-959}"); do
  rm -f game.pgn
  timeout 20 /usr/games/xboard -fcp /usr/games/sjaakii -scp /usr/games/sjaakii \
    -variant fischerandom -defaultFrcPosition "$n" -matchGames 1 -matchPause 10 -depth 1 \
    -adjudicateDrawMoves 1 -xexit -saveSettingsOnExit false -sgf game.pgn -noGUI >/dev/null 2>&1 || true
  fen=$(sed -n 's/^\[FEN "\(.*\)"\]$/\1/p' game.pgn 2>/dev/null | head -n 1)
  got=$("$bin" identify "$fen" 2>&1 || true)
  if [ "$got" != "$n" ]; then
    echo "xboard -defaultFrcPosition $n gave '$fen' = '$got'"
    bad=$((bad + 1))
  fi
done
echo "xboard -defaultFrcPosition: $bad of $(( ${2:-959} - ${1:-0} + 1 )) differ from Scharnagl's numbering"
[ "$bad" -eq 0 ]
