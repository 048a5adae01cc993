//! `sp960 validate` and `sp960 normalize` as built: golden fixtures, exit codes, bad input.
//! Set UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change (then review
//! the diff).

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
const VALID_FEN: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";

/// The command, run from the crate root so fixture paths print as `fixtures/...`.
fn sp960() -> Command {
    let mut command = Command::cargo_bin("sp960").expect("binary built");
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn golden(relative: &str, actual: &[u8]) {
    let path = Path::new(FIXTURES).join(relative);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, actual).unwrap();
    }
    let expected = fs::read(&path).unwrap();
    assert_eq!(
        String::from_utf8_lossy(actual),
        String::from_utf8_lossy(&expected),
        "differs from fixtures/{relative}"
    );
}

fn summary_line() -> predicates::str::RegexPredicate {
    predicate::str::is_match(
        r"^sp960: validate: \d+ records?: \d+ valid, \d+ invalid; \d+ files?(, \d+ unreadable)?; \d+\.\d{3} s\n$",
    )
    .unwrap()
}

#[test]
fn invalid_fixtures_match_golden_diagnostics() {
    let output = sp960()
        .args(["validate", "fixtures/validate/invalid.fen"])
        .assert()
        .code(1)
        .stderr(summary_line().and(predicate::str::contains(
            "32 records: 0 valid, 32 invalid; 1 file;",
        )))
        .get_output()
        .stdout
        .clone();
    golden("validate/invalid.expected", &output);
}

#[test]
fn json_diagnostics_match_golden_and_end_with_a_summary() {
    let stdout = sp960()
        .args([
            "validate",
            "--format",
            "json",
            "fixtures/validate/invalid.fen",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(stdout).unwrap();
    let (records, summary) = text.trim_end().rsplit_once('\n').unwrap();
    golden(
        "validate/invalid.expected.jsonl",
        format!("{records}\n").as_bytes(),
    );
    let summary: serde_json::Value = serde_json::from_str(summary).unwrap();
    assert_eq!(summary["summary"]["records"], 32);
    assert_eq!(summary["summary"]["invalid"], 32);
    for line in records.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["path"], "fixtures/validate/invalid.fen");
        assert!(value["line"].as_u64().unwrap() >= 1);
        assert!(value["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

#[test]
fn valid_fixtures_pass_silently() {
    sp960()
        .args(["validate", "fixtures/validate/valid.epd"])
        .assert()
        .success()
        .stdout("")
        .stderr(summary_line().and(predicate::str::contains("12 records: 12 valid, 0 invalid")));
    // shakmaty's stricter rules refuse the two python-chess-only records.
    sp960()
        .args([
            "validate",
            "--rules",
            "strict",
            "fixtures/validate/valid.epd",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "valid.epd:19:1: error: too much material",
        ))
        .stdout(predicate::str::contains(
            "valid.epd:20:1: error: impossible check",
        ));
}

#[test]
fn start_positions_are_reported_and_ids_checked() {
    let output = sp960()
        .args([
            "validate",
            "--start-positions",
            "fixtures/validate/starts.epd",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    golden("validate/starts.expected", &output);
    let all = sp960()
        .args(["fen", "all", "--format", "epd"])
        .output()
        .unwrap()
        .stdout;
    sp960()
        .args(["validate", "--start-positions", "--quiet", "-"])
        .write_stdin(all)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("960 records: 960 valid"));
}

#[test]
fn directories_are_searched_with_globs() {
    sp960()
        .args(["validate", "--quiet", "fixtures/validate"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("; 0 files").not())
        .stderr(predicate::str::contains("; 3 files"));
    sp960()
        .args([
            "validate",
            "--start-positions",
            "--glob",
            "*.epd",
            "fixtures/validate",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("starts.epd:7:58:"))
        .stdout(predicate::str::contains("invalid.fen").not());
    sp960()
        .args(["validate", "--glob", "valid.*", "fixtures/validate"])
        .assert()
        .success();
}

#[test]
fn a_missing_file_is_named_exits_2_and_the_others_are_still_checked() {
    sp960()
        .args([
            "validate",
            "no/such/file.fen",
            "fixtures/validate/invalid.fen",
        ])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("invalid.fen:3:43: error:"))
        .stderr(predicate::str::contains(if cfg!(windows) {
            // Wine: "Path not found."; Windows: "The system cannot find the path specified."
            "sp960: validate: no/such/file.fen: "
        } else {
            "sp960: validate: no/such/file.fen: No such file"
        }))
        .stderr(predicate::str::contains("1 file, 1 unreadable"));
}

#[test]
fn quiet_prints_only_the_summary() {
    sp960()
        .args(["validate", "--quiet", "fixtures/validate/invalid.fen"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(summary_line());
    let stdout = sp960()
        .args([
            "validate",
            "--quiet",
            "--format",
            "json",
            "fixtures/validate/invalid.fen",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with("{\"summary\":"), "{text}");
}

#[test]
fn stdin_by_default_with_crlf_and_bom() {
    sp960()
        .arg("validate")
        .write_stdin(format!("\u{feff}{VALID_FEN}\r\n\r\n# c\r\n{VALID_FEN}"))
        .assert()
        .success()
        .stderr(predicate::str::contains("2 records: 2 valid"));
}

#[test]
fn bad_bytes_are_diagnosed_with_line_and_column() {
    let mut input = format!("{VALID_FEN}\n").into_bytes();
    input.extend_from_slice(b"rbknrnbq/pppppppp/8/8/8/8/PPPP\0PPP/RBKNRNBQ w EAea - 0 1\n");
    input.extend_from_slice(
        b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - c0 \"\xff\xfe\";\n",
    );
    input.extend_from_slice(b"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ \xc3\xa9 EAea - 0 1\n");
    sp960()
        .args(["validate", "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            "<stdin>:2:31: error: board: NUL byte\n\
             <stdin>:3:58: error: EPD operations: invalid UTF-8 (byte 0xff)\n\
             <stdin>:4:45: error: side to move: expected `w` or `b`, found `é`\n",
        );
}

#[test]
fn a_10_mb_line_is_reported_and_skipped_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.fen");
    let mut text = format!("{VALID_FEN}\n").into_bytes();
    text.extend(std::iter::repeat_n(b'8', 10 * 1024 * 1024));
    text.extend_from_slice(format!("\n{VALID_FEN}\n").as_bytes());
    fs::write(&path, &text).unwrap();
    sp960()
        .arg("validate")
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(
            ":2:1: error: line is 10485760 bytes long; a record may have at most 1048576\n",
        ))
        .stderr(predicate::str::contains("3 records: 2 valid, 1 invalid"));
    // normalize keeps the long line byte for byte.
    let output = sp960().arg("normalize").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(output.stdout, text);
}

#[test]
fn an_empty_file_has_no_records_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.fen");
    fs::write(&path, "").unwrap();
    sp960()
        .arg("validate")
        .arg(&path)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains(
            "0 records: 0 valid, 0 invalid; 1 file;",
        ));
}

#[cfg(unix)] // mkfifo
#[test]
fn a_fifo_is_read_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.fen");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        fs::write(
            writer_path,
            format!("{VALID_FEN}\n8/8/8/8/8/8/8/8 w - - 0 1\n"),
        )
        .unwrap();
    });
    sp960()
        .arg("validate")
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(":2:1: error: the board is empty"));
    writer.join().unwrap();
}

#[test]
fn a_directory_without_fixture_files_is_zero_files_and_normalize_refuses_directories() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.md"), "not a fixture").unwrap();
    sp960()
        .arg("validate")
        .arg(dir.path())
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "0 records: 0 valid, 0 invalid; 0 files",
        ));
    sp960()
        .arg("normalize")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
}

#[test]
fn usage_errors_exit_2() {
    sp960()
        .args(["validate", "--mode", "crazyhouse"])
        .assert()
        .code(2);
    sp960()
        .args(["validate", "--format", "xml"])
        .assert()
        .code(2);
    sp960()
        .args(["normalize", "--in-place", "-"])
        .write_stdin(VALID_FEN)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--in-place needs files"));
}

/// A Chess960 perft suite's real lines (Ethereal's fischer.epd) and test-suite operations,
/// with a planted wrong count (line 7) and a planted illegal `bm` (line 16).
const EPD_SUITE: &str = "fixtures/epd/perft960.epd";

#[test]
fn epd_moves_and_perft_counts_are_checked_and_each_defect_located() {
    let count = "fixtures/epd/perft960.epd:7:80: error: EPD operation D3 is 10417 here, the right count is 10471\n";
    let bm = "fixtures/epd/perft960.epd:16:57: error: EPD operation bm: Qxh7 is not a legal move here (no queen can go to h7)\n";
    sp960()
        .args(["validate", EPD_SUITE])
        .assert()
        .code(1)
        .stdout(format!("{count}{bm}"))
        .stderr(summary_line().and(predicate::str::contains(
            "8 records: 6 valid, 2 invalid; 1 file;",
        )));
    // Counts deeper than --perft-depth are not counted; 0 counts none; moves are still checked.
    for depth in ["2", "0"] {
        sp960()
            .args(["validate", "--perft-depth", depth, EPD_SUITE])
            .assert()
            .code(1)
            .stdout(bm);
    }
    let stdout = sp960()
        .args(["validate", "--format", "json", EPD_SUITE])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let objects: Vec<serde_json::Value> = String::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let located = |object: &serde_json::Value| {
        (
            object["line"].as_u64().unwrap(),
            object["column"].as_u64().unwrap(),
            object["field"].as_str().unwrap().to_owned(),
            object["kind"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(
        located(&objects[0]),
        (7, 80, "operations".to_owned(), "WrongPerftCount".to_owned())
    );
    assert_eq!(
        located(&objects[1]),
        (
            16,
            57,
            "operations".to_owned(),
            "IllegalOperationMove".to_owned()
        )
    );
    // The suite with its defects mended passes at depth 5, every count up to D5 counted.
    let mended = fs::read_to_string(Path::new(FIXTURES).join("epd/perft960.epd"))
        .unwrap()
        .replace(";D3 10417", ";D3 10471")
        .replace("bm Qxh7", "bm Nc3");
    sp960()
        .args(["validate", "--perft-depth", "5", "-"])
        .write_stdin(mended)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("8 records: 8 valid, 0 invalid"));
}

#[test]
fn bad_epd_operations_are_located_and_deep_counts_never_tried() {
    let sp860 = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea -";
    let input = [
        ";D3 abc",
        ";D0 1",
        ";D99 1",
        "bm;",
        ";D1 20 21",
        "pv e2e4 e7e5 Qxh7;",
        "bm e1g1;",
    ]
    .map(|operations| format!("{sp860} {operations}\n"))
    .concat();
    sp960()
        .args(["validate", "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            "<stdin>:1:58: error: EPD operation D3: expected a count (digits 0-9), found `abc`\n\
             <stdin>:2:55: error: EPD operation D0: a perft depth is 1 or more\n\
             <stdin>:3:55: error: EPD operation D99: depth 99 is out of range: perft counts are read for depths 1 to 15\n\
             <stdin>:4:54: error: EPD operation bm: no move (it names one or more moves, in SAN or UCI)\n\
             <stdin>:5:61: error: EPD operation D1: one count expected, found more: `21`\n\
             <stdin>:6:67: error: EPD operation pv: Qxh7 (move 3) is not a legal move after e2e4 e7e5 (no queen can go to h7), in rbknrnbq/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RBKNRNBQ w EAea - 0 2\n\
             <stdin>:7:57: error: EPD operation bm: e1g1 is not a legal move here (the rook on e1 cannot go to g1)\n",
        );
    // The deepest --perft-depth is 8: asking for more is a usage error, never a count.
    sp960()
        .args(["validate", "--perft-depth", "9", "-"])
        .write_stdin(format!("{sp860} ;D9 1\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--perft-depth"));
}

#[test]
fn normalize_keeps_operations_after_a_fen_s_counters_and_does_not_count() {
    // normalize checks syntax only: the planted defects are copied, not reported.
    let input = fs::read_to_string(Path::new(FIXTURES).join("epd/perft960.epd")).unwrap();
    sp960()
        .args(["normalize", EPD_SUITE])
        .assert()
        .success()
        .stdout(input);
}

#[test]
fn normalize_matches_golden_files_in_both_notations() {
    for (castling, expected) in [
        ("shredder", "normalize/expected.shredder.epd"),
        ("xfen", "normalize/expected.xfen.epd"),
    ] {
        let output = sp960()
            .args([
                "normalize",
                "--castling",
                castling,
                "fixtures/normalize/input.epd",
            ])
            .assert()
            .success()
            .stderr("")
            .get_output()
            .stdout
            .clone();
        golden(expected, &output);
        // Canonical output is a fixed point, and it is all valid.
        sp960()
            .args(["normalize", "--castling", castling])
            .arg(Path::new(FIXTURES).join(expected))
            .assert()
            .success()
            .stdout(output.clone());
        sp960()
            .arg("validate")
            .arg(Path::new(FIXTURES).join(expected))
            .assert()
            .success();
    }
}

fn copy_to_temp(fixture: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(Path::new(fixture).file_name().unwrap());
    fs::copy(Path::new(FIXTURES).join(fixture), &path).unwrap();
    (dir, path)
}

#[test]
fn normalize_in_place_rewrites_valid_files_atomically() {
    let (dir, path) = copy_to_temp("normalize/input.epd");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    }
    sp960()
        .args(["normalize", "--in-place"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        fs::read(&path).unwrap(),
        fs::read(Path::new(FIXTURES).join("normalize/expected.shredder.epd")).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }
    // No temporary file is left behind.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn normalize_in_place_refuses_files_with_invalid_records() {
    let (dir, path) = copy_to_temp("validate/invalid.fen");
    let before = fs::read(&path).unwrap();
    sp960()
        .args(["normalize", "--in-place"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("invalid.fen:3:43: error: board:"))
        .stderr(predicate::str::contains(
            "left unchanged: 32 invalid records",
        ));
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    // A run long enough for a bar to draw: stderr still holds the summary line alone.
    let fens = sp960().args(["fen", "all"]).output().unwrap().stdout;
    let many: Vec<u8> = fens
        .iter()
        .copied()
        .cycle()
        .take(fens.len() * 200)
        .collect();
    sp960()
        .arg("validate")
        .write_stdin(many)
        .assert()
        .success()
        .stderr(summary_line().and(predicate::str::contains("192000 records")));
}

#[cfg(unix)] // script(1) gives it a terminal
#[test]
fn a_progress_bar_is_drawn_when_stderr_is_a_terminal() {
    // `script` (util-linux) runs the command on a pseudo-terminal and copies what it drew.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.fen");
    let fens = sp960().args(["fen", "all"]).output().unwrap().stdout;
    let many: Vec<u8> = fens
        .iter()
        .copied()
        .cycle()
        .take(fens.len() * 100)
        .collect();
    fs::write(&path, many).unwrap();
    let command = format!(
        "{} validate {}",
        assert_cmd::cargo::cargo_bin("sp960").display(),
        path.display()
    );
    let output = std::process::Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    let drawn = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{drawn}");
    // The bar shows bytes read of the total, then is cleared before the summary.
    assert!(drawn.contains("iB/"), "{drawn}");
    assert!(drawn.contains("\u{1b}[2K"), "{drawn}");
    assert!(drawn.contains("96000 records: 96000 valid"), "{drawn}");
}

/// Issue 39: a PGN file's games are replayed, each one record; every planted defect is
/// reported at its line and column (the same run is docs/validate.md's example).
#[test]
fn pgn_games_are_replayed_and_each_defect_located() {
    let output = sp960()
        .args(["validate", "fixtures/games/defects.pgn"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "10 records (10 games): 2 valid, 8 invalid, 3 warnings; 1 file;",
        ))
        .get_output()
        .stdout
        .clone();
    golden("games/defects.expected", &output);
    // JSON: one object per game, valid or not, then the summary.
    let stdout = sp960()
        .args(["validate", "--format", "json", "--start-positions"])
        .arg("fixtures/games/defects.pgn")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let objects: Vec<serde_json::Value> = String::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let games = &objects[..objects.len() - 1];
    assert_eq!(games.len(), 10);
    assert_eq!(games[0]["start"], "860");
    assert_eq!(
        (&games[0]["plies"], &games[0]["valid"]),
        (&10.into(), &true.into())
    );
    assert_eq!(games[0]["result"], "1-0");
    // The mainline's last position (after the variation is left), Shredder-FEN.
    assert_eq!(
        games[0]["final"],
        "rb3rkq/pppppbpp/2n1n3/5p2/5P2/2N1N3/PPPPPBPP/RB3RKQ w - - 4 6"
    );
    assert_eq!(games[1]["valid"], false);
    assert!(
        games[1].get("final").is_none(),
        "an invalid game has no final position"
    );
    assert_eq!(games[1]["findings"][0]["kind"], "IllegalMove");
    assert_eq!(games[1]["findings"][0]["line"], 18);
    assert_eq!(games[1]["findings"][0]["column"], 13);
    let summary = &objects[objects.len() - 1]["summary"];
    assert_eq!(
        (&summary["games"], &summary["warnings"]),
        (&10.into(), &3.into())
    );
}

/// A game file cut into pieces for the cores keeps every line number: the same game,
/// 4,000 times, a defect in a few, across many blocks.
#[test]
fn pgn_line_numbers_stay_right_across_blocks_and_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let good = "[Event \"e\"]\n[Variant \"Chess960\"]\n[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n\n1. Nc3 Nc6 2. Ne3 Ne6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O *\n\n";
    let bad = good.replace("5. O-O O-O", "5. O-O O-O 6. O-O");
    let mut text = String::new();
    let mut expected = Vec::new();
    for game in 0..4_000usize {
        let line = game * 6 + 1;
        if game % 997 == 5 {
            text.push_str(&bad);
            expected.push(format!(
                "games.pgn:{}:57: error: game at line {line}: 6. O-O (White)",
                line + 4
            ));
        } else {
            text.push_str(good);
        }
    }
    let path = dir.path().join("games.pgn");
    fs::write(&path, &text).unwrap();
    let output = sp960()
        .current_dir(dir.path())
        .args(["validate", "games.pgn"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got.len(), expected.len(), "{stdout}");
    for (got, expected) in got.iter().zip(&expected) {
        assert!(
            got.starts_with(expected.as_str()),
            "{got}\nexpected {expected}"
        );
    }
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("4000 records (4000 games): 3995 valid, 5 invalid;"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Hostile PGN through the streaming reader: a 2 MB line (longer than a line is kept) is
/// reported where it is and streamed past, binary bytes and a game cut in the middle get
/// located errors, and the games around them are still read.
#[test]
fn hostile_pgn_is_located_and_the_other_games_read() {
    let dir = tempfile::tempdir().unwrap();
    let good = "[Event \"e\"]\n\n1. e4 e5 *\n\n";
    let mut text = String::from(good);
    text.push_str(&format!(
        "[Event \"long\"]\n\n1. e4 {{{}}} e5 *\n\n",
        "x".repeat(2 << 20)
    ));
    text.push_str(good);
    text.push_str("[Event \"binary\"]\n\n1. e4 \u{1}\u{7f}\u{fffd} *\n\n");
    text.push_str(good);
    text.push_str("[Event \"cut\"]\n\n1. e4 e5 2. N");
    let path = dir.path().join("hostile.pgn");
    fs::write(&path, &text).unwrap();
    let output = sp960()
        .current_dir(dir.path())
        .args(["validate", "hostile.pgn"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("hostile.pgn:7:1: error: game at line 5: line is 2097165 bytes long"),
        "{stdout}"
    );
    assert!(
        stdout.contains("hostile.pgn:15:7: error: game at line 13: 1... "),
        "{stdout}"
    );
    assert!(
        stdout.contains("hostile.pgn:23:13: error: game at line 21: 2. `N` (White): not SAN"),
        "{stdout}"
    );
    // The three good games are valid.
    assert!(stderr.contains(" 3 valid, "), "{stderr}");
}
