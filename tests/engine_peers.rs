//! `sp960 engine` with real peers: python-chess drives it as a UCI and as an XBoard
//! engine (and rejects any illegal move), Stockfish plays it and judges its mates. The
//! cases live in tests/python/engine_peers.py; each runs under a time limit.

use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

const STOCKFISH: &str = "/usr/games/stockfish";
const LIMIT: Duration = Duration::from_secs(120);

/// Runs one case of tests/python/engine_peers.py (which has Stockfish at hand for every case).
fn run_case(case: &str) {
    if !peers::need(&[Peer::PythonChess, Peer::Stockfish]) {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/engine_peers.py");
    let mut child = Command::new("python3")
        .args([script, case, env!("CARGO_BIN_EXE_sp960"), STOCKFISH])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("{case}: still running after {LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{case} failed:\n{stdout}\n{stderr}"
    );
    println!("{stdout}");
}

#[test]
fn plays_chess960_games_against_stockfish_over_uci() {
    run_case("uci_vs_stockfish");
}

#[test]
fn finds_castling_mates_in_python_chess_notation() {
    run_case("uci_castles_by_itself");
}

#[test]
fn plays_over_xboard_with_depth_time_nodes_and_clock_limits() {
    run_case("xboard_games");
}

#[test]
fn finds_the_mates_stockfish_finds() {
    run_case("mates_against_stockfish");
}

#[test]
fn beats_a_random_mover() {
    run_case("beats_random_mover");
}
