//! `sp960 book stats`: fishtest's books.json fields for FRC_openings.epd, python-chess as the
//! oracle of every figure on a random book, compiler-style errors, and `sp960 book SPEC`
//! still writing books beside the subcommands.

use std::path::Path;
use std::process::Command as Process;

use predicates::prelude::*;
use serde_json::Value;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::{sp960, stdout_of};

fn stats_json(path: &Path) -> Value {
    let output = sp960()
        .args(["book", "stats", "--json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let all: Value = serde_json::from_slice(&output.stdout).unwrap();
    all[path.to_str().unwrap()].clone()
}

#[test]
fn frc_openings_has_fishtests_books_json_fields() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("FRC_openings.epd");
    std::fs::write(&book, stdout_of(&["fen", "all", "--castling", "xfen"])).unwrap();
    let stats = stats_json(&book);
    // official-stockfish/books books.json, "FRC_openings.epd".
    for (field, value) in [
        ("total", Value::from(960)),
        ("white", Value::from(960)),
        ("black", Value::from(0)),
        ("min_depth", Value::from(0)),
        ("max_depth", Value::from(0)),
        (
            "sri",
            Value::from("JVruRrMKePsACyfEBbKEKWnGcZjIXSfvE6MuQ58PFmGPK9sdtzWl6ZzADd5AkoLY"),
        ),
    ] {
        assert_eq!(stats[field], value, "{field}");
    }
    assert_eq!(stats["starts"], 960);
    assert_eq!(stats["duplicates"], 0);
    assert_eq!(stats["eval"], Value::Null);
    // The text form says the same.
    sp960()
        .args(["book", "stats"])
        .arg(&book)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "positions      960 (960 white to move, 0 black to move)",
        ))
        .stdout(predicate::str::contains(
            "plies          0 to 0 from the start",
        ))
        .stdout(predicate::str::contains(
            "starts         960, positions per start 1 / 1 / 1",
        ));
}

#[test]
fn every_figure_agrees_with_python_chess() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/book_stats_oracle.py");
    for seed in ["1", "7", "42"] {
        let book = dir.path().join(format!("oracle-{seed}.epd"));
        let output = Process::new("python3")
            .arg(&script)
            .arg(&book)
            .arg(seed)
            .output()
            .expect("python3 runs");
        assert!(output.status.success(), "{output:?}");
        let expected: Value = serde_json::from_slice(&output.stdout).unwrap();
        let stats = stats_json(&book);
        for (field, value) in expected.as_object().unwrap() {
            if field.starts_with("eval") {
                for (key, value) in value.as_object().unwrap() {
                    assert_eq!(&stats[field][key], value, "seed {seed}: {field}.{key}");
                }
                let buckets: u64 = stats[field]["histogram"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|bucket| bucket["count"].as_u64().unwrap())
                    .sum();
                assert_eq!(
                    Value::from(buckets),
                    value["count"],
                    "seed {seed}: histogram"
                );
            } else {
                assert_eq!(&stats[field], value, "seed {seed}: {field}");
            }
        }
    }
}

#[test]
fn duplicates_pgn_and_several_files() {
    let dir = tempfile::tempdir().unwrap();
    let epd = dir.path().join("twice-FRC.epd");
    std::fs::write(&epd, stdout_of(&["book", "0", "7", "0", "0:959"])).unwrap();
    let pgn = dir.path().join("three-960.pgn");
    std::fs::write(
        &pgn,
        stdout_of(&["book", "5", "6", "1:2", "--format", "pgn"]),
    )
    .unwrap();
    let output = sp960()
        .args(["book", "stats", "--json"])
        .arg(&epd)
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let all: Value = serde_json::from_slice(&output.stdout).unwrap();
    let keys: Vec<&String> = all.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 2);
    let (epd_stats, pgn_stats) = (&all[epd.to_str().unwrap()], &all[pgn.to_str().unwrap()]);
    assert_eq!(epd_stats["total"], 4);
    assert_eq!(epd_stats["starts"], 3);
    assert_eq!(epd_stats["duplicates"], 1);
    assert_eq!(epd_stats["duplicate_lines"], serde_json::json!([[3, 1]]));
    assert_eq!(
        epd_stats["per_start"],
        serde_json::json!({"min": 1, "median": 1, "max": 2})
    );
    assert_eq!(pgn_stats["total"], 3);
    assert_eq!(pgn_stats["starts"], 3);
    assert_eq!(pgn_stats["max_depth"], 0);
}

#[test]
fn pgn_games_count_the_position_after_their_moves() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("moves-960.pgn");
    let game = |moves: &str| {
        format!(
            "[Event \"SP 860\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n{moves} *\n\n"
        )
    };
    std::fs::write(
        &pgn,
        game("1. e4 e5 2. Ng3") + &game("1. d4") + &game("1. e4 e5 2. Ng3"),
    )
    .unwrap();
    let stats = stats_json(&pgn);
    assert_eq!(
        (&stats["total"], &stats["white"], &stats["black"]),
        (&Value::from(3), &Value::from(0), &Value::from(3))
    );
    assert_eq!(
        (&stats["min_depth"], &stats["max_depth"]),
        (&Value::from(1), &Value::from(3))
    );
    assert_eq!(stats["starts"], 1);
    assert_eq!(stats["duplicates"], 1);
    assert_eq!(stats["duplicate_lines"], serde_json::json!([[15, 1]]));
    std::fs::write(&pgn, game("1. e4 e5") + &game("1. e4 e4")).unwrap();
    sp960()
        .args(["book", "stats"])
        .arg(&pgn)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "{}:13:1: error: 'e4' is not legal after 1 moves of the opening",
            pgn.display()
        )));
}

#[test]
fn invalid_records_are_reported_and_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bad-FRC.epd");
    std::fs::write(
        &book,
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n\
         rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n\
         rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNKQ w EAea -\n",
    )
    .unwrap();
    sp960()
        .args(["book", "stats"])
        .arg(&book)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "positions      2 (2 white to move",
        ))
        .stdout(predicate::str::contains("line 2 repeats line 1"))
        .stdout(predicate::str::contains("invalid        1 records"))
        .stderr(predicate::str::contains(format!(
            "{}:3:1: error:",
            book.display()
        )))
        .stderr(predicate::str::contains(
            "book stats: 1 invalid record (not counted)",
        ));
    sp960()
        .args(["book", "stats", "no-such-FRC.epd"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "book stats: cannot read no-such-FRC.epd",
        ));
    // No file at all is a usage error; a SPEC is still a book.
    sp960().args(["book", "stats"]).assert().code(2);
    sp960()
        .args(["book", "860"])
        .assert()
        .success()
        .stdout("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n");
    sp960()
        .args(["book", "860", "stats"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("SPEC 'stats'"));
}
