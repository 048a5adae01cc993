//! `sp960 match --log DIR`: a file per game with every line to and from each engine and
//! its stderr, checked against the PGN (python-chess reads the games back).
#![cfg(unix)] // a shell script wraps an engine

#[path = "support/peers.rs"]
mod peers;

use peers::{Peer, sp960_match};

use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, serde::Deserialize)]
struct Checked {
    round: usize,
    plies: usize,
    white: String,
    black: String,
}

#[test]
fn every_game_gets_a_log_of_both_engines_lines_and_their_stderr() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let noisy = dir.path().join("noisy.sh");
    std::fs::write(
        &noisy,
        "#!/bin/sh\necho 'noisy engine starting' >&2\nexec /usr/games/stockfish \"$@\"\n",
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&noisy).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&noisy, permissions).unwrap();
    let noisy = format!("name=Noisy {}", noisy.display());
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "/usr/games/stockfish",
            "--engine",
            &noisy,
            "--sp",
            "0,959",
            "--depth",
            "2",
            "--max-plies",
            "30",
            "--concurrency",
            "2",
            "--pgn",
            "games.pgn",
            "--log",
            "logs",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 4);
    let mut files: Vec<String> = std::fs::read_dir(dir.path().join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "game-00001.log",
            "game-00002.log",
            "game-00003.log",
            "game-00004.log"
        ]
    );
    let mut stderr_lines = 0;
    for game in &games {
        let text =
            std::fs::read_to_string(dir.path().join(format!("logs/game-{:05}.log", game.round)))
                .unwrap();
        let mut gos = BTreeMap::<String, usize>::new();
        for line in text.lines() {
            // TIMESTAMP NAME MARK TEXT; the name may hold spaces.
            let (stamp, rest) = line.split_once(' ').unwrap();
            assert!(
                stamp.len() == 27 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
                "{line}"
            );
            let (name, mark, payload) = ["Stockfish 15.1", "Noisy", "stockfish"]
                .iter()
                .find_map(|name| {
                    let rest = rest.strip_prefix(name)?.strip_prefix(' ')?;
                    let (mark, payload) = rest.split_once(' ').unwrap_or((rest, ""));
                    Some((name.to_string(), mark.to_owned(), payload.to_owned()))
                })
                .unwrap_or_else(|| panic!("no engine name in {line:?}"));
            assert!(["<", ">", "!"].contains(&mark.as_str()), "{line}");
            if mark == "!" {
                assert_eq!(payload, "noisy engine starting");
                stderr_lines += 1;
            }
            if mark == ">" && payload.starts_with("go ") {
                *gos.entry(name).or_default() += 1;
            }
        }
        // One `go` per ply, each to the engine whose move it was.
        assert_eq!(
            gos.values().sum::<usize>(),
            game.plies,
            "round {}: {gos:?}",
            game.round
        );
        assert_eq!(
            gos[&game.white],
            game.plies.div_ceil(2),
            "round {}",
            game.round
        );
        assert_eq!(gos[&game.black], game.plies / 2, "round {}", game.round);
    }
    // Noisy started once per worker that played it (the first handshake and maybe one
    // more for the second worker): each start's stderr line is in a log.
    assert!((1..=2).contains(&stderr_lines), "{stderr_lines}");
}

fn python_check(pgn: &Path) -> Vec<Checked> {
    peers::python_check_pgn(pgn)
}
