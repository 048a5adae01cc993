//! What the GUIs and clients that run here send an engine in a Chess960 game, recorded by
//! `sp960 proxy --log` in front of a real engine: python-chess 1.11.2 (UCI and XBoard),
//! cutechess-cli 1.5.1 (UCI and XBoard; the library its GUI shares) and xboard 4.9.1 under
//! Xvfb. Each test pins the facts docs/proxy.md ("In your GUI") and README ("Use it in your
//! GUI") state about that program: whether `UCI_Chess960` is set, the FEN castling field
//! (Shredder `EAea` or X-FEN `KQkq`), the castling move form (king takes rook `c1e1`, or
//! `O-O`), `variant fischerandom`, and how the program starts an engine (one program path, or
//! a command line with arguments; which working directory).
//!
//! Every game starts from SP 860 (`RBKNRNBQ`, king c1, rooks a1 and e1) with the opening
//! `1. Nde3 Nde6 2. Ng3 Ng6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O`, so both castling moves reach
//! the proxied engine in the program's own form. Searches are shallow.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

#[path = "support/peers.rs"]
mod peers;
use peers::Peer;

/// One external program at a time: the machine has two cores.
static RUNNING: Mutex<()> = Mutex::new(());

/// SP 860 as `sp960 fen 860` writes it (Shredder castling letters).
const SP860: &str = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
/// The opening's moves up to both castlings, in UCI's king-takes-rook form.
const OPENING_UCI: &str = "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7";
/// The opening as a PGN for the runners, with both castlings.
const OPENING_PGN: &str = "[Event \"sp960 test\"]\n[Variant \"fischerandom\"]\n[SetUp \"1\"]\n\
[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\"]\n[Result \"*\"]\n\n\
1. Nde3 Nde6 2. Ng3 Ng6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O *\n";

fn sp960() -> &'static str {
    env!("CARGO_BIN_EXE_sp960")
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gui-clients-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The lines the GUI sent, as the proxy's transcript records them (`gui>engine`, passed on
/// untouched, and `gui>proxy`, read by the proxy): the text of each.
fn gui_lines(log: &Path) -> Vec<String> {
    let transcript = std::fs::read_to_string(log)
        .unwrap_or_else(|err| panic!("transcript {}: {err}", log.display()));
    transcript
        .lines()
        .filter_map(|line| {
            // `<timestamp> <direction, padded to 24> <text>`
            let (_, rest) = line.split_once(' ')?;
            let (label, text) = rest.split_at(rest.len().min(25));
            label.starts_with("gui>").then(|| text.to_owned())
        })
        .collect()
}

/// Runs tests/python/gui_client_transcripts.py PART with the transcripts written to `dir`;
/// returns its stdout.
fn pychess(dir: &Path, part: &str) -> String {
    let output = Command::new("timeout")
        .args(["-k", "5", "120", "python3"])
        .arg(peers::fixture("gui_client_transcripts.py"))
        .arg(sp960())
        .arg(dir)
        .arg(part)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "gui_client_transcripts.py {part}: {}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

// ---- python-chess 1.11.2 ----

#[test]
fn python_chess_uci_sets_uci_chess960_and_sends_shredder_fens_and_king_takes_rook() {
    if !peers::need(&[Peer::PythonChess, Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("pychess-uci");
    let stdout = pychess(&dir, "uci");
    assert!(stdout.contains("uci: ok "), "{stdout}");
    assert!(stdout.contains("uci standard: ok "), "{stdout}");

    let sent = gui_lines(&dir.join("pychess-uci.log"));
    // Chess960 (the board's chess960 flag): UCI_Chess960 on, Shredder letters, c1e1/c8e8.
    assert!(
        sent.contains(&"setoption name UCI_Chess960 value true".to_owned()),
        "{sent:#?}"
    );
    let white = format!("position fen {SP860} moves {OPENING_UCI} c1e1");
    let black = format!("{white} c8e8");
    assert!(sent.contains(&white), "{sent:#?}");
    assert!(sent.contains(&black), "{sent:#?}");
    // The setoption comes before the first position.
    let option = sent
        .iter()
        .position(|l| l.contains("UCI_Chess960"))
        .unwrap();
    let position = sent.iter().position(|l| l.starts_with("position")).unwrap();
    assert!(option < position, "{sent:#?}");

    // A standard game: startpos, e1g1, and no UCI_Chess960 at all (the engine's default,
    // false, is left alone).
    let sent = gui_lines(&dir.join("pychess-uci-standard.log"));
    assert!(
        sent.contains(&"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1".to_owned()),
        "{sent:#?}"
    );
    assert!(
        !sent.iter().any(|line| line.contains("UCI_Chess960")),
        "{sent:#?}"
    );
}

#[test]
fn python_chess_refuses_a_chess960_game_with_an_engine_without_uci_chess960() {
    if !peers::need(&[Peer::PythonChess, Peer::Toga2]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("pychess-no-option");
    let stdout = pychess(&dir, "no-option");
    assert!(
        stdout.contains("no-option: EngineError engine does not support UCI_Chess960"),
        "{stdout}"
    );
}

#[test]
fn python_chess_xboard_sends_variant_fischerandom_shredder_setboard_and_o_o() {
    if !peers::need(&[Peer::PythonChess, Peer::SjaakII]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("pychess-xboard");
    let stdout = pychess(&dir, "xboard");
    assert!(stdout.contains("xboard: ok "), "{stdout}");

    let sent = gui_lines(&dir.join("pychess-xboard.log"));
    let at = |text: &str| {
        sent.iter()
            .position(|line| line == text)
            .unwrap_or_else(|| panic!("{text:?} not sent: {sent:#?}"))
    };
    let variant = at("variant fischerandom");
    let setboard = at(&format!("setboard {SP860}"));
    assert!(at("new") < variant && variant < setboard, "{sent:#?}");
    // Moves in coordinates (Sjaak II asks for no usermove prefix), castling as O-O.
    let castles: Vec<&String> = sent
        .iter()
        .filter(|line| line.trim_start_matches("usermove ").starts_with("O-O"))
        .collect();
    assert!(castles.len() >= 2, "{sent:#?}");
    assert!(
        sent.iter()
            .all(|line| !line.ends_with("c1e1") && !line.ends_with("c8e8")),
        "{sent:#?}"
    );
}

// ---- cutechess-cli 1.5.1 (its library is the Cute Chess GUI's) ----

/// A program on the peers' PATH (tests/support/peers.rs), as an absolute path.
fn on_search_path(name: &str) -> PathBuf {
    peers::search_path()
        .split(':')
        .map(|dir| Path::new(dir).join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("{name} not on {}", peers::search_path()))
}

/// Runs cutechess-cli with `args` in `dir`, its temporary directory `dir/tmp` (TMPDIR);
/// returns whether it succeeded and its stdout and stderr.
fn cutechess(dir: &Path, args: &[&str]) -> (bool, String) {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(dir.join("opening.pgn"), OPENING_PGN).unwrap();
    let output = Command::new("timeout")
        .args(["-k", "5", "300"])
        .arg(on_search_path("cutechess-cli"))
        .args(args)
        .args(["-variant", "fischerandom"])
        .args([
            "-openings",
            "file=opening.pgn",
            "format=pgn",
            "order=sequential",
        ])
        .args(["-games", "2", "-maxmoves", "40", "-pgnout", "games.pgn"])
        .current_dir(dir)
        .env("TMPDIR", &tmp)
        .env("PATH", peers::search_path())
        .output()
        .unwrap();
    (
        output.status.success(),
        format!(
            "{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// The PGN's results: both games finished.
fn assert_two_results(pgn: &Path) {
    let pgn = std::fs::read_to_string(pgn).unwrap();
    let results = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .map(|r| pgn.matches(&format!("[Result \"{r}\"]")).count())
        .sum::<usize>();
    assert_eq!(results, 2, "{pgn}");
}

#[test]
fn cutechess_uci_sets_uci_chess960_and_sends_shredder_fens_and_king_takes_rook_from_the_temp_dir() {
    if !peers::need(&[Peer::CutechessCli, Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("cutechess-uci");
    let proxied = format!(
        "cmd={} arg=proxy arg=--log arg=cutechess-uci.log arg=-- arg=/usr/games/stockfish",
        sp960()
    );
    let mut args = vec!["-engine", "name=proxied", "proto=uci"];
    args.extend(proxied.split(' '));
    args.extend([
        "-engine",
        "name=stockfish",
        "cmd=/usr/games/stockfish",
        "proto=uci",
        "-each",
        "tc=inf",
        "depth=4",
    ]);
    let (ok, output) = cutechess(&dir, &args);
    assert!(ok, "{output}");
    assert_two_results(&dir.join("games.pgn"));

    // No working directory given: the engine ran in the temporary directory, so the
    // relative --log landed there.
    assert!(!dir.join("cutechess-uci.log").exists());
    let sent = gui_lines(&dir.join("tmp/cutechess-uci.log"));
    assert!(
        sent.contains(&"setoption name UCI_Chess960 value true".to_owned()),
        "{sent:#?}"
    );
    let castled = format!("position fen {SP860} moves {OPENING_UCI} c1e1 c8e8");
    assert!(
        sent.iter().any(|line| line.starts_with(&castled)),
        "{castled:?} not sent: {sent:#?}"
    );
    let option = sent
        .iter()
        .position(|l| l.contains("UCI_Chess960"))
        .unwrap();
    let position = sent.iter().position(|l| l.starts_with("position")).unwrap();
    assert!(option < position, "{sent:#?}");
}

#[test]
fn cutechess_xboard_sends_variant_fischerandom_xfen_setboard_and_o_o() {
    if !peers::need(&[Peer::CutechessCli, Peer::SjaakII]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("cutechess-xboard");
    let log = dir.join("cutechess-xboard.log");
    let proxied = format!(
        "cmd={} arg=proxy arg=--log arg={} arg=-- arg=/usr/games/sjaakii",
        sp960(),
        log.display()
    );
    let mut args = vec!["-engine", "name=proxied", "proto=xboard"];
    args.extend(proxied.split(' '));
    args.extend([
        "-engine",
        "name=sjaak",
        "cmd=/usr/games/sjaakii",
        "proto=xboard",
        "-each",
        "tc=10+0.1",
        "depth=3",
    ]);
    let (ok, output) = cutechess(&dir, &args);
    assert!(ok, "{output}");
    assert_two_results(&dir.join("games.pgn"));

    let sent = gui_lines(&log);
    let variant = sent
        .iter()
        .position(|line| line == "variant fischerandom")
        .unwrap_or_else(|| panic!("no variant: {sent:#?}"));
    // X-FEN: KQkq (each rook is the outermost on its side).
    let setboard = sent
        .iter()
        .position(|line| {
            line == "setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1"
        })
        .unwrap_or_else(|| panic!("no X-FEN setboard: {sent:#?}"));
    assert!(variant < setboard, "{sent:#?}");
    let castles = sent
        .iter()
        .filter(|line| line.trim_start_matches("usermove ").starts_with("O-O"))
        .count();
    assert!(castles >= 2, "{sent:#?}");
    assert!(
        sent.iter()
            .all(|line| !line.ends_with("c1e1") && !line.ends_with("c8e8")),
        "{sent:#?}"
    );
}

#[test]
fn cutechess_cannot_start_a_command_line_given_as_the_command() {
    if !peers::need(&[Peer::CutechessCli, Peer::Stockfish]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("cutechess-one-string");
    // What a user types into the GUI's Command field: the whole command line.
    let command = format!("cmd={} proxy -- /usr/games/stockfish", sp960());
    let (ok, output) = cutechess(
        &dir,
        &[
            "-engine",
            "name=proxied",
            &command,
            "proto=uci",
            "-engine",
            "name=stockfish",
            "cmd=/usr/games/stockfish",
            "proto=uci",
            "-each",
            "tc=inf",
            "depth=1",
        ],
    );
    // cutechess-cli says so, plays no game, and still exits with status 0.
    let expected = format!(
        "Cannot execute command: {} proxy -- /usr/games/stockfish",
        sp960()
    );
    assert!(output.contains(&expected), "{ok} {output}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap_or_default();
    assert!(!pgn.contains("[Event "), "{pgn}");
}

// ---- xboard 4.9.1 ----

/// Plays one xboard game from the opening in `dir` (under Xvfb, no window), `first` against
/// Sjaak II, `extra` added to xboard's options.
fn xboard(dir: &Path, first: &str, extra: &[&str]) {
    std::fs::write(dir.join("opening.pgn"), OPENING_PGN).unwrap();
    let status = Command::new("timeout")
        .args(["-k", "5", "150", "xvfb-run", "-a", "xboard"])
        .args(["-variant", "fischerandom"])
        .args([
            "-matchGames",
            "1",
            "-fcp",
            first,
            "-scp",
            "/usr/games/sjaakii",
        ])
        .args(extra)
        .args([
            "-tc",
            "0:10",
            "-inc",
            "0.1",
            "-searchDepth",
            "3",
            "-autoCallFlag",
            "true",
        ])
        .args([
            "-lgf",
            "opening.pgn",
            "-lgi",
            "1",
            "-adjudicateDrawMoves",
            "40",
        ])
        .args(["-xexit", "-saveSettingsOnExit", "false", "-noGUI"])
        .args(["-sgf", "games.pgn"])
        .env(
            "PATH",
            format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "xboard {status}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap_or_default();
    assert!(pgn.contains("[Result \""), "no finished game: {pgn}");
}

#[test]
fn xboard_sends_variant_fischerandom_setboard_and_o_o_and_runs_the_engine_in_its_own_directory() {
    if !peers::need(&[Peer::Xboard, Peer::Xvfb, Peer::SjaakII]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("xboard");
    // A command line with arguments in -fcp, a relative --log, no -fd.
    let first = format!(
        "{} proxy --log xboard-proxy.log -- /usr/games/sjaakii",
        sp960()
    );
    xboard(&dir, &first, &[]);
    // -fd unset: the engine ran in xboard's own directory, where the relative log is.
    let sent = gui_lines(&dir.join("xboard-proxy.log"));
    let variant = sent
        .iter()
        .position(|line| line == "variant fischerandom")
        .unwrap_or_else(|| panic!("no variant: {sent:#?}"));
    // xboard sets up a start of its own first, then the opening's.
    let setboard = sent
        .iter()
        .position(|line| {
            line.starts_with("setboard rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w ")
        })
        .unwrap_or_else(|| panic!("no setboard: {sent:#?}"));
    assert!(variant < setboard, "{sent:#?}");
    assert!(
        sent[setboard].ends_with(" w EAea - 0 1"),
        "Shredder castling letters: {}",
        sent[setboard]
    );
    let castles = sent
        .iter()
        .filter(|line| line.trim_start_matches("usermove ").starts_with("O-O"))
        .count();
    assert!(castles >= 2, "{sent:#?}");
}

#[test]
fn xboard_gives_a_uci_engine_to_polyglot_which_sets_uci_chess960_and_sends_shredder_fens() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::Polyglot,
        Peer::Stockfish,
        Peer::SjaakII,
    ]) {
        return;
    }
    let _one = RUNNING.lock().unwrap_or_else(|err| err.into_inner());
    let dir = scratch("xboard-uci");
    let log = dir.join("xboard-uci.log");
    let first = format!(
        "{} proxy --log {} -- /usr/games/stockfish",
        sp960(),
        log.display()
    );
    // -fUCI: xboard starts `polyglot -noini -ec "<-fcp>" ...`, polyglot the proxy.
    xboard(&dir, &first, &["-fUCI"]);
    let sent = gui_lines(&log);
    assert!(
        sent.contains(&"setoption name UCI_Chess960 value true".to_owned()),
        "{sent:#?}"
    );
    let castled = format!("position fen {SP860} moves {OPENING_UCI} c1e1 c8e8");
    assert!(
        sent.iter().any(|line| line.starts_with(&castled)),
        "{castled:?} not sent: {sent:#?}"
    );
}
