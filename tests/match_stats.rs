//! `sp960 match`'s statistics: the same fixed-node games played by sp960 and by the real
//! fastchess (built from pinned sources by scripts/build-runners.sh) give the same W/D/L, pentanomial
//! counts, Elo, nElo, LOS and LLR; `--sprt` stops the match when a bound is crossed.
//!
//! A missing runner skips its comparison, and a missing engine its test, with a message,
//! except when `CI` is set: then it is a failure (tests/support/peers.rs).

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Mutex;

use serde_json::Value;

const STOCKFISH: &str = "/usr/games/stockfish";

/// One match at a time on a 2-core machine.
#[path = "support/peers.rs"]
mod peers;
use peers::{Peer, games, have, search_path};

static RUNNING: Mutex<()> = Mutex::new(());

fn sp960() -> &'static str {
    env!("CARGO_BIN_EXE_sp960")
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PATH", search_path())
        .output()
        .unwrap_or_else(|err| panic!("{program}: {err}"));
    assert!(
        output.status.success(),
        "{program} {args:?}: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Each game's per-move `score/depth` (the time, which differs from run to run, left out),
/// from comments such as `{+0.47/7 0.001s}` (fastchess adds `, Black mates` to the last).
fn evals(pgn: &str) -> Vec<Vec<String>> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            game.split('{')
                .skip(1)
                .filter_map(|comment| {
                    let comment = comment.split('}').next()?.split(',').next()?;
                    let first = comment.split_whitespace().next()?;
                    first.contains('/').then(|| first.to_owned())
                })
                .collect()
        })
        .collect()
}

/// The text after `key` in fastchess's final report, up to the next `stop` character.
fn after<'a>(report: &'a str, key: &str, stop: &[char]) -> &'a str {
    let start = report
        .rfind(key)
        .unwrap_or_else(|| panic!("'{key}' not in fastchess's report:\n{report}"))
        + key.len();
    let rest = report[start..].trim_start();
    rest[..rest.find(stop).unwrap_or(rest.len())].trim()
}

/// sp960's number at fastchess's printed precision (`nan`/`inf` where sp960 has `null`).
fn printed(value: &Value, scale: f64) -> String {
    value
        .as_f64()
        .map_or_else(|| "undefined".to_owned(), |x| format!("{:.2}", x * scale))
}

/// fastchess's printed number, with its non-finite words as `undefined`.
fn fastchess_number(text: &str) -> String {
    match text {
        "nan" | "-nan" | "inf" | "-inf" => "undefined".to_owned(),
        _ => text.to_owned(),
    }
}

#[test]
fn the_same_games_as_fastchess_give_the_same_statistics() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let book = run(dir.path(), sp960(), &["fen", "100-105", "--format", "epd"]).stdout;
    std::fs::write(dir.path().join("book.epd"), book).unwrap();
    let sprt = ["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"];
    let mut args = vec![
        "match",
        "--engine",
        "/usr/games/stockfish name=a nodes=800",
        "--engine",
        "/usr/games/stockfish name=b nodes=400",
        "--sp",
        "100-105",
        "--concurrency",
        "1",
        "--pgn",
        "sp960.pgn",
        "--json",
        "--sprt",
    ];
    args.extend(sprt);
    let output = run(dir.path(), sp960(), &args);
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
    let stats = &summary["stats"];
    for key in [
        "elo",
        "elo_error",
        "nelo",
        "nelo_error",
        "los",
        "draw_ratio",
        "pentanomial",
        "llr",
        "llr_lower",
        "llr_upper",
    ] {
        assert!(stats.get(key).is_some(), "stats.{key} missing: {summary}");
    }
    assert!(summary.get("elo").is_some() && summary.get("games").is_some());
    let pentanomial: Vec<u64> = stats["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(pentanomial.iter().sum::<u64>(), 6, "{summary}");

    if !have("fastchess") {
        return;
    }
    let mut args = vec![
        "-engine",
        "cmd=/usr/games/stockfish",
        "name=a",
        "nodes=800",
        "-engine",
        "cmd=/usr/games/stockfish",
        "name=b",
        "nodes=400",
        "-each",
        "tc=inf",
        "proto=uci",
        "-variant",
        "fischerandom",
        "-openings",
        "file=book.epd",
        "format=epd",
        "order=sequential",
        "-games",
        "2",
        "-rounds",
        "6",
        "-repeat",
        "-concurrency",
        "1",
        "-pgnout",
        "file=fastchess.pgn",
        "-sprt",
    ];
    args.extend(sprt);
    let report = String::from_utf8(run(dir.path(), "fastchess", &args).stdout).unwrap();

    // The same games, move for move: the statistics below compare like with like.
    let ours = games(&std::fs::read_to_string(dir.path().join("sp960.pgn")).unwrap());
    let theirs = games(&std::fs::read_to_string(dir.path().join("fastchess.pgn")).unwrap());
    assert_eq!(ours.len(), 12);
    assert_eq!(ours, theirs, "sp960's games differ from fastchess's");
    // And the per-move comments carry the same scores and depths.
    let our_evals = evals(&std::fs::read_to_string(dir.path().join("sp960.pgn")).unwrap());
    let their_evals = evals(&std::fs::read_to_string(dir.path().join("fastchess.pgn")).unwrap());
    for ((game, ours), theirs) in our_evals.iter().enumerate().zip(&their_evals) {
        assert_eq!(ours.len(), theirs.len(), "game {}", game + 1);
        assert_eq!(
            ours,
            theirs,
            "game {}: score/depth comments differ",
            game + 1
        );
    }

    let score = &summary["score"];
    let wdl = |key: &str| score[key].as_u64().unwrap().to_string();
    assert_eq!(after(&report, "Wins:", &[',']), wdl("wins"), "{report}");
    assert_eq!(after(&report, "Draws:", &[',']), wdl("draws"), "{report}");
    assert_eq!(after(&report, "Losses:", &[',']), wdl("losses"), "{report}");
    let ptnml = after(&report, "Ptnml(0-2): [", &[']']);
    let ptnml: Vec<u64> = ptnml
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    assert_eq!(ptnml, pentanomial, "{report}");
    // "Elo: 338.04 +/- nan, nElo: 482.49 +/- 196.58" (fastchess's words for non-finite).
    for (key, stop, value, error) in [
        ("\nElo:", ',', "elo", "elo_error"),
        ("nElo:", '\n', "nelo", "nelo_error"),
    ] {
        let text = after(&report, key, &[stop]);
        let (number, margin) = text.split_once("+/-").unwrap();
        assert_eq!(
            fastchess_number(number.trim()),
            printed(&stats[value], 1.0),
            "{value}: {report}\n{summary}"
        );
        assert_eq!(
            fastchess_number(margin.trim()),
            printed(&stats[error], 1.0),
            "{error}: {report}\n{summary}"
        );
    }
    for (key, stop, field, scale) in [
        ("LOS:", '%', "los", 100.0),
        ("DrawRatio:", '%', "draw_ratio", 100.0),
        ("LLR:", ' ', "llr", 1.0),
    ] {
        assert_eq!(
            fastchess_number(after(&report, key, &[stop])),
            printed(&stats[field], scale),
            "{field}: {report}\n{summary}"
        );
    }
    let bounds = after(&report, "LLR:", &['[']);
    assert!(
        bounds.ends_with(&format!(
            "({}, {})",
            printed(&stats["llr_lower"], 1.0),
            printed(&stats["llr_upper"], 1.0)
        )),
        "{bounds}"
    );
    assert_eq!(summary["sprt"], "inconclusive");
}

#[test]
fn sprt_prints_the_llr_after_each_pair_and_stops_at_a_bound() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let output = run(
        dir.path(),
        sp960(),
        &[
            "match",
            "--engine",
            &format!("{STOCKFISH} name=a nodes=800"),
            "--engine",
            &format!("{STOCKFISH} name=b nodes=400"),
            "--sp",
            "100-119",
            "--concurrency",
            "1",
            "--sprt",
            "elo0=0 elo1=200 alpha=0.1 beta=0.1",
        ],
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        stderr.contains("sp960: match: pair 1: LLR 0.49 (-2.20, 2.20)"),
        "{stderr}"
    );
    assert!(stderr.contains("SPRT: H1 accepted"), "{stderr}");
    assert!(!stderr.contains("pair 7:"), "{stderr}");
    assert!(
        table.contains("SPRT: LLR 2.48 (-2.20, 2.20): H1 accepted"),
        "{table}"
    );
    // Stopped at the sixth pair of the 20 scheduled: with one game at a time, no game was
    // started after the decision; every game played is written.
    let pgn = std::fs::read_to_string(dir.path().join("sp960-match.pgn")).unwrap();
    let written = pgn.matches("[Event ").count();
    assert_eq!(written, 12, "{table}");
    assert!(!table.contains("unpaired"), "{table}");
    assert!(
        table.contains(&format!("({written} games appended)")),
        "{table}"
    );
}

#[test]
fn a_bad_sprt_value_is_a_usage_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(sp960())
        .args([
            "match",
            "--sp",
            "0",
            "--sprt",
            "elo0=0 elo1=5 alpha=1.5 beta=0.05",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("alpha=1.5"), "{stderr}");
    assert!(!dir.path().join("sp960-match.pgn").exists());
}

/// Each game's `[Result]` and `[PlyCount]`.
fn results(pgn: &str) -> Vec<(String, String)> {
    let tag = |game: &str, name: &str| {
        game.lines()
            .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_owned()
    };
    pgn.split("[Event ")
        .skip(1)
        .map(|game| (tag(game, "Result"), tag(game, "PlyCount")))
        .collect()
}

#[test]
fn resign_and_draw_adjudicate_the_same_games_at_the_same_ply_as_cutechess_cli() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let book = run(dir.path(), sp960(), &["fen", "100-102", "--format", "epd"]).stdout;
    std::fs::write(dir.path().join("book.epd"), book).unwrap();
    run(
        dir.path(),
        sp960(),
        &[
            "match",
            "--engine",
            "/usr/games/stockfish name=a nodes=800",
            "--engine",
            "/usr/games/stockfish name=b nodes=400",
            "--sp",
            "100-102",
            "--concurrency",
            "1",
            "--pgn",
            "sp960.pgn",
            "--resign",
            "movecount=3 score=400",
            "--draw",
            "movenumber=20 movecount=4 score=15",
        ],
    );
    let ours = std::fs::read_to_string(dir.path().join("sp960.pgn")).unwrap();
    assert_eq!(ours.matches("[Termination \"adjudication\"]").count(), 6);
    if !have("cutechess-cli") {
        return;
    }
    run(
        dir.path(),
        "cutechess-cli",
        &[
            "-engine",
            "cmd=/usr/games/stockfish",
            "name=a",
            "nodes=800",
            "-engine",
            "cmd=/usr/games/stockfish",
            "name=b",
            "nodes=400",
            "-each",
            "proto=uci",
            "tc=inf",
            "-variant",
            "fischerandom",
            "-openings",
            "file=book.epd",
            "format=epd",
            "order=sequential",
            "-games",
            "2",
            "-rounds",
            "3",
            "-repeat",
            "-concurrency",
            "1",
            "-resign",
            "movecount=3",
            "score=400",
            "-draw",
            "movenumber=20",
            "movecount=4",
            "score=15",
            "-pgnout",
            "cutechess.pgn",
        ],
    );
    let theirs = std::fs::read_to_string(dir.path().join("cutechess.pgn")).unwrap();
    assert_eq!(games(&ours), games(&theirs), "the moves differ");
    assert_eq!(results(&ours), results(&theirs), "{ours}\n{theirs}");
}
