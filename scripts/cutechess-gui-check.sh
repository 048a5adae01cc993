#!/usr/bin/env bash
# Cute Chess GUI with the engines.json `sp960 tournament --emit cutechess-gui` writes, checked
# in the real GUI. NOT part of CI (it builds a Qt GUI and drives it with xdotool); run it by
# hand and look at the screenshots. tests/cutechess_gui.rs covers the same file in CI with
# cutechess-cli, which loads engines.json with the GUI's code.
#
#   usage: scripts/cutechess-gui-check.sh [--source DIR] OUT_DIR
#
# 1. Builds the `gui` target of cutechess 1.5.1 (the pinned source scripts/build-runners.sh
#    uses: --source DIR or SP960_RUNNER_SOURCES holding cutechess-v1.5.1.tar.gz, else
#    ../shared/peers beside this repository; checked against its sha256) with Debian's Qt 6
#    in a cache folder outside the repository (SP960_GUI_CACHE, default
#    ~/.cache/sp960-cutechess-gui): about 5 min on 2 cores the first time, then nothing.
# 2. In a temporary HOME (XDG_CONFIG_HOME=$HOME/.config), writes a hand-made engines.json
#    entry for standard chess (Stockfish, no `variants`), then runs
#    `sp960 tournament --emit cutechess-gui` for Fairy-Stockfish (UCI: Cute Chess needs the
#    proxy's translation for it) and Sjaak II (XBoard) with the default engines.json.
# 3. Starts the GUI under Xvfb with that HOME, opens Game > New and takes screenshots: the
#    variant standard with White's engine list open (the hand-made entry only), the variant
#    fischerandom with it open (the two launchers only).
# 4. Plays one game in the GUI between the two launchers from SP 860 (the dialog's FEN
#    string, 20 s + 0.2 s each), waits for the PGN the GUI writes
#    (games/default_pgn_output_file), and replays it with python-chess
#    (tests/python/runner_games.py: legal from its FEN, and how it ended).
# 5. Opens Tournament > New, fills it in as `sp960 tournament` printed (the book it wrote,
#    Games per encounter 2, Play each opening 2 times, ...), adds the two launchers and plays
#    the tournament (2 games, colours swapped) to its end; python-chess replays its PGN and
#    `sp960 validate --start-positions` names SP 860 for each game.
#
# OUT_DIR gets the screenshots (*.png), engines.json, the GUI's PGN and the logs.
# Needs: g++ make cmake qt6-base-dev qt6-5compat-dev qt6-svg-dev xvfb xdotool imagemagick,
# python3 with python-chess, /usr/games/fairy-stockfish and /usr/games/sjaakii, and sp960
# (SP960=path, default: `cargo build --locked` in this repository). The click positions are
# measured on cutechess 1.5.1 with Debian 12's Qt 6.4 at 1600x1000 without a window
# manager; another Qt or style may move them (the screenshots show where the clicks went).
set -euo pipefail

CUTECHESS_NAME=cutechess-v1.5.1
CUTECHESS_TARBALL_SHA256=40cc316560a8656d118dab14dff93c984078239ba92544be191bc71f87084a5a

log() { printf 'cutechess-gui-check.sh: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

repo=$(cd "$(dirname "$0")/.." && pwd)
source_dir=${SP960_RUNNER_SOURCES:-}
if [ "${1:-}" = --source ]; then
	source_dir=$2
	shift 2
fi
[ $# -eq 1 ] || die "usage: $0 [--source DIR] OUT_DIR"
out=$(mkdir -p "$1" && cd "$1" && pwd)
[ -n "$source_dir" ] || source_dir=$repo/../shared/peers
tarball=$source_dir/$CUTECHESS_NAME.tar.gz
[ -f "$tarball" ] || die "no $tarball (give --source DIR)"
echo "$CUTECHESS_TARBALL_SHA256  $tarball" | sha256sum -c --quiet - || die "$tarball: wrong sha256"
for tool in cmake make g++ Xvfb xdotool import python3; do
	command -v "$tool" >/dev/null || die "needs $tool (apt-get install cmake make g++ qt6-base-dev qt6-5compat-dev qt6-svg-dev xvfb xdotool imagemagick)"
done

# 1. The GUI, built once.
cache=${SP960_GUI_CACHE:-$HOME/.cache/sp960-cutechess-gui}
gui=$cache/build/cutechess
if [ ! -x "$gui" ]; then
	log "building the cutechess 1.5.1 gui target in $cache (about 5 min on 2 cores)"
	rm -rf "$cache/src" "$cache/build"
	mkdir -p "$cache/src" "$cache/build"
	tar -xzf "$tarball" -C "$cache/src"
	cmake -S "$cache/src/$CUTECHESS_NAME" -B "$cache/build" -DCMAKE_BUILD_TYPE=Release >"$cache/cmake.log"
	make -C "$cache/build" -j"$(nproc)" gui >"$cache/make.log"
fi
[ -x "$gui" ] || die "no GUI binary at $gui (see $cache/make.log)"

# 2. engines.json and the launchers, in a temporary HOME.
if [ -z "${SP960:-}" ]; then
	(cd "$repo" && cargo build --locked --quiet)
	SP960=${CARGO_TARGET_DIR:-$repo/target}/debug/sp960
fi
work=$(mktemp -d)
trap 'kill "${gui_pid:-}" "${xvfb_pid:-}" 2>/dev/null; wait 2>/dev/null; rm -rf "$work" || true' EXIT
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config
config=$XDG_CONFIG_HOME/cutechess
mkdir -p "$config" "$HOME/chess"
cat >"$config/engines.json" <<'EOF'
[
	{
		"command": "/usr/games/stockfish",
		"name": "Stockfish (standard)",
		"protocol": "uci",
		"workingDirectory": ""
	}
]
EOF
(cd "$HOME/chess" && "$SP960" tournament --emit cutechess-gui \
	--engine /usr/games/fairy-stockfish \
	--engine "/usr/games/sjaakii proto=xboard 'name=Sjaak II'" \
	--sp 860 --tc 20+0.2 >"$out/steps.txt" 2>"$out/notes.txt")
cp "$config/engines.json" "$out/engines.json"
pgn=$out/gui-games.pgn
rm -f "$pgn"
fen=$("$SP960" fen 860)
# The New Game dialog's settings (QSettings, IniFormat): standard first, the SP 860 FEN,
# 20 s + 0.2 s, and the file the GUI saves finished games to.
cat >"$config/cutechess.ini" <<EOF
[games]
variant=standard
default_pgn_output_file=$pgn
opening_suite\\fen=$fen
time_control\\moves_per_tc=0
time_control\\time_per_tc=20000
time_control\\increment=200
second_time_control\\time_control\\moves_per_tc=0
second_time_control\\time_control\\time_per_tc=20000
second_time_control\\time_control\\increment=200
EOF

# 3. The GUI under Xvfb.
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1600x1000x24 >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
export DISPLAY=$display
sleep 2
"$gui" >"$out/gui.log" 2>&1 &
gui_pid=$!
# No window manager: windows are found by name and clicked; the main window is named
# after its game ("Human vs Human").
main=$(xdotool search --sync --onlyvisible --name "Human vs Human" | head -1)
sleep 2
shot() {
	sleep 1
	import -window root "$out/$1.png"
	log "screenshot $out/$1.png"
}
click() {
	xdotool mousemove --sync "$1" "$2" click 1
	sleep 1
}
shot 1-main-window
# Game > New...
click 27 8
shot 2-game-menu
click 50 30
dialog=$(xdotool search --sync --onlyvisible --name "New Game" | head -1)
eval "$(xdotool getwindowgeometry --shell "$dialog")" # X, Y of the dialog
at() { click $((X + $1)) $((Y + $2)); }
shot 3-new-game-standard
# White: CPU, and its engine list opened (standard: the hand-made entry only).
at 31 75
at 176 103
shot 4-standard-engine-list
xdotool key Escape
# The variant combo: open it, type fischerandom, Return.
at 283 144
xdotool type fischerandom
xdotool key Return
shot 5-new-game-fischerandom
at 176 103
shot 6-fischerandom-engine-list
xdotool key Escape
# Black: CPU, its list opened, the second engine taken.
at 265 75
at 411 103
xdotool key Down Return
sleep 1
shot 7-new-game-ready
at 350 727 # OK

# 4. One game, to its end.
for _ in $(seq 1 240); do
	[ -s "$pgn" ] && break
	sleep 1
done
shot 8-game-over
[ -s "$pgn" ] || die "the GUI wrote no game to $pgn in 4 minutes (see the screenshots)"
python3 "$repo/tests/python/runner_games.py" "$pgn" | tee "$out/replay.json"
python3 "$repo/tests/python/replay_games.py" "$pgn"
# 5. Tournament > New..., filled in as `sp960 tournament` printed (steps.txt): the PGN
# output, Round Robin, Rounds 1, Games per encounter 2, Play each opening 2 times, Recover
# crashed engines, the variant fischerandom, no FEN string, the book sp960 wrote, Sequential,
# the two launchers; then the tournament played to its end.
click 95 8
click 120 30
dialog=$(xdotool search --sync --onlyvisible --name "New Tournament" | head -1)
eval "$(xdotool getwindowgeometry --shell "$dialog")"
shot 9-new-tournament
field() { # click a text field, replace its text
	at "$1" "$2"
	xdotool key ctrl+a
	xdotool type --delay 20 "$3"
	sleep 0.5
}
tour_pgn=$out/gui-tournament.pgn
rm -f "$tour_pgn"
field 225 106 "$tour_pgn"
field 194 300 1
field 194 329 2
at 229 352 # Play each opening: up from once to 2 times
at 171 414 # Recover crashed engines
at 698 51
xdotool type fischerandom
xdotool key Return
at 704 168 # FEN string: emptied
xdotool key ctrl+a BackSpace
field 660 196 "$HOME/chess/sp960-FRC.epd"
at 888 637 # Players: + (Add)
xdotool search --sync --onlyvisible --name "Select Chess Engines" >/dev/null
at 650 338
xdotool keydown shift
at 650 352
xdotool keyup shift
shot 10-select-engines
at 813 630 # OK
shot 11-new-tournament-filled
at 1028 678 # OK
for _ in $(seq 1 480); do
	[ "$(grep -c '^\[Result' "$tour_pgn" 2>/dev/null)" = 2 ] && break
	sleep 1
done
shot 12-tournament-over
[ "$(grep -c '^\[Result' "$tour_pgn" 2>/dev/null)" = 2 ] || die "the GUI's tournament did not finish its 2 games in 8 minutes (see the screenshots)"
python3 "$repo/tests/python/runner_games.py" "$tour_pgn" | tee "$out/tournament-replay.json"
"$SP960" validate --start-positions "$tour_pgn"
log "done: $out"
