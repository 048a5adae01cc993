//! `sp960 perft` against python-chess (tests/python/perft.py, Chess960 boards): the 960
//! starts at depth 3 through the suite writer, whose output `sp960 validate` also checks,
//! and each castling case of `sp960 check` divided at depth 4, in both castling notations;
//! bad input refused with its exit code.

use std::collections::BTreeMap;
use std::io::Write;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/peers.rs"]
mod peers;

use cli::{check_case_count, sp960, stdout_of};
use peers::Peer;

/// python-chess's divide of each FEN of `fens` at `depth`: (total, move -> count).
fn python_perft(fens: &[String], depth: u32) -> Vec<(u64, BTreeMap<String, u64>)> {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for fen in fens {
        writeln!(file, "{fen}").unwrap();
    }
    file.flush().unwrap();
    let output = std::process::Command::new("python3")
        .arg(peers::fixture("perft.py"))
        .arg(depth.to_string())
        .arg(file.path())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "perft.py: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let divide = value["divide"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(m, count)| (m.clone(), count.as_u64().unwrap()))
                .collect();
            (value["total"].as_u64().unwrap(), divide)
        })
        .collect()
}

/// The suite's records: the four EPD fields and the counts `;D1` ... in order.
fn suite(depth: u32) -> (String, Vec<(String, Vec<u64>)>) {
    let text = String::from_utf8(stdout_of(&[
        "perft",
        "--suite",
        "--depth",
        &depth.to_string(),
    ]))
    .unwrap();
    let records = text
        .lines()
        .map(|line| {
            let (fields, ops) = line.split_once(" ;").unwrap();
            let counts = ops
                .split(" ;")
                .enumerate()
                .map(|(index, op)| {
                    let (opcode, count) = op.split_once(' ').unwrap();
                    assert_eq!(opcode, format!("D{}", index + 1), "{line}");
                    count.parse().unwrap()
                })
                .collect();
            (fields.to_owned(), counts)
        })
        .collect();
    (text, records)
}

#[test]
fn suite_matches_python_chess_and_validates() {
    let (text, records) = suite(3);
    let cases = check_case_count();
    assert_eq!(records.len(), 960 + cases);
    assert_eq!(
        text.lines().next().unwrap(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ;D1 20 ;D2 400 ;D3 9006"
    );
    assert_eq!(
        text.lines().nth(518).unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - ;D1 20 ;D2 400 ;D3 8902"
    );
    assert_eq!(
        text.lines().nth(860).unwrap(),
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - ;D1 20 ;D2 400 ;D3 8984"
    );
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file.flush().unwrap();
    let path = file.path().to_str().unwrap();
    let output = sp960()
        .args(["validate", "--perft-depth", "3", path])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains(&format!(
            "{n} records: {n} valid, 0 invalid",
            n = 960 + cases
        )),
        "{output:?}"
    );

    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let fens: Vec<String> = records
        .iter()
        .map(|(fields, _)| format!("{fields} 0 1"))
        .collect();
    for (depth, expected) in [(2, 1), (3, 2)] {
        let python = python_perft(&fens, depth);
        for ((fen, (total, _)), (_, counts)) in fens.iter().zip(&python).zip(&records) {
            assert_eq!(counts[expected], *total, "{fen} at depth {depth}");
        }
    }
}

#[test]
fn castling_cases_divide_as_python_chess() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    // Divided at depth 4 where that is at most 400,000 paths (the built-in cases), else at
    // depth 3 (the middlegame positions of shipped bugs: python-chess counts some 50,000
    // paths a second).
    let (_, records) = suite(4);
    let (small, large): (Vec<_>, Vec<_>) = records[960..]
        .iter()
        .partition(|(_, counts)| counts[3] <= 400_000);
    let fens = |records: &[&(String, Vec<u64>)]| -> Vec<String> {
        records
            .iter()
            .map(|(fields, _)| format!("{fields} 0 1"))
            .collect()
    };
    assert!(small.len() >= 8 && !large.is_empty());
    for (depth, fens) in [(4, fens(&small)), (3, fens(&large))] {
        divide_as_python_chess(&fens, depth);
    }
}

/// sp960's divide of each of `fens` at `depth`, in both castling notations, is
/// python-chess's.
fn divide_as_python_chess(fens: &[String], depth: u32) {
    let python = python_perft(fens, depth);
    let depth = depth.to_string();
    for (fen, (total, divide)) in fens.iter().zip(python) {
        let ours = |castling: &str| -> (BTreeMap<String, u64>, u64) {
            let text = String::from_utf8(stdout_of(&[
                "perft",
                fen,
                "--depth",
                &depth,
                "--divide",
                "--castling",
                castling,
            ]))
            .unwrap();
            // A checkmate has no move lines: the text is the empty line and the total.
            let (moves, nodes) = text.split_once("\nNodes searched: ").unwrap();
            let nodes = nodes.trim_end();
            let moves = moves
                .lines()
                .map(|line| {
                    let (m, count) = line.split_once(": ").unwrap();
                    (m.to_owned(), count.parse().unwrap())
                })
                .collect();
            (moves, nodes.parse().unwrap())
        };
        let (chess960, nodes) = ours("chess960");
        assert_eq!(chess960, divide, "{fen}");
        assert_eq!(nodes, total, "{fen}");
        // Standard notation: the same counts, castling written as the king's destination.
        let (standard, nodes) = ours("standard");
        assert_eq!(nodes, total, "{fen}");
        let sorted = |map: &BTreeMap<String, u64>| {
            let mut counts: Vec<u64> = map.values().copied().collect();
            counts.sort_unstable();
            counts
        };
        assert_eq!(sorted(&standard), sorted(&chess960), "{fen}");
        let total_line = stdout_of(&["perft", fen, "--depth", &depth]);
        assert_eq!(String::from_utf8(total_line).unwrap(), format!("{total}\n"));
    }
}

#[test]
fn castling_in_standard_notation_is_the_kings_destination() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let text = |castling: &str| {
        String::from_utf8(stdout_of(&[
            "perft",
            fen,
            "--depth",
            "2",
            "--divide",
            "--castling",
            castling,
        ]))
        .unwrap()
    };
    let chess960 = text("chess960");
    let standard = text("standard");
    assert!(chess960.contains("\ne1h1: ") && chess960.contains("\ne1a1: "));
    assert!(standard.contains("\ne1g1: ") && standard.contains("\ne1c1: "));
    assert!(!standard.contains("e1h1") && !chess960.contains("e1g1"));
    // --moves takes either notation.
    let after = |moves: &[&str]| {
        let mut args = vec!["perft", fen, "--depth", "3", "--moves"];
        args.extend_from_slice(moves);
        stdout_of(&args)
    };
    assert_eq!(after(&["e1h1", "e8a8"]), after(&["e1g1", "e8c8"]));
}

#[test]
fn bad_input_is_refused() {
    let refused = |args: &[&str], code: i32, message: &str| {
        let output = sp960().arg("perft").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(code), "{args:?}: {output:?}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    };
    refused(
        &["not/a/fen w - - 0 1", "--depth", "2"],
        1,
        "sp960: perft: 'not/a/fen",
    );
    refused(&["960", "--depth", "2"], 1, "not a FEN or a start");
    refused(
        &["8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "1"],
        1,
        "not a legal Chess960 position",
    );
    refused(
        &["518", "--moves", "e2e4", "e2e4", "--depth", "1"],
        1,
        "--moves: move 2: 'e2e4' is not a legal move here",
    );
    refused(
        &["518", "--depth", "0"],
        2,
        "sp960: perft: --depth 0: expected 1 to 8",
    );
    refused(&["518", "--depth", "9"], 2, "--depth 9: expected 1 to 8");
    refused(
        &["--suite", "--depth", "9"],
        2,
        "--depth 9: expected 1 to 8",
    );
    refused(&["518"], 2, "--depth");
}
