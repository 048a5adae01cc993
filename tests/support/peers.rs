//! The real peers the tests run, and the one rule for a missing one (`#[path]`-included
//! by every suite that starts a peer; the library's unit tests start none): a test that
//! needs a peer starts with
//!
//! ```ignore
//! if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
//!     return;
//! }
//! ```
//!
//! When one is missing, [`need`] prints `SKIPPED <test>: needs <peer> (<how to get it>)` on
//! stderr, past the test harness's capture so that `cargo test` shows it, and the test
//! returns and passes; with `CI` set the same message fails the test. `scripts/test.sh`
//! installs every peer.
//!
//! The rest: the PATH the peers are found on, and the shared steps of the match tests (run
//! `sp960 match`, replay its PGN with python-chess).
#![allow(dead_code)] // each test crate uses its part

use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

/// A program (or python-chess) a test runs beside sp960.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Debian's chess engines, run from /usr/games.
    Stockfish,
    Ethereal,
    Glaurung,
    FairyStockfish,
    Toga2,
    SjaakII,
    Fairymax,
    /// The UCI-to-XBoard adapter (/usr/games/polyglot).
    Polyglot,
    /// The XBoard GUI (/usr/games/xboard), run under Xvfb.
    Xboard,
    /// `xvfb-run` with Xvfb and xauth.
    Xvfb,
    Hyperfine,
    /// `python3` alone (scripted engines and fake processes).
    Python,
    /// python3 with python-chess 1.11.2 (`import chess`).
    PythonChess,
    /// The match runners `scripts/build-runners.sh` builds from pinned sources.
    Fastchess,
    CutechessCli,
    /// Debian's pgn-extract (/usr/games/pgn-extract).
    PgnExtract,
    /// python3 with scipy and numpy (`sp960 results`'s independent statistics).
    Scipy,
    /// Debian's chromium, run headless (`sp960 results --html` rendered).
    Chromium,
}

// ALL lists every peer in the order of the enum (`Peer::present` counts on it).
const _: () = {
    let mut i = 0;
    while i < Peer::ALL.len() {
        assert!(Peer::ALL[i] as usize == i);
        i += 1;
    }
};

impl Peer {
    /// Every peer, in the order of the enum.
    pub const ALL: [Peer; 18] = [
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::Glaurung,
        Peer::FairyStockfish,
        Peer::Toga2,
        Peer::SjaakII,
        Peer::Fairymax,
        Peer::Polyglot,
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Hyperfine,
        Peer::Python,
        Peer::PythonChess,
        Peer::Fastchess,
        Peer::CutechessCli,
        Peer::PgnExtract,
        Peer::Scipy,
        Peer::Chromium,
    ];

    /// Its name in the SKIPPED line: the command it is run as.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Stockfish => "stockfish",
            Peer::Ethereal => "ethereal-chess",
            Peer::Glaurung => "glaurung",
            Peer::FairyStockfish => "fairy-stockfish",
            Peer::Toga2 => "toga2",
            Peer::SjaakII => "sjaakii",
            Peer::Fairymax => "fairymax",
            Peer::Polyglot => "polyglot",
            Peer::Xboard => "xboard",
            Peer::Xvfb => "xvfb-run",
            Peer::Hyperfine => "hyperfine",
            Peer::Python => "python3",
            Peer::PythonChess => "python-chess 1.11.2",
            Peer::Fastchess => "fastchess",
            Peer::CutechessCli => "cutechess-cli",
            Peer::PgnExtract => "pgn-extract",
            Peer::Scipy => "scipy",
            Peer::Chromium => "chromium",
        }
    }

    /// How to get it (`scripts/test.sh` does all of these).
    pub fn how(self) -> &'static str {
        match self {
            Peer::Stockfish => "Debian package stockfish",
            Peer::Ethereal => "Debian package ethereal-chess",
            Peer::Glaurung => "Debian package glaurung",
            Peer::FairyStockfish => "Debian package fairy-stockfish",
            Peer::Toga2 => "Debian package toga2",
            Peer::SjaakII => "Debian package sjaakii",
            Peer::Fairymax => "Debian package fairymax",
            Peer::Polyglot => "Debian package polyglot",
            Peer::Xboard => "Debian package xboard",
            Peer::Xvfb => "Debian packages xvfb xauth",
            Peer::Hyperfine => "Debian package hyperfine",
            Peer::Python => "Debian package python3",
            Peer::PythonChess => "pip install chess==1.11.2",
            Peer::Fastchess | Peer::CutechessCli => {
                "scripts/build-runners.sh ~/.cache/sp960-peers/bin"
            }
            Peer::PgnExtract => "Debian package pgn-extract",
            Peer::Scipy => "pip install scipy",
            Peer::Chromium => "Debian package chromium",
        }
    }

    /// The peer a command name stands for (as [`have`] is given it).
    pub fn of_command(command: &str) -> Option<Peer> {
        Peer::ALL
            .into_iter()
            .find(|peer| peer.name() == command)
            .or(match command {
                "python" | "python-chess" | "chess" => Some(Peer::PythonChess),
                "Xvfb" | "xvfb" | "xauth" => Some(Peer::Xvfb),
                _ => None,
            })
    }

    /// Whether it is installed where the tests run it (looked up once per test binary).
    pub fn present(self) -> bool {
        // One slot per peer, by its place in the enum (ALL lists them in that order).
        static FOUND: [OnceLock<bool>; Peer::ALL.len()] =
            [const { OnceLock::new() }; Peer::ALL.len()];
        *FOUND[self as usize].get_or_init(|| {
            match self {
                // The tests run the engines, polyglot and xboard as /usr/games/NAME.
                Peer::Stockfish
                | Peer::Ethereal
                | Peer::Glaurung
                | Peer::FairyStockfish
                | Peer::Toga2
                | Peer::SjaakII
                | Peer::Fairymax
                | Peer::Polyglot
                | Peer::PgnExtract
                | Peer::Xboard => executable(&Path::new("/usr/games").join(self.name())),
                Peer::Xvfb => ["xvfb-run", "Xvfb", "xauth"].into_iter().all(on_path),
                Peer::PythonChess => {
                    on_path("python3")
                        && std::process::Command::new("python3")
                            .args([
                                "-c",
                                "import sys, chess; sys.exit(chess.__version__ != '1.11.2')",
                            ])
                            .stdout(std::process::Stdio::null())
                            .stderr(std::process::Stdio::null())
                            .status()
                            .is_ok_and(|status| status.success())
                }
                Peer::Scipy => {
                    on_path("python3")
                        && std::process::Command::new("python3")
                            .args(["-c", "import scipy, numpy"])
                            .stdout(std::process::Stdio::null())
                            .stderr(std::process::Stdio::null())
                            .status()
                            .is_ok_and(|status| status.success())
                }
                _ => on_path(self.name()),
            }
        })
    }
}

/// The one rule: true when every peer in `peers` is installed. Otherwise prints
/// `SKIPPED <test>: needs <peer> (<how to get it>)` on stderr and returns false (the
/// test returns, and passes), or, with `CI` set, fails the test with that message.
pub fn need(peers: &[Peer]) -> bool {
    let missing: Vec<String> = peers
        .iter()
        .filter(|peer| !peer.present())
        .map(|peer| format!("{} ({})", peer.name(), peer.how()))
        .collect();
    missing.is_empty() || skip(&missing)
}

/// [`need`] for one peer named by its command (`fastchess`, `stockfish`, `python3`, ...);
/// a command that is no [`Peer`] is looked up on [`search_path`].
pub fn have(tool: &str) -> bool {
    match Peer::of_command(tool) {
        Some(peer) => need(&[peer]),
        None => on_path(tool) || skip(&[format!("{tool} (install it on PATH)")]),
    }
}

/// The SKIPPED line for the `missing` peers (each `name (how)`), or the failure under CI;
/// returns false.
fn skip(missing: &[String]) -> bool {
    let thread = std::thread::current();
    let message = format!(
        "{}: needs {}",
        thread.name().unwrap_or("a test"),
        missing.join(", ")
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "{message}: CI is set, so a missing peer fails (scripts/test.sh installs every peer)"
    );
    // Straight to stderr: eprintln! is captured, and shown only when the test fails.
    let _ = writeln!(std::io::stderr(), "SKIPPED {message}");
    false
}

/// True when `path` is a file someone may execute (on Windows: a file; the Linux peers are
/// not there, and the suites under Wine skip them).
fn executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// True when `command` is an executable file in a directory of [`search_path`].
fn on_path(command: &str) -> bool {
    search_path()
        .split(':')
        .any(|dir| !dir.is_empty() && executable(&Path::new(dir).join(command)))
}

/// The sp960 binary under test (in an integration test; the library's unit tests have
/// none, and would find one on PATH).
pub fn sp960() -> &'static str {
    option_env!("CARGO_BIN_EXE_sp960").unwrap_or("sp960")
}

/// PATH for the peers: sp960 itself (wrapped engines call `sp960 proxy`; in an integration
/// test), Debian's engines in /usr/games, and the match runners where `scripts/test.sh`
/// builds them.
pub fn search_path() -> String {
    let bin = Path::new(sp960())
        .parent()
        .map_or_else(String::new, |dir| dir.display().to_string());
    let peers = std::env::var("HOME").map_or_else(
        |_| String::new(),
        |home| format!("{home}/.cache/sp960-peers/bin"),
    );
    format!(
        "{bin}:/usr/games:{peers}:{}",
        std::env::var("PATH").unwrap_or_default()
    )
}

/// What cutechess-cli and fastchess write when an engine misbehaved (stalled, crashed,
/// played an illegal move, was warned about).
pub const RUNNER_TROUBLE: [&str; 4] = [
    "stalled / disconnected",
    "Warning; Engine",
    "Illegal move",
    "crash",
];

/// Fails the test, showing `what` and the log, when a runner's `log` holds any of
/// [`RUNNER_TROUBLE`] or of `more`.
pub fn assert_runner_untroubled(log: &str, what: &str, more: &[&str]) {
    for bad in RUNNER_TROUBLE.iter().chain(more) {
        assert!(
            !log.contains(bad),
            "{what}\nthe runner said '{bad}':\n{log}"
        );
    }
}

/// Runs a command line a tool printed as a shell would, in `dir`, within ten minutes: it must
/// succeed; returns its stdout and stderr, for the caller's own checks.
pub fn run_printed_line(dir: &Path, line: &str) -> String {
    let output = std::process::Command::new("timeout")
        .args(["600", "sh", "-c", line])
        .env("PATH", search_path())
        .current_dir(dir)
        .output()
        .unwrap();
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{line}\nfailed: {log}");
    log
}

/// A script or data file in tests/python.
pub fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(name)
}

/// `sp960 match ARGS` in `dir`, with the peers on PATH.
pub fn sp960_match(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(sp960())
        .current_dir(dir)
        .env("PATH", search_path())
        .arg("match")
        .args(args)
        .output()
        .unwrap()
}

/// The games of a PGN as python-chess replays them (tests/python/match_check_pgn.py, one
/// JSON object per game); fails the test when python-chess rejects the PGN.
pub fn python_check_pgn<T: serde::de::DeserializeOwned>(pgn: &Path) -> Vec<T> {
    python_json_lines("match_check_pgn.py", pgn)
}

/// `python3 tests/python/SCRIPT PATH`: its stdout, one JSON value a line; fails the test
/// when the script fails, with its stderr.
pub fn python_json_lines<T: serde::de::DeserializeOwned>(script: &str, path: &Path) -> Vec<T> {
    let output = std::process::Command::new("python3")
        .arg(fixture(script))
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{script} {}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The words of a PGN movetext without its `{...}` comments and move numbers: the moves
/// and, last, the result.
pub fn movetext_words(body: &str) -> Vec<String> {
    let mut text = String::new();
    let mut depth = 0;
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace()
        .filter(|word| !word.ends_with('.'))
        .map(str::to_owned)
        .collect()
}

/// The moves and result of each game of a PGN file, comments and move numbers dropped.
pub fn games(pgn: &str) -> Vec<(String, Vec<String>)> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            let result = game
                .lines()
                .find_map(|line| line.strip_prefix("[Result \""))
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .to_owned();
            let body = game.split_once("\n\n").map_or("", |(_, body)| body);
            let mut moves = movetext_words(body);
            moves.retain(|word| *word != result);
            (result, moves)
        })
        .collect()
}

// ---- the games a match runner saved (tests/runners.rs, tests/cutechess_gui.rs) ----

/// One game as python-chess sees it (tests/python/runner_games.py).
#[derive(Debug, serde::Deserialize)]
pub struct Game {
    pub white: String,
    pub black: String,
    pub result: String,
    pub moves: u32,
    pub reason: String,
    pub by_rules: bool,
}

/// How a game on a real clock may end besides the rules: a flag that fell well into the
/// game, by a small overrun (fastchess says `loses on time (13ms overrun)`; cutechess-cli
/// gives no figure), is the machine's load, not the setup. A flag in the opening, or a
/// large overrun, is not tolerated.
pub fn late_flag_under_load(game: &Game) -> bool {
    let Some(rest) = game.reason.strip_suffix("ms overrun)") else {
        return game.reason.ends_with("loses on time") && game.moves > 20;
    };
    let overrun: u64 = rest
        .rsplit('(')
        .next()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(u64::MAX);
    rest.contains("loses on time") && game.moves > 20 && overrun <= 250
}

/// Checks the games of `pgn`: `games` of them, each ended by the rules (or, with
/// `clock`, by a late flag under load: [`late_flag_under_load`]), legal in python-chess,
/// from one of `starts` (sp960's labels: `860`, `0:959`) by
/// `sp960 validate --start-positions`, each start and pairing with both colours.
pub fn check_games(pgn: &Path, games: usize, starts: &[&str], clock: bool) -> Vec<Game> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/runner_games.py");
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let output = std::process::Command::new("python3")
        .arg(script)
        .arg(pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "python-chess: {}\n{text}",
        String::from_utf8_lossy(&output.stderr)
    );
    let played: Vec<Game> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(played.len(), games, "{text}");
    for game in &played {
        if clock && late_flag_under_load(game) {
            eprintln!("tolerated, a late flag under load: {game:?}");
            continue;
        }
        assert!(
            game.by_rules && ["1-0", "0-1", "1/2-1/2"].contains(&game.result.as_str()),
            "not ended by the rules ({}): {game:?}\n{text}",
            game.reason
        );
        assert!(game.moves > 0, "{game:?}");
    }
    // The starts, in PGN order, as sp960 reads them back.
    let found = starts_in(pgn);
    assert_eq!(found.len(), games);
    // Both colours: (start, white, black) as often as (start, black, white).
    let mut pairings: std::collections::BTreeMap<(String, String, String), i32> =
        std::collections::BTreeMap::new();
    for (start, game) in found.iter().zip(&played) {
        assert!(
            starts.contains(&start.as_str()),
            "start {start} was not asked for"
        );
        *pairings
            .entry((start.clone(), game.white.clone(), game.black.clone()))
            .or_default() += 1;
        *pairings
            .entry((start.clone(), game.black.clone(), game.white.clone()))
            .or_default() -= 1;
    }
    assert!(
        pairings.values().all(|n| *n == 0),
        "colours not swapped: {pairings:?}"
    );
    for start in starts {
        assert!(
            found.iter().any(|s| s == start),
            "start {start} never played"
        );
    }
    played
}

/// The starts of a book or a runner's PGN, in order, as `sp960 validate
/// --start-positions` reads them (which must accept the file).
pub fn starts_in(book: &Path) -> Vec<String> {
    let output = std::process::Command::new(sp960())
        .args(["validate", "--start-positions", "--format", "json"])
        .arg(book)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "sp960 validate --start-positions refused {}: {}",
        book.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|record| record.get("summary").is_none())
        .map(|record| record["start"].as_str().expect("a start").to_owned())
        .collect()
}
