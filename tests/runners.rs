//! Every line `sp960 tournament` writes, played in the real tool: cutechess-cli 1.5.1 and
//! fastchess (built from pinned sources by scripts/build-runners.sh), with Debian's engines, one test
//! per engine class of README's engine table, and README's worked examples run as
//! written there (with a shorter time control).
//!
//! Each tournament is checked game by game: python-chess replays it legally from its FEN
//! and finds the runner's reason borne out by the final board (mate, stalemate, threefold
//! repetition, fifty moves, insufficient material: no stall, disconnect, illegal move or
//! time forfeit); `sp960 validate --start-positions` accepts the PGN and names a requested
//! start for every game; every start is played with both colours.
//!
//! A missing runner, engine or python-chess skips a test with a message, except when `CI`
//! is set: then it is a failure (tests/support/peers.rs).

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// One tournament at a time: each plays two games at once on a 2-core machine.
#[path = "support/peers.rs"]
mod peers;
use peers::{Game, Peer, check_games, search_path, sp960, starts_in};

static RUNNING: Mutex<()> = Mutex::new(());

/// Runs `sp960 tournament ARGS` in `dir`; returns its stdout (the command line).
fn emit(dir: &Path, args: &[&str]) -> String {
    emit_told(dir, args).0
}

/// Runs `sp960 tournament ARGS` in `dir`; returns its stdout (the command line) and its
/// stderr (the notes).
fn emit_told(dir: &Path, args: &[&str]) -> (String, String) {
    let output = Command::new(sp960())
        .arg("tournament")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "sp960 tournament {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Runs an emitted command line as a shell would, in `dir`, within a time limit.
fn play(dir: &Path, line: &str) {
    let log = peers::run_printed_line(dir, line);
    peers::assert_runner_untroubled(&log, line, &[]);
}

/// SP 0 (`HFhf`), SP 860 (`EAea`) and the DFRC pair 0:959: three starts, six games.
const STARTS: [&str; 3] = ["0", "860", "0:959"];

/// Emits a tournament for `tool` between `engines` from [`STARTS`] at concurrency 2, plays
/// it, and checks its games (the clock is real, 10+0.1: a late flag under load is tolerated,
/// as for the README's examples; CI saw Black lose on time at move 137 with the other
/// suites running beside it).
fn tournament(tool: &str, engines: &[&str]) -> Vec<Game> {
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--emit", tool];
    for engine in engines {
        args.extend(["--engine", engine]);
    }
    args.extend(["--sp", "0,860", "--sp", "0:959", "--concurrency", "2"]);
    args.extend(["--pgnout", "games-960.pgn"]);
    let line = emit(dir.path(), &args);
    play(dir.path(), &line);
    let pairs = engines.len() * (engines.len() - 1) / 2;
    check_games(
        &dir.path().join("games-960.pgn"),
        pairs * 2 * STARTS.len(),
        &STARTS,
        true,
    )
}

// ---- cutechess-cli ----

#[test]
fn cutechess_uci_engines_with_uci_chess960_play_direct() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::PythonChess,
    ]) {
        return;
    }
    tournament(
        "cutechess",
        &[
            "/usr/games/stockfish nodes=2000",
            // A depth, not nodes: Ethereal ignores `nodes` beside a clock and spends it
            // (0.6 s a move at 10+0.1), which made it the suite's largest CPU cost.
            "/usr/games/ethereal-chess depth=6",
        ],
    );
}

#[test]
fn cutechess_fairy_stockfish_uci_wrapped_and_glaurung() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::Glaurung,
        Peer::FairyStockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    tournament(
        "cutechess",
        &[
            "/usr/games/glaurung depth=5 option.Threads=1",
            "/usr/games/fairy-stockfish nodes=2000",
        ],
    );
}

#[test]
fn cutechess_xboard_engines_sjaak_direct_fairy_stockfish_wrapped() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    let games = tournament(
        "cutechess",
        &[
            "/usr/games/sjaakii proto=xboard depth=3",
            "/usr/games/fairy-stockfish proto=xboard depth=4",
        ],
    );
    assert!(games.iter().any(|g| g.white == "fairy-stockfish"));
}

#[test]
fn cutechess_toga_wrapped_and_the_builtin_engine() {
    if !peers::need(&[Peer::CutechessCli, Peer::Toga2, Peer::PythonChess]) {
        return;
    }
    tournament(
        "cutechess",
        &["/usr/games/toga2 depth=4", "sp960 engine depth=3"],
    );
}

// ---- fastchess ----

#[test]
fn fastchess_uci_engines_with_uci_chess960_play_direct() {
    if !peers::need(&[
        Peer::Fastchess,
        Peer::Stockfish,
        Peer::Ethereal,
        Peer::PythonChess,
    ]) {
        return;
    }
    tournament(
        "fastchess",
        &[
            "/usr/games/stockfish nodes=2000",
            // A depth, not nodes: Ethereal ignores `nodes` beside a clock and spends it
            // (0.6 s a move at 10+0.1), which made it the suite's largest CPU cost.
            "/usr/games/ethereal-chess depth=6",
        ],
    );
}

#[test]
fn fastchess_fairy_stockfish_uci_direct_and_glaurung_wrapped() {
    if !peers::need(&[
        Peer::Fastchess,
        Peer::Glaurung,
        Peer::FairyStockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    tournament(
        "fastchess",
        &[
            "/usr/games/glaurung depth=5 option.Threads=1",
            "/usr/games/fairy-stockfish nodes=2000",
        ],
    );
}

#[test]
fn fastchess_toga_wrapped_and_the_builtin_engine() {
    if !peers::need(&[Peer::Fastchess, Peer::Toga2, Peer::PythonChess]) {
        return;
    }
    tournament(
        "fastchess",
        &["/usr/games/toga2 depth=4", "sp960 engine depth=3"],
    );
}

// ---- Glaurung 2.2 on DFRC pairs whose castling files differ ----

/// DFRC pairs whose kings or rooks stand on different files for the two colours (860:1:
/// kings c1 and g8). Given their castling rights, Glaurung 2.2 corrupts its memory and
/// stalls or crashes (docs/hostile-gui.md); `sp960 tournament` wraps it in the proxy,
/// whose shield gives it only rights one set of files can hold, and gives it one thread.
const MIXED_FILES: [&str; 4] = ["860:1", "0:959", "518:860", "959:0"];

/// Emits a tournament for `tool` between Glaurung and Stockfish from [`MIXED_FILES`] with
/// nothing said about Glaurung, checks that the line wraps it and gives it one thread and
/// that the notes say so, plays the line and checks every game (8).
fn glaurung_on_mixed_castling_files(tool: &str, wrapped: &str) {
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let starts = MIXED_FILES.join(",");
    let (line, told) = emit_told(
        dir.path(),
        &[
            "--emit",
            tool,
            "--engine",
            "/usr/games/glaurung depth=8",
            "--engine",
            "/usr/games/stockfish nodes=20000",
            "--sp",
            &starts,
            "--concurrency",
            "2",
            "--pgnout",
            "games-960.pgn",
        ],
    );
    assert!(line.contains(wrapped), "{line}");
    assert!(line.contains("option.Threads=1"), "{line}");
    assert!(!line.contains("arg=/usr/games/stockfish"), "{line}");
    assert!(!line.contains("-- /usr/games/stockfish"), "{line}");
    for note in [
        "engine 'glaurung': given option Threads=1",
        "engine 'glaurung': wrapped in sp960 proxy because it keeps one king file and one \
         rook file per wing for both colours, and in DFRC 860:1 the colours' castling files \
         differ",
    ] {
        assert!(told.contains(note), "{told}");
    }
    let started = std::time::Instant::now();
    play(dir.path(), &line);
    let games = check_games(
        &dir.path().join("games-960.pgn"),
        2 * MIXED_FILES.len(),
        &MIXED_FILES,
        false,
    );
    eprintln!(
        "{tool}: {} games in {:.0?}: {:?}",
        games.len(),
        started.elapsed(),
        games
            .iter()
            .map(|game| format!("{} {}", game.result, game.reason))
            .collect::<Vec<_>>()
    );
}

#[test]
fn cutechess_glaurung_wrapped_on_dfrc_pairs_with_mixed_castling_files() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::Glaurung,
        Peer::Stockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    glaurung_on_mixed_castling_files(
        "cutechess",
        "cmd=sp960 arg=proxy arg=-- arg=/usr/games/glaurung proto=uci depth=8",
    );
}

#[test]
fn fastchess_glaurung_wrapped_on_dfrc_pairs_with_mixed_castling_files() {
    if !peers::need(&[
        Peer::Fastchess,
        Peer::Glaurung,
        Peer::Stockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    glaurung_on_mixed_castling_files(
        "fastchess",
        "cmd=sp960 'args=proxy -- /usr/games/glaurung' proto=uci depth=8",
    );
}

// ---- README's worked examples ----

/// The `$ sp960 tournament ...` commands of README's console blocks with what README
/// says they print: (command, printed).
fn readme_tournament_examples() -> Vec<(String, String)> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournament.md"))
            .unwrap();
    let mut examples = Vec::new();
    let mut in_console = false;
    let mut current: Option<(String, String)> = None;
    let mut continued = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            examples.extend(current.take());
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.extend(current.take());
            // `--emit cutechess-gui` writes files, not a line to run: its examples build on
            // each other within their block, which tests/docs.rs runs in order, and
            // tests/cutechess_gui.rs plays what they write in cutechess-cli.
            if command.starts_with("sp960 tournament") && !command.contains("--emit cutechess-gui")
            {
                current = Some((command.to_owned(), String::new()));
                continued = command.ends_with('\\');
            }
        } else if let Some((command, printed)) = &mut current {
            if continued {
                command.push('\n');
                command.push_str(line);
                continued = line.ends_with('\\');
            } else {
                printed.push_str(line);
                printed.push('\n');
            }
        }
    }
    examples
}

/// What playing an example needs: its runner, python-chess, and the engine programs of
/// its `--engine` arguments (`/usr/games/stockfish`, `cmd=ethereal-chess`, ...).
fn example_peers(tool: &str, command: &str) -> Vec<Peer> {
    let runner = if tool == "cutechess" {
        Peer::CutechessCli
    } else {
        Peer::Fastchess
    };
    let words = shlex::split(&command.replace("\\\n", " ")).unwrap_or_default();
    let programs = words
        .windows(2)
        .filter(|w| w[0] == "--engine")
        .filter_map(|w| {
            let mut parts = w[1].split_whitespace();
            let first = parts.clone().find_map(|part| part.strip_prefix("cmd="));
            first.or_else(|| parts.find(|part| !part.contains('=')))
        });
    let mut needs = vec![runner, Peer::PythonChess];
    needs.extend(programs.filter_map(|program| Peer::of_command(program.rsplit('/').next()?)));
    needs
}

/// README's tournament examples print what README says, and the lines they print play
/// clean games in their tools (with `--tc 1+0.05` for speed).
#[test]
fn readme_worked_examples_play_in_their_tools() {
    let examples = readme_tournament_examples();
    assert!(examples.len() >= 3, "{examples:?}");
    for (command, printed) in examples {
        let tool = ["cutechess", "fastchess", "xboard"]
            .into_iter()
            .find(|tool| command.contains(&format!("--emit {tool}")))
            .expect("an --emit");
        let dir = tempfile::tempdir().unwrap();
        let output = Command::new("sh")
            .args(["-c", &format!("{command} 2>&1")])
            .env("PATH", search_path())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{command}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            printed,
            "README's output for: {command}"
        );
        // xboard's lines are played by tests/tournament.rs under Xvfb.
        if tool == "xboard" || !peers::need(&example_peers(tool, &command)) {
            continue;
        }
        let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        let fast = command.replace("\\\n", " ");
        let fast = match fast.find("--tc ") {
            Some(at) => {
                let end = fast[at + 5..].find(' ').map_or(fast.len(), |i| at + 5 + i);
                format!("{}--tc 1+0.05{}", &fast[..at], &fast[end..])
            }
            None => format!("{fast} --tc 1+0.05"),
        };
        let output = Command::new("sh")
            .args(["-c", &fast])
            .env("PATH", search_path())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{fast}");
        let line = String::from_utf8(output.stdout).unwrap();
        play(dir.path(), &line);
        let words = shlex::split(&fast).unwrap();
        let engines = words.iter().filter(|w| *w == "--engine").count();
        let emitted = shlex::split(&line.replace("\\\n", "")).unwrap();
        let after = |flag: &str| {
            emitted
                .iter()
                .position(|w| w == flag)
                .map(|i| &emitted[i + 1])
        };
        let book = after("-openings").unwrap().strip_prefix("file=").unwrap();
        let pgn = after("-pgnout").unwrap();
        let pgn = pgn.strip_prefix("file=").unwrap_or(pgn);
        let starts = starts_in(&dir.path().join(book));
        let starts: Vec<&str> = starts.iter().map(String::as_str).collect();
        let pairs = engines * (engines - 1) / 2;
        check_games(
            &dir.path().join(pgn),
            starts.len() * pairs * 2,
            &starts,
            true,
        );
    }
}

// ---- the proxy's own start inside a runner ----

/// cutechess-cli keeps its own board: in Chess960 mode it sends the book's start, which
/// replaces `sp960 proxy --sp 860`; in standard mode its board rejects the engine's first
/// move from SP 860. Either way the proxy says so on stderr (cutechess-cli's `stderr=`).
#[test]
fn a_runner_that_keeps_its_own_board_overrides_the_proxys_start_and_is_told() {
    if !peers::need(&[Peer::CutechessCli, Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("book-FRC.epd"),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"SP 0\";\n",
    )
    .unwrap();
    let proxied = "-engine name=proxied cmd=sp960 arg=proxy arg=--sp arg=860 arg=-- \
                   arg=/usr/games/stockfish stderr=proxy.err nodes=1000";
    let plain = "-engine name=stockfish cmd=/usr/games/stockfish nodes=1000";
    play(
        dir.path(),
        &format!(
            "cutechess-cli {proxied} {plain} -each proto=uci tc=10+0.1 -variant fischerandom \
             -openings file=book-FRC.epd format=epd -games 2 -repeat -recover -pgnout chess960.pgn"
        ),
    );
    check_games(&dir.path().join("chess960.pgn"), 2, &["0"], false);
    let told = std::fs::read_to_string(dir.path().join("proxy.err")).unwrap();
    assert!(
        told.contains("the GUI's position fen replaces the start SP 860 in this game"),
        "{told}"
    );
    // Standard chess: cutechess-cli's own board and the engine's SP 860 part at once.
    let output = Command::new("timeout")
        .args(["120", "sh", "-c"])
        .arg(format!(
            "cutechess-cli {proxied} {plain} -each proto=uci tc=10+0.1 -games 2 -recover \
             -pgnout standard.pgn"
        ))
        .env("PATH", search_path())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success());
    let pgn = std::fs::read_to_string(dir.path().join("standard.pgn")).unwrap();
    assert_eq!(
        pgn.matches("makes an illegal move").count(),
        2,
        "every game breaks at the engine's first move: {pgn}"
    );
    let told = std::fs::read_to_string(dir.path().join("proxy.err")).unwrap();
    assert!(
        told.contains(
            "position startpos is played from SP 860 but the GUI has not enabled UCI_Chess960"
        ),
        "{told}"
    );
}

// ---- the baselines: what the wrapping prevents ----

/// Unwrapped (`proxy=no`), the engines the table wraps break in the tool, as the table
/// says: Fairy-Stockfish over UCI under cutechess-cli (sent `UCI_Variant chess960`) makes
/// illegal moves; Toga II under fastchess (sent a Shredder FEN) dies.
#[test]
fn unwrapped_the_engines_the_table_wraps_break() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::Fastchess,
        Peer::Stockfish,
        Peer::FairyStockfish,
        Peer::Toga2,
    ]) {
        return;
    }
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    for (tool, engines, broken) in [
        (
            "cutechess",
            [
                "/usr/games/stockfish nodes=2000",
                "/usr/games/fairy-stockfish nodes=2000 proxy=no",
            ],
            "makes an illegal move",
        ),
        (
            "fastchess",
            ["sp960 engine depth=3", "/usr/games/toga2 depth=4 proxy=no"],
            "disconnects",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec!["--emit", tool];
        for engine in engines {
            args.extend(["--engine", engine]);
        }
        args.extend([
            "--sp",
            "0,860",
            "--sp",
            "0:959",
            "--pgnout",
            "games-960.pgn",
        ]);
        let line = emit(dir.path(), &args);
        let output = Command::new("timeout")
            .args(["300", "sh", "-c", &line])
            .env("PATH", search_path())
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{line}");
        let pgn = std::fs::read_to_string(dir.path().join("games-960.pgn")).unwrap();
        assert!(
            pgn.matches(broken).count() >= 1,
            "{tool}: no game shows '{broken}' unwrapped:\n{pgn}"
        );
    }
}
