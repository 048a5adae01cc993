//! The built `sp960` binary: exact stdout, errors on stderr, exit codes.

use predicates::prelude::*;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

#[path = "support/cli.rs"]
mod support_cli;
use support_cli::sp960;

#[test]
fn fen_prints_one_line_per_start_and_nothing_else() {
    sp960()
        .args(["fen", "860", "0:959", "518"])
        .assert()
        .success()
        .stdout(
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n\
             rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n",
        )
        .stderr("");
}

#[test]
fn fen_xfen_and_epd() {
    sp960()
        .args(["fen", "959", "--castling", "xfen", "--format", "epd"])
        .assert()
        .success()
        .stdout("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - id \"SP 959\";\n");
}

#[test]
fn fen_all_and_ranges() {
    let output = sp960().args(["fen", "all"]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 960);
    assert!(text.lines().nth(518).unwrap().starts_with("rnbqkbnr/"));
    let output = sp960().args(["fen", "3-5,0"]).output().unwrap();
    let lines: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[3].starts_with("bbqnnrkr/"));
}

#[test]
fn fen_all_piped_to_identify_gives_0_to_959() {
    let fens = sp960().args(["fen", "all"]).output().unwrap().stdout;
    let expected: String = (0..960).map(|n| format!("{n}\n")).collect();
    sp960()
        .args(["identify", "-"])
        .write_stdin(fens)
        .assert()
        .success()
        .stdout(expected);
}

#[test]
fn bad_spec_is_invalid_data_with_stderr_and_no_stdout() {
    for spec in ["960", "12-3", "abc", "0:1000"] {
        sp960()
            .args(["fen", "1", spec])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::contains(spec.split(['-', ':']).next_back().unwrap())
                    .and(predicate::str::starts_with("sp960: ")),
            );
    }
}

#[test]
fn usage_errors_exit_2() {
    sp960().arg("fen").assert().code(2).stdout("");
    sp960()
        .args(["fen", "1", "--castling", "chess"])
        .assert()
        .code(2);
    sp960().arg("frobnicate").assert().code(2);
}

#[test]
fn identify_arrangements_fens_and_pairs() {
    sp960()
        .args([
            "identify",
            "RBKNRNBQ",
            "bbqnnrkr",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        ])
        .assert()
        .success()
        .stdout("860\n0\n0:959\n518\n");
}

#[test]
fn identify_refuses_with_reasons_and_goes_on() {
    sp960()
        .args([
            "identify",
            "RBKNRNBQ",
            "RKRNNQBX",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "518",
        ])
        .assert()
        .code(1)
        .stdout("860\n")
        .stderr(
            predicate::str::contains("'RKRNNQBX': not a Chess960 arrangement: 'X' at position 8")
                .and(predicate::str::contains("white pawn missing from e2"))
                .and(predicate::str::contains("black to move"))
                .and(predicate::str::contains("'518'")),
        );
}

#[test]
fn identify_stdin_names_the_line() {
    sp960()
        .args(["identify", "-"])
        .write_stdin(&b"RNBQKBNR\n\nBBQNNRKR\r\nnot a fen\n\xff\xfe\n"[..])
        .assert()
        .code(1)
        .stdout("518\n0\n")
        .stderr(
            predicate::str::contains("<stdin>:4:")
                .and(predicate::str::contains("<stdin>:5: not UTF-8")),
        );
}

#[test]
fn random_is_reproducible_with_a_seed() {
    let run = |seed: &str| {
        sp960()
            .args(["random", "--count", "5", "--seed", seed])
            .output()
            .unwrap()
    };
    let a = run("7");
    assert_eq!(a.stdout, run("7").stdout);
    assert_ne!(a.stdout, run("8").stdout);
    assert!(a.stderr.is_empty());
    for line in String::from_utf8(a.stdout).unwrap().lines() {
        let (number, fen) = line.split_once(' ').unwrap();
        sp960()
            .args(["identify", fen])
            .assert()
            .success()
            .stdout(format!("{number}\n"));
    }
    let dfrc = sp960()
        .args(["random", "--count", "50", "--seed", "1", "--dfrc"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(dfrc.stdout).unwrap().lines().any(|l| l
            .split(' ')
            .next()
            .unwrap()
            .contains(':'))
    );
    // Without a seed the drawn seed is told on stderr, so the run can be repeated.
    sp960()
        .arg("random")
        .assert()
        .success()
        .stderr(predicate::str::contains("--seed"));
}

#[test]
fn help_and_version() {
    sp960()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes"));
    sp960()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[cfg(unix)] // bash and head
#[test]
fn closed_stdout_is_not_an_error() {
    // `sp960 fen all | head -1`: the reader leaving early must not make us fail or panic.
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{}' fen all | head -n 1",
            assert_cmd::cargo::cargo_bin("sp960").display()
        ))
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 1);
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

#[test]
fn reference_fixture_matches_fen_and_identify() {
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/reference_starts.tsv"
    ))
    .unwrap();
    let rows: Vec<Vec<&str>> = fixture
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 7);
    for row in rows {
        let (spec, arrangement, fen) = (row[0], row[1], row[2]);
        sp960()
            .args(["fen", spec])
            .assert()
            .success()
            .stdout(format!("{fen}\n"));
        sp960()
            .args(["identify", fen])
            .assert()
            .success()
            .stdout(format!("{spec}\n"));
        if arrangement != "-" {
            sp960()
                .args(["identify", arrangement])
                .assert()
                .success()
                .stdout(format!("{spec}\n"));
        }
    }
}

/// python-chess (PyPI `chess`, installed by scripts/test.sh) is an independent implementation.
#[test]
fn all_960_agree_with_python_chess() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let script = "import chess\nfor n in range(960):\n    print(chess.Board.from_chess960_pos(n).fen(shredder=True))\n";
    let python = std::process::Command::new("python3")
        .args(["-c", script])
        .output()
        .expect("python3 runs");
    assert!(
        python.status.success(),
        "python-chess is installed: {}",
        String::from_utf8_lossy(&python.stderr)
    );
    sp960()
        .args(["fen", "all"])
        .assert()
        .success()
        .stdout(String::from_utf8(python.stdout).unwrap());
    let xfen = std::process::Command::new("python3")
        .args(["-c", &script.replace("shredder=True", "shredder=False")])
        .output()
        .unwrap();
    sp960()
        .args(["fen", "all", "--castling", "xfen"])
        .assert()
        .success()
        .stdout(String::from_utf8(xfen.stdout).unwrap());
}

/// A checking command whose reader leaves early must not claim success: `sp960 validate
/// broken.fen | head -n 1` in a CI step with pipefail has to fail.
#[cfg(unix)] // bash and head
#[test]
fn checking_commands_cut_short_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.fen");
    std::fs::write(&bad, "8/8/8/8/8/8/8/8 w - - 0 1\n".repeat(50_000)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sp960");
    for pipeline in [
        format!(
            "'{}' validate '{}' | head -n 1",
            bin.display(),
            bad.display()
        ),
        format!(
            "'{0}' fen all all all all | '{0}' identify - | head -n 1",
            bin.display()
        ),
    ] {
        let output = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("set -o pipefail; {pipeline}"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{pipeline}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("output closed"),
            "{pipeline}"
        );
    }
}

#[test]
fn proxy_start_must_be_one_start() {
    for (sp, reason) in [
        ("960", "out of range"),
        ("all", "is not one start"),
        ("1,2", "is not one start"),
    ] {
        sp960()
            .args(["proxy", "--sp", sp, "--", "/bin/true"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(reason));
    }
}
