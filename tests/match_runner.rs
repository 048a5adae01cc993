//! `sp960 match` with the real Debian engines (/usr/games) and python-chess as the oracle:
//! every game is replayed by tests/python/match_check_pgn.py (legal moves, PlyCount, result
//! against the final board), and every FEN tag must identify back to the game's start.

#[path = "support/peers.rs"]
mod peers;

use std::path::Path;

use peers::{Peer, fixture, python_check_pgn, sp960_match};
use sp960::Start;
use sp960::identify;

const STOCKFISH: &str = "/usr/games/stockfish";
const ETHEREAL: &str = "/usr/games/ethereal-chess";
const SJAAK: &str = "/usr/games/sjaakii";

/// One game as python-chess read it back.
#[derive(Debug, serde::Deserialize)]
struct Checked {
    round: usize,
    fen: String,
    white: String,
    black: String,
    result: String,
    termination: String,
    comment: String,
    /// Each move's `score/depth time` comment.
    evals: Vec<String>,
    plies: usize,
    /// The TimeControl tag as python-chess parses it: null for `-`, else
    /// `[[moves, seconds, increment], ...]`.
    time_control: serde_json::Value,
}

/// The games of `pgn` as python-chess replays them, in round order.
fn python_check(pgn: &Path) -> Vec<Checked> {
    let mut games: Vec<Checked> = python_check_pgn(pgn);
    games.sort_by_key(|g| g.round);
    games
}

/// Plays `engines` from SP 0, 959, 860 and DFRC 0:959 and checks everything.
fn four_starts_both_colours(engines: [&str; 2], names: [&str; 2], limit: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--engine", engines[0], "--engine", engines[1]];
    args.extend([
        "--sp",
        "0,959",
        "--sp",
        "860",
        "--sp",
        "0:959",
        "--json",
        "--pgn",
        "games.pgn",
    ]);
    args.extend(limit);
    let output = sp960_match(dir.path(), &args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 8, "{games:?}");
    let starts: Vec<Start> = ["0", "959", "860", "0:959"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut first_engine_points = 0.0;
    for game in &games {
        let expected = starts[(game.round - 1) / 2];
        assert_eq!(
            identify(&game.fen).unwrap(),
            expected,
            "round {}",
            game.round
        );
        // Odd rounds: the first engine has white.
        let (white, black) = if game.round % 2 == 1 {
            (names[0], names[1])
        } else {
            (names[1], names[0])
        };
        assert_eq!((game.white.as_str(), game.black.as_str()), (white, black));
        assert!(!game.comment.is_empty());
        let white_points = match game.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        first_engine_points += if game.round % 2 == 1 {
            white_points
        } else {
            1.0 - white_points
        };
        assert_eq!(game.termination, "normal", "{game:?}");
    }
    let score = &summary["score"];
    let wins = score["wins"].as_f64().unwrap();
    let draws = score["draws"].as_f64().unwrap();
    assert_eq!(wins + draws / 2.0, first_engine_points);
    assert_eq!(summary["games"].as_array().unwrap().len(), 8);
    assert_eq!(summary["engines"][0], names[0]);
}

#[test]
fn stockfish_vs_ethereal_uci() {
    if !peers::need(&[Peer::Stockfish, Peer::Ethereal, Peer::PythonChess]) {
        return;
    }
    four_starts_both_colours(
        [STOCKFISH, ETHEREAL],
        ["Stockfish 15.1", "Ethereal 12.00"],
        &["--depth", "3"],
    );
}

#[test]
fn stockfish_vs_sjaak_ii_xboard() {
    if !peers::need(&[Peer::Stockfish, Peer::SjaakII, Peer::PythonChess]) {
        return;
    }
    // Sjaak II speaks UCI too: proto=xboard makes it an XBoard engine (bare moves, `move O-O`).
    four_starts_both_colours(
        [STOCKFISH, &format!("proto=xboard 'name=Sjaak II' {SJAAK}")],
        ["Stockfish 15.1", "Sjaak II"],
        &["--depth", "3"],
    );
}

fn scripted_engine() -> String {
    format!("python3 {}", fixture("match_scripted_engine.py").display())
}

#[test]
fn crash_hang_and_illegal_move_lose_that_game_and_the_match_goes_on() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &scripted_engine(),
            "--sp",
            "0,860,959,1",
            "--depth",
            "2",
            "--timeout",
            "1",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 8, "every game is in the PGN: {games:?}");
    for game in &games {
        let scripted_white = game.round % 2 == 1;
        let side = if scripted_white { "White" } else { "Black" };
        let (termination, reason) = match game.round.div_ceil(2) {
            1 => {
                assert_eq!(game.termination, "normal", "{game:?}");
                continue;
            }
            2 => (
                "abandoned",
                format!("{side} disconnects: the engine died unexpectedly from signal 9"),
            ),
            3 => (
                "stalled connection",
                format!("{side} times out: no move within 1.0 s"),
            ),
            _ => (
                "illegal move",
                format!("{side} makes an illegal move: illegal move 'e1e8' in "),
            ),
        };
        assert_eq!(game.termination, termination, "{game:?}");
        assert_eq!(game.result, if scripted_white { "0-1" } else { "1-0" });
        assert!(game.comment.starts_with(&reason), "{game:?}");
    }
    let table = String::from_utf8(output.stdout).unwrap();
    let row: Vec<&str> = table
        .lines()
        .find(|line| line.starts_with("Crasher"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row, ["Crasher", "8", "0", "0", "8", "0.0%"], "{table}");
}

#[test]
fn a_flag_fall_loses_on_time() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &scripted_engine(),
            "--sp",
            "959",
            "--tc",
            "0.5+0",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(output.status.success());
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.termination, "time forfeit", "{game:?}");
        assert!(
            game.comment.contains("loses on time: no move within 0."),
            "{game:?}"
        );
    }
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"0.5+0\"]"));
}

#[test]
fn no_engine_plays_the_built_in_engine_against_itself() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(dir.path(), &["--sp", "860", "--depth", "2"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("sp960-match.pgn"));
    assert_eq!(games.len(), 2);
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(games[0].white, format!("sp960 {version}"));
    assert_eq!(games[0].black, format!("sp960 {version} (2)"));
    for game in &games {
        assert_eq!(identify(&game.fen).unwrap(), "860".parse().unwrap());
    }
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("game 2/2"), "progress on stderr: {stderr}");
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(table.contains("Elo difference"), "{table}");
}

#[test]
fn bad_arguments_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (args, code, message) in [
        (
            &["--engine", "/nonexistent/engine", "--sp", "0"][..],
            127,
            "sp960: match: engine 1: '/nonexistent/engine' not found",
        ),
        (&["--sp", "0", "--tc", "fast"][..], 2, "time control 'fast'"),
        // Times too long for a clock: refused when parsed, naming the value, no panic.
        (
            &["--sp", "0", "--depth", "1", "--tc", "1e308"][..],
            2,
            "time control '1e308': 1e308 seconds is out of range",
        ),
        (
            &["--sp", "0", "--tc", "99999999999999999999"][..],
            2,
            "time control '99999999999999999999': 99999999999999999999 seconds is out of range",
        ),
        (
            &["--sp", "0", "--tc", "10+1e20"][..],
            2,
            "time control '10+1e20': 1e20 seconds is out of range",
        ),
        (
            &["--sp", "0", "--tc", "99999999999999/10"][..],
            2,
            "time control '99999999999999/10': expected [MOVES/]",
        ),
        (
            &["--sp", "0", "--tc", "1:99999999999999999999"][..],
            2,
            "time control '1:99999999999999999999': 1:99999999999999999999 seconds is out of range",
        ),
        (
            &["--sp", "0", "--timeout", "1e300"][..],
            2,
            "--timeout 1e300: expected a positive number of seconds",
        ),
        (
            &["--sp", "0", "--movetime", "18446744073709551615"][..],
            2,
            "--movetime 18446744073709551615: too long",
        ),
        // A count that would exhaust memory is refused before anything is drawn.
        (
            &["--sp", "random", "--count", "99999999999999999"][..],
            2,
            "--count 99999999999999999: too many games (at most 1000000 games",
        ),
        (
            &["--sp", "0-959", "--rounds", "4000000"][..],
            2,
            "960 starts × 2 colours × 4000000 rounds = 7680000000 games: too many",
        ),
        (
            &["--sp", "0", "--pgn", "."][..],
            2,
            "sp960: match: PGN file '.': ",
        ),
        (
            &["--engine", "proto=uci2 stockfish", "--sp", "0"][..],
            2,
            "sp960: match: engine 1: proto=uci2: expected uci or xboard",
        ),
        (
            &["--engine", "/bin/false", "--sp", "0"][..],
            3,
            "sp960: match: engine 1: the engine exited unexpectedly with status 1",
        ),
        (
            &["--sp", "960"][..],
            1,
            "sp960: match: SPEC '960': start position 960 is out of range",
        ),
        (
            &["--engine", "a", "--engine", "b", "--gauntlet", "--sp", "0"][..],
            2,
            "--gauntlet needs three engines or more",
        ),
        (
            &[
                "--engine",
                "a",
                "--engine",
                "b",
                "--engine",
                "c",
                "--sp",
                "0",
                "--sprt",
                "elo0=0 elo1=5 alpha=0.05 beta=0.05",
            ][..],
            2,
            "--sprt needs exactly two engines",
        ),
        (
            &[
                "--engine",
                &format!("proto=xboard {SJAAK}"),
                "--sp",
                "0",
                "--nodes",
                "100",
            ][..],
            2,
            "XBoard has no node limit",
        ),
        // --affinity: what cannot hold is refused before any engine starts.
        (
            &["--engine", "a option.Threads=2", "--sp", "0", "--affinity"][..],
            2,
            "sp960: match: --affinity: it pins each game and its engines to one CPU, and \
             engine 1 is given option.Threads=2; leave --affinity out for multi-threaded engines",
        ),
        (
            &["--sp", "0", "--affinity", "1000"][..],
            2,
            "sp960: match: --affinity: CPU 1000 is not one this process may run on (it may use 0",
        ),
        (
            &["--sp", "0", "--affinity", "0", "--concurrency", "2"][..],
            2,
            "sp960: match: --affinity: 2 games at once need 2 CPUs, one each, and 1 is given",
        ),
        (
            &["--sp", "0", "--affinity", "3-1"][..],
            2,
            "invalid value '3-1' for '--affinity [<CPUS>]': 3-1 is not a range: its end must be above its start",
        ),
    ] {
        let output = sp960_match(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(
        !dir.path().join("sp960-match.pgn").exists(),
        "no PGN for refused matches"
    );
}

#[test]
fn random_starts_rounds_and_max_plies() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--sp",
            "random",
            "--count",
            "2",
            "--seed",
            "7",
            "--rounds",
            "2",
            "--max-plies",
            "10",
            "--depth",
            "1",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 8, "2 starts x 2 colours x 2 rounds");
    let expected: Vec<Start> = sp960::RandomStarts::new(7, false).take(2).collect();
    for game in &games {
        // Rounds 1-4 and 5-8 repeat the schedule: start, start swapped, next start, ...
        let start = expected[((game.round - 1) / 2) % 2];
        assert_eq!(identify(&game.fen).unwrap(), start, "{game:?}");
        assert_eq!(game.termination, "adjudication", "{game:?}");
        assert_eq!(game.plies, 10);
        assert_eq!(game.result, "1/2-1/2");
        assert_eq!(game.comment, "Draw by adjudication: --max-plies reached");
    }
}

#[cfg(unix)] // SIGINT
#[test]
fn an_interrupted_match_keeps_every_finished_game_whole() {
    use assert_cmd::cargo::CommandCargoExt;
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let mut child = std::process::Command::cargo_bin("sp960")
        .unwrap()
        .current_dir(dir.path())
        .args(["match", "--sp", "0-9", "--depth", "2", "--concurrency", "2"])
        .args(["--pgn", "games.pgn"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let begin = std::time::Instant::now();
    while std::fs::read_to_string(&pgn)
        .unwrap_or_default()
        .matches("[Event ")
        .count()
        < 3
    {
        assert!(begin.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert!(!status.success(), "interrupted before the 20 games ended");
    let games = python_check(&pgn);
    assert!((3..20).contains(&games.len()), "{} games", games.len());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.ends_with("\n\n"), "the last entry is complete");
}

#[test]
fn built_in_engine_over_xboard_with_a_clock() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let xboard = format!(
        "proto=xboard name=xb {} engine",
        env!("CARGO_BIN_EXE_sp960")
    );
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &xboard,
            "--sp",
            "860",
            "--sp",
            "0:959",
            "--depth",
            "2",
            "--tc",
            "20+0.1",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 4);
    for game in &games {
        assert_eq!(game.termination, "normal", "{game:?}");
        assert!(game.white == "xb" || game.black == "xb");
    }
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[TimeControl \"20+0.1\"]").count(), 4);
    for game in &games {
        assert_eq!(game.time_control, serde_json::json!([[0, 20, 0.1]]));
    }
}

#[test]
fn time_control_tag_is_pgn_seconds_that_python_chess_reads() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (tc, tag, parsed) in [
        (
            Some("40/1:30+1"),
            "40/90+1",
            serde_json::json!([[40, 90, 1.0]]),
        ),
        (
            Some("1:00+0.6"),
            "60+0.6",
            serde_json::json!([[0, 60, 0.6]]),
        ),
        (None, "-", serde_json::Value::Null),
    ] {
        let pgn = dir.path().join(format!("{tag}.pgn").replace('/', "_"));
        let mut args = vec!["--sp", "0", "--depth", "1", "--max-plies", "4", "--pgn"];
        args.push(pgn.to_str().unwrap());
        if let Some(tc) = tc {
            args.extend(["--tc", tc]);
        }
        let output = sp960_match(dir.path(), &args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches(&format!("[TimeControl \"{tag}\"]")).count(), 2);
        for game in python_check(&pgn) {
            assert_eq!(game.time_control, parsed, "{tc:?}");
        }
    }
}

/// Engine-side faults (tests/python/hostile_engine.py): garbage bytes and invalid UTF-8
/// are passed over, a 100,000-line flood is read through, a `bestmove` naming no move or
/// invalid bytes loses by an illegal move, an exit mid-line loses by disconnection, and
/// every other game of the match is played; the same verdicts with `sp960 proxy` between
/// the runner and the engine (whose shield passes an illegal bestmove on as `0000`).
#[test]
fn a_hostile_engine_loses_only_its_broken_games_directly_and_through_the_proxy() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let engine = format!("python3 {}", fixture("hostile_engine.py").display());
    let proxied = format!("{} proxy -- {engine}", env!("CARGO_BIN_EXE_sp960"));
    for (how, command) in [("direct", engine.clone()), ("through the proxy", proxied)] {
        let dir = tempfile::tempdir().unwrap();
        let output = sp960_match(
            dir.path(),
            &[
                "--engine",
                &command,
                "--sp",
                "2-6",
                "--depth",
                "2",
                "--timeout",
                "5",
                "--concurrency",
                "2",
                "--pgn",
                "games.pgn",
            ],
        );
        assert!(
            output.status.success(),
            "{how}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let games = python_check(&dir.path().join("games.pgn"));
        assert_eq!(
            games.len(),
            10,
            "{how}: every game is in the PGN: {games:?}"
        );
        for game in &games {
            let hostile_white = game.white == "Hostile";
            let side = if hostile_white { "White" } else { "Black" };
            let start = &game.fen[..8];
            let (termination, reason) = match start {
                // Garbage lines and a flood are read through: the game is played out.
                "bqnnrbkr" | "bqnnrkrb" => ("normal", String::new()),
                "qbbnnrkr" => (
                    "illegal move",
                    format!("{side} makes an illegal move: no move"),
                ),
                // Through the proxy, its shield turns a bestmove that is not a legal move
                // into `bestmove 0000` (with an info string), so the runner sees no move.
                "qnbbnrkr" if how == "direct" => (
                    "illegal move",
                    format!("{side} makes an illegal move: illegal move"),
                ),
                "qnbbnrkr" => (
                    "illegal move",
                    format!("{side} makes an illegal move: no move"),
                ),
                "qnbnrbkr" => (
                    "abandoned",
                    format!("{side} disconnects: the engine exited"),
                ),
                other => panic!("{how}: unexpected start {other}"),
            };
            assert_eq!(game.termination, termination, "{how}: {game:?}");
            assert!(game.comment.starts_with(&reason), "{how}: {game:?}");
            assert!(
                game.plies >= 4 || termination != "normal",
                "{how}: {game:?}"
            );
        }
    }
}

#[test]
fn resign_and_draw_adjudication_from_the_engines_scores() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &format!("{STOCKFISH} name=a nodes=800"),
            "--engine",
            &format!("{STOCKFISH} name=b nodes=400"),
            "--sp",
            "100-102",
            "--concurrency",
            "1",
            "--pgn",
            "games.pgn",
            "--resign",
            "movecount=3",
            "score=400",
            "--draw",
            "movenumber=20 movecount=4 score=15",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Python-chess reads every game back legally; each was adjudicated, with the reason
    // as the last comment.
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 6);
    let mut draws = 0;
    for game in &games {
        assert_eq!(game.termination, "adjudication", "{game:?}");
        if game.result == "1/2-1/2" {
            draws += 1;
            assert_eq!(
                game.comment,
                "Draw by adjudication: both scores within 15 cp for 4 moves"
            );
        } else {
            let (winner, loser) = if game.result == "1-0" {
                ("White", "Black")
            } else {
                ("Black", "White")
            };
            assert_eq!(
                game.comment,
                format!(
                    "{winner} wins by adjudication: {loser}'s score at or below -400 cp for 3 moves"
                ),
                "{game:?}"
            );
        }
    }
    assert!(draws >= 1, "{games:?}");
    // Each move has its `+0.35/12 0.105s` comment: a UCI engine's score and depth.
    for game in &games {
        assert_eq!(game.evals.len(), game.plies);
        assert!(
            game.evals
                .iter()
                .all(|eval| eval.starts_with(['+', '-', '0']) && !eval.contains("/0 ")),
            "{game:?}"
        );
    }
    // A bad value is a usage error naming it, before any game.
    let output = sp960_match(dir.path(), &["--sp", "0", "--draw", "movenumber=4 score=5"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--draw: movecount= is missing"), "{stderr}");
}

/// Glaurung 2.2 on DFRC pairs whose castling files differ between the colours (860:1:
/// kings c1 and g8), where it corrupts its memory given their castling rights
/// (docs/hostile-gui.md): the runner gives it one thread and its positions as the proxy's
/// shield renders them, says so, and every game ends by the rules. The engine log shows
/// what each engine was sent: Glaurung only rights one set of files can hold, Stockfish
/// the game's own.
#[test]
fn glaurung_plays_dfrc_pairs_with_mixed_castling_files_to_the_end() {
    use sp960::{parse_fen, shared_castling_files};
    if !peers::need(&[Peer::Glaurung, Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    const GLAURUNG: &str = "/usr/games/glaurung";
    let pairs = ["860:1", "0:959", "518:860", "959:0"];
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            GLAURUNG,
            "--engine",
            STOCKFISH,
            "--sp",
            &pairs.join(","),
            "--depth",
            "8",
            "--concurrency",
            "2",
            "--pgn",
            "games.pgn",
            "--log",
            "logs",
        ],
    );
    let told = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{told}");
    for note in [
        "sp960: match: engine 'Glaurung 2.2': given option Threads=1",
        "sp960: match: engine 'Glaurung 2.2': it keeps one king file and one rook file per \
         wing for both colours, and in opening 860:1 the colours' castling files differ",
    ] {
        assert!(told.contains(note), "{told}");
    }
    assert!(!told.contains("engine 'Stockfish 15.1'"), "{told}");
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 2 * pairs.len(), "{games:?}");
    for game in &games {
        let expected: Start = pairs[(game.round - 1) / 2].parse().unwrap();
        assert_eq!(identify(&game.fen).unwrap(), expected, "{game:?}");
        assert_eq!(game.termination, "normal", "{game:?}");
    }
    eprintln!(
        "{} games in {:.0?}: {:?}",
        games.len(),
        started.elapsed(),
        games
            .iter()
            .map(|game| format!("{} {}", game.result, game.comment))
            .collect::<Vec<_>>()
    );
    // Every position Glaurung got fits one set of castling files; Stockfish got the
    // game's own rights, which do not.
    let (mut glaurung, mut stockfish_mixed, mut threads) = (0, 0, false);
    for entry in std::fs::read_dir(dir.path().join("logs")).unwrap() {
        let log = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in log.lines() {
            threads |= line.contains(" Glaurung 2.2 > setoption name Threads value 1");
            let Some((engine, fen)) = line.split_once(" > position fen ") else {
                continue;
            };
            let fen = fen.split(" moves ").next().unwrap();
            let (position, _) = parse_fen(fen).unwrap();
            if engine.ends_with(" Glaurung 2.2") {
                glaurung += 1;
                assert!(shared_castling_files(&position), "{line}");
            } else if !shared_castling_files(&position) {
                stockfish_mixed += 1;
            }
        }
    }
    assert!(threads, "no Threads 1 in the logs");
    assert!(
        glaurung > 0 && stockfish_mixed > 0,
        "{glaurung} {stockfish_mixed}"
    );
}

/// The CPUs thread `tid` of process `pid` may run on, as Linux reports them
/// (`Cpus_allowed_list`), or `None` once it is gone.
#[cfg(target_os = "linux")]
fn allowed_cpus(pid: &str, tid: &str) -> Option<String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
        .map(|list| list.trim().to_owned())
}

/// The threads of process `pid`: (id, name).
#[cfg(target_os = "linux")]
fn threads_of(pid: &str) -> Vec<(String, String)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .map(|task| {
            let tid = task.file_name().to_string_lossy().into_owned();
            let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            (tid, name.trim().to_owned())
        })
        .collect()
}

/// The processes whose parent is `pid`.
#[cfg(target_os = "linux")]
fn children_of(pid: u32) -> Vec<String> {
    let parent = format!("PPid:\t{pid}");
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let status = std::fs::read_to_string(entry.path().join("status")).ok()?;
            status.lines().any(|line| line == parent).then_some(name)
        })
        .collect()
}

/// `--affinity CPU`: while the games run, the kernel reports the game's worker thread and
/// every thread of both Stockfish processes allowed on that CPU alone (the last one this
/// process may use); the games are whole and legal for python-chess.
#[cfg(target_os = "linux")]
#[test]
fn affinity_pins_the_game_and_both_engines_to_one_cpu() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let ours = allowed_cpus("self", &std::process::id().to_string()).unwrap();
    let cpu = ours.rsplit([',', '-']).next().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let mut runner = std::process::Command::new(peers::sp960())
        .current_dir(dir.path())
        .args(["match", "--engine", STOCKFISH, "--engine", STOCKFISH])
        .args(["--sp", "100", "--nodes", "20000", "--affinity", &cpu])
        .args(["--pgn", "games.pgn"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = runner.id().to_string();
    let started = std::time::Instant::now();
    let mut seen = None;
    while started.elapsed() < std::time::Duration::from_secs(120) {
        if runner.try_wait().unwrap().is_some() {
            break;
        }
        let worker: Vec<Option<String>> = threads_of(&pid)
            .iter()
            .filter(|(_, name)| name == "match-worker-0")
            .map(|(tid, _)| allowed_cpus(&pid, tid))
            .collect();
        let engines: Vec<Vec<Option<String>>> = children_of(runner.id())
            .iter()
            .map(|child| {
                threads_of(child)
                    .iter()
                    .map(|(tid, _)| allowed_cpus(child, tid))
                    .collect()
            })
            .collect();
        let pinned = |list: &Option<String>| list.as_deref() == Some(cpu.as_str());
        if worker.len() == 1
            && worker.iter().all(pinned)
            && engines.len() == 2
            && engines
                .iter()
                .all(|threads| threads.len() >= 2 && threads.iter().all(pinned))
        {
            seen = Some(engines);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = runner.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        seen.is_some(),
        "never saw the worker and both engines pinned to CPU {cpu}: {stderr}"
    );
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("not pinned"), "{stderr}");
    let games: Vec<Checked> = python_check_pgn(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|game| game.plies > 0), "{games:?}");
}
