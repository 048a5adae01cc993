//! `sp960 book package --for openbench|fishtest`: the files an instance owner adds, checked by
//! the clients' own code (tests/python/book_clients.py quotes OpenBench's and fishtest's
//! worker functions and runs the books repository's update_json.py), and fishtest's
//! published entry for FRC_openings.epd reproduced byte for byte.

use std::path::Path;
use std::process::Command as Process;

use predicates::prelude::*;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::{sp960, stdout_of};

/// Runs the clients' checks on a package; panics with their message when one fails.
fn clients_accept(system: &str, package: &Path, name: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/book_clients.py");
    let output = Process::new("python3")
        .arg(script)
        .args([system, package.to_str().unwrap(), name])
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success() && output.stdout == b"ok\n",
        "{system} refuses {name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// fishtest's books.json entry for FRC_openings.epd (official-stockfish/books 33185e11).
const FRC_OPENINGS_ENTRY: &str = r#"{
    "FRC_openings.epd": {
        "total": 960,
        "white": 960,
        "black": 0,
        "min_depth": 0,
        "max_depth": 0,
        "sri": "JVruRrMKePsACyfEBbKEKWnGcZjIXSfvE6MuQ58PFmGPK9sdtzWl6ZzADd5AkoLY"
    }
}
"#;

#[test]
fn fen_all_xfen_packaged_for_fishtest_is_its_frc_openings_entry() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("FRC_openings.epd");
    std::fs::write(&book, stdout_of(&["fen", "all", "--castling", "xfen"])).unwrap();
    let out = dir.path().join("pkg");
    let output = sp960()
        .args(["book", "package", "--for", "fishtest"])
        .arg(&book)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        FRC_OPENINGS_ENTRY
    );
    assert_eq!(
        std::fs::read_to_string(out.join("FRC_openings.epd.json")).unwrap(),
        FRC_OPENINGS_ENTRY
    );
    assert_eq!(
        std::fs::read(out.join("FRC_openings.epd")).unwrap(),
        std::fs::read(&book).unwrap(),
        "a book of records alone is packaged unchanged"
    );
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    clients_accept("fishtest", &out, "FRC_openings.epd");
}

#[test]
fn openbench_package_survives_its_worker_and_hashes_what_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    // CRLF line ends, a comment and a blank line: OpenBench reads text, so the package holds
    // the records alone with \n, and the sha is over those bytes.
    let mut text = String::from("# three starts\r\n\r\n");
    for line in String::from_utf8(stdout_of(&["book", "0", "518", "1:2"]))
        .unwrap()
        .lines()
    {
        text.push_str(line);
        text.push_str("\r\n");
    }
    let book = dir.path().join("three.epd");
    std::fs::write(&book, &text).unwrap();
    let out = dir.path().join("pkg");
    let output = sp960()
        .args(["book", "package", "--for", "openbench", "--source"])
        .arg("https://example.org/books/")
        .arg(&book)
        .arg("--output")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let name = "three_FRC.epd";
    let packaged = std::fs::read_to_string(out.join(name)).unwrap();
    assert_eq!(packaged.as_bytes(), stdout_of(&["book", "0", "518", "1:2"]));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(format!("{name}.json"))).unwrap()).unwrap();
    assert_eq!(
        json["source"],
        "https://example.org/books/three_FRC.epd.zip"
    );
    let sha = json["sha"].as_str().unwrap();
    assert_eq!(sha.len(), 64);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("Config/config.json"), "{stderr}");
    // The stats of the original (CRLF, comment) give another hash than the package's text;
    // the package's own stats give the package's.
    let stats = |path: &Path| -> serde_json::Value {
        let output = sp960()
            .args(["book", "stats", "--json"])
            .arg(path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let all: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        all[path.to_str().unwrap()].clone()
    };
    assert_eq!(stats(&out.join(name))["sha256"], sha);
    assert_ne!(stats(&book)["sha256"], sha);
    if !peers::need(&[Peer::Python]) {
        return;
    }
    clients_accept("openbench", &out, name);
}

#[test]
fn names_are_made_acceptable_or_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("b.epd");
    std::fs::write(&book, stdout_of(&["book", "860"])).unwrap();
    let package = |extra: &[&str]| {
        sp960()
            .args(["book", "package", "--for", "openbench"])
            .arg(&book)
            .arg("-o")
            .arg(dir.path().join("out"))
            .args(extra)
            .assert()
    };
    let long = format!("{}-FRC.epd", "x".repeat(25));
    package(&["--name", &long])
        .code(1)
        .stderr(predicate::str::contains(format!(
            "--name '{long}' is 33 characters; OpenBench keeps at most 32"
        )));
    package(&["--name", "book.epd"])
        .code(1)
        .stderr(predicate::str::contains("must contain FRC or 960"));
    package(&["--name", "x960.txt"])
        .code(1)
        .stderr(predicate::str::contains("must end in .epd or .pgn"));
    assert!(
        !dir.path().join("out").exists(),
        "nothing written on refusal"
    );
    package(&[]).success();
    assert!(dir.path().join("out/b_FRC.epd.zip").exists());
    // fishtest has no length limit of its own.
    sp960()
        .args(["book", "package", "--for", "fishtest", "--name", &long])
        .arg(&book)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .success();
}

#[test]
fn invalid_records_stop_the_package_compiler_style() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bad-FRC.epd");
    std::fs::write(
        &book,
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea -\nrbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea z9\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    sp960()
        .args(["book", "package", "--for", "fishtest"])
        .arg(&book)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "{}:2:52: error:",
            book.display()
        )))
        .stderr(predicate::str::contains(
            "1 invalid record; nothing written",
        ));
    assert!(!out.exists());
    sp960()
        .args(["book", "package", "--for", "fishtest", "missing-FRC.epd"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read missing-FRC.epd"));
}
