//! `sp960 tournament --emit cutechess-gui`: the engines.json it writes, played by
//! cutechess-cli 1.5.1's `-engine conf=NAME`, which loads the file with the same code as
//! Cute Chess GUI (`EngineManager::loadEngines`; cutechess-cli reads `engines.json` in its
//! current directory first, else the GUI's own in its settings folder). Each tournament is
//! checked game by game as tests/runners.rs checks the command lines: python-chess replays
//! every game from its FEN and finds it ended by the rules, `sp960 validate
//! --start-positions` names a requested start for each, both colours played.
//!
//! Also, with sp960 alone: merging keeps the other entries as written and a copy of the old
//! file; a malformed engines.json is refused and left untouched; the written launchers
//! answer `uci` when started with no arguments from another directory.
//!
//! The GUI itself is checked by hand with scripts/cutechess-gui-check.sh (not in CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

#[path = "support/peers.rs"]
mod peers;
use peers::{Peer, check_games, search_path, sp960};

/// One tournament at a time: each plays two games at once on a 2-core machine.
static RUNNING: Mutex<()> = Mutex::new(());

/// `sp960 tournament --emit cutechess-gui ARGS` in `dir`, with HOME `home` and without
/// XDG_CONFIG_HOME unless `xdg` gives one.
fn emit(dir: &Path, home: &Path, xdg: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(sp960());
    command
        .args(["tournament", "--emit", "cutechess-gui"])
        .args(args)
        .current_dir(dir)
        .env("PATH", search_path())
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME");
    if let Some(xdg) = xdg {
        command.env("XDG_CONFIG_HOME", xdg);
    }
    command.output().unwrap()
}

fn succeeded(output: &Output) -> (String, String) {
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert!(output.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// cutechess-cli, in `dir` (HOME `home`, XDG_CONFIG_HOME `xdg`), plays the engines named
/// `conf=NAME` as the GUI steps say: fischerandom, the book in order, 2 games per start
/// with colours swapped, 2 at once. Returns its output.
fn cutechess(
    dir: &Path,
    home: &Path,
    xdg: Option<&Path>,
    names: &[&str],
    book: &Path,
    rounds: usize,
    extra: &[&str],
) -> String {
    let mut command = Command::new("timeout");
    command.args(["600", "cutechess-cli"]);
    for name in names {
        command.args(["-engine", &format!("conf={name}")]);
    }
    command
        .args([
            // A fixed depth, no clock: what is tested is the engines.json, not the engines'
            // time management (at 10+0.1 the six games kept both cores busy for a minute).
            "-each",
            "tc=inf",
            "depth=4",
            "-variant",
            "fischerandom",
            "-openings",
        ])
        .arg(format!("file={}", book.display()))
        .args(["format=epd", "order=sequential", "-games", "2", "-rounds"])
        .arg(rounds.to_string())
        .args(["-repeat", "-concurrency", "2", "-recover", "-pgnout"])
        .arg(dir.join("games-960.pgn"))
        .args(extra)
        .current_dir(dir)
        .env("PATH", search_path())
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME");
    if let Some(xdg) = xdg {
        command.env("XDG_CONFIG_HOME", xdg);
    }
    let output = command.output().unwrap();
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "cutechess-cli failed: {log}");
    peers::assert_runner_untroubled(
        &log,
        "cutechess-cli",
        &["Unknown engine configuration", "Cannot execute command"],
    );
    log
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The entry named `name` in an engines.json.
fn entry<'a>(json: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    json.as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["name"] == name)
        .unwrap_or_else(|| panic!("no entry '{name}' in {json:#}"))
}

/// SP 0 (`HFhf`), SP 860 (`EAea`) and the DFRC pair 0:959: three starts, six games.
const STARTS: [&str; 3] = ["0", "860", "0:959"];

/// Fairy-Stockfish over UCI needs the proxy (cutechess sends it `UCI_Variant chess960`,
/// not `UCI_Chess960`); Sjaak II over XBoard runs through a launcher too, the proxy only
/// shielding it. engines.json in the tournament's folder, as cutechess-cli reads it first.
#[test]
fn cutechess_cli_plays_the_written_engines_json_uci_through_the_proxy_and_xboard() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::FairyStockfish,
        Peer::SjaakII,
        Peer::PythonChess,
    ]) {
        return;
    }
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let output = emit(
        dir.path(),
        home.path(),
        None,
        &[
            "--engines-json",
            "engines.json",
            "--engine",
            "/usr/games/fairy-stockfish",
            "--engine",
            "/usr/games/sjaakii proto=xboard 'name=Sjaak II'",
            "--sp",
            "0,860",
            "--sp",
            "0:959",
        ],
    );
    let (stdout, stderr) = succeeded(&output);
    assert!(
        stderr.contains(
            "engine 'fairy-stockfish-960': wrapped in sp960 proxy because Cute Chess sends it \
             `UCI_Variant chess960`"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("  Rounds: 3\n"), "{stdout}");
    let json = read_json(&dir.path().join("engines.json"));
    let launchers = dir.path().join("sp960-launchers");
    for (name, file, protocol) in [
        ("fairy-stockfish-960", "fairy-stockfish-960", "uci"),
        ("Sjaak II", "Sjaak-II", "xboard"),
    ] {
        let entry = entry(&json, name);
        assert_eq!(entry["command"], launchers.join(file).display().to_string());
        assert_eq!(entry["protocol"], protocol);
        assert_eq!(entry["variants"], serde_json::json!(["fischerandom"]));
        assert!(launchers.join(format!("{file}.sp960.json")).is_file());
    }
    cutechess(
        dir.path(),
        home.path(),
        None,
        &["fairy-stockfish-960", "Sjaak II"],
        &dir.path().join("sp960-FRC.epd"),
        3,
        &[],
    );
    let games = check_games(&dir.path().join("games-960.pgn"), 6, &STARTS, false);
    assert!(games.iter().any(|game| game.white == "Sjaak II"));
    let replayed = peers_replay(&dir.path().join("games-960.pgn"));
    assert_eq!(replayed.lines().count(), 6, "{replayed}");
}

/// python-chess's replay of a PGN (tests/python/replay_games.py).
fn peers_replay(pgn: &Path) -> String {
    let output = Command::new("python3")
        .arg(peers::fixture("replay_games.py"))
        .arg(pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Without --engines-json the file goes where Cute Chess keeps it (QSettings, IniFormat,
/// organisation `cutechess`): `$XDG_CONFIG_HOME/cutechess/engines.json`, else
/// `~/.config/cutechess/engines.json`; cutechess-cli, started in a folder without an
/// engines.json, finds it there. Glaurung gets its `Threads 1` from the entry's options
/// and the proxy's shield on the DFRC pair 860:1; Fairy-Stockfish over XBoard the proxy's
/// king-takes-rook castling.
#[test]
fn the_default_engines_json_is_the_one_cutechess_reads() {
    if !peers::need(&[
        Peer::CutechessCli,
        Peer::Glaurung,
        Peer::FairyStockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    let _one_at_a_time = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let xdg = home.path().join("xdg");
    let engines = [
        "--engine",
        "/usr/games/glaurung",
        "--engine",
        "/usr/games/fairy-stockfish proto=xboard name=fairy-xboard",
        "--sp",
        "860:1",
    ];
    // With XDG_CONFIG_HOME, and without (HOME/.config).
    for (xdg, expected) in [
        (Some(xdg.as_path()), xdg.join("cutechess/engines.json")),
        (None, home.path().join(".config/cutechess/engines.json")),
    ] {
        let (stdout, _) = succeeded(&emit(dir.path(), home.path(), xdg, &engines));
        assert!(
            stdout.starts_with(&format!(
                "Cute Chess GUI reads {} when it starts",
                expected.display()
            )),
            "{stdout}"
        );
        let json = read_json(&expected);
        assert_eq!(
            entry(&json, "glaurung-960")["options"],
            serde_json::json!([{"name": "Threads", "value": "1"}])
        );
        let launchers = expected.parent().unwrap().join("sp960-launchers");
        assert_eq!(
            entry(&json, "fairy-xboard")["command"],
            launchers.join("fairy-xboard").display().to_string()
        );
        let elsewhere = tempfile::tempdir().unwrap();
        let log = cutechess(
            elsewhere.path(),
            home.path(),
            xdg,
            &["glaurung-960", "fairy-xboard"],
            &dir.path().join("sp960-FRC.epd"),
            1,
            &["-debug", "all"],
        );
        // cutechess-cli gave Glaurung the entry's option (its launcher passes it on).
        assert!(
            log.contains("glaurung-960(0): setoption name Threads value 1")
                || log.contains("glaurung-960(1): setoption name Threads value 1"),
            "{}",
            &log[..log.len().min(4000)]
        );
        check_games(
            &elsewhere.path().join("games-960.pgn"),
            2,
            &["860:1"],
            false,
        );
    }
}

/// A hand-made engines.json: one entry of the user's and one named as ours.
const HAND_MADE_ENTRY: &str = "{\n\t\t\"command\" : \"/opt/engines/my engine\",\n\t\t\"name\" : \"Mine\",\n\t\t\"options\" : [ {\"name\": \"Hash\", \"type\": \"spin\", \"value\": 64, \"min\": 1, \"max\": 1024} ],\n\t\t\"protocol\" : \"uci\",\n\t\t\"timeoutScaleFactor\" : 1.5,\n\t\t\"workingDirectory\" : \"\"\n\t}";

fn hand_made() -> String {
    format!(
        "[\n\t{HAND_MADE_ENTRY},\n\t{{\n\t\t\"command\" : \"/old/path\",\n\t\t\"name\" : \"builtin\",\n\t\t\"protocol\" : \"uci\"\n\t}}\n]\n"
    )
}

/// Writing into an existing engines.json keeps the user's entry as written (byte for
/// byte), replaces the entry of the same name (said on stderr) and keeps the old file.
#[test]
fn merging_keeps_other_entries_and_a_copy_of_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let path = dir.path().join("engines.json");
    std::fs::write(&path, hand_made()).unwrap();
    let args = [
        "--engines-json",
        "engines.json",
        "--engine",
        "sp960 engine name=builtin",
        "--engine",
        "sp960 engine name=builtin-xboard proto=xboard",
        "--sp",
        "860",
    ];
    let (_, stderr) = succeeded(&emit(dir.path(), home.path(), None, &args));
    assert_eq!(
        stderr.replace(&dir.path().display().to_string(), "DIR"),
        "sp960: tournament: wrote 2 launchers in DIR/sp960-launchers\n\
         sp960: tournament: engines.json: replaced the entry 'builtin'\n\
         sp960: tournament: engines.json: the old file is kept in engines.json.bak\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("engines.json.bak")).unwrap(),
        hand_made()
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(HAND_MADE_ENTRY), "{text}");
    let json = read_json(&path);
    let names: Vec<_> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Mine", "builtin", "builtin-xboard"]);
    assert_ne!(entry(&json, "builtin")["command"], "/old/path");
    // Again: the first copy stays, the second goes beside it, the user's entry still there.
    let (_, stderr) = succeeded(&emit(dir.path(), home.path(), None, &args));
    assert!(
        stderr.contains("the old file is kept in engines.json.bak.2"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("engines.json.bak")).unwrap(),
        hand_made()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // The launchers answer as engines when started alone, from another directory.
    for (name, hello, answer) in [
        (
            "builtin",
            "uci\nquit\n",
            "option name UCI_Chess960 type check",
        ),
        (
            "builtin-xboard",
            "xboard\nprotover 2\nquit\n",
            "variants=\"normal,fischerandom\"",
        ),
    ] {
        let launcher = PathBuf::from(entry(&json, name)["command"].as_str().unwrap());
        let reply = talk(&launcher, home.path(), hello);
        assert!(reply.contains(answer), "{name}: {reply}");
    }
}

/// Starts `program` with no arguments in `dir`, writes `input`, returns its stdout.
fn talk(program: &Path, dir: &Path, input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(program)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A malformed engines.json is an error naming the file, line and column, exit 1, and
/// nothing is written: not the file, not a backup, not a launcher, not the book.
#[test]
fn a_malformed_engines_json_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let path = dir.path().join("engines.json");
    let broken = "[\n  {\"name\": \"Mine\", \"command\": \"/opt/mine\"}\n  {\"name\": \"x\"}\n]\n";
    std::fs::write(&path, broken).unwrap();
    let output = emit(
        dir.path(),
        home.path(),
        None,
        &[
            "--engines-json",
            "engines.json",
            "--engine",
            "sp960 engine",
            "--engine",
            "sp960 engine",
            "--sp",
            "860",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "sp960: tournament: engines.json:3:3: not a valid engines.json (expected `,` or `]`); \
         it was left untouched: fix it or choose another file with --engines-json\n"
    );
    assert!(output.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    let mut left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(left, ["engines.json"]);
}

/// docs/tournament.md's whole run (a ```sh block: it needs Fairy-Stockfish and Sjaak II),
/// run in `<temp>/home/me/chess` with HOME `<temp>/home/me`: it prints the ```text block
/// after it (stdout, then stderr) and writes the ```json block into
/// `~/.config/cutechess/engines.json`, the temporary folder read as nothing.
#[test]
fn the_documented_run_prints_what_the_docs_say() {
    if !peers::need(&[Peer::FairyStockfish, Peer::SjaakII]) {
        return;
    }
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tournament.md"))
            .unwrap();
    let run = page
        .split_once("A whole run, in `~/chess`")
        .expect("the whole run in docs/tournament.md")
        .1;
    let block = |text: &'_ str, fence: &str| -> (String, usize) {
        let start = text.find(&format!("```{fence}\n")).unwrap() + fence.len() + 4;
        let end = start + text[start..].find("```\n").unwrap();
        (text[start..end].to_owned(), end + 4)
    };
    let (command, after) = block(run, "sh");
    let command = command
        .strip_prefix("$ sp960 ")
        .unwrap()
        .replace("\\\n", " ");
    let (printed, after_text) = block(&run[after..], "text");
    let (json, _) = block(&run[after + after_text..], "json");
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home/me");
    std::fs::create_dir_all(home.join("chess")).unwrap();
    let words = shlex::split(&command).unwrap();
    let output = Command::new(sp960())
        .args(&words)
        .current_dir(home.join("chess"))
        .env("PATH", search_path())
        .env("HOME", &home)
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    let (stdout, stderr) = succeeded(&output);
    let temp_name = temp.path().display().to_string();
    assert_eq!(format!("{stdout}{stderr}").replace(&temp_name, ""), printed);
    let written = std::fs::read_to_string(home.join(".config/cutechess/engines.json")).unwrap();
    assert_eq!(written.replace(&temp_name, ""), json);
}

/// --engines-json and --launchers belong to --emit cutechess-gui, --shell and --sp960 to
/// the command lines: each elsewhere is a usage error (exit 2) that names it.
#[test]
fn the_gui_options_and_the_command_line_options_do_not_mix() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["--emit", "cutechess", "--engines-json", "e.json"],
            "sp960: tournament: --engines-json is for --emit cutechess-gui\n",
        ),
        (
            vec!["--emit", "fastchess", "--launchers", "l"],
            "sp960: tournament: --launchers is for --emit cutechess-gui\n",
        ),
        (
            vec!["--emit", "cutechess-gui", "--shell", "sh"],
            "sp960: tournament: --shell is for command lines; --emit cutechess-gui writes files\n",
        ),
        (
            vec!["--emit", "cutechess-gui", "--sp960", "/opt/sp960"],
            "sp960: tournament: --sp960 is for command lines; --emit cutechess-gui's launchers \
             are copies of this sp960\n",
        ),
    ] {
        let output = Command::new(sp960())
            .arg("tournament")
            .args(&args)
            .args(["--engine", "a", "--engine", "b", "--sp", "1"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), message);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// An engine program that is not there, or a `dir=` that is no directory, is refused (exit
/// 2, naming it) before anything is written.
#[test]
fn an_engine_its_launcher_could_not_start_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    for (engine, message) in [
        (
            "/nonexistent/engine",
            "sp960: tournament: engine 'engine-960': engine '/nonexistent/engine' not found\n"
                .to_owned(),
        ),
        (
            "sp960 engine dir=nowhere",
            format!(
                "sp960: tournament: engine 'sp960-960': its working directory {} is not a \
                 directory\n",
                dir.path().join("nowhere").display()
            ),
        ),
    ] {
        let output = emit(
            dir.path(),
            home.path(),
            None,
            &[
                "--engines-json",
                "engines.json",
                "--engine",
                engine,
                "--engine",
                "sp960 engine name=other",
                "--sp",
                "860",
            ],
        );
        assert_eq!(output.status.code(), Some(2), "{engine}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), message);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
