//! Ctrl-C during `sp960 match` with real engines (Stockfish, Ethereal): SIGINT to the
//! runner alone, and to its whole process group as a terminal sends it (the engines get
//! it too). The finished games stay in the PGN (python-chess reads them all), the games
//! being played are abandoned rather than scored, the table is printed, and stderr says
//! how many games were saved (exit 130).
#![cfg(unix)] // SIGINT to a process group

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, serde::Deserialize)]
struct Checked {
    round: usize,
    termination: String,
}

fn interrupt_after_some_games(whole_group: bool) {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let child = Command::new(env!("CARGO_BIN_EXE_sp960"))
        .current_dir(dir.path())
        .env("PATH", peers::search_path())
        .args(["match", "--engine", "/usr/games/stockfish"])
        .args(["--engine", "/usr/games/ethereal-chess"])
        .args(["--sp", "0-199", "--depth", "4", "--concurrency", "2"])
        .args(["--pgn", "games.pgn", "--log", "logs"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let begin = Instant::now();
    while std::fs::read_to_string(&pgn)
        .unwrap_or_default()
        .matches("[Event ")
        .count()
        < 3
    {
        assert!(begin.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id() as i32;
    // SAFETY: kill(2) on our own child (or its process group, which it leads).
    unsafe {
        libc::kill(if whole_group { -pid } else { pid }, libc::SIGINT);
    }
    let interrupted = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        interrupted.elapsed() < Duration::from_secs(5),
        "the runner stops at once, not after the 400 games"
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let games = python_check(&pgn);
    assert!((3..400).contains(&games.len()), "{}", games.len());
    assert!(
        stderr.ends_with(&format!(
            "sp960: match: interrupted: {} games saved to games.pgn\n",
            games.len()
        )),
        "{stderr}"
    );
    assert!(
        stdout.contains(&format!("PGN: games.pgn ({} games appended)", games.len())),
        "{stdout}"
    );
    // The table counts exactly the saved games.
    let row: Vec<&str> = stdout
        .lines()
        .find(|line| line.starts_with("Stockfish 15.1"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row[2], games.len().to_string(), "{stdout}");
    // No game was scored as a crash or time-out of an engine Ctrl-C stopped.
    for game in &games {
        assert_eq!(game.termination, "normal", "{game:?}");
        let log = dir.path().join(format!("logs/game-{:05}.log", game.round));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains(" < bestmove "), "{log:?}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.ends_with("\n\n"), "the last entry is complete");
}

#[test]
fn ctrl_c_to_the_runner_saves_the_finished_games_and_prints_the_table() {
    if !peers::need(&[Peer::Stockfish, Peer::Ethereal, Peer::PythonChess]) {
        return;
    }
    interrupt_after_some_games(false);
}

#[test]
fn ctrl_c_to_the_terminals_process_group_does_not_score_the_dying_engines_games() {
    if !peers::need(&[Peer::Stockfish, Peer::Ethereal, Peer::PythonChess]) {
        return;
    }
    interrupt_after_some_games(true);
}

fn python_check(pgn: &Path) -> Vec<Checked> {
    peers::python_check_pgn(pgn)
}
