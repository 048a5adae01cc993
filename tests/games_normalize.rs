//! `sp960 normalize` on PGN games (issue 39, item 2): each producer's conventions
//! (fixtures/games/conventions.pgn: chess.com's FEN without SetUp, a lichess broadcast's two
//! FEN tags, a ChessBase-style `chess 960` file with CRLF, cutechess-cli's `fischerandom`
//! and X-FEN, a TCEC tiebreak game with no Variant and `0-0`, the `chess-960` spelling)
//! rewritten for each reading tool, and read by that tool: python-chess replays every game
//! as the original meant it, pgn-extract writes the same moves, cutechess-cli plays every
//! game's moves as an opening book.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/peers.rs"]
mod peers;

use peers::Peer;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/games/conventions.pgn")
}

fn python(script: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script)
}

/// `sp960 normalize --variant-tag PRESET` of the fixture, written to DIR/PRESET.pgn.
fn normalized(dir: &Path, preset: &str) -> PathBuf {
    let output = cli::sp960()
        .args(["normalize", "--variant-tag", preset])
        .arg(fixture())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let path = dir.join(format!("{preset}.pgn"));
    std::fs::write(&path, &output.stdout).unwrap();
    path
}

/// python-chess's UCI moves (king takes rook) of each game of a normalized file, as
/// tests/python/normalized_games.py prints them; asserts every game agrees with the
/// original's.
fn python_agrees(normalized: &Path) -> Vec<Vec<String>> {
    let output = Command::new("python3")
        .arg(python("normalized_games.py"))
        .arg(fixture())
        .arg(normalized)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text.lines()
        .map(|line| {
            let pair: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(pair["same"], true, "{pair}");
            pair["normalized"]["uci"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn python_chess_reads_every_normalized_game_as_the_original_meant() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = normalized(dir.path(), "python-chess");
    let games = python_agrees(&path);
    assert_eq!(games.len(), 6);
    let text = std::fs::read_to_string(&path).unwrap();
    // One FEN tag a game, each with SetUp and the Variant python-chess reads; no `0-0`.
    assert_eq!(text.matches("[FEN ").count(), 6);
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 6);
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 6);
    assert!(!text.contains("0-0"), "{text}");
    // The ChessBase-style game keeps its CRLF line ends, byte for byte.
    assert!(text.contains("[Event \"ChessBase\"]\r\n"));
    // And sp960 reads its own output with no warning left.
    let output = cli::sp960().arg("validate").arg(&path).output().unwrap();
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(
        summary.contains("6 records (6 games): 6 valid, 0 invalid;"),
        "{summary}"
    );
}

#[test]
fn pgn_extract_writes_the_moves_python_chess_reads() {
    if !peers::need(&[Peer::PythonChess, Peer::PgnExtract]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = normalized(dir.path(), "pgn-extract");
    let expected = python_agrees(&path);
    // pgn-extract -Wuci: each game's moves in UCI (Chess960: king takes rook).
    let uci = |file: &Path| {
        let output = Command::new("/usr/games/pgn-extract")
            .current_dir(dir.path())
            .arg("-Wuci")
            .arg(file)
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&output.stderr).into_owned();
        let games: Vec<Vec<String>> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter(|line| !line.starts_with('[') && !line.trim().is_empty())
            .map(|line| {
                line.split_whitespace()
                    .filter(|word| *word != "*")
                    .map(str::to_owned)
                    .collect()
            })
            .collect();
        (games, log)
    };
    let (games, log) = uci(&path);
    assert!(log.contains("6 games matched out of 6."), "{log}");
    assert_eq!(games, expected, "{log}");
    // The original, as its producers wrote it, is not read so: the TCEC game with no
    // Variant tag gets no moves at all, cutechess-cli's `fischerandom` castles to the
    // king's square.
    let (games, _) = uci(&fixture());
    assert_ne!(games, expected);
}

#[test]
fn cutechess_cli_plays_every_normalized_game_as_an_opening() {
    if !peers::need(&[Peer::PythonChess, Peer::CutechessCli]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let play = |book: &Path| {
        let out = dir.path().join("played.pgn");
        let _ = std::fs::remove_file(&out);
        let sp960 = peers::sp960();
        let output = Command::new("timeout")
            .current_dir(dir.path())
            .env("PATH", peers::search_path())
            .args(["300", "cutechess-cli", "-engine", "name=a"])
            .arg(format!("cmd={sp960}"))
            .args(["arg=engine", "-engine", "name=b"])
            .arg(format!("cmd={sp960}"))
            .args(["arg=engine", "-each", "proto=uci", "tc=inf", "depth=1"])
            .args(["-variant", "fischerandom", "-games", "1", "-rounds", "6"])
            .arg("-openings")
            .arg(format!("file={}", book.display()))
            .args(["format=pgn", "order=sequential", "-pgnout"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let log = String::from_utf8_lossy(&output.stdout).into_owned();
        peers::assert_runner_untroubled(&log, "cutechess-cli", &[]);
        Command::new("python3")
            .arg(python("book_moves_played.py"))
            .arg(book)
            .arg(&out)
            .output()
            .unwrap()
    };
    let book = normalized(dir.path(), "cutechess");
    let checked = play(&book);
    let report = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{report}");
    assert_eq!(report.lines().count(), 6, "{report}");
    // Under `Chess960` (what python-chess and lichess read) cutechess-cli 1.5.1 starts every
    // game at the start position, without the book's moves.
    let checked = play(&normalized(dir.path(), "python-chess"));
    assert!(!checked.status.success());
    let report = String::from_utf8_lossy(&checked.stdout);
    assert!(report.contains("\"played_of_them\": 0"), "{report}");
}
