//! Launchers (`sp960 proxy --write-launcher PATH ... -- ENGINE`) started as GUIs start an
//! engine: by their path alone, with no arguments, from a working directory of the GUI's
//! choosing. python-chess is the GUI-side client (tests/python/launcher_game.py); every
//! game is replayed here with shakmaty, and a game "to its end" ends by the rules as
//! shakmaty sees them too.
//!
//! Also: the settings file as written (engine and `--log` made absolute), the UCI probe a
//! GUI sends when an engine is added, and every broken launcher told as `sp960: launcher:
//! ...` with exit 2. The Windows launcher is tests/portable.rs's (run under Wine).
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;
#[path = "support/process.rs"]
mod process;
use process::{LineProcess, sp960};
#[path = "support/rules.rs"]
mod rules;
use rules::Replay;

/// A PATH without /usr/games, where the engines are not found by name.
const PLAIN_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A fresh directory tree: `home` (where launchers are written) and `elsewhere` (where
/// the GUI starts them), both canonical (the launcher records the real current directory).
struct Dirs {
    _temp: tempfile::TempDir,
    home: PathBuf,
    elsewhere: PathBuf,
}

fn dirs() -> Dirs {
    let temp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(temp.path()).unwrap();
    let (home, elsewhere) = (root.join("home"), root.join("elsewhere"));
    fs::create_dir(&home).unwrap();
    fs::create_dir(&elsewhere).unwrap();
    Dirs {
        _temp: temp,
        home,
        elsewhere,
    }
}

/// `sp960 proxy --write-launcher LAUNCHER WORDS` run in `dir` with PATH `path`.
fn write_output(dir: &Path, path: &str, launcher: &str, words: &[&str]) -> Output {
    Command::new(sp960())
        .args(["proxy", "--write-launcher", launcher])
        .args(words)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap()
}

/// Writes a launcher as [`write_output`] does, which must succeed: it prints the
/// launcher's absolute path alone on stdout and the hint on stderr. Returns that path.
fn write_launcher(dir: &Path, launcher: &str, words: &[&str]) -> PathBuf {
    let output = write_output(dir, &peers::search_path(), launcher, words);
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).unwrap();
    let path = PathBuf::from(printed.strip_suffix('\n').unwrap());
    assert_eq!(path, dir.join(launcher));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        format!(
            "sp960: proxy: launcher written; in the GUI give its path alone as the engine's command, with no arguments (its settings: {}.sp960.json)\n",
            path.display()
        )
    );
    path
}

/// The settings file beside `launcher`, as JSON.
fn settings(launcher: &Path) -> Value {
    let file = format!("{}.sp960.json", launcher.display());
    serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap()
}

/// The FEN `sp960 fen SPEC` prints.
fn fen(spec: &str) -> String {
    let output = Command::new(sp960()).args(["fen", spec]).output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .trim_end()
        .to_owned()
}

/// python-chess, as a GUI, starts `launcher` alone from `cwd` and plays from `fen` with
/// `limit` (nodes for UCI, depth for XBoard), to the end or for `max_plies`; the launcher
/// gets `path` as its PATH. Returns its JSON report.
fn python_game(
    protocol: &str,
    launcher: &Path,
    cwd: &Path,
    fen: &str,
    limit: u32,
    max_plies: Option<u32>,
    path: &str,
) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/launcher_game.py");
    let mut command = Command::new("timeout");
    command
        .args(["-k", "5", "300", "python3"])
        .arg(script)
        .arg(protocol)
        .arg(launcher)
        .arg(cwd)
        .args([fen, &limit.to_string()])
        .env("SP960_LAUNCHER_PATH", path);
    if let Some(plies) = max_plies {
        command.arg(plies.to_string());
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "launcher_game.py {protocol} {}: {}\n{}",
        launcher.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Replays python-chess's game with shakmaty from `fen` (every move legal); for a whole
/// game, the end python-chess reported must be one the rules give in the last position.
fn check_game(report: &Value, fen: &str, whole: bool) -> Replay {
    let start: Chess = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap();
    let mut replay = Replay::new(start);
    let moves = report["moves"].as_array().unwrap();
    for m in moves {
        replay.play(m.as_str().unwrap());
    }
    assert_eq!(report["plies"], moves.len());
    if whole {
        let termination = report["outcome"]["termination"].as_str().unwrap();
        let expected = match termination {
            "CHECKMATE" => "checkmate",
            "STALEMATE" => "stalemate",
            "INSUFFICIENT_MATERIAL" => "insufficient material",
            "FIFTY_MOVES" | "SEVENTYFIVE_MOVES" => "fifty moves",
            "THREEFOLD_REPETITION" | "FIVEFOLD_REPETITION" => "threefold repetition",
            other => panic!("unexpected termination {other}"),
        };
        let here = replay.endings();
        let claims = replay.claims_by_a_move();
        assert!(
            here.contains(&expected) || claims.contains(&expected),
            "python-chess ended by {termination}; shakmaty sees {here:?}, claims by a move {claims:?}"
        );
        let result = report["outcome"]["result"].as_str().unwrap();
        let winner = replay.position.turn().other();
        let expected_result = match (expected, winner) {
            ("checkmate", shakmaty::Color::White) => "1-0",
            ("checkmate", shakmaty::Color::Black) => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(result, expected_result);
    }
    replay
}

/// The first "done when": a launcher for Stockfish with `--sp 860`, written in one
/// directory, started by python-chess by its path alone from another, plays a Chess960
/// game from SP 860 to its end by the rules.
#[test]
fn a_gui_starts_a_launcher_by_its_path_alone_and_plays_sp_860_to_the_end() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dirs = dirs();
    fs::create_dir(dirs.home.join("engines")).unwrap();
    let launcher = write_launcher(
        &dirs.home,
        "engines/stockfish-960",
        &["--sp", "860", "--", "/usr/games/stockfish"],
    );
    assert_eq!(
        settings(&launcher),
        json!({
            "sp960-launcher": 1,
            "directory": dirs.home,
            "proxy": ["--sp", "860", "--", "/usr/games/stockfish"],
        })
    );
    let start = fen("860");
    let started = Instant::now();
    let report = python_game(
        "uci",
        &launcher,
        &dirs.elsewhere,
        &start,
        2000,
        None,
        PLAIN_PATH,
    );
    let replay = check_game(&report, &start, true);
    assert!(
        report["engine"].as_str().unwrap().starts_with("Stockfish"),
        "{report}"
    );
    eprintln!(
        "SP 860 through the launcher: {} plies, {} ({}), {:.1} s",
        replay.moves.len(),
        report["outcome"]["result"],
        report["outcome"]["termination"],
        started.elapsed().as_secs_f64()
    );
}

/// A double Fischer Random launcher (`--sp 0:959`): the engine gets the pair's FEN for
/// `position startpos` (the proxy's transcript, written to an absolute path, shows what
/// it was sent), and python-chess plays a whole game from that FEN through it.
#[test]
fn a_dfrc_launcher_gives_the_engine_the_pair_and_plays_to_the_end() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dirs = dirs();
    let log = dirs.home.join("dfrc.log");
    let launcher = write_launcher(
        &dirs.home,
        "sf-dfrc",
        &[
            "--sp",
            "0:959",
            "--log",
            log.to_str().unwrap(),
            "--",
            "/usr/games/stockfish",
        ],
    );
    let pair = fen("0:959");

    // A driver without a board of its own: `position startpos` becomes the pair.
    let mut command = Command::new(&launcher);
    command.current_dir(&dirs.elsewhere).stderr(Stdio::null());
    let mut gui = LineProcess::start(command);
    gui.send("uci");
    let options = gui.until("uciok", |line| line == "uciok");
    assert!(
        options.contains(
            &"option name SP960_BlackStart type spin default 959 min -1 max 959".to_owned()
        ),
        "{options:?}"
    );
    gui.send("setoption name UCI_Chess960 value true");
    gui.send("position startpos");
    gui.send("go nodes 500");
    let best = gui.wait_for(|line| line.starts_with("bestmove "));
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(10)).success());
    let transcript = fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = transcript
        .lines()
        .filter(|line| line.contains(" position "))
        .collect();
    assert!(
        sent.iter()
            .any(|line| line.contains("proxy>engine rewritten")
                && line.ends_with(&format!(" position fen {pair}"))),
        "the engine was not sent {pair}:\n{transcript}"
    );
    let mut replay = check_game(&json!({"moves": [], "plies": 0}), &pair, false);
    replay.play(best.split_whitespace().nth(1).unwrap());

    let report = python_game(
        "uci",
        &launcher,
        &dirs.elsewhere,
        &pair,
        2000,
        None,
        PLAIN_PATH,
    );
    let replay = check_game(&report, &pair, true);
    eprintln!(
        "DFRC 0:959 through the launcher: {} plies, {}",
        replay.moves.len(),
        report["outcome"]["result"]
    );
}

/// The engine given as a relative path and as a bare name on PATH, and `--log` relative:
/// all made absolute in the settings file, and all working when the launcher is started
/// from elsewhere, with a PATH on which the engine is not.
#[test]
fn the_engine_and_log_are_made_absolute_and_work_from_elsewhere() {
    if !peers::need(&[Peer::Stockfish, Peer::PythonChess]) {
        return;
    }
    let dirs = dirs();
    fs::create_dir(dirs.home.join("bin")).unwrap();
    fs::create_dir(dirs.home.join("logs")).unwrap();
    std::os::unix::fs::symlink("/usr/games/stockfish", dirs.home.join("bin/sf")).unwrap();

    let relative = write_launcher(
        &dirs.home,
        "relative-960",
        &["--sp", "860", "--log", "logs/game.log", "--", "bin/sf"],
    );
    let log = dirs.home.join("logs/game.log");
    assert_eq!(
        settings(&relative)["proxy"],
        json!(["--sp", "860", "--log", log, "--", dirs.home.join("bin/sf")])
    );
    // A bare name, found on the PATH the launcher was written with.
    let output = write_output(
        &dirs.home,
        &format!("/usr/games:{PLAIN_PATH}"),
        "bare-960",
        &["--sp", "860", "--", "stockfish"],
    );
    assert!(output.status.success(), "{output:?}");
    let bare = dirs.home.join("bare-960");
    assert_eq!(
        settings(&bare)["proxy"],
        json!(["--sp", "860", "--", "/usr/games/stockfish"])
    );
    // The same name on a PATH without it: refused with the proxy's code.
    let output = write_output(&dirs.home, PLAIN_PATH, "none-960", &["--", "stockfish"]);
    assert_eq!(output.status.code(), Some(127));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sp960: proxy: --write-launcher: engine 'stockfish' not found\n"
    );
    assert!(!dirs.home.join("none-960").exists());

    let start = fen("860");
    for launcher in [&relative, &bare] {
        let report = python_game(
            "uci",
            launcher,
            &dirs.elsewhere,
            &start,
            500,
            Some(12),
            PLAIN_PATH,
        );
        let replay = check_game(&report, &start, false);
        assert_eq!(replay.moves.len(), 12, "{}", launcher.display());
    }
    // The relative log went where it meant when written, not into the GUI's directory.
    let transcript = fs::read_to_string(&log).unwrap();
    assert!(transcript.contains("gui>"), "{transcript}");
    assert!(!dirs.elsewhere.join("logs").exists());
    assert_eq!(fs::read_dir(&dirs.elsewhere).unwrap().count(), 0);
}

/// An XBoard engine (Sjaak II) through a launcher, driven by python-chess's XBoard client
/// from SP 860 to the end of the game by the rules.
#[test]
fn an_xboard_engine_plays_through_a_launcher() {
    if !peers::need(&[Peer::SjaakII, Peer::PythonChess]) {
        return;
    }
    let dirs = dirs();
    let launcher = write_launcher(
        &dirs.home,
        "sjaak-960",
        &["--sp", "860", "--", "/usr/games/sjaakii"],
    );
    let start = fen("860");
    let started = Instant::now();
    let report = python_game(
        "xboard",
        &launcher,
        &dirs.elsewhere,
        &start,
        2,
        None,
        PLAIN_PATH,
    );
    let replay = check_game(&report, &start, true);
    assert!(replay.moves.len() >= 10, "{report}");
    assert!(
        report["engine"].as_str().unwrap().contains("Sjaak"),
        "{report}"
    );
    eprintln!(
        "Sjaak II through the launcher (XBoard): {} plies in {:.1} s",
        replay.moves.len(),
        started.elapsed().as_secs_f64()
    );
}

/// GUIs probe an engine when it is added: `uci`, and they expect `UCI_Chess960` and
/// `uciok` at once. The launcher answers within a bounded wait.
#[test]
fn a_launcher_answers_the_uci_probe_at_once() {
    if !peers::need(&[Peer::Stockfish]) {
        return;
    }
    let dirs = dirs();
    let launcher = write_launcher(
        &dirs.home,
        "probe-960",
        &["--sp", "860", "--", "/usr/games/stockfish"],
    );
    let mut command = Command::new(&launcher);
    command
        .current_dir(&dirs.elsewhere)
        .env("PATH", PLAIN_PATH)
        .stderr(Stdio::null());
    let started = Instant::now();
    let mut gui = LineProcess::start(command);
    gui.send("uci");
    let lines = gui
        .within(Duration::from_secs(3), |line| line == "uciok")
        .unwrap_or_else(|err| panic!("no uciok within 3 s: {err}; {:?}", gui.seen));
    let elapsed = started.elapsed();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("option name UCI_Chess960 type check")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"option name SP960_Start type spin default 860 min -2 max 959".to_owned())
    );
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(10)).success());
    eprintln!("uciok {} ms after the start", elapsed.as_millis());
}

/// A copy of the sp960 binary at `path` (a GUI would have a launcher there).
fn copy_sp960(path: &Path) {
    fs::copy(sp960(), path).unwrap();
}

/// Runs `program` with `args` from `cwd`; returns (exit code, stdout, stderr).
fn run(program: &Path, args: &[&str], cwd: &Path) -> (Option<i32>, String, String) {
    let output = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Every broken launcher is one clear `sp960: launcher: ...` line on stderr and exit 2,
/// never a silent engine; a copy of sp960 under another name given arguments is sp960.
#[test]
fn broken_launchers_are_told_clearly_with_exit_2() {
    let dirs = dirs();
    let launcher = dirs.home.join("sf-960");
    copy_sp960(&launcher);
    let file = dirs.home.join("sf-960.sp960.json");
    let home = dirs.home.display();
    let engine = sp960();
    let cases = [
        (
            "{\n  \"sp960-launcher\": 1,\n  \"directory\": \"/\"\n  \"proxy\": []\n}\n".to_owned(),
            format!(
                "sp960: launcher: {}:4:3: expected `,` or `}}`\n",
                file.display()
            ),
        ),
        (
            format!("{{\"sp960-launcher\": 2, \"directory\": \"{home}\", \"proxy\": []}}"),
            format!(
                "sp960: launcher: {}: unknown launcher version 2 (this sp960 reads version 1: write the launcher again with it)\n",
                file.display()
            ),
        ),
        (
            format!(
                "{{\"sp960-launcher\": 1, \"directory\": \"{home}\", \"proxy\": [\"--bogus\", \"--\", \"{engine}\", \"engine\"]}}"
            ),
            format!(
                "sp960: launcher: {}: the proxy words are refused: unexpected argument '--bogus' found\n",
                file.display()
            ),
        ),
        (
            format!(
                "{{\"sp960-launcher\": 1, \"directory\": \"{home}\", \"proxy\": [\"--sp\", \"860\"]}}"
            ),
            format!(
                "sp960: launcher: {}: the proxy words are refused: the following required arguments were not provided:\n",
                file.display()
            ),
        ),
        (
            format!(
                "{{\"sp960-launcher\": 1, \"directory\": \"{home}/gone\", \"proxy\": [\"--\", \"{engine}\", \"engine\"]}}"
            ),
            format!(
                "sp960: launcher: {}: the directory '{home}/gone' does not exist (write the launcher again from where its engine and files are)\n",
                file.display()
            ),
        ),
        (
            format!(
                "{{\"sp960-launcher\": 1, \"directory\": \"{home}\", \"proxy\": [\"--write-launcher\", \"x\", \"--\", \"{engine}\", \"engine\"]}}"
            ),
            format!(
                "sp960: launcher: {}: the proxy words are refused: --write-launcher: a launcher runs the proxy, it does not write launchers\n",
                file.display()
            ),
        ),
    ];
    for (text, expected) in &cases {
        fs::write(&file, text).unwrap();
        let (code, stdout, stderr) = run(&launcher, &[], &dirs.elsewhere);
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{text}: {stderr}");
        assert!(
            stderr.starts_with(expected.as_str()),
            "{text}:\n{stderr}\nexpected:\n{expected}"
        );
        assert_eq!(stderr.lines().count(), expected.lines().count(), "{stderr}");
    }

    // Arguments given to a launcher.
    fs::write(
        &file,
        format!("{{\"sp960-launcher\": 1, \"directory\": \"{home}\", \"proxy\": [\"--\", \"{engine}\", \"engine\"]}}"),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&launcher, &["fen", "860"], &dirs.elsewhere);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        format!(
            "sp960: launcher: this program is a launcher and takes no arguments: its command is in {} (run sp960 itself for other commands)\n",
            file.display()
        )
    );

    // A copy under another name without a settings file: no arguments is an error, never a
    // standard-chess engine; with arguments it is sp960.
    fs::remove_file(&file).unwrap();
    let (code, stdout, stderr) = run(&launcher, &[], &dirs.elsewhere);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        format!(
            "sp960: launcher: no settings file {} beside {}: a launcher needs it (write one with: sp960 proxy --write-launcher PATH [options] -- ENGINE)\n",
            file.display(),
            launcher.display()
        )
    );
    let (code, stdout, _) = run(&launcher, &["fen", "860"], &dirs.elsewhere);
    assert_eq!(code, Some(0));
    assert_eq!(stdout, format!("{}\n", fen("860")));
    // sp960 itself, with no arguments, is clap's usage error as before.
    let (code, _, stderr) = run(Path::new(sp960()), &[], &dirs.elsewhere);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("Usage: sp960 <COMMAND>"), "{stderr}");
}

/// A launcher runs the very `sp960 proxy` of its words, in its directory: the built-in
/// engine behind it answers a UCI GUI with the proxy's start options (needs no peer).
#[test]
fn a_launcher_runs_the_proxy_of_its_words() {
    let dirs = dirs();
    let launcher = write_launcher(
        &dirs.home,
        "builtin-960",
        &["--sp", "860", "--", sp960(), "engine"],
    );
    assert_eq!(
        settings(&launcher),
        json!({
            "sp960-launcher": 1,
            "directory": dirs.home,
            "proxy": ["--sp", "860", "--", sp960(), "engine"],
        })
    );
    let mut command = Command::new(&launcher);
    command.current_dir(&dirs.elsewhere).stderr(Stdio::piped());
    let mut gui = LineProcess::start(command);
    gui.send("uci");
    let options = gui.until("uciok", |line| line == "uciok");
    assert!(
        options
            .contains(&"option name SP960_Start type spin default 860 min -2 max 959".to_owned()),
        "{options:?}"
    );
    gui.send("position startpos");
    gui.send("go depth 1");
    let best = gui.wait_for(|line| line.starts_with("bestmove "));
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(10)).success());
    let mut replay = check_game(&json!({"moves": [], "plies": 0}), &fen("860"), false);
    replay.play(best.split_whitespace().nth(1).unwrap());
    let stderr = gui.stderr();
    // The proxy's own warning, as `sp960 proxy` gives it.
    assert!(
        stderr.contains("sp960: proxy: position startpos is played from SP 860"),
        "{stderr}"
    );
}

/// What is refused at write time: a bad --sp (exit 1, as the proxy), an engine not found
/// (127) or not executable (126), and a file at PATH that is not a launcher (2, left as
/// it was); a launcher is rewritten.
#[test]
fn bad_launchers_are_refused_when_written() {
    let dirs = dirs();
    let path = peers::search_path();
    let output = write_output(
        &dirs.home,
        &path,
        "x",
        &["--sp", "960", "--", sp960(), "engine"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).starts_with("sp960: proxy: --sp: "),
        "{output:?}"
    );
    let not_executable = dirs.home.join("engine.txt");
    fs::write(&not_executable, "not a program").unwrap();
    let output = write_output(&dirs.home, &path, "x", &["--", "./engine.txt"]);
    assert_eq!(output.status.code(), Some(126));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sp960: proxy: --write-launcher: engine './engine.txt' is not executable\n"
    );
    // A bare name is looked up on PATH, as the proxy starts it: not the file here.
    let output = write_output(&dirs.home, &path, "x", &["--", "engine.txt"]);
    assert_eq!(output.status.code(), Some(127));
    let output = write_output(&dirs.home, &path, "x", &["--", "./missing"]);
    assert_eq!(output.status.code(), Some(127));
    assert!(!dirs.home.join("x").exists() && !dirs.home.join("x.sp960.json").exists());

    let output = write_output(&dirs.home, &path, "engine.txt", &["--", sp960(), "engine"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "sp960: proxy: --write-launcher: {} exists and is not a launcher (no settings file {} beside it): not overwritten; remove it or choose another path\n",
            Path::new("engine.txt").display(),
            Path::new("engine.txt.sp960.json").display()
        )
    );
    assert_eq!(
        fs::read_to_string(&not_executable).unwrap(),
        "not a program"
    );

    let launcher = write_launcher(&dirs.home, "again", &["--sp", "0", "--", sp960(), "engine"]);
    write_launcher(&dirs.home, "again", &["--sp", "1", "--", sp960(), "engine"]);
    assert_eq!(settings(&launcher)["proxy"][1], "1");
}
