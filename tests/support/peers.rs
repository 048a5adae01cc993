//! The real peers the tests run (`#[path]`-included by tests/runners.rs and the
//! tests/match_*.rs suites): the PATH they are found on, whether one is there, and the
//! shared steps of the match tests (run `sp960 match`, replay its PGN with python-chess).
#![allow(dead_code)] // each test crate uses its part

use std::path::Path;

/// PATH for the peers: sp960 itself (wrapped engines call `sp960 proxy`), Debian's engines
/// in /usr/games, and the match runners where `.ci/run` builds them.
pub fn search_path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_sp960"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let peers = std::env::var("HOME").map_or_else(
        |_| String::new(),
        |home| format!("{home}/.cache/sp960-peers/bin"),
    );
    format!(
        "{bin}:/usr/games:{peers}:{}",
        std::env::var("PATH").unwrap_or_default()
    )
}

/// True when `tool` is on the search path; false (a skip, told on stderr) when it is
/// not, unless `CI` is set, where its absence fails the test.
pub fn have(tool: &str) -> bool {
    let found = search_path()
        .split(':')
        .any(|dir| !dir.is_empty() && Path::new(dir).join(tool).is_file());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is not installed: .ci/run builds it with ../shared/peers/build.sh"
        );
        eprintln!("SKIPPED: {tool} is not installed (../shared/peers/build.sh DIR builds it)");
    }
    found
}

/// A script or data file in tests/python.
pub fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(name)
}

/// `sp960 match ARGS` in `dir`, with the peers on PATH.
pub fn sp960_match(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sp960"))
        .current_dir(dir)
        .env("PATH", search_path())
        .arg("match")
        .args(args)
        .output()
        .unwrap()
}

/// The games of a PGN as python-chess replays them (tests/python/match_check_pgn.py, one
/// JSON object per game); fails the test when python-chess rejects the PGN.
pub fn python_check_pgn<T: serde::de::DeserializeOwned>(pgn: &Path) -> Vec<T> {
    let output = std::process::Command::new("python3")
        .arg(fixture("match_check_pgn.py"))
        .arg(pgn)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "python-chess rejects the PGN {}: {}",
        pgn.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The moves and result of each game of a PGN file, comments and move numbers dropped.
pub fn games(pgn: &str) -> Vec<(String, Vec<String>)> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            let result = game
                .lines()
                .find_map(|line| line.strip_prefix("[Result \""))
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .to_owned();
            let body = game.split_once("\n\n").map_or("", |(_, body)| body);
            let mut text = String::new();
            let mut depth = 0;
            for c in body.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => text.push(c),
                    _ => {}
                }
            }
            let moves = text
                .split_whitespace()
                .filter(|word| !word.ends_with('.') && *word != result)
                .map(str::to_owned)
                .collect();
            (result, moves)
        })
        .collect()
}
