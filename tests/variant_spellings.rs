//! One reading of a game's start: every `--variant-tag` preset of `sp960 normalize`, and
//! Chess960 spellings of its own, written by `normalize` and read the same way by
//! `validate`, `results`, `match --openings` (the built-in engine on both sides),
//! `tournament --openings` and `book stats`. `[Variant "FRC"]` was once written by
//! `normalize`, taken by `validate` and refused by `match`.

use std::path::Path;

use assert_cmd::Command;

/// The games: cutechess-cli's, under `[Variant "fischerandom"]`.
const GAMES: &str = "fixtures/games/corpus/cutechess-frc.pgn";

/// `normalize --variant-tag PRESET FILE`'s output, which must hold `[Variant "SPELLING"]`
/// and no other Variant tag.
fn normalized(dir: &Path, preset: &str, spelling: &str, file: &Path) -> String {
    let written = stdout(
        dir,
        &["normalize", "--variant-tag", preset, file.to_str().unwrap()],
    );
    let tag = format!("[Variant \"{spelling}\"]");
    assert!(written.contains(&tag), "{preset}: no {tag}");
    assert!(
        written
            .lines()
            .filter(|l| l.starts_with("[Variant "))
            .all(|l| l == tag),
        "{preset}: another Variant tag than {tag}"
    );
    written
}

/// The presets (`sp960 normalize --variant-tag`) and spellings of one's own.
const SPELLINGS: &[(&str, &str)] = &[
    ("cutechess", "fischerandom"),
    ("python-chess", "Chess960"),
    ("pgn-extract", "chess 960"),
    ("lichess", "Chess960"),
    ("FRC", "FRC"),
    ("960", "960"),
    ("Fischer Random", "Fischer Random"),
    ("chess-960", "chess-960"),
];

fn sp960(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("sp960").expect("binary built");
    command.current_dir(dir).env("NO_COLOR", "1");
    command
}

/// `args` run in `dir`: its stdout, the command having succeeded.
fn stdout(dir: &Path, args: &[&str]) -> String {
    let output = sp960(dir).args(args).output().unwrap();
    assert!(
        output.status.success(),
        "sp960 {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// What each reader makes of `games.pgn` (finished games) and `book.pgn` (an opening
/// book) in `dir`, the timings and the book's hashes left out.
fn readings(dir: &Path) -> Vec<String> {
    let validate = stdout(
        dir,
        &["validate", "--format", "json", "games.pgn", "book.pgn"],
    );
    let results = stdout(dir, &["results", "--json", "games.pgn"]);
    // The file's hashes (sri, sha256) differ with its bytes; what it holds must not.
    let stats: String = stdout(dir, &["book", "stats", "book.pgn"])
        .lines()
        .filter(|line| {
            !line.trim_start().starts_with("sri ") && !line.trim_start().starts_with("sha256 ")
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let tournament = stdout(
        dir,
        &[
            "tournament",
            "--emit",
            "fastchess",
            "--engine",
            "cmd=/nonexistent/a proto=uci chess960=yes",
            "--engine",
            "cmd=/nonexistent/b proto=uci chess960=yes",
            "--openings",
            "book.pgn",
        ],
    );
    [validate, results, stats, tournament]
        .into_iter()
        .map(|text| without_timings(&text))
        .collect()
}

/// `"seconds":0.0123` as `"seconds":_`.
fn without_timings(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"seconds\":") {
        let (head, tail) = rest.split_at(at + "\"seconds\":".len());
        out.push_str(head);
        out.push('_');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit() || ".e-".contains(c));
    }
    out.push_str(rest);
    out
}

#[test]
fn every_chess960_spelling_normalize_writes_is_read_alike_everywhere() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    // A PGN book of three starts, as `sp960 book` writes it (under `fischerandom`).
    let made = tempfile::tempdir().unwrap();
    let book = made.path().join("made.pgn");
    stdout(
        made.path(),
        &[
            "book", "0", "518", "860", "--format", "pgn", "-o", "made.pgn",
        ],
    );
    let mut first: Option<(String, Vec<String>)> = None;
    for (preset, spelling) in SPELLINGS {
        let dir = tempfile::tempdir().unwrap();
        let (games, book) = (games.clone(), book.clone());
        let games = normalized(dir.path(), preset, spelling, &games);
        std::fs::write(dir.path().join("games.pgn"), games).unwrap();
        let book = normalized(dir.path(), preset, spelling, &book);
        std::fs::write(dir.path().join("book.pgn"), book).unwrap();
        let seen = readings(dir.path());
        // Every game a Chess960 game from a start, counted by `results`.
        let results: serde_json::Value = serde_json::from_str(&seen[1]).unwrap();
        assert_eq!(results["games"], 96, "{preset}: {results}");
        match &first {
            None => first = Some((preset.to_string(), seen)),
            Some((named, expected)) => {
                for (reader, (got, want)) in ["validate", "results", "book stats", "tournament"]
                    .iter()
                    .zip(seen.iter().zip(expected))
                {
                    assert_eq!(got, want, "{reader}: {preset} read unlike {named}");
                }
            }
        }
        // The book plays in `sp960 match`, the built-in engine on both sides.
        let played = stdout(
            dir.path(),
            &[
                "match",
                "--openings",
                "file=book.pgn count=2",
                "--depth",
                "1",
                "--max-plies",
                "12",
                "--pgn",
                "games.pgn",
                "--json",
            ],
        );
        let summary: serde_json::Value = serde_json::from_str(&played).unwrap();
        assert_eq!(
            summary["games"].as_array().map(Vec::len),
            Some(4),
            "{preset}: {summary}"
        );
    }
}
