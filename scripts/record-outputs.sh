#!/usr/bin/env bash
# Records what a fixed, broad set of sp960 invocations prints, so that a refactoring can be
# shown to change no output: run it before and after, then `diff -r BEFORE AFTER`.
#
#   scripts/record-outputs.sh OUTDIR
#
# Every subcommand is run with fixed seeds and inputs (nothing that depends on timings or on
# engines' searches): for each invocation OUTDIR/NAME.out, NAME.err and NAME.status hold its
# stdout, stderr and exit status, and NAME.files/ the files it wrote. The repository's path
# and the scratch directory's are replaced by <REPO> and <WORK>, so two recordings made from
# different checkouts compare. SP960=PATH runs that executable instead of building this
# checkout's release build (`cargo build --release`, in $CARGO_TARGET_DIR or target/).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
if [ -z "${SP960:-}" ]; then
    (cd "$repo" && cargo build --release --quiet)
    SP960="${CARGO_TARGET_DIR:-$repo/target}/release/sp960"
fi
if [ ! -x "$SP960" ]; then
    echo "$0: no executable sp960 at $SP960" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The engines the tournament lines name: any path will do (sp960 tournament decides from the
# program's name and writes the line; it does not start the engine).
sf=/usr/games/stockfish
fsf=/usr/games/fairy-stockfish
sjaak=/usr/games/sjaakii
toga=/usr/games/toga2
glaurung=/usr/games/glaurung

# NAME and a shell command line; `sp960` is the executable under test, $REPO the repository
# (for fixtures), and the command runs in an empty scratch directory.
cases() {
    cat <<EOF
help|sp960 --help
version|sp960 --version
fen-860|sp960 fen 860
fen-list-xfen|sp960 fen 0-9 959 --castling xfen
fen-dfrc|sp960 fen 0:959 12:34
fen-all-epd|sp960 fen all --format epd
fen-bad|sp960 fen 960
fen-bad-spec|sp960 fen 1-x
identify-arr|sp960 identify RBKNRNBQ
identify-fen|sp960 identify 'bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1'
identify-stdin|sp960 fen 0-20 100:200 | sp960 identify -
identify-bad|sp960 identify RBKNRNBX
random-seed|sp960 random --count 3 --seed 7
random-dfrc|sp960 random --count 3 --seed 7 --dfrc
explain-860|sp960 explain 860
explain-0|sp960 explain 0
roll-die|sp960 roll die 3 5 1 4 6 2 1
roll-die-json|sp960 roll die 3 5 1 4 6 2 1 --json
roll-die-optimized|sp960 roll die-optimized 5 5 6 6 4 6 3 6
roll-polyhedral|sp960 roll polyhedral d8=3 d4=3 d6=3 d20=7
roll-polyhedral-d12|sp960 roll polyhedral d8=3 d4=3 d6=3 d20=7 d12=5
roll-d10|sp960 roll d10 light=3 dark=4 queen=5 knights=6
roll-coins|sp960 roll coins TH THH TT HT HTH TH HH
roll-coin|sp960 roll coin THTTHHHHTT --json
roll-fast|sp960 roll fast 3 4 5 6 1 2 3 4
roll-fast-fairness|sp960 roll fast --fairness
roll-die-fairness|sp960 roll die --fairness
roll-die-optimized-fairness|sp960 roll die-optimized --fairness --json
roll-coins-fairness|sp960 roll coins --fairness
roll-coin-fairness|sp960 roll coin --fairness
roll-d10-fairness|sp960 roll d10 --fairness
roll-polyhedral-fairness|sp960 roll polyhedral --fairness
roll-bad-method|sp960 roll dice 1 2 3
roll-bad-value|sp960 roll die 7
roll-bad-name|sp960 roll polyhedral d9=3
roll-short|sp960 roll die 3 5 < /dev/null
random-method-die|sp960 random --method die --count 3 --seed 5
random-method-coin|sp960 random --method coin --count 3 --seed 5
validate-fixtures|sp960 validate \$REPO/fixtures/validate
validate-invalid-json|sp960 validate --format json \$REPO/fixtures/validate/invalid.fen
validate-games|sp960 validate \$REPO/fixtures/games/defects.pgn
validate-perft|sp960 validate \$REPO/fixtures/epd/perft960.epd
validate-missing|sp960 validate no-such-file.epd
normalize-shredder|sp960 normalize \$REPO/fixtures/normalize/input.epd
normalize-xfen|sp960 normalize --castling xfen \$REPO/fixtures/normalize/input.epd
book-all|sp960 book all
book-pgn|sp960 book 0 518 959 --format pgn
book-fen-xfen|sp960 book 0-9 --format fen --castling xfen
book-random|sp960 book random --count 10 --seed 7 --dfrc-sample 5
book-output|sp960 book 1-5 -o book.epd
book-output-name|sp960 book 1-5 -o book.txt
book-bad|sp960 book 1000
book-plies-no-engine|sp960 book all --plies 2
book-stats|sp960 book 0-99 -o b-FRC.epd && sp960 book stats b-FRC.epd
book-stats-pgn|sp960 book 0-9 --format pgn -o b-960.pgn && sp960 book stats b-960.pgn
book-stats-json|sp960 book 0-9 -o b-FRC.epd && sp960 book stats --json b-FRC.epd
book-stats-missing|sp960 book stats none.epd
book-package-fishtest|sp960 book 0-99 -o b-FRC.epd && sp960 book package --for fishtest b-FRC.epd -o pkg/
book-package-openbench|sp960 book 0-99 -o b-FRC.epd && sp960 book package --for openbench b-FRC.epd -o pkg/
book-package-pgn|sp960 book 0-9 --format pgn -o b-960.pgn && sp960 book package --for fishtest b-960.pgn -o pkg/
book-package-bad|sp960 book package --for fishtest none.epd -o pkg/
tournament-cutechess|sp960 tournament --emit cutechess --engine $sf --engine $fsf --sp 0,518,959 --seed 1 --shell sh
tournament-cutechess-xboard|sp960 tournament --emit cutechess --engine '$sjaak proto=xboard' --engine '$fsf proto=xboard' --engine $toga --engine $glaurung --sp 860 --shell sh --pgnout g.pgn --concurrency 2
tournament-cutechess-pgn|sp960 tournament --emit cutechess --engine $sf --engine $toga --sp 0-9 --book-format pgn --castling xfen --shell sh
tournament-cutechess-random|sp960 tournament --emit cutechess --engine $sf --engine $fsf --sp random --count 4 --dfrc-sample 2 --seed 3 --shell sh
tournament-fastchess|sp960 tournament --emit fastchess --engine '$sf option.Hash=16' --engine $fsf --sp all --tc 10+0.1 --shell sh
tournament-fastchess-toga|sp960 tournament --emit fastchess --engine $sf --engine $toga --sp 0-3 --shell sh
tournament-fastchess-xboard|sp960 tournament --emit fastchess --engine $sf --engine '$sjaak proto=xboard' --sp 0 --shell sh
tournament-xboard|sp960 tournament --emit xboard --engine '$sjaak proto=xboard' --engine '$fsf proto=xboard' --sp 860 --shell sh
tournament-xboard-uci|sp960 tournament --emit xboard --engine $sf --engine $glaurung --sp 0-5 --shell sh
tournament-xboard-toga|sp960 tournament --emit xboard --engine $toga --engine '$sjaak proto=xboard' --sp 0-5 --shell sh
tournament-cmd|sp960 tournament --emit cutechess --engine $sf --engine $toga --sp 0,1 --shell cmd
tournament-powershell|sp960 tournament --emit fastchess --engine $sf --engine $toga --sp 0,1 --shell powershell
tournament-sp960-path|sp960 tournament --emit cutechess --engine $sf --engine $toga --sp 0,1 --shell sh --sp960 '/opt/my sp960/sp960'
tournament-proxy-keys|sp960 tournament --emit cutechess --engine '$sf proxy=yes castling=xfen' --engine '$fsf chess960=no' --sp 0,1 --shell sh
tournament-openings|sp960 book 0-3 -o o-FRC.epd && sp960 tournament --emit cutechess --engine $sf --engine $fsf --openings o-FRC.epd --shell sh
tournament-gui|sp960 tournament --emit cutechess-gui --engine $sf --engine '$sjaak proto=xboard' --engine $toga --sp 0,860 --engines-json gui/engines.json --launchers gui/launchers
tournament-bad-engine|sp960 tournament --emit fastchess --engine $sf --engine '$sjaak proto=xboard' --engine $toga --sp 0 --shell sh
tournament-bad-key|sp960 tournament --emit cutechess --engine '$sf colour=blue' --engine $fsf --sp 0 --shell sh
tournament-xboard-three|sp960 tournament --emit xboard --engine $sf --engine $fsf --engine $toga --sp 0 --shell sh
proxy-launcher|mkdir l && sp960 proxy --write-launcher l/sf-960 --sp 860 -- $sf && cat l/sf-960.sp960.json
proxy-launcher-all|mkdir l && sp960 proxy --write-launcher l/all --sp random --seed 7 --dfrc --gui-castling standard --engine-castling xfen --protocol uci --require-chess960 --offer-chess960 --restart-engine 3 --max-overrun 500 --max-search 9000 --log t.log --quit-timeout 100 -- $sf -x 'a b' && cat l/all.sp960.json
proxy-launcher-xboard|mkdir l && sp960 proxy --write-launcher l/x --protocol xboard --engine-castling kxr -- $sjaak && cat l/x.sp960.json
proxy-bad-sp|sp960 proxy --sp 1000 -- $sf
proxy-no-engine|sp960 proxy --sp 1
perft-860|sp960 perft 860 --depth 3
perft-divide|sp960 perft 860 --depth 3 --divide
perft-divide-standard|sp960 perft 518 --depth 2 --divide --castling standard
perft-moves|sp960 perft 518 --moves e2e4 e7e5 --depth 3 --divide
perft-fen|sp960 perft 'bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1' --depth 2
perft-dfrc|sp960 perft 12:34 --depth 3
perft-suite|sp960 perft --suite --depth 2
perft-bad-fen|sp960 perft 'rnbqkbnr/pppppppp/8/8 w' --depth 2
perft-bad-move|sp960 perft 0 --moves e2e5 --depth 1
perft-bad-depth|sp960 perft 0 --depth 9
check-bad-spec|sp960 check 'stockfish colour=blue'
check-missing|sp960 check ./no-such-engine --no-starts --pairs 0 --random 0
match-bad-tc|sp960 match --tc x --sp 0
match-bad-engine|sp960 match --engine 'x colour=blue' --sp 0
engine-uci|printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n' | sp960 engine | grep -v '^info'
engine-xboard|printf 'xboard\nprotover 2\nquit\n' | sp960 engine
bad-subcommand|sp960 nonsense
EOF
    for command in fen identify random explain roll book "book stats" "book package" tournament \
        engine match validate normalize proxy check perft; do
        echo "help-${command// /-}|sp960 $command --help"
    done
}

count=0
while IFS='|' read -r name command; do
    mkdir -p "$work/$name"
    status=0
    (
        cd "$work/$name"
        REPO="$repo" SP="$SP960" sh -c "sp960() { \"\$SP\" \"\$@\"; }; $command"
    ) >"$out/$name.out" 2>"$out/$name.err" </dev/null || status=$?
    echo "$status" >"$out/$name.status"
    if [ -n "$(ls -A "$work/$name")" ]; then
        mkdir -p "$out/$name.files"
        # Launchers are copies of the executable: their size and bytes differ from build to
        # build, so only their names are kept.
        (cd "$work/$name" && find . -type f | sort) >"$out/$name.files/LIST"
        (cd "$work/$name" && find . -type f ! -perm -u+x -exec sh -c \
            'for f; do mkdir -p "'"$out/$name.files"'/$(dirname "$f")"; cp "$f" "'"$out/$name.files"'/$f"; done' sh {} +)
    fi
    count=$((count + 1))
done < <(cases)

# The paths of this checkout and of the scratch directory, as words that compare.
grep -rlF -e "$work" -e "$repo" "$out" 2>/dev/null | while read -r file; do
    sed -i -e "s#$work/[^/\"]*#<WORK>#g" -e "s#$repo#<REPO>#g" "$file"
done
# validate's closing line tells the time it took.
sed -i -E -e 's/; [0-9]+\.[0-9]+ s$/; <TIME> s/' -e 's/"seconds":[0-9.e-]+/"seconds":<TIME>/' "$out"/validate-*
echo "recorded $count invocations in $out" >&2
