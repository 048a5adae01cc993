//! `sp960 proxy --restart-engine N` and the clock guard (`--max-overrun`, `--max-search`),
//! issue 24: a scripted engine that dies on cue or never answers, Glaurung 2.2's runaway
//! root search (docs/hostile-gui.md), Stockfish killed (SIGKILL) mid-search in
//! python-chess, cutechess-cli and fastchess games, and the XBoard engines Sjaak II and
//! Fairy-Stockfish killed mid-search in python-chess XBoard games: each game must still end
//! by the rules.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/peers.rs"]
mod peers;
#[path = "support/process.rs"]
mod process;
use peers::{Peer, search_path};
use process::{LineProcess, fake_engine, sp960};

const GLAURUNG: &str = "/usr/games/glaurung";
/// Glaurung 2.2 scores every root move with a quiescence search before its first
/// iteration, millions of nodes here (docs/hostile-gui.md).
const BACK_RANKS_SWAPPED: &str = "NRBBNQKR/pppppppp/8/8/8/8/PPPPPPPP/nrbbnqkr w - - 0 1";

fn proxy(args: &[&str]) -> LineProcess {
    LineProcess::spawn(sp960(), &[&["proxy"], args].concat(), Stdio::piped())
}

fn handshake(gui: &mut LineProcess) -> Vec<String> {
    gui.send("uci");
    gui.until("uciok", |line| line == "uciok")
}

#[test]
fn a_scripted_crash_mid_search_is_restarted_and_the_go_answered() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("died");
    let engine = fake_engine();
    let mut gui = proxy(&[
        "--restart-engine",
        "2",
        "--",
        engine.to_str().unwrap(),
        "die-once-on-go",
        marker.to_str().unwrap(),
    ]);
    let first = handshake(&mut gui);
    assert_eq!(
        first
            .iter()
            .filter(|l| l.starts_with("option name Hash"))
            .count(),
        1
    );
    gui.send("setoption name Hash value 64");
    gui.send("setoption name UCI_Chess960 value true");
    gui.send("position startpos moves g1f3 g8f6");
    gui.send("go wtime 10000 btime 9000 movestogo 20");
    let begin = Instant::now();
    let lines = gui.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(marker.exists(), "the first engine died: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with(
            "info string sp960: the engine died unexpectedly from signal 6; restarting it (1 of 2 in this game)"
        )),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove e2e4");
    // The handshake is not seen twice, and the GUI hears about the go sent again.
    assert!(
        !lines
            .iter()
            .any(|l| l == "uciok" || l.starts_with("id name")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("the go sent again")),
        "{lines:?}"
    );
    gui.send("isready");
    gui.until("readyok", |l| l == "readyok");
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(10)).success());
    let stderr = gui.stderr();
    // What the second engine read: its handshake, the GUI's options, the position and the
    // go with the time spent taken off White's clock.
    let second: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("fake read: "))
        .skip_while(|l| !l.starts_with("go "))
        .skip(1)
        .collect();
    assert_eq!(
        second[..4],
        [
            "uci",
            "setoption name Hash value 64",
            "setoption name UCI_Chess960 value true",
            "position startpos moves g1f3 g8f6"
        ],
        "{stderr}"
    );
    let go: Vec<&str> = second[4].split(' ').collect();
    assert_eq!(go[0..2], ["go", "wtime"], "{stderr}");
    let wtime: u64 = go[2].parse().unwrap();
    let spent = begin.elapsed().as_millis() as u64;
    assert!(
        wtime < 10_000 && wtime + spent + 50 >= 10_000,
        "{wtime} after {spent} ms: {stderr}"
    );
    assert_eq!(go[3..], ["btime", "9000", "movestogo", "20"], "{stderr}");
    assert!(
        stderr.contains("sp960: proxy: the engine died unexpectedly from signal 6; restarting it"),
        "{stderr}"
    );
}

#[test]
fn after_n_restarts_in_a_game_the_proxy_gives_up() {
    let engine = fake_engine();
    let mut gui = proxy(&[
        "--restart-engine",
        "2",
        "--",
        engine.to_str().unwrap(),
        "crash-on-go",
    ]);
    handshake(&mut gui);
    gui.send("position startpos");
    gui.send("go movetime 1000");
    let lines = gui.until("giving up", |l| l.contains("giving up"));
    assert_eq!(
        lines.iter().filter(|l| l.contains("restarting it")).count(),
        2,
        "{lines:?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .contains("restarted 2 time(s) in this game already (--restart-engine 2): giving up")
    );
    assert_eq!(gui.wait(Duration::from_secs(10)).code(), Some(128 + 6));
}

#[test]
fn the_clock_guard_answers_for_an_engine_that_ignores_stop() {
    let engine = fake_engine();
    let mut gui = proxy(&[
        "--max-overrun",
        "200",
        "--",
        engine.to_str().unwrap(),
        "no-bestmove",
    ]);
    handshake(&mut gui);
    gui.send("position startpos");
    let begin = Instant::now();
    gui.send("go wtime 300 btime 300");
    let lines = gui.until("bestmove", |l| l.starts_with("bestmove"));
    let took = begin.elapsed();
    assert_eq!(
        lines.last().unwrap(),
        "bestmove e2e4",
        "the engine's pv move: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("clock guard: no bestmove") && l.contains("stop sent")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the GUI gets the first move of its last pv, e2e4")),
        "{lines:?}"
    );
    // 300 ms of clock, 200 of margin, a second for the stop.
    assert!(
        took >= Duration::from_millis(1450) && took < Duration::from_secs(6),
        "{took:?}"
    );
    // Never cut: go infinite (the GUI's stop goes, the engine never answers it).
    gui.send("go infinite");
    assert!(
        gui.within(Duration::from_secs(3), |l| l.starts_with("bestmove"))
            .is_err()
    );
    gui.send("quit");
    gui.wait(Duration::from_secs(10));
    let stderr = gui.stderr();
    assert!(
        stderr.contains("sp960: proxy: clock guard: no bestmove"),
        "{stderr}"
    );
}

/// Glaurung's root search in the back-ranks-swapped position runs for seconds at
/// `go depth 1` and past a 1 s clock (test
/// `glaurung_alone_searches_millions_of_nodes_for_depth_1_with_the_back_ranks_swapped`);
/// the guard stops it and the GUI gets a legal move or `0000` in time.
#[test]
fn the_clock_guard_bounds_glaurungs_runaway_root_search() {
    if !peers::need(&[Peer::Glaurung]) {
        return;
    }
    let mut gui = proxy(&[
        "--max-overrun",
        "300",
        "--max-search",
        "1000",
        "--",
        GLAURUNG,
    ]);
    handshake(&mut gui);
    gui.send("setoption name Threads value 1");
    for go in ["go depth 1", "go wtime 1000 btime 1000", "go nodes 5000"] {
        gui.send(&format!("position fen {BACK_RANKS_SWAPPED}"));
        let begin = Instant::now();
        gui.send(go);
        let lines = gui.until("bestmove", |l| l.starts_with("bestmove"));
        let took = begin.elapsed();
        // The guard's stop after 1 s (1.3 s with the clock); Glaurung honours stop at
        // any time, and the proxy answers itself a second later if it did not.
        assert!(
            took < Duration::from_millis(4000),
            "{go}: {took:?} {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("clock guard: no bestmove")),
            "{go}: {lines:?}"
        );
        let best = lines.last().unwrap();
        assert!(
            best == "bestmove 0000" || legal_in(BACK_RANKS_SWAPPED, best),
            "{go}: {best}"
        );
        gui.send("isready");
        gui.until("readyok", |l| l == "readyok");
    }
    // A search the guard does not bound is left alone: movetime answers by itself.
    gui.send(&format!("position fen {BACK_RANKS_SWAPPED}"));
    gui.send("go movetime 50");
    let lines = gui.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.contains("clock guard")),
        "{lines:?}"
    );
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(10)).success());
}

/// `bestmove MOVE ...` names a legal move of `fen` (python-chess, the oracle).
fn legal_in(fen: &str, bestmove: &str) -> bool {
    let mv = bestmove.split_whitespace().nth(1).unwrap();
    let out = Command::new("python3")
        .args(["-c", "import chess,sys; b=chess.Board(sys.argv[1], chess960=True); print(chess.Move.from_uci(sys.argv[2]) in b.legal_moves)", fen, mv])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim() == "True"
}

/// python-chess plays `engine` (`protocol`) behind `sp960 proxy --restart-engine 5`
/// against a random mover and kills the engine mid-search at three of its moves
/// (tests/python/restart_killed_engine.py): the game ends by the rules, with four engine
/// processes, and the proxy's transcript tells three restarts with the search sent again.
fn python_chess_game_survives_three_kills(protocol: &str, engine: &str, go_again: &str) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("proxy.log");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/restart_killed_engine.py");
    let output = Command::new("timeout")
        .args(["-k", "5", "300", "python3"])
        .arg(script)
        .arg(sp960())
        .arg(&log)
        .args([protocol, engine])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let transcript = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        output.status.success(),
        "{stdout}\n{}\n{transcript}",
        String::from_utf8_lossy(&output.stderr)
    );
    let game: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(game["kills"], 3, "{game}");
    // Four engines in the game: the first and one after each kill.
    assert_eq!(game["distinct_pids"], 4, "{game}");
    assert!(
        [
            "CHECKMATE",
            "STALEMATE",
            "INSUFFICIENT_MATERIAL",
            "THREEFOLD_REPETITION",
            "FIFTY_MOVES"
        ]
        .contains(&game["termination"].as_str().unwrap()),
        "{game}"
    );
    // Each told twice in the transcript: to the GUI and as an event.
    assert_eq!(
        transcript.matches("restarting it").count(),
        6,
        "{transcript}"
    );
    assert_eq!(transcript.matches(go_again).count(), 6, "{transcript}");
}

#[test]
fn python_chess_game_goes_on_after_stockfish_is_killed_mid_search() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    python_chess_game_survives_three_kills("uci", "/usr/games/stockfish", "the go sent again");
}

#[test]
fn python_chess_xboard_game_goes_on_after_sjaak_is_killed_mid_search() {
    if !peers::need(&[Peer::SjaakII, Peer::PythonChess]) {
        return;
    }
    python_chess_game_survives_three_kills("xboard", "/usr/games/sjaakii", "and go with the");
}

#[test]
fn python_chess_xboard_game_goes_on_after_fairy_stockfish_is_killed_mid_search() {
    if !peers::need(&[Peer::FairyStockfish, Peer::PythonChess]) {
        return;
    }
    python_chess_game_survives_three_kills(
        "xboard",
        "/usr/games/fairy-stockfish",
        "and go with the",
    );
}

/// Kills (SIGKILL) the Stockfish under a proxy whose command line contains `marker` (its
/// `--log` file)
/// while it searches (a thread running), `kills` times, a second apart at least; returns
/// how many it killed.
fn kill_searching_stockfish(marker: &str, kills: usize, limit: Duration) -> usize {
    let begin = Instant::now();
    let mut killed = 0;
    let mut last_kill = Instant::now();
    while killed < kills && begin.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(20));
        if last_kill.elapsed() < Duration::from_millis(1500) {
            continue;
        }
        // Mid-game: once the engine has answered a go (the proxy's transcript at `marker`),
        // not while it starts.
        let transcript = std::fs::read_to_string(marker).unwrap_or_default();
        if transcript.matches("bestmove").count() < 2 {
            continue;
        }
        for pid in stockfish_under(marker) {
            if searching(pid) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                killed += 1;
                last_kill = Instant::now();
            }
        }
    }
    killed
}

fn stockfish_under(marker: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
        if !exe.to_string_lossy().contains("stockfish") {
            continue;
        }
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let Some(ppid) = stat
            .rsplit(") ")
            .next()
            .and_then(|rest| rest.split(' ').nth(1))
        else {
            continue;
        };
        let parent = std::fs::read(format!("/proc/{ppid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&parent).contains(marker) {
            pids.push(pid);
        }
    }
    pids
}

/// Some thread of `pid` is running or runnable: Stockfish's search.
fn searching(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        stat.rsplit(") ")
            .next()
            .is_some_and(|rest| rest.starts_with('R'))
    })
}

/// A runner plays Stockfish behind `sp960 proxy --restart-engine 5` against sp960's
/// built-in engine at depth 1, while Stockfish is killed mid-search twice: the game must
/// end by the rules (python-chess checks the PGN), not by a disconnect.
fn runner_game_survives_a_killed_engine(tool: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("book.epd"),
        "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";\n",
    )
    .unwrap();
    let marker = dir.path().join("proxy.log");
    let marker = marker.to_str().unwrap().to_owned();
    let line = match tool {
        "cutechess-cli" => format!(
            "cutechess-cli -engine name=proxied cmd={sp} arg=proxy arg=--restart-engine arg=5 \
             arg=--log arg={marker} arg=-- arg=/usr/games/stockfish stderr=proxy.err \
             -engine name=builtin cmd={sp} arg=engine depth=1 \
             -each proto=uci tc=20+0.2 -variant fischerandom -openings file=book.epd format=epd \
             -games 1 -pgnout games.pgn",
            sp = sp960()
        ),
        _ => format!(
            "fastchess -engine name=proxied cmd={sp} 'args=proxy --restart-engine 5 --log {marker} \
             -- /usr/games/stockfish' -engine name=builtin cmd={sp} args=engine depth=1 \
             -each proto=uci tc=20+0.2 -variant fischerandom -openings file=book.epd format=epd \
             order=sequential -rounds 1 -games 1 -pgnout file=games.pgn",
            sp = sp960()
        ),
    };
    let child = Command::new("timeout")
        .args(["300", "sh", "-c", &line])
        .env("PATH", search_path())
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let killed = kill_searching_stockfish(&marker, 2, Duration::from_secs(120));
    let output = child.wait_with_output().unwrap();
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let transcript = std::fs::read_to_string(&marker).unwrap_or_default();
    assert!(output.status.success(), "{line}\n{log}");
    assert_eq!(killed, 2, "Stockfish was not found searching twice: {log}");
    for bad in [
        "disconnect",
        "stall",
        "crash",
        "Illegal move",
        "loses on time",
    ] {
        assert!(!log.contains(bad), "{tool} said '{bad}': {log}");
    }
    assert_eq!(
        transcript.matches("restarting it").count() / 2,
        2,
        "{transcript}"
    );
    // Killed while searching: the pending go went to the new engine, less the time spent
    // (told twice each: to the GUI and as an event).
    assert_eq!(
        transcript.matches("the go sent again").count(),
        4,
        "{transcript}"
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/runner_games.py");
    let checked = Command::new("python3")
        .arg(script)
        .arg(dir.path().join("games.pgn"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&checked.stdout);
    let pgn = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap_or_default();
    assert!(
        checked.status.success(),
        "{}\n{pgn}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let game: serde_json::Value =
        serde_json::from_str(report.trim()).unwrap_or_else(|err| panic!("{err}: {report}\n{pgn}"));
    assert_eq!(game["by_rules"], true, "{game}\n{pgn}");
}

#[test]
fn cutechess_game_goes_on_after_stockfish_is_killed_mid_search() {
    if !peers::need(&[Peer::CutechessCli, Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    runner_game_survives_a_killed_engine("cutechess-cli");
}

#[test]
fn fastchess_game_goes_on_after_stockfish_is_killed_mid_search() {
    if !peers::need(&[Peer::Fastchess, Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    runner_game_survives_a_killed_engine("fastchess");
}
