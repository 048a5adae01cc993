//! Real compressed files, kept in the repository (issue 48, item 6): fishtest's
//! `FRC_openings.epd.zip` (official-stockfish/books, CC0) and a gzip of its text
//! (`fixtures/books/fishtest/`), and game files from the project's corpus and a
//! lichess-format export, gzipped and zstd-compressed by the command-line tools
//! (`fixtures/games/compressed/`). Each is read by `validate`, `book stats` (the books) and
//! `results` (the games) with the same output as its decompressed text; python-chess,
//! reading through Python's own gzip / zipfile and a zstd decoder, agrees game for game.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

/// The sri of `FRC_openings.epd` in the books repository's books.json.
const FRC_SRI: &str = "JVruRrMKePsACyfEBbKEKWnGcZjIXSfvE6MuQ58PFmGPK9sdtzWl6ZzADd5AkoLY";

fn sp960() -> Command {
    Command::cargo_bin("sp960").expect("binary built")
}

fn fixture(path: &str) -> PathBuf {
    Path::new(FIXTURES).join(path)
}

fn gunzip(path: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(fs::File::open(path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The one entry of the zip archive at `path`: its name and bytes.
fn unzip_one(path: &Path) -> (String, Vec<u8>) {
    let mut archive = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    assert_eq!(archive.len(), 1, "{}", path.display());
    let mut entry = archive.by_index(0).unwrap();
    assert_eq!(entry.compression(), zip::CompressionMethod::Deflated);
    let mut out = Vec::new();
    entry.read_to_end(&mut out).unwrap();
    (entry.name().unwrap().into_owned(), out)
}

/// `files` of the corpus one after the other, a blank line between two games: the text
/// that fixtures/games/compressed/README.md says each game file was made from.
fn corpus_text(files: &[&str]) -> Vec<u8> {
    let mut text = Vec::new();
    for file in files {
        if !text.is_empty() && !text.ends_with(b"\n\n") {
            text.push(b'\n');
        }
        text.extend(fs::read(fixture(&format!("games/corpus/{file}"))).unwrap());
    }
    text
}

/// The real game files, each with the plain text it holds.
fn game_files() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = fixture("games/compressed");
    vec![
        (
            dir.join("corpus-a.pgn.gz"),
            corpus_text(&[
                "cutechess-frc.pgn",
                "python-chess-cutechess-2016.pgn",
                "scalachess-lichess-dgt.pgn",
            ]),
        ),
        (
            dir.join("corpus-b.pgn.zst"),
            corpus_text(&["fastchess-frc.pgn", "sp960-match.pgn"]),
        ),
        (
            dir.join("lichess.pgn.gz"),
            fs::read(fixture("results/lichess.pgn")).unwrap(),
        ),
    ]
}

/// Runs `sp960 ARGS PATH`: exit code, stdout and stderr with `PATH` (and a zip's `!ENTRY`)
/// written as `FILE`, and the summary's timing left out.
fn run(args: &[&str], path: &Path, entry: Option<&str>) -> (Option<i32>, String, String) {
    let output = sp960().args(args).arg(path).output().unwrap();
    let shown = path.display().to_string();
    let unname = |text: &[u8]| {
        let text = String::from_utf8_lossy(text);
        let text = match entry {
            Some(entry) => text.replace(&format!("{shown}!{entry}"), "FILE"),
            None => text.into_owned(),
        };
        text.replace(&shown, "FILE")
    };
    (
        output.status.code(),
        untimed(&unname(&output.stdout)),
        untimed(&unname(&output.stderr)),
    )
}

/// `text` without the summary's timing (`; 0.004 s` and JSON's `"seconds"`).
fn untimed(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind("; ") {
            Some(at) if line.ends_with(" s") => line[..at].to_owned(),
            _ => match serde_json::from_str::<Value>(line) {
                Ok(mut value) if value.get("summary").is_some() => {
                    value["summary"]["seconds"] = Value::Null;
                    value.to_string()
                }
                _ => line.to_owned(),
            },
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_fishtest_book_reads_as_its_plain_text() {
    let zip_path = fixture("books/fishtest/FRC_openings.epd.zip");
    let gz_path = fixture("books/fishtest/FRC_openings.epd.gz");
    let (entry, text) = unzip_one(&zip_path);
    assert_eq!(entry, "FRC_openings.epd");
    assert_eq!(gunzip(&gz_path), text, "the .gz holds the zip's entry");
    assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), 960);
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("FRC_openings.epd");
    fs::write(&plain, &text).unwrap();

    for args in [
        &["validate"][..],
        &["validate", "--format", "json"],
        &["book", "stats"],
        &["book", "stats", "--json"],
    ] {
        let expected = run(args, &plain, None);
        assert_eq!(expected.0, Some(0), "{args:?}: {}", expected.2);
        for (path, entry) in [(&zip_path, Some(entry.as_str())), (&gz_path, None)] {
            assert_eq!(
                run(args, path, entry),
                expected,
                "{args:?} {}",
                path.display()
            );
        }
    }
    let (_, out, err) = run(&["validate"], &plain, None);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("960 records: 960 valid, 0 invalid; 1 file"),
        "{err}"
    );

    // The stats name the archive's entry, and find the sri fishtest's books.json gives.
    let output = sp960()
        .args(["book", "stats"])
        .arg(&zip_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{}!FRC_openings.epd:\n", zip_path.display())),
        "{stdout}"
    );
    assert!(stdout.contains("positions      960 (960 white"), "{stdout}");
    assert!(
        stdout.contains(&format!("sri            {FRC_SRI}")),
        "{stdout}"
    );
}

#[test]
fn a_defect_in_the_fishtest_zip_is_named_by_its_entry() {
    // The real archive with one line broken: the diagnostic names ARCHIVE!ENTRY:LINE.
    let (entry, text) = unzip_one(&fixture("books/fishtest/FRC_openings.epd.zip"));
    let text = String::from_utf8(text).unwrap();
    let broken = text.replacen("bbqnnrkr/", "bbqnnrkx/", 1);
    let line = text.lines().next().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("FRC_openings.epd.zip");
    let mut writer = zip::ZipWriter::new(fs::File::create(&archive).unwrap());
    writer
        .start_file(
            entry.as_str(),
            zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated),
        )
        .unwrap();
    std::io::Write::write_all(&mut writer, broken.as_bytes()).unwrap();
    writer.finish().unwrap();
    let plain = dir.path().join("FRC_openings.epd");
    fs::write(&plain, &broken).unwrap();
    let expected = run(&["validate"], &plain, None);
    assert_eq!(expected.0, Some(1), "{line}: {expected:?}");
    assert!(expected.1.starts_with("FILE:1:"), "{}", expected.1);
    assert_eq!(run(&["validate"], &archive, Some(&entry)), expected);
    let output = sp960().arg("validate").arg(&archive).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{}!FRC_openings.epd:1:", archive.display())),
        "{stdout}"
    );
}

#[test]
fn the_game_files_read_as_their_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in game_files() {
        let name = path.file_name().unwrap().to_str().unwrap();
        if name.ends_with(".gz") {
            assert_eq!(gunzip(&path), text, "{name} holds what its README says");
        } else if std::process::Command::new("zstd")
            .arg("-V")
            .output()
            .is_ok()
        {
            let output = std::process::Command::new("zstd")
                .arg("-dc")
                .arg(&path)
                .output()
                .unwrap();
            assert!(output.status.success());
            assert_eq!(output.stdout, text, "{name} holds what its README says");
        }
        let plain = dir.path().join(name.rsplit_once('.').unwrap().0);
        fs::write(&plain, &text).unwrap();
        for args in [
            &["validate"][..],
            &["validate", "--format", "json"],
            &["results"],
            &["results", "--json"],
        ] {
            let expected = run(args, &plain, None);
            assert!(matches!(expected.0, Some(0 | 1)), "{args:?}: {expected:?}");
            assert_eq!(run(args, &path, None), expected, "{args:?} {name}");
        }
        let (code, _, err) = run(&["validate"], &plain, None);
        assert_eq!(code, Some(0), "{name}: {err}");
    }
}

#[test]
fn python_chess_agrees_game_for_game() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    for (path, _) in game_files() {
        let name = path.display().to_string();
        let oracle: Vec<Value> = peers::python_json_lines("compressed_games_oracle.py", &path);
        let oracle = &oracle[0];
        if let Some(why) = oracle.get("skipped") {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("SKIPPED python-chess on {name}: {why}\n").as_bytes(),
            );
            continue;
        }
        let output = sp960()
            .args(["validate", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        let mut lines = json_lines(&String::from_utf8(output.stdout).unwrap());
        let summary = lines.pop().unwrap();
        let games = oracle["games"].as_u64().unwrap();
        assert!(games > 10, "{name}: {oracle}");
        assert_eq!(summary["summary"]["games"], games, "{name}");
        assert_eq!(summary["summary"]["valid"], games, "{name}");
        let records = oracle["records"].as_array().unwrap();
        assert_eq!(lines.len(), records.len(), "{name}");
        for (ours, theirs) in lines.iter().zip(records) {
            assert_eq!(theirs["errors"], 0, "{name}: {theirs}");
            for key in ["result", "plies", "final"] {
                assert_eq!(
                    ours[key], theirs[key],
                    "{name} line {}: {key}",
                    ours["line"]
                );
            }
        }

        let output = sp960()
            .arg("results")
            .arg("--json")
            .arg(&path)
            .output()
            .unwrap();
        let results: Value = serde_json::from_slice(&output.stdout).unwrap();
        let count = |result: &str| oracle["results"][result].as_u64().unwrap_or(0);
        assert_eq!(results["overall"]["wins"], count("1-0"), "{name}");
        assert_eq!(results["overall"]["draws"], count("1/2-1/2"), "{name}");
        assert_eq!(results["overall"]["losses"], count("0-1"), "{name}");
        let skipped: u64 = results["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|reason| reason["games"].as_u64().unwrap())
            .sum();
        assert_eq!(
            results["games"].as_u64().unwrap() + skipped,
            games,
            "{name}"
        );
        assert_eq!(
            skipped,
            count("*"),
            "{name}: only the unfinished are counted apart"
        );
    }
}
