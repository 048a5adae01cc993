//! XBoard engines' thinking output (`post`: `ply score time nodes pv`) in `sp960 match`:
//! the PGN's per-move comments and `--resign` adjudication, with Sjaak II and
//! Fairy-Stockfish in XBoard mode; python-chess replays every game.

#[path = "support/peers.rs"]
mod peers;

use peers::{Peer, sp960_match};

use std::path::Path;
use std::process::Command;

#[derive(Debug, serde::Deserialize)]
struct Checked {
    white: String,
    result: String,
    termination: String,
    comment: String,
    evals: Vec<String>,
    plies: usize,
}

/// A move comment's score in pawns (`+0.35/3 0.010s`), mates as ±1000.
fn pawns(eval: &str) -> f64 {
    let score = eval.split('/').next().unwrap();
    if let Some(mate) = score.strip_prefix("+M") {
        assert!(mate.parse::<u32>().is_ok(), "{eval}");
        1000.0
    } else if let Some(mate) = score.strip_prefix("-M") {
        assert!(mate.parse::<u32>().is_ok(), "{eval}");
        -1000.0
    } else {
        score
            .parse()
            .unwrap_or_else(|_| panic!("no score in {eval:?}"))
    }
}

#[test]
fn sjaak_ii_scores_fill_the_comments_and_drive_resign_adjudication() {
    if !peers::need(&[Peer::SjaakII, Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "proto=xboard name=Sjaak /usr/games/sjaakii",
            "--engine",
            "/usr/games/stockfish",
            "--sp",
            "100-101",
            "--depth",
            "3",
            "--concurrency",
            "2",
            "--max-plies",
            "200",
            "--resign",
            "movecount=3",
            "score=400",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 4);
    let mut sjaak_resigned = 0;
    for game in &games {
        assert_eq!(game.evals.len(), game.plies);
        // Every move, Sjaak's included, has a score and the depth it searched (3, or
        // less when the search stopped early on a forced line).
        for eval in &game.evals {
            let depth: u32 = eval.split(['/', ' ']).nth(1).unwrap().parse().unwrap();
            assert!((1..=3).contains(&depth), "{eval} in {game:?}");
            pawns(eval);
        }
        if game.termination != "adjudication" || game.result == "1/2-1/2" {
            continue;
        }
        // The loser's own last three scores are at or below -4 pawns.
        let loser_is_white = game.result == "0-1";
        let loser_moves: Vec<&String> = game
            .evals
            .iter()
            .enumerate()
            .filter(|(ply, _)| (ply % 2 == 0) == loser_is_white)
            .map(|(_, eval)| eval)
            .collect();
        let last: Vec<f64> = loser_moves.iter().rev().take(3).map(|e| pawns(e)).collect();
        assert!(last.iter().all(|&p| p <= -4.0), "{last:?} in {game:?}");
        let loser = if loser_is_white == (game.white == "Sjaak") {
            "Sjaak"
        } else {
            "Stockfish"
        };
        if loser == "Sjaak" {
            sjaak_resigned += 1;
        }
        assert!(
            game.comment
                .contains("score at or below -400 cp for 3 moves"),
            "{game:?}"
        );
    }
    // Sjaak at depth 3 loses to Stockfish at depth 3 by adjudication at least once: its
    // own thinking output is what ended the game.
    assert!(sjaak_resigned >= 1, "{games:?}");
}

#[test]
fn fairy_stockfish_mate_scores_read_as_mates() {
    if !peers::need(&[Peer::FairyStockfish, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "proto=xboard depth=8 /usr/games/fairy-stockfish",
            "--sp",
            "0",
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 2);
    let mut mates = 0;
    for game in &games {
        let fairy_white = game.white == "Fairy-Stockfish";
        for (ply, eval) in game.evals.iter().enumerate() {
            if (ply % 2 == 0) != fairy_white {
                continue;
            }
            assert!(!eval.contains("/0 "), "{eval}");
            if eval.starts_with("+M") {
                mates += 1;
            }
        }
        if game.result != "1/2-1/2" && game.termination == "normal" {
            assert!(game.comment.ends_with("mates"), "{game:?}");
        }
    }
    // Fairy-Stockfish (depth 8) mates the built-in engine (depth 2) and says so first:
    // its `100000 + N` scores are read as mates.
    assert!(mates >= 1, "{games:?}");
}

#[test]
fn xboard_adjudication_ends_the_same_games_at_the_same_ply_as_cutechess_cli() {
    if !peers::need(&[Peer::SjaakII, Peer::Stockfish, Peer::CutechessCli]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let book = Command::new(env!("CARGO_BIN_EXE_sp960"))
        .args(["fen", "100-102", "--format", "epd"])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(dir.path().join("book.epd"), book).unwrap();
    let adjudication = [
        "movecount=3",
        "score=400",
        "movenumber=20",
        "movecount=4",
        "score=15",
    ];
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "proto=xboard name=a /usr/games/sjaakii",
            "--engine",
            "/usr/games/stockfish name=b",
            "--sp",
            "100-102",
            "--depth",
            "3",
            "--concurrency",
            "1",
            "--pgn",
            "sp960.pgn",
            "--resign",
            &adjudication[..2].join(" "),
            "--draw",
            &adjudication[2..].join(" "),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = Command::new("cutechess-cli")
        .current_dir(dir.path())
        .env("PATH", peers::search_path())
        .args([
            "-engine",
            "cmd=/usr/games/sjaakii",
            "proto=xboard",
            "name=a",
        ])
        .args(["-engine", "cmd=/usr/games/stockfish", "proto=uci", "name=b"])
        .args(["-each", "tc=inf", "depth=3", "-variant", "fischerandom"])
        .args([
            "-openings",
            "file=book.epd",
            "format=epd",
            "order=sequential",
        ])
        .args([
            "-games",
            "2",
            "-rounds",
            "3",
            "-repeat",
            "-concurrency",
            "1",
        ])
        .arg("-resign")
        .args(&adjudication[..2])
        .arg("-draw")
        .args(&adjudication[2..])
        .args(["-pgnout", "cutechess.pgn"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let ours = std::fs::read_to_string(dir.path().join("sp960.pgn")).unwrap();
    let theirs = std::fs::read_to_string(dir.path().join("cutechess.pgn")).unwrap();
    let (ours, theirs) = (games_of(&ours), games_of(&theirs));
    assert_eq!(ours.len(), 6);
    // Sjaak II's scores, read from its thinking output, end some games: the same ones.
    let adjudicated = std::fs::read_to_string(dir.path().join("sp960.pgn"))
        .unwrap()
        .matches("[Termination \"adjudication\"]")
        .count();
    assert!(adjudicated >= 2, "{adjudicated}");
    assert_eq!(ours, theirs);
}

fn python_check(pgn: &Path) -> Vec<Checked> {
    peers::python_check_pgn(pgn)
}

/// Each game's result, ply count and moves (comments and move numbers dropped).
fn games_of(pgn: &str) -> Vec<(String, String, Vec<String>)> {
    let ply_count = |game: &str| {
        game.lines()
            .find_map(|line| line.strip_prefix("[PlyCount \""))
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_owned()
    };
    pgn.split("[Event ")
        .skip(1)
        .zip(peers::games(pgn))
        .map(|(game, (result, moves))| (result, ply_count(game), moves))
        .collect()
}
