//! What every platform runs, with nothing but sp960 itself: the proxy in front of the
//! built-in engine over pipes, as a GUI drives it (UCI and XBoard, castling in both UCI
//! dialects, a refused position), a launcher started by its path alone playing a game to
//! its end, a match of the built-in engine writing a PGN, and one writer per PGN.
//! CI runs this suite on Linux, on Linux with the `portable-io` feature (the macOS path),
//! and as a Windows build under Wine (scripts/test-windows.sh).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use shakmaty::{CastlingSide, Chess, Color, Move, Position, Rank};
use sp960::{CastlingDialect, parse_move};
use sp960::{CastlingNotation, start_fen};
use sp960::{Start, parse_spec};

#[path = "support/process.rs"]
mod process;
use process::{LineProcess, fake_engine, sp960};
#[path = "support/rules.rs"]
mod rules;
use rules::Replay;

/// SP 860, `RBKNRNBQ`, and a line of moves (Chess960 notation) after which White can castle
/// kingside (king c1, rook e1).
const SP: &str = "860";
const LINE: &str = "f2f4 f7f5 g1f2 g8f7 d1e3 d8e6 f1g3 f8g6";

fn start() -> Start {
    parse_spec(SP).unwrap()[0]
}

fn root() -> Chess {
    start().position().unwrap()
}

/// The position after [`LINE`], played with shakmaty, and White's castling moves there.
fn after_line() -> (Chess, Vec<Move>) {
    let mut position = root();
    for text in LINE.split(' ') {
        let m = parse_move(&position, text.as_bytes()).unwrap();
        position.play_unchecked(m);
    }
    let castles = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_castle())
        .collect();
    (position, castles)
}

/// A castling move as a GUI in `dialect` writes it, worked out from the squares.
fn castling_text(m: &Move, dialect: CastlingDialect) -> String {
    let Move::Castle { king, rook } = *m else {
        panic!("not castling: {m:?}")
    };
    let side = CastlingSide::from_king_side(king < rook);
    let destination = side.king_to(Color::from_white(king.rank() == Rank::First));
    match dialect {
        CastlingDialect::Chess960 => format!("{king}{rook}"),
        CastlingDialect::Standard if king.distance(destination) <= 1 => format!("{king}{rook}"),
        CastlingDialect::Standard => format!("{king}{destination}"),
    }
}

/// A copy of sp960 at `to`, with the DLLs it runs with under Wine (scripts/test-platforms.sh
/// puts them beside sp960.exe).
fn copy_sp960(to: &Path) {
    std::fs::copy(sp960(), to).unwrap();
    for entry in std::fs::read_dir(Path::new(sp960()).parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "dll") {
            let beside = to.parent().unwrap().join(path.file_name().unwrap());
            std::fs::copy(&path, beside).unwrap();
        }
    }
}

fn proxy(args: &[&str]) -> LineProcess {
    let mut all = vec!["proxy"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--", sp960(), "engine"]);
    LineProcess::spawn(sp960(), &all, Stdio::inherit())
}

fn bestmove(gui: &mut LineProcess, go: &str) -> String {
    gui.send(go);
    let line = gui.wait_for(|l| l.starts_with("bestmove "));
    line.split_whitespace().nth(1).unwrap().to_owned()
}

/// A UCI GUI in either castling dialect: `position startpos` of SP 860 gives a legal move,
/// the castling move comes back in the GUI's own notation, and a broken position is
/// refused by the proxy while the engine stays alive.
#[test]
fn uci_gui_through_the_proxy_in_both_castling_dialects() {
    let (castle_position, castles) = after_line();
    assert!(!castles.is_empty(), "White can castle after {LINE}");
    let mut dialects_differ = false;
    for dialect in [CastlingDialect::Chess960, CastlingDialect::Standard] {
        let mut gui = proxy(&["--sp", SP]);
        gui.send("uci");
        gui.wait_for(|l| l == "uciok");
        if dialect == CastlingDialect::Chess960 {
            gui.send("setoption name UCI_Chess960 value true");
        }
        gui.send("isready");
        gui.wait_for(|l| l == "readyok");
        gui.send("position startpos");
        let first = bestmove(&mut gui, "go depth 3");
        parse_move(&root(), first.as_bytes())
            .unwrap_or_else(|err| panic!("{first} is not legal at SP {SP}: {err}"));
        // The GUI's moves of the line in its own dialect (none of them castles).
        gui.send(&format!("position startpos moves {LINE}"));
        for castle in &castles {
            let want = castling_text(castle, dialect);
            dialects_differ |= want != castling_text(castle, CastlingDialect::Chess960);
            let best = bestmove(&mut gui, &format!("go depth 2 searchmoves {want}"));
            assert_eq!(best, want, "{dialect:?}");
            assert_eq!(
                parse_move(&castle_position, best.as_bytes()).unwrap(),
                *castle
            );
        }
        gui.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
        assert_eq!(bestmove(&mut gui, "go depth 1"), "0000");
        assert!(
            gui.seen
                .iter()
                .any(|l| l.starts_with("info string sp960: refused position")),
            "{:?}",
            gui.seen
        );
        // The engine is still there.
        gui.send("position startpos");
        let again = bestmove(&mut gui, "go depth 1");
        parse_move(&root(), again.as_bytes()).unwrap();
        gui.send("quit");
        assert!(gui.wait(Duration::from_secs(20)).success());
    }
    assert!(dialects_differ, "kingside castling from c1 differs");
}

/// The sp960 executable a launcher is written from: `SP960_EXE` when set (an unpacked
/// release archive's sp960.exe), else the one cargo built; absolute in this platform's
/// terms (under Wine the built path is a Unix one, `/...`, which Windows reads as a path on
/// the current drive).
fn sp960_exe() -> PathBuf {
    let exe = std::env::var_os("SP960_EXE").map_or_else(|| PathBuf::from(sp960()), PathBuf::from);
    std::path::absolute(exe).unwrap()
}

/// A launcher for the built-in engine (`sp960 engine`), written in one directory with a
/// relative `--log`, started by its path alone, with no arguments, from another directory
/// (on Windows a copy of sp960.exe named `builtin-960.exe`, no cmd.exe between): a UCI GUI
/// plays a game from SP 860 to its end by the rules (shakmaty: mate, stalemate,
/// insufficient material, fifty moves, threefold repetition), every move legal; the
/// transcript shows the engine got SP 860's FEN.
#[test]
fn a_launcher_started_by_its_path_alone_plays_sp_860_to_the_end() {
    let temp = tempfile::tempdir().unwrap();
    let (home, elsewhere) = (temp.path().join("home"), temp.path().join("elsewhere"));
    std::fs::create_dir(&home).unwrap();
    std::fs::create_dir(&elsewhere).unwrap();
    let exe = sp960_exe();
    let exe_text = exe.to_str().unwrap();
    let output = Command::new(&exe)
        .args(["proxy", "--write-launcher", "builtin-960", "--sp", SP])
        .args(["--log", "game.log", "--", exe_text, "engine"])
        .current_dir(&home)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed = String::from_utf8(output.stdout).unwrap();
    let launcher = PathBuf::from(printed.trim_end());
    let name = if cfg!(windows) {
        "builtin-960.exe"
    } else {
        "builtin-960"
    };
    let canonical = |path: &Path| std::fs::canonicalize(path).unwrap();
    assert!(launcher.is_absolute(), "{printed}");
    assert_eq!(canonical(&launcher), canonical(&home.join(name)));
    // The settings beside it: the directory it was written in, the log made absolute.
    let settings: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join("builtin-960.sp960.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(settings["sp960-launcher"], 1);
    let directory = settings["directory"].as_str().unwrap();
    assert_eq!(canonical(Path::new(directory)), canonical(&home));
    let proxy: Vec<&str> = settings["proxy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|word| word.as_str().unwrap())
        .collect();
    assert_eq!(proxy[..3], ["--sp", SP, "--log"]);
    assert_eq!(
        canonical(Path::new(proxy[3]).parent().unwrap()),
        canonical(&home)
    );
    assert_eq!(proxy[4..], ["--", exe_text, "engine"]);
    // Under Wine, sp960.exe runs with the DLLs beside it (scripts/test-platforms.sh).
    for entry in std::fs::read_dir(exe.parent().unwrap()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "dll") {
            std::fs::copy(&path, home.join(path.file_name().unwrap())).unwrap();
        }
    }

    let mut command = Command::new(&launcher);
    command.current_dir(&elsewhere).stderr(Stdio::null());
    let mut gui = LineProcess::start(command);
    gui.send("uci");
    let options = gui.until("uciok", |l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name UCI_Chess960 ")),
        "{options:?}"
    );
    gui.send("setoption name UCI_Chess960 value true");
    gui.send("ucinewgame");
    gui.send("isready");
    gui.wait_for(|l| l == "readyok");
    let mut replay = Replay::new(root());
    let mut moves: Vec<String> = Vec::new();
    while replay.endings().is_empty() {
        assert!(moves.len() < 1000, "no end after 1000 plies");
        if moves.is_empty() {
            gui.send("position startpos");
        } else {
            gui.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        let best = bestmove(&mut gui, "go depth 2");
        replay.play(&best);
        moves.push(best);
    }
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(20)).success());
    let transcript = std::fs::read_to_string(home.join("game.log")).unwrap();
    let fen = start_fen(start(), CastlingNotation::Shredder).unwrap();
    let first = transcript
        .lines()
        .find(|l| l.contains(" proxy>engine ") && l.contains(" position "))
        .unwrap_or_else(|| panic!("no position sent in the transcript:\n{transcript}"));
    assert!(
        first.contains(" proxy>engine rewritten ")
            && first.ends_with(&format!(" position fen {fen}")),
        "{first}"
    );
    assert!(!elsewhere.join("game.log").exists());
    eprintln!(
        "launcher game from SP {SP}: {} plies, ended by {:?}",
        moves.len(),
        replay.endings()
    );
}

/// An XBoard GUI: SP 860 set up with `variant fischerandom` and `setboard`, the GUI castles
/// with `O-O` as xboard writes it, the engine answers a legal move, and an illegal move is
/// refused with the engine still answering.
#[test]
fn xboard_gui_through_the_proxy_castles_with_o_o() {
    let (castle_position, castles) = after_line();
    let castle = castles
        .iter()
        .find(|m| matches!(m, Move::Castle { king, rook } if king < rook))
        .expect("kingside castling");
    let mut after_castle = castle_position.clone();
    after_castle.play_unchecked(*castle);
    let fen = start_fen(start(), CastlingNotation::Shredder).unwrap();
    let mut gui = proxy(&[]);
    gui.send("xboard");
    gui.send("protover 2");
    gui.wait_for(|l| l.contains("done=1"));
    gui.send("new");
    gui.send("variant fischerandom");
    gui.send("force");
    gui.send(&format!("setboard {fen}"));
    for text in LINE.split(' ') {
        gui.send(&format!("usermove {text}"));
    }
    gui.send("usermove O-O");
    gui.send("ping 1");
    let answered = gui.until("pong 1", |l| l == "pong 1");
    assert!(
        !answered
            .iter()
            .any(|l| l.starts_with("Illegal move") || l.starts_with("Error")),
        "{answered:?}"
    );
    gui.send("sd 2");
    gui.send("go");
    let reply = gui.wait_for(|l| l.starts_with("move "));
    let text = reply.trim_start_matches("move ").trim();
    parse_move(&after_castle, text.as_bytes())
        .unwrap_or_else(|err| panic!("{text} is not legal after O-O: {err}"));
    gui.send("force");
    gui.send("usermove a1a8");
    gui.wait_for(|l| l.starts_with("Illegal move"));
    gui.send("ping 2");
    gui.wait_for(|l| l == "pong 2");
    gui.send("quit");
    assert!(gui.wait(Duration::from_secs(20)).success());
}

/// `sp960 match` of the built-in engine against itself on `starts`, depth 2, one game at a
/// time, into `pgn`.
fn builtin_match(starts: &str, pgn: &Path) -> Command {
    let mut command = Command::new(sp960());
    command
        .args([
            "match",
            "--sp",
            starts,
            "--depth",
            "2",
            "--concurrency",
            "1",
            "--pgn",
        ])
        .arg(pgn);
    command
}

/// `sp960 match` of the built-in engine against itself: two games of SP 860, both colours,
/// each ended by the rules, in a PGN whose games start from SP 860. (python-chess replays
/// this PGN in tests/match_runner.rs on Linux, and in scripts/test-windows.sh for the
/// Windows build.)
#[test]
fn a_match_of_the_builtin_engine_writes_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let output = builtin_match(SP, &pgn).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("(2 games appended)"), "{stdout}");
    let games = std::fs::read_to_string(Path::new(&pgn)).unwrap();
    let fen = start_fen(start(), CastlingNotation::Shredder).unwrap();
    assert_eq!(games.matches("[Event ").count(), 2, "{games}");
    assert_eq!(
        games.matches(&format!("[FEN \"{fen}\"]")).count(),
        2,
        "{games}"
    );
    assert_eq!(
        games.matches("[Termination \"normal\"]").count(),
        2,
        "{games}"
    );
}

/// One writer per PGN: while a match runs, a second `sp960 match` on its PGN stops at once
/// (exit 2) naming the file and, where the system lets its id be read (not Windows), the
/// process; after the first is killed outright (SIGKILL, TerminateProcess), the next match
/// takes its lock over with a note naming it, plays, and leaves no lock file behind.
#[test]
fn a_second_match_on_a_pgn_is_refused_and_a_killed_ones_lock_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let mut first = builtin_match("0-959", &pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let began = std::time::Instant::now();
    while !std::fs::read_to_string(&pgn)
        .unwrap_or_default()
        .contains("[Event ")
    {
        assert!(began.elapsed() < Duration::from_secs(60), "no game written");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = builtin_match(SP, &pgn).output().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "PGN file '{}' is being written by another sp960 match",
            pgn.display()
        )),
        "{stderr}"
    );
    if cfg!(unix) {
        assert!(
            stderr.contains(&format!("(process {}, ", first.id())),
            "{stderr}"
        );
    }
    let resumed = builtin_match("0-959", &pgn)
        .arg("--resume")
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(2), "--resume is refused too");
    let pid = first.id();
    first.kill().unwrap();
    first.wait().unwrap();
    let third = builtin_match(SP, &pgn).output().unwrap();
    let stderr = String::from_utf8_lossy(&third.stderr);
    assert!(third.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "note: taking over the lock of {} left by process {pid}",
            pgn.display()
        )),
        "{stderr}"
    );
    assert!(
        !dir.path().join("games.pgn.lock").exists(),
        "a match that ends removes its lock"
    );
}

/// `--runner fastchess` finds the runner on PATH as the platform's shell does: `fastchess`
/// on Unix, `fastchess.exe` through `PATHEXT` on Windows. A copy of sp960 stands in for the
/// runner: it refuses fastchess's arguments, which shows it was found and started.
#[test]
fn the_runner_is_found_on_path_as_the_shell_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = |path: &Path| {
        Command::new(sp960())
            .env("PATH", path)
            .args(["match", "--runner", "fastchess", "--sp", SP, "--depth", "1"])
            .arg("--pgn")
            .arg(dir.path().join("games.pgn"))
            .output()
            .unwrap()
    };
    let missing = run(dir.path());
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(
        said.contains("fastchess") && said.contains("not found"),
        "{said}"
    );
    let name = if cfg!(windows) {
        "fastchess.exe"
    } else {
        "fastchess"
    };
    copy_sp960(&dir.path().join(name));
    let found = run(dir.path());
    let said = String::from_utf8_lossy(&found.stderr);
    assert!(!said.contains("not found"), "{said}");
    assert!(said.contains("fastchess"), "{said}");
    assert!(!found.status.success(), "{said}");
}

/// An engine whose path has spaces, named in `--engine` the platform's way (on Windows with
/// backslashes), plays its games: the spec is split as the platform's shell splits.
#[test]
fn engine_paths_with_spaces_and_the_platforms_separators() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("Chess Engines");
    std::fs::create_dir(&folder).unwrap();
    let program = folder.join(if cfg!(windows) {
        "my engine.exe"
    } else {
        "my engine"
    });
    copy_sp960(&program);
    let mut shown = program.display().to_string();
    if cfg!(windows) {
        shown = shown.replace('/', "\\");
        assert!(shown.contains('\\'), "{shown}");
    }
    let pgn = dir.path().join("games.pgn");
    let output = Command::new(sp960())
        .arg("match")
        .arg("--engine")
        .arg(format!("\"cmd={shown}\" arg=engine name=Spaced"))
        .args(["--sp", SP, "--depth", "1", "--concurrency", "1", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("\"Spaced\"]").count(), 2, "{games}");
}

/// Windows GUIs, engines and editors end lines with CRLF: the proxy answers CRLF commands
/// and forwards what it does not change byte for byte, `\r` included; validate reports the
/// same errors at the same columns; a CRLF opening book plays the same starts.
#[test]
fn crlf_lines_are_read_everywhere() {
    // The proxy before the built-in engine, every command ending in CRLF.
    let mut gui = proxy(&[]);
    gui.send("uci\r");
    gui.wait_for(|l| l == "uciok");
    gui.send("isready\r");
    gui.wait_for(|l| l == "readyok");
    gui.send("position startpos moves e2e4\r");
    let reply = bestmove(&mut gui, "go depth 2\r");
    let mut position = Chess::default();
    position.play_unchecked(parse_move(&position, b"e2e4").unwrap());
    parse_move(&position, reply.as_bytes()).unwrap();
    gui.send("quit\r");
    assert!(gui.wait(Duration::from_secs(20)).success());

    // validate: the same reports for LF and CRLF files.
    let dir = tempfile::tempdir().unwrap();
    let lf = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n\
              rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNB w EAea - 0 1\n\
              rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1\n";
    let validate = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let output = Command::new(sp960())
            .current_dir(dir.path())
            .args(["validate", name])
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    let (lf_code, lf_report) = validate("lf.fen", lf);
    let (crlf_code, crlf_report) = validate("crlf.fen", &lf.replace('\n', "\r\n"));
    assert_eq!(lf_code, Some(1));
    assert!(lf_report.starts_with("lf.fen:2:"), "{lf_report}");
    assert_eq!(crlf_code, lf_code);
    assert_eq!(crlf_report.replace("crlf.fen", "lf.fen"), lf_report);

    // A CRLF EPD book of two starts: both are played, with both colours.
    let book = dir.path().join("book.epd");
    let epd = Command::new(sp960())
        .args(["book", "0", "959"])
        .output()
        .unwrap()
        .stdout;
    let epd = String::from_utf8(epd).unwrap().replace('\n', "\r\n");
    std::fs::write(&book, epd).unwrap();
    let pgn = dir.path().join("games.pgn");
    let output = Command::new(sp960())
        .args(["match", "--depth", "1", "--concurrency", "1", "--openings"])
        .arg(format!("file={}", book.display()))
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    for sp in [0, 959] {
        let fen = start_fen(
            parse_spec(&sp.to_string()).unwrap()[0],
            CastlingNotation::Shredder,
        );
        let tag = format!("[FEN \"{}\"]", fen.unwrap());
        assert_eq!(games.matches(&tag).count(), 2, "SP {sp}: {games}");
    }
}

/// What the proxy does not change reaches the other side byte for byte, CRLF included:
/// `cat` as the engine echoes the GUI's `uci\r\n`, and the GUI gets it back unchanged.
#[cfg(unix)]
#[test]
fn untouched_crlf_lines_pass_byte_for_byte() {
    let mut child = Command::new(sp960())
        .args(["proxy", "--protocol", "uci", "--", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"uci\r\n").unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.stdout.starts_with(b"uci\r\n"), "{:?}", output.stdout);
}

/// A proxy killed outright leaves no engine behind, even one that ignores the end of its
/// input: Linux sends it SIGTERM (`PR_SET_PDEATHSIG`), Windows closes the proxy's job object.
/// The engine inherited the proxy's stderr, so that pipe ends only once the engine is gone
/// too. (macOS has neither: there an engine quits when its input ends, and this one would
/// not, so the test does not run there or with the `portable-io` feature.)
#[cfg(any(windows, all(target_os = "linux", not(feature = "portable-io"))))]
#[test]
fn a_killed_proxy_leaves_no_engine_behind() {
    use std::io::{BufRead, BufReader, Read, Write};
    let engine = fake_engine();
    let mut proxy = Command::new(sp960())
        .arg("proxy")
        .arg("--")
        .arg(&engine)
        .arg("deaf")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = proxy.stdin.take().unwrap();
    stdin.write_all(b"uci\n").unwrap();
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(proxy.stdout.take().unwrap());
    let mut line = String::new();
    while line.trim_end() != "uciok" {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "no uciok");
    }
    let mut stderr = proxy.stderr.take().unwrap();
    let (ended, end) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = stderr.read_to_end(&mut rest);
        let _ = ended.send(());
    });
    proxy.kill().unwrap();
    proxy.wait().unwrap();
    assert!(
        end.recv_timeout(Duration::from_secs(20)).is_ok(),
        "the engine outlived the killed proxy"
    );
}

/// The line `sp960 tournament --shell` writes, run by that shell, hands the runner the words
/// sp960 planned: sh on Unix, cmd.exe on Windows (a batch file, under Wine in CI). The
/// scripted engine stands in for the runner and prints the words it got; the planned words
/// are the `--shell sh` line read back by POSIX rules.
#[test]
fn tournament_lines_reach_the_runner_as_planned() {
    let runner = fake_engine();
    let dir = tempfile::tempdir().unwrap();
    let line = |shell: &str| {
        let output = Command::new(sp960())
            .current_dir(dir.path())
            .args([
                "tournament",
                "--emit",
                "cutechess",
                "--sp",
                "860",
                "--shell",
                shell,
            ])
            .args(["--engine", "cmd=stockfish"])
            .args(["--engine", r#"cmd=toga2 "name=Toga \"II\" & it's""#])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let planned = shlex::split(&line("sh").replace(" \\\n  ", " ")).unwrap();
    assert_eq!(planned[0], "cutechess-cli");
    assert!(
        planned.contains(&r#"name=Toga "II" & it's"#.to_owned()),
        "{planned:?}"
    );
    let shell = if cfg!(windows) { "cmd" } else { "sh" };
    let written = line(shell);
    let program = runner.display().to_string();
    let script = written.replacen("cutechess-cli", &format!("\"{program}\" args"), 1);
    let (file, mut command) = if cfg!(windows) {
        let file = dir.path().join("line.bat");
        let mut command = Command::new("cmd");
        command.arg("/c").arg(&file);
        (file, command)
    } else {
        let file = dir.path().join("line.sh");
        let mut command = Command::new("sh");
        command.arg(&file);
        (file, command)
    };
    // A batch file echoes its commands unless told not to.
    let script = if cfg!(windows) {
        format!("@echo off\n{script}")
    } else {
        script
    };
    std::fs::write(&file, &script).unwrap();
    let output = command.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let got: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end_matches('\r').to_owned())
        .collect();
    assert_eq!(got, planned[1..], "{shell} line:\n{written}");
}

/// An engine that faults mid-search is reported to the GUI as the OS tells it: SIGSEGV on
/// Unix, the access violation on Windows (its NTSTATUS and name), and the proxy exits with
/// the shell's status for it (128 + 11 on Unix, 255 on Windows).
#[test]
fn an_engine_fault_is_told_as_the_platform_tells_it() {
    let engine = fake_engine();
    let mut gui = LineProcess::spawn(
        sp960(),
        &["proxy", "--", engine.to_str().unwrap(), "fault-on-go"],
        Stdio::null(),
    );
    gui.send("uci");
    gui.wait_for(|l| l == "uciok");
    gui.send("position startpos");
    gui.send("go infinite");
    let told = gui.wait_for(|l| l.starts_with("info string sp960: the engine"));
    let code = if cfg!(windows) {
        // Real Windows reports 0xC0000005 (access violation); Wine, which has no debugger to
        // hand the fault to, 0xC0000354. Either is an exception, told by its NTSTATUS.
        assert!(
            told.starts_with(
                "info string sp960: the engine crashed unexpectedly with exception 0xC0"
            ),
            "{told}"
        );
        255
    } else {
        assert_eq!(
            told,
            "info string sp960: the engine died unexpectedly from signal 11"
        );
        128 + 11
    };
    assert_eq!(gui.wait(Duration::from_secs(10)).code(), Some(code));
}
