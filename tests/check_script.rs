//! `sp960 check --perft-script`: a move generator without an engine, run as perftree
//! runs it. python-chess through tests/python/perftree_python_chess.py is correct; the
//! same script with a planted defect (tests/python/perftree_planted_defect.py) is caught
//! with the position and the move named; a script that fails, prints garbage or hangs
//! gives a failing row naming the query.

use std::path::Path;
use std::process::Output;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/peers.rs"]
mod peers;

use cli::{check_case_count, sp960};
use peers::Peer;

/// `sp960 check --perft-script 'python3 SCRIPT ARGS' --json` on a short run.
fn check(script: &str, args: &[&str]) -> (Output, serde_json::Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let mut command = format!("python3 '{}'", path.display());
    for arg in args {
        command.push(' ');
        command.push_str(arg);
    }
    let output = sp960()
        .args(["check", "--perft-script", &command])
        .args([
            "--no-starts",
            "--pairs",
            "5",
            "--random",
            "20",
            "--depth",
            "2",
        ])
        .args(["--timeout", "5", "--json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, json)
}

fn first_defect(json: &serde_json::Value) -> &str {
    assert_eq!(json["verdict"], "not-ready", "{json}");
    json["first_defect"]
        .as_str()
        .unwrap_or_else(|| panic!("no defect in {json}"))
}

#[test]
fn python_chess_is_correct_and_only_move_generation_is_claimed() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let (output, json) = check("perftree_python_chess.py", &[]);
    assert_eq!(output.status.code(), Some(0), "{json}");
    assert_eq!(json["verdict"], "movegen-correct", "{json}");
    assert_eq!(json["protocol"], "perftree");
    let rows = json["rows"].as_array().unwrap();
    // The castling cases, 5 pairs and 20 random positions, all counted.
    let cases = check_case_count();
    assert_eq!(json["positions"], cases + 5 + 20, "{json}");
    assert_eq!(
        rows.iter().filter(|r| r["status"] == "pass").count(),
        cases + 5 + 20,
        "{json}"
    );
    for group in ["protocol", "play"] {
        assert!(
            rows.iter()
                .any(|r| r["group"] == group && r["status"] == "skip"),
            "{group} not skipped: {json}"
        );
    }
}

#[test]
fn a_missing_castling_is_named_with_its_position_and_move() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let (output, json) = check("perftree_planted_defect.py", &["king-stays"]);
    assert_eq!(output.status.code(), Some(3), "{json}");
    assert_eq!(
        first_defect(&json),
        "case king-stays: engine misses legal g1h1 in \
         1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
    );
}

#[test]
fn a_castling_through_an_attacked_square_is_named_with_its_position_and_move() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let (output, json) = check("perftree_planted_defect.py", &["attacked"]);
    assert_eq!(output.status.code(), Some(3), "{json}");
    assert_eq!(
        first_defect(&json),
        "case attacked-path: engine lists b1h1, which is illegal in \
         4r1k1/8/8/8/8/8/8/1K5R w H - 0 1"
    );
}

#[test]
fn a_failing_or_garbled_script_is_a_failing_row_naming_the_query() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    for (defect, why) in [
        // "exit status: 1" on Unix, "exit code: 1" on Windows.
        ("exit", ": perftree_planted_defect: told to fail"),
        (
            "garbage",
            "line 1: 'Traceback (most recent call last):' is not 'MOVE COUNT'",
        ),
        ("no-total", "no blank line and total after the moves"),
    ] {
        let (output, json) = check("perftree_planted_defect.py", &[defect]);
        assert_eq!(output.status.code(), Some(3), "{json}");
        let defect = first_defect(&json);
        assert!(defect.starts_with("case king-stays: python3 "), "{defect}");
        assert!(
            defect.contains(" 3 '1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1': "),
            "{defect}"
        );
        assert!(defect.ends_with(why), "{defect}");
        // Three in a row without a reply: the rest are not run.
        let rows = json["rows"].as_array().unwrap();
        assert_eq!(rows.iter().filter(|r| r["status"] == "fail").count(), 4);
    }
}

#[test]
fn a_hanging_script_is_killed_at_the_timeout() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/perftree_planted_defect.py");
    let began = std::time::Instant::now();
    let output = sp960()
        .args(["check", "--perft-script"])
        .arg(format!("python3 '{}' hang", path.display()))
        .args([
            "--no-starts",
            "--pairs",
            "0",
            "--random",
            "0",
            "--timeout",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(began.elapsed().as_secs() < 20, "{:?}", began.elapsed());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(3), "{json}");
    assert!(
        first_defect(&json).ends_with("no reply within 1 s: killed"),
        "{json}"
    );
}

#[test]
fn a_missing_script_is_not_found() {
    let output = sp960()
        .args([
            "check",
            "--perft-script",
            "/nonexistent/perftree-script",
            "--no-starts",
        ])
        .args(["--pairs", "0", "--random", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(127));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/perftree-script"), "{stderr}");
}

#[test]
fn a_script_and_an_engine_are_not_both_taken() {
    let output = sp960()
        .args(["check", "stockfish", "--perft-script", "x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
