//! `sp960 book`: bytes, warnings, and python-chess reading every record as `sp960 fen` says.

use std::path::Path;
use std::process::Command as Process;

use predicates::prelude::*;
use sp960::BookRequest;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::{sp960, stdout_of};

/// Runs tests/python/check_book.py: python-chess reads `book` in `kind` and compares each
/// record with the matching line of `expected` (FENs); returns the record count.
fn python_reads(kind: &str, book: &Path, expected: &[u8]) -> usize {
    let dir = book.parent().unwrap();
    let expected_path = dir.join(format!("expected-{kind}.txt"));
    std::fs::write(&expected_path, expected).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/check_book.py");
    let output = Process::new("python3")
        .arg(script)
        .arg(kind)
        .arg(book)
        .arg(&expected_path)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "python-chess disagrees on {}: {}",
        book.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn book_all_in_epd_pgn_and_fen_is_read_by_python_chess_as_sp960_fen_says() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fens = stdout_of(&["fen", "all"]);
    for (kind, name) in [
        ("epd", "all-FRC.epd"),
        ("pgn", "all-960.pgn"),
        ("fen", "all-FRC.fen"),
    ] {
        let path = dir.path().join(name);
        sp960()
            .args(["book", "all", "--format", kind, "-o"])
            .arg(&path)
            .assert()
            .success()
            .stdout("")
            .stderr("");
        assert_eq!(python_reads(kind, &path, &fens), 960, "{kind}");
        // Identification gives 0..959 back, in order (for PGN, of the FEN tags).
        let book = std::fs::read_to_string(&path).unwrap();
        let records: String = if kind == "pgn" {
            book.lines()
                .filter_map(|line| line.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
                .map(|fen| format!("{fen}\n"))
                .collect()
        } else {
            book
        };
        let expected: String = (0..960).map(|n| format!("{n}\n")).collect();
        sp960()
            .args(["identify", "-"])
            .write_stdin(records)
            .assert()
            .success()
            .stdout(expected);
    }
}

#[test]
fn xfen_books_read_the_same() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x-960.pgn");
    sp960()
        .args([
            "book",
            "0-20,959",
            "--castling",
            "xfen",
            "--format",
            "pgn",
            "-o",
        ])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(" w KQkq - 0 1\"]"));
    let fens = stdout_of(&["fen", "0-20,959"]);
    assert_eq!(python_reads("pgn", &path, &fens), 22);
}

#[test]
fn dfrc_sample_reads_back_as_the_drawn_pairs() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dfrc-FRC.epd");
    sp960()
        .args(["book", "--dfrc-sample", "200", "--seed", "5", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stderr("");
    let book = std::fs::read(&path).unwrap();
    // The pairs the library draws for this seed...
    let drawn: Vec<String> = BookRequest {
        dfrc_sample: 200,
        seed: 5,
        ..BookRequest::default()
    }
    .starts()
    .unwrap()
    .iter()
    .map(|start| start.to_string())
    .collect();
    assert!(drawn.iter().filter(|s| s.contains(':')).count() > 190);
    // ...are what `sp960 identify` reads off the book...
    let identified = sp960()
        .args(["identify", "-"])
        .write_stdin(book.clone())
        .output()
        .unwrap();
    assert!(identified.status.success());
    let identified: Vec<String> = String::from_utf8(identified.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(identified, drawn);
    // ...and python-chess reads each as `sp960 fen` of that pair.
    let args: Vec<&str> = std::iter::once("fen")
        .chain(drawn.iter().map(String::as_str))
        .collect();
    assert_eq!(python_reads("epd", &path, &stdout_of(&args)), 200);
    // The ids name the pairs.
    let text = String::from_utf8(book).unwrap();
    for (line, pair) in text.lines().zip(&drawn) {
        let label = if pair.contains(':') { "DFRC" } else { "SP" };
        assert!(
            line.ends_with(&format!(" id \"{label} {pair}\";")),
            "{line}"
        );
    }
}

#[test]
fn same_arguments_same_bytes() {
    let args = [
        "book",
        "0",
        "random",
        "518",
        "--count",
        "7",
        "--seed",
        "42",
        "--dfrc-sample",
        "5",
    ];
    let first = stdout_of(&args);
    assert_eq!(first, stdout_of(&args));
    assert_eq!(String::from_utf8_lossy(&first).lines().count(), 14);
    let pgn = [&args[..], &["--format", "pgn"]].concat();
    assert_eq!(stdout_of(&pgn), stdout_of(&pgn));
    // Another seed, other bytes.
    let other = [
        "book",
        "0",
        "random",
        "518",
        "--count",
        "7",
        "--seed",
        "43",
        "--dfrc-sample",
        "5",
    ];
    assert_ne!(first, stdout_of(&other));
    // -o writes exactly what stdout gets.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r-960.epd");
    sp960().args(args).arg("-o").arg(&path).assert().success();
    assert_eq!(std::fs::read(&path).unwrap(), first);
}

#[test]
fn random_without_seed_tells_the_seed_that_repeats_it() {
    let output = sp960()
        .args(["book", "random", "--count", "3"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let seed = stderr
        .split("--seed ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("seed told on stderr");
    sp960()
        .args(["book", "random", "--count", "3", "--seed", seed])
        .assert()
        .success()
        .stdout(output.stdout);
}

#[test]
fn file_name_without_frc_or_960_is_warned_about_but_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("openings.epd");
    sp960()
        .args(["book", "518", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("")
        .stderr(
            predicate::str::contains("openings.epd")
                .and(predicate::str::contains("neither FRC nor 960"))
                .and(predicate::str::contains("openings-FRC.epd")),
        );
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("id \"SP 518\";")
    );
}

#[test]
fn bad_specs_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad-FRC.epd");
    sp960()
        .args(["book", "0", "12-3", "-o"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("SPEC '12-3'").and(predicate::str::contains("backwards")));
    assert!(!path.exists());
    sp960()
        .args(["book"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no starts"));
    sp960()
        .args(["book", "1", "-o", "/nonexistent-dir/x-FRC.epd"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot write /nonexistent-dir/x-FRC.epd",
        ));
}

/// Issue 6.2: a book in either format passes `validate --start-positions`, which reports
/// the same starts back, in the order written (for PGN, one per game, from its FEN tag).
#[test]
fn validate_start_positions_reports_the_starts_of_epd_and_pgn_books() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "860,0:959,0-3,518";
    let expected = ["860", "0:959", "0", "1", "2", "3", "518"];
    for format in ["epd", "pgn"] {
        let path = dir.path().join(format!("b-960.{format}"));
        sp960()
            .args(["book", spec, "--format", format, "-o"])
            .arg(&path)
            .assert()
            .success();
        let output = sp960()
            .args(["validate", "--start-positions", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{format}: {output:?}");
        let objects: Vec<serde_json::Value> = String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        let starts: Vec<&str> = objects
            .iter()
            .filter_map(|object| object["start"].as_str())
            .collect();
        assert_eq!(starts, expected, "{format}");
        assert_eq!(objects.last().unwrap()["summary"]["valid"], 7, "{format}");
        // The same book piped in (no file name to go by) reads the same.
        let text = std::fs::read(&path).unwrap();
        let piped = sp960()
            .args(["validate", "--start-positions"])
            .write_stdin(text)
            .output()
            .unwrap();
        assert!(piped.status.success(), "{format}: {piped:?}");
        let piped: Vec<String> = String::from_utf8(piped.stdout)
            .unwrap()
            .lines()
            .map(|line| line.rsplit(' ').next().unwrap().to_owned())
            .collect();
        assert_eq!(piped, expected, "{format} on stdin");
    }
    // A wrong FEN tag is reported with the column inside the tag's value, naming its game.
    let bad = dir.path().join("bad-960.pgn");
    std::fs::write(
        &bad,
        "[Event \"SP 860\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 x\"]\n\n*\n",
    )
    .unwrap();
    sp960()
        .args(["validate", "--start-positions"])
        .arg(&bad)
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            "bad-960.pgn:2:62: error: game at line 1: FEN tag: fullmove number: expected a number (digits 0-9), found `x`\n",
        ));
}

#[test]
fn a_huge_random_count_is_refused_not_allocated() {
    for args in [
        &[
            "book",
            "random",
            "--count",
            "99999999999999999",
            "--seed",
            "1",
        ][..],
        &["book", "--dfrc-sample", "99999999999999999", "--seed", "1"],
    ] {
        sp960()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("a book holds at most 1000000"));
    }
}
