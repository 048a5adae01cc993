//! `sp960 match` with more than two engines (round-robin, `--gauntlet`) and without a probe
//! start: real engines from /usr/games, the PGN replayed by python-chess
//! (tests/python/match_check_pgn.py), and the table's counts checked against the PGN.

#[path = "support/peers.rs"]
mod peers;

use peers::{Peer, sp960_match};

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

#[derive(Debug, serde::Deserialize)]
struct Checked {
    white: String,
    black: String,
    result: String,
}

/// Each engine's (wins, draws, losses) as the PGN's results give them.
fn results_by_name(games: &[Checked]) -> BTreeMap<String, (u64, u64, u64)> {
    let mut table = BTreeMap::<String, (u64, u64, u64)>::new();
    for game in games {
        let (white, black) = match game.result.as_str() {
            "1-0" => ((1, 0, 0), (0, 0, 1)),
            "0-1" => ((0, 0, 1), (1, 0, 0)),
            _ => ((0, 1, 0), (0, 1, 0)),
        };
        for (name, (w, d, l)) in [(&game.white, white), (&game.black, black)] {
            let row = table.entry(name.clone()).or_default();
            row.0 += w;
            row.1 += d;
            row.2 += l;
        }
    }
    table
}

fn builtin() -> String {
    format!("{} engine", env!("CARGO_BIN_EXE_sp960"))
}

#[test]
fn three_engines_play_a_round_robin_both_colours_per_start() {
    if !peers::need(&[
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::SjaakII,
        Peer::PythonChess,
    ]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "/usr/games/stockfish",
            "--engine",
            "/usr/games/ethereal-chess",
            "--engine",
            "proto=xboard name=Sjaak /usr/games/sjaakii",
            "--sp",
            "0,959",
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--pgn",
            "games.pgn",
            "--json",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names = ["Stockfish 15.1", "Ethereal 12.00", "Sjaak"];
    assert_eq!(summary["engines"], serde_json::json!(names));
    let games = python_check(&dir.path().join("games.pgn"));
    // 3 matchups × 2 starts × 2 colours.
    assert_eq!(games.len(), 12);
    let mut meetings = BTreeMap::<(String, String), usize>::new();
    for game in &games {
        assert_ne!(game.white, game.black);
        *meetings
            .entry((game.white.clone(), game.black.clone()))
            .or_default() += 1;
    }
    // Every ordered pairing twice (once per start): both colours for each matchup.
    assert_eq!(meetings.len(), 6, "{meetings:?}");
    assert!(meetings.values().all(|&n| n == 2), "{meetings:?}");
    let expected = results_by_name(&games);
    let standings = summary["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    for (row, name) in standings.iter().zip(names) {
        assert_eq!(row["name"], name);
        assert_eq!(row["games"], 8);
        let counts = (
            row["wins"].as_u64().unwrap(),
            row["draws"].as_u64().unwrap(),
            row["losses"].as_u64().unwrap(),
        );
        assert_eq!(counts, expected[name], "{name}");
        let pentanomial: u64 = row["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(pentanomial, 4, "{row}");
    }
    let pairs = summary["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    for pair in pairs {
        let score = &pair["score"];
        let games: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| score[k].as_u64().unwrap())
            .sum();
        assert_eq!(games, 4, "{pair}");
    }
    // The first engine's score is against the field.
    let first = &summary["score"];
    assert_eq!(
        (
            first["wins"].as_u64().unwrap(),
            first["draws"].as_u64().unwrap(),
            first["losses"].as_u64().unwrap()
        ),
        expected[names[0]]
    );
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_one_only() {
    if !peers::need(&[Peer::Stockfish, Peer::Ethereal, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            "/usr/games/stockfish",
            "--engine",
            "/usr/games/ethereal-chess",
            "--engine",
            &format!("name=Builtin {}", builtin()),
            "--engine",
            &format!("name=Builtin {}", builtin()),
            "--gauntlet",
            "--sp",
            "860",
            "--depth",
            "2",
            "--concurrency",
            "1",
            "--pgn",
            "games.pgn",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let table = String::from_utf8(output.stdout).unwrap();
    let games = python_check(&dir.path().join("games.pgn"));
    assert_eq!(games.len(), 6, "{table}");
    for game in &games {
        assert!(
            game.white == "Stockfish 15.1" || game.black == "Stockfish 15.1",
            "{game:?}"
        );
    }
    // The second engine named Builtin gets a number.
    assert!(games.iter().any(|g| g.white == "Builtin (2)"), "{games:?}");
    let results = results_by_name(&games);
    assert!(table.starts_with("Rank  Engine"), "{table}");
    for (name, (w, d, l)) in &results {
        let row = table
            .lines()
            .find(|line| {
                line.get(6..)
                    .is_some_and(|rest| rest.starts_with(&format!("{name}  ")))
            })
            .unwrap_or_else(|| panic!("no row for {name}: {table}"));
        let words: Vec<&str> = row[6 + name.len()..].split_whitespace().collect();
        assert_eq!(
            words[..4],
            [
                (w + d + l).to_string(),
                w.to_string(),
                d.to_string(),
                l.to_string()
            ],
            "{table}"
        );
    }
    for opponent in ["Ethereal 12.00", "Builtin", "Builtin (2)"] {
        assert!(
            table.contains(&format!("Stockfish 15.1 vs {opponent}: ")),
            "{table}"
        );
    }
    assert!(!table.contains("Ethereal 12.00 vs Builtin"), "{table}");
}

/// A wrapper that notes each start of `program` in `log` and runs it.
#[cfg(unix)] // a shell script
fn counting_wrapper(dir: &Path, name: &str, program: &str, log: &Path) -> String {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho started >> '{}'\nexec {program}\n",
            log.display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    script.display().to_string()
}

#[cfg(unix)] // a shell script wraps each engine
#[test]
fn each_engine_starts_once_the_first_handshake_plays_the_first_game() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let logs = [dir.path().join("a.log"), dir.path().join("b.log")];
    let a = counting_wrapper(dir.path(), "a.sh", "/usr/games/stockfish", &logs[0]);
    let b = counting_wrapper(dir.path(), "b.sh", &builtin(), &logs[1]);
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--sp",
            "0,1",
            "--depth",
            "2",
            "--concurrency",
            "1",
            "--pgn",
            "games.pgn",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(python_check(&dir.path().join("games.pgn")).len(), 4);
    for log in &logs {
        assert_eq!(
            std::fs::read_to_string(log).unwrap(),
            "started\n",
            "{log:?}"
        );
    }
    // A third engine that fails its handshake stops the match before any PGN is written.
    let output = sp960_match(
        dir.path(),
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--engine",
            "/bin/false",
            "--sp",
            "0",
            "--pgn",
            "none.pgn",
        ],
    );
    assert_eq!(output.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("engine 3: the engine exited unexpectedly with status 1"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!dir.path().join("none.pgn").exists());
}

#[test]
fn six_built_in_engines_start_in_batches_and_all_meet() {
    if !peers::need(&[Peer::PythonChess]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let engine = builtin();
    let mut args = Vec::new();
    for _ in 0..6 {
        args.extend(["--engine", engine.as_str()]);
    }
    args.extend([
        "--sp",
        "518",
        "--depth",
        "1",
        "--max-plies",
        "16",
        "--concurrency",
        "2",
        "--pgn",
        "games.pgn",
        "--json",
    ]);
    let output = sp960_match(dir.path(), &args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = summary["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(
        names[1..],
        [
            "sp960 0.1.0 (2)",
            "sp960 0.1.0 (3)",
            "sp960 0.1.0 (4)",
            "sp960 0.1.0 (5)",
            "sp960 0.1.0 (6)"
        ]
    );
    let games = python_check(&dir.path().join("games.pgn"));
    // 15 matchups × 2 colours.
    assert_eq!(games.len(), 30);
    assert_eq!(summary["pairs"].as_array().unwrap().len(), 15);
    for row in summary["standings"].as_array().unwrap() {
        assert_eq!(row["games"], 10, "{row}");
    }
}

/// Every game of a PGN file as (start FEN, White, Black, Result, moves), counted.
fn game_set(pgn: &Path) -> BTreeMap<String, usize> {
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)) is not None:
        h = g.headers
        print(h["FEN"].split(" ")[0], h["White"], h["Black"], h["Result"],
              " ".join(m.uci() for m in g.mainline_moves()), sep="|")
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut games = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        *games.entry(line.to_owned()).or_default() += 1;
    }
    games
}

/// Round-robin and gauntlet against cutechess-cli's `-tournament round-robin|gauntlet`:
/// node-limited engines play the same games, so both runners must schedule the same
/// pairings, colours and starts, and score them alike.
#[test]
fn round_robin_and_gauntlet_play_the_games_cutechess_cli_plays() {
    if !peers::need(&[
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::CutechessCli,
        Peer::PythonChess,
    ]) {
        return;
    }
    let engines = [
        ("a", "/usr/games/stockfish", "1000"),
        ("b", "/usr/games/ethereal-chess", "1000"),
        ("c", "/usr/games/stockfish", "500"),
        ("d", "/usr/games/ethereal-chess", "500"),
    ];
    // Round-robin of three over two starts (cutechess-cli takes the next opening for each
    // encounter: with 3 encounters a round and 2 rounds, each pairing gets both);
    // gauntlet of four over one start.
    for (tournament, count, starts, rounds) in [
        ("round-robin", 3, "100,200", "2"),
        ("gauntlet", 4, "300", "1"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let book = Command::new(env!("CARGO_BIN_EXE_sp960"))
            .args(["fen", starts, "--format", "epd"])
            .output()
            .unwrap()
            .stdout;
        std::fs::write(dir.path().join("book.epd"), book).unwrap();
        let specs: Vec<String> = engines[..count]
            .iter()
            .map(|(name, program, nodes)| format!("{program} name={name} nodes={nodes}"))
            .collect();
        let mut args: Vec<&str> = Vec::new();
        for spec in &specs {
            args.extend(["--engine", spec]);
        }
        if tournament == "gauntlet" {
            args.push("--gauntlet");
        }
        args.extend([
            "--sp",
            starts,
            "--concurrency",
            "1",
            "--pgn",
            "sp960.pgn",
            "--json",
        ]);
        let output = sp960_match(dir.path(), &args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let mut command = Command::new("cutechess-cli");
        command
            .current_dir(dir.path())
            .env("PATH", peers::search_path())
            .args(["-tournament", tournament]);
        for (name, program, nodes) in &engines[..count] {
            command.args([
                "-engine".to_owned(),
                format!("cmd={program}"),
                format!("name={name}"),
                format!("nodes={nodes}"),
            ]);
        }
        let output = command
            .args(["-each", "proto=uci", "tc=inf", "-variant", "fischerandom"])
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
                rounds,
                "-repeat",
                "-concurrency",
                "1",
            ])
            .args(["-pgnout", "cutechess.pgn"])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stdout)
        );
        let ours = game_set(&dir.path().join("sp960.pgn"));
        let theirs = game_set(&dir.path().join("cutechess.pgn"));
        assert_eq!(
            ours.values().sum::<usize>(),
            if count == 3 { 12 } else { 6 }
        );
        assert_eq!(ours, theirs, "{tournament}");
        // And the standings count those games.
        let checked = python_check(&dir.path().join("sp960.pgn"));
        let expected = results_by_name(&checked);
        for row in summary["standings"].as_array().unwrap() {
            let name = row["name"].as_str().unwrap();
            let counts = (
                row["wins"].as_u64().unwrap(),
                row["draws"].as_u64().unwrap(),
                row["losses"].as_u64().unwrap(),
            );
            assert_eq!(counts, expected[name], "{tournament}: {name}");
        }
    }
}

fn python_check(pgn: &Path) -> Vec<Checked> {
    peers::python_check_pgn(pgn)
}
