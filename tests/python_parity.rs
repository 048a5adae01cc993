//! `sp960 validate` and python-chess (`chess.Board(fen, chess960=True).is_valid()`, run by
//! tests/python/oracle.py) give the same verdict on every record of a generated corpus:
//! valid play-out positions and mutations of them that break every rule there is. The
//! oracle also checks, with python-chess, what the records' EPD operations say (a `bm`
//! legal, perft counts `D1`/`D2` right), as `validate` does.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const RECORDS: usize = 30_000;

/// python-chess's verdict per line: '1', '0', 'D' (documented difference) or '.'.
fn oracle(path: &Path, mode: &str) -> Vec<u8> {
    let output = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/oracle.py"
        ))
        .arg(path)
        .arg(mode)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut verdicts = output.stdout;
    assert_eq!(verdicts.pop(), Some(b'\n'));
    verdicts
}

/// sp960's invalid records: line number -> JSON diagnostic kind.
fn sp960_invalid(path: &Path, mode: &str) -> BTreeMap<usize, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_sp960"))
        .args(["validate", "--format", "json", "--mode", mode])
        .arg(path)
        .output()
        .expect("sp960 runs");
    assert_eq!(output.status.code(), Some(1));
    let mut invalid = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value.get("summary").is_some() {
            continue;
        }
        let number = value["line"].as_u64().unwrap() as usize;
        invalid.insert(number, value["kind"].as_str().unwrap().to_owned());
    }
    invalid
}

fn check_agreement(mode: &str, records: &[String]) -> BTreeMap<String, usize> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpus.fen");
    std::fs::write(&path, records.join("\n") + "\n").unwrap();
    let verdicts = oracle(&path, mode);
    assert_eq!(verdicts.len(), records.len());
    let invalid = sp960_invalid(&path, mode);
    let mut disagreements = Vec::new();
    let mut kinds = BTreeMap::new();
    let mut documented = 0;
    for (index, (verdict, record)) in verdicts.iter().zip(records).enumerate() {
        let line = index + 1;
        let ours = invalid.get(&line);
        if let Some(kind) = ours {
            for kind in kind.split(" | ") {
                *kinds.entry(kind.to_owned()).or_insert(0) += 1;
            }
        }
        match (verdict, ours) {
            (b'1', None) | (b'0', Some(_)) => {}
            // python-chess accepts on purpose or by accident; sp960 refuses (README).
            (b'D', Some(_)) => documented += 1,
            _ => disagreements.push(format!(
                "line {line}: python-chess {}, sp960 {ours:?}: {record}",
                char::from(*verdict)
            )),
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements ({mode}), first ones:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    let valid = verdicts.iter().filter(|v| **v == b'1').count();
    eprintln!(
        "{mode}: {} records, {valid} valid, {} invalid, {documented} documented differences; kinds {kinds:?}",
        records.len(),
        invalid.len()
    );
    assert!(valid > records.len() / 5 && invalid.len() > records.len() / 5);
    kinds
}

fn corpus() -> Vec<String> {
    let fens = corpus::playout_fens(7, 5_000, 120);
    let mut records = corpus::mutated_records(&fens, 11, RECORDS - 2_000);
    records.extend_from_slice(&fens[..2_000]);
    records
}

#[test]
fn chess960_verdicts_agree_with_python_chess() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let kinds = check_agreement("chess960", &corpus());
    // The corpus reaches every rule: all of shakmaty's kinds python-chess also has, and a
    // syntax error in every field.
    for kind in [
        "EMPTY_BOARD",
        "MISSING_KING",
        "TOO_MANY_KINGS",
        "PAWNS_ON_BACKRANK",
        "INVALID_CASTLING_RIGHTS",
        "INVALID_EP_SQUARE",
        "OPPOSITE_CHECK",
        "IMPOSSIBLE_CHECK",
        "TOO_MUCH_MATERIAL",
        "InvalidBoard",
        "InvalidTurn",
        "InvalidCastling",
        "InvalidEpSquare",
        "InvalidHalfmoveClock",
        "InvalidFullmoves",
    ] {
        assert!(
            kinds.contains_key(kind),
            "no {kind} in the corpus: {kinds:?}"
        );
    }
}

#[test]
fn standard_mode_verdicts_agree_with_python_chess() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    check_agreement("standard", &corpus());
}
