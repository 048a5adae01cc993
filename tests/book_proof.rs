//! Proof that a generated book is what it says (issue 23, item 4), on small books made here
//! with Stockfish: every record validates (`sp960 validate`), replays legally from its start
//! with python-chess and gives the record's position and counters, names a start that
//! `sp960 identify` agrees with; the PGN book holds the same openings; the evaluations lie
//! in the window, and a fresh re-evaluation by the same engine at the same nodes stays near
//! it; `sp960 tournament --openings` (fastchess, cutechess-cli) and `sp960 match --openings`
//! play the books, each opening with both colours, the moves from the start applied.
//! tests/python/book_proof.py is the oracle.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde_json::Value;

#[path = "support/peers.rs"]
mod peers;
use peers::{Peer, search_path};

/// One engine run at a time: the machine has two cores.
static RUNNING: Mutex<()> = Mutex::new(());

/// The starts: two Chess960 SPs and two DFRC pairs.
const STARTS: [&str; 4] = ["860", "0:959", "5", "12:700"];
const NODES: &str = "2000";
const WINDOW: (i64, i64) = (-35, 35);

fn sp960(dir: &Path, args: &[&str]) -> std::process::Output {
    let output = Command::new(peers::sp960())
        .args(args)
        .current_dir(dir)
        .env("PATH", search_path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "sp960 {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn python(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg(peers::fixture("book_proof.py"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "book_proof.py {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Generates `file` (EPD or PGN by `format`) from [`STARTS`]: 4 plies, 2 per start.
fn generate(dir: &Path, file: &str, format: &str, per_start: &str) {
    let window = format!("{},{}", WINDOW.0, WINDOW.1);
    let mut args = STARTS.to_vec();
    args.splice(0..0, ["book"]);
    args.extend([
        "--plies",
        "4",
        "--engine",
        "/usr/games/stockfish",
        "--nodes",
        NODES,
        "--per-start",
        per_start,
        "--window",
        &window,
        "--seed",
        "11",
        "--format",
        format,
        "-o",
        file,
    ]);
    sp960(dir, &args);
}

#[test]
fn generated_books_validate_replay_and_name_their_starts() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    generate(dir, "proof-FRC.epd", "epd", "2");
    generate(dir, "proof-FRC.pgn", "pgn", "2");
    // sp960's own validator reads both books.
    // (A PGN book's games are replayed, each one record.)
    for (book, counted) in [
        ("proof-FRC.epd", "8 records: 8 valid, 0 invalid;"),
        ("proof-FRC.pgn", "8 records (8 games): 8 valid, 0 invalid;"),
    ] {
        let summary = String::from_utf8(sp960(dir, &["validate", book]).stderr).unwrap();
        assert!(summary.contains(counted), "{book}: {summary}");
    }
    // python-chess replays every record from its start; sp960 identify names those starts
    // as the records' labels do.
    let replayed = python(dir, &["records", "proof-FRC.epd"]);
    let (labels, start_fens): (Vec<&str>, Vec<&str>) = replayed
        .lines()
        .map(|line| line.split_once('\t').unwrap())
        .unzip();
    assert_eq!(labels.len(), 8);
    let mut identify = Command::new(peers::sp960())
        .args(["identify", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = identify.stdin.take().unwrap();
        writeln!(stdin, "{}", start_fens.join("\n")).unwrap();
    }
    let identified = String::from_utf8(identify.wait_with_output().unwrap().stdout).unwrap();
    let identified: Vec<&str> = identified.lines().collect();
    let numbers: Vec<&str> = labels
        .iter()
        .map(|label| label.split_once(' ').unwrap().1)
        .collect();
    assert_eq!(identified, numbers);
    let mut covered = numbers.clone();
    covered.dedup();
    assert_eq!(covered, STARTS, "every start, in the order asked");
    // The PGN book holds the same openings, game for game.
    assert_eq!(
        python(dir, &["pgn", "proof-FRC.pgn", "proof-FRC.epd"]).trim(),
        "8"
    );
    // book stats: 4 starts, 2 each, no duplicates, 4 plies, evaluations in the window.
    let stats = sp960(dir, &["book", "stats", "--json", "proof-FRC.epd"]);
    let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
    let stats = &stats["proof-FRC.epd"];
    assert_eq!(stats["total"], 8);
    assert_eq!(stats["starts"], 4);
    assert_eq!(
        stats["per_start"],
        serde_json::json!({"min": 2, "median": 2, "max": 2})
    );
    assert_eq!(stats["duplicates"], 0);
    assert_eq!(
        (&stats["min_depth"], &stats["max_depth"]),
        (&Value::from(4), &Value::from(4))
    );
    assert!(
        stats["eval_white"]["min"].as_i64().unwrap() >= WINDOW.0,
        "{stats}"
    );
    assert!(
        stats["eval_white"]["max"].as_i64().unwrap() <= WINDOW.1,
        "{stats}"
    );
    // The same command gives the same bytes.
    let first = std::fs::read(dir.join("proof-FRC.epd")).unwrap();
    generate(dir, "again-FRC.epd", "epd", "2");
    assert_eq!(std::fs::read(dir.join("again-FRC.epd")).unwrap(), first);
}

#[test]
fn a_fresh_re_evaluation_by_the_same_engine_gives_each_records_score() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    generate(dir, "eval-FRC.epd", "epd", "2");
    // The script fails when a record's own ce (from White's side) is outside the window.
    let report: Value = serde_json::from_str(&python(
        dir,
        &[
            "reeval",
            "eval-FRC.epd",
            "/usr/games/stockfish",
            NODES,
            &WINDOW.0.to_string(),
            &WINDOW.1.to_string(),
        ],
    ))
    .unwrap();
    eprintln!("re-evaluation: {report}");
    assert_eq!(report["records"], 8);
    // The generator searches each final position in a cleared hash (`ucinewgame`), as the
    // re-evaluation does, so a fresh Stockfish at the same nodes gives the same score.
    assert_eq!(report["exact"], 8, "{report}");
    assert_eq!(report["in_window"], 8, "{report}");
    assert_eq!(report["worst_outside"], 0, "{report}");
}

/// Runs an emitted command line in `dir` within a time limit.
fn play(dir: &Path, line: &str) {
    let log = peers::run_printed_line(dir, line);
    assert!(!log.contains("Illegal move"), "{line}\n{log}");
}

#[test]
fn fastchess_and_cutechess_play_generated_books_through_sp960_tournament() {
    if !peers::need(&[
        Peer::Stockfish,
        Peer::PythonChess,
        Peer::Fastchess,
        Peer::CutechessCli,
    ]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    generate(dir, "play-FRC.epd", "epd", "1");
    generate(dir, "play-FRC.pgn", "pgn", "1");
    // cutechess-cli 1.5.1 plays a PGN book's moves in Chess960 only under
    // [Variant "fischerandom"], which the generator writes; a book under another name
    // ("Chess960") is refused with the reason.
    let pgn = std::fs::read_to_string(dir.join("play-FRC.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"fischerandom\"]").count(), 4);
    std::fs::write(
        dir.join("chess960-FRC.pgn"),
        pgn.replace("[Variant \"fischerandom\"]", "[Variant \"Chess960\"]"),
    )
    .unwrap();
    let refused = Command::new(peers::sp960())
        .args(["tournament", "--emit", "cutechess", "--openings"])
        .args(["chess960-FRC.pgn", "--engine", "/usr/games/stockfish"])
        .args(["--engine", "/usr/games/stockfish"])
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("chess960-FRC.pgn:8: cutechess-cli plays the moves of a PGN book"),
        "{stderr}"
    );
    let cutechess_pgn = "play-FRC.pgn";
    for (tool, format, book) in [
        ("fastchess", "epd", "play-FRC.epd"),
        ("fastchess", "pgn", "play-FRC.pgn"),
        ("cutechess", "epd", "play-FRC.epd"),
        ("cutechess", "pgn", cutechess_pgn),
    ] {
        let games = format!("{tool}-{format}-games.pgn");
        let line = String::from_utf8(
            sp960(
                dir,
                &[
                    "tournament",
                    "--emit",
                    tool,
                    "--openings",
                    book,
                    "--engine",
                    "/usr/games/stockfish name=sf-a nodes=400",
                    "--engine",
                    "/usr/games/stockfish name=sf-b nodes=400",
                    "--tc",
                    "30+0.5",
                    "--concurrency",
                    "2",
                    "--pgnout",
                    &games,
                    "--shell",
                    "sh",
                ],
            )
            .stdout,
        )
        .unwrap();
        assert!(
            line.contains(&format!("file={book} format={format}")),
            "{line}"
        );
        play(dir, &line);
        let report: Value =
            serde_json::from_str(&python(dir, &["games", &games, book, format])).unwrap();
        assert_eq!(report["games"], 8, "{tool} {format}: {report}");
        assert_eq!(
            report["played"], 4,
            "{tool} {format}: every opening: {report}"
        );
        assert_eq!(report["both_colours"], true, "{tool} {format}: {report}");
    }
}

#[test]
fn sp960_match_plays_generated_books() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    generate(dir, "match-FRC.epd", "epd", "1");
    generate(dir, "match-FRC.pgn", "pgn", "1");
    for format in ["epd", "pgn"] {
        let book = format!("match-FRC.{format}");
        let games = format!("match-{format}-games.pgn");
        let openings = format!("file={book}");
        sp960(
            dir,
            &[
                "match",
                "--engine",
                "/usr/games/stockfish name=sf-a",
                "--engine",
                "/usr/games/stockfish name=sf-b",
                "--openings",
                &openings,
                "--nodes",
                "400",
                "--max-plies",
                "60",
                "--concurrency",
                "2",
                "--pgn",
                &games,
            ],
        );
        let report: Value =
            serde_json::from_str(&python(dir, &["games", &games, &book, format])).unwrap();
        assert_eq!(report["games"], 8, "{format}: {report}");
        assert_eq!(report["played"], 4, "{format}: {report}");
        assert_eq!(report["both_colours"], true, "{format}: {report}");
    }
}
