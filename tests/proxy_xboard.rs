//! `sp960 proxy` for XBoard engines against the real Debian programs: Sjaak II and
//! Fairy-Stockfish 11.1 (XBoard mode) driven line by line, xboard 4.9.1 under Xvfb, and
//! python-chess's XBoard client. Moves are checked with shakmaty; every wait has a
//! timeout; searches are shallow.

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;

use shakmaty::{Chess, Move, Position};
use sp960::Start;
use sp960::parse_fen;
use sp960::parse_xboard_move;

const SJAAK: &str = "/usr/games/sjaakii";
const FAIRY: &str = "/usr/games/fairy-stockfish";
/// The XBoard engines with their arguments: Sjaak II, Fairy-Stockfish 11.1 (XBoard mode when
/// it hears `xboard`) and Stockfish 15.1 behind polyglot.
const ENGINES: [&[&str]; 3] = [
    &[SJAAK],
    &[FAIRY],
    &[
        "/usr/games/polyglot",
        "-noini",
        "-ec",
        "/usr/games/stockfish",
    ],
];

#[path = "support/peers.rs"]
mod peers;
#[path = "support/process.rs"]
mod process;
use peers::Peer;
use process::{LineProcess, WAIT, replay_games, run_python_client, sp960};

/// The proxy (or an engine), spoken to line by line as an XBoard GUI does.
struct Gui {
    process: LineProcess,
    /// The engine asked for `usermove`.
    usermove: bool,
}

impl Deref for Gui {
    type Target = LineProcess;
    fn deref(&self) -> &LineProcess {
        &self.process
    }
}

impl DerefMut for Gui {
    fn deref_mut(&mut self) -> &mut LineProcess {
        &mut self.process
    }
}

impl Gui {
    fn spawn(program: &str, args: &[&str]) -> Gui {
        Gui {
            process: LineProcess::spawn(program, args, Stdio::null()),
            usermove: false,
        }
    }

    /// `sp960 proxy ARGS -- ENGINE`, after the handshake.
    fn proxy(args: &[&str], engine: &[&str]) -> Gui {
        let mut all = vec!["proxy"];
        all.extend_from_slice(args);
        all.push("--");
        all.extend_from_slice(engine);
        let mut gui = Gui::spawn(sp960(), &all);
        gui.send("xboard");
        gui.send("protover 2");
        gui.wait_for(|line| line.starts_with("feature") && line.contains("done=1"));
        gui.usermove = gui
            .seen
            .iter()
            .any(|line| line.starts_with("feature") && line.contains("usermove=1"));
        gui
    }

    /// Sends a move as this engine wants it (with `usermove ` if it asked).
    fn send_move(&mut self, text: &str) {
        let line = if self.usermove {
            format!("usermove {text}")
        } else {
            text.to_owned()
        };
        self.send(&line);
    }

    /// `ping n` / `pong n`: everything the engine had to say before is read.
    fn sync(&mut self, n: u32) {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        self.wait_for(|line| line.trim() == pong);
    }

    /// The `move` the engine plays next.
    fn engine_move(&mut self) -> String {
        let line = self.wait_for(|line| line.starts_with("move "));
        line["move ".len()..].trim().to_owned()
    }

    /// Lines with which the engine (or the proxy) rejected something.
    fn errors(&self) -> Vec<&String> {
        self.seen
            .iter()
            .filter(|line| line.starts_with("Error") || line.starts_with("Illegal move"))
            .collect()
    }

    /// Waits (bounded) for the process to exit on its own.
    fn exit_status(&mut self) -> ExitStatus {
        self.wait(WAIT)
    }

    /// `quit`, then the proxy must exit with status 0.
    fn quit(mut self) {
        self.send("quit");
        drop(self.stdin.take());
        let status = self.exit_status();
        assert!(status.success(), "proxy exit status {status}");
    }
}

fn legal(position: &Chess, text: &str) -> Move {
    parse_xboard_move(position, text.as_bytes())
        .unwrap_or_else(|err| panic!("{err} in {position:?}"))
}

#[test]
fn every_start_set_through_the_gui_option_gives_a_legal_first_move() {
    if !peers::need(&[
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::Polyglot,
        Peer::Stockfish,
    ]) {
        return;
    }
    let starts: Vec<Start> = ["0", "518", "860", "959", "0:959", "331:700"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut handles = Vec::new();
    for engine in ENGINES {
        let starts = starts.clone();
        handles.push(thread::spawn(move || {
            let mut gui = Gui::proxy(&[], engine);
            assert!(
                gui.seen
                    .iter()
                    .any(|line| line == "feature option=\"SP960_Start -spin -1 -2 959\""),
                "{engine:?}: {:?}",
                gui.seen
            );
            for start in starts {
                gui.send(&format!("option SP960_Start={}", start.white.number()));
                gui.send(&format!("option SP960_BlackStart={}", start.black.number()));
                gui.send("new");
                gui.send("sd 3");
                gui.send("go");
                let text = gui.engine_move();
                let position = start.position().unwrap();
                let m = legal(&position, &text);
                // A white piece of this start moved: the engine's board is the start's.
                let from = m.from().expect("a board move");
                assert_eq!(
                    position.board().color_at(from),
                    Some(shakmaty::Color::White)
                );
            }
            assert_eq!(gui.errors(), Vec::<&String>::new(), "{engine:?}");
            gui.quit();
        }));
    }
    for handle in handles {
        handle.join().unwrap();
    }
}

/// SP 860 lines: L1 lets both sides castle king-side (O-O: king c1 -> g1, rook e1 -> f1),
/// L2 queen-side (O-O-O: the king stays on c1, rook a1 -> d1). After the castlings, rook
/// moves from the rooks' new squares prove the engine castled on its own board.
const L1: &str = "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7";
const L2: &str = "d1e3 d8e6 c2c3 c7c6 b1c2 b8c7";

#[test]
fn gui_castling_is_accepted_for_both_sides_both_ways() {
    if !peers::need(&[
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::Polyglot,
        Peer::Stockfish,
    ]) {
        return;
    }
    let mut handles = Vec::new();
    for engine in ENGINES {
        handles.push(thread::spawn(move || {
            let mut gui = Gui::proxy(&["--sp", "860"], engine);
            // After the castlings, a rook move only legal where the rook now stands: an
            // engine that did not castle on its own board rejects it.
            for (n, (line, castle, proof)) in [
                (L1, "O-O", &["f1e1", "f8e8"][..]),
                (L2, "O-O-O", &["c1b1", "c8b8", "d1c1", "d8c8"]),
            ]
            .into_iter()
            .enumerate()
            {
                gui.send("new");
                gui.send("force");
                let mut position = "860".parse::<Start>().unwrap().position().unwrap();
                let moves: Vec<&str> = line
                    .split(' ')
                    .chain([castle, castle])
                    .chain(proof.iter().copied())
                    .collect();
                for text in moves {
                    position.play_unchecked(legal(&position, text));
                    gui.send_move(text);
                }
                gui.sync(n as u32 + 1);
                assert_eq!(gui.errors(), Vec::<&String>::new(), "{engine:?} {castle}");
                gui.send("sd 3");
                gui.send("go");
                let reply = gui.engine_move();
                legal(&position, &reply);
            }
            gui.quit();
        }));
    }
    for handle in handles {
        handle.join().unwrap();
    }
}

/// Mates that only castling gives (from the research notes): the engine must castle.
const CASTLING_MATES: [(&str, &str); 4] = [
    ("8/2B5/4Q3/8/8/5k2/8/RK5R w HA - 0 1", "O-O"),
    ("2rkr3/2p1p3/8/8/8/8/PP6/RK3B1R w HA - 0 1", "O-O-O"),
    ("rk5r/8/5K2/8/8/4q3/2b5/8 b ha - 0 1", "O-O"),
    ("rk3b1r/pp6/8/8/8/8/2P1P3/2RKR3 b ha - 0 1", "O-O-O"),
];

#[test]
fn engines_castle_and_the_gui_gets_a_form_it_reads() {
    if !peers::need(&[
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::Polyglot,
        Peer::Stockfish,
    ]) {
        return;
    }
    let mut handles = Vec::new();
    for engine in ENGINES {
        handles.push(thread::spawn(move || {
            let mut gui = Gui::proxy(&[], engine);
            for (fen, side) in CASTLING_MATES {
                gui.send("new");
                gui.send("variant fischerandom");
                gui.send("force");
                gui.send(&format!("setboard {fen}"));
                gui.send("sd 2");
                gui.send("go");
                let text = gui.engine_move();
                let (position, _) = parse_fen(fen).unwrap();
                let m = legal(&position, &text);
                let expected = parse_xboard_move(&position, side.as_bytes()).unwrap();
                assert_eq!(m, expected, "{engine:?}: {fen}: {text}");
                // O-O or king takes rook: both read by xboard, cutechess and python-chess.
                assert!(
                    text.starts_with("O-O") || text[2..4] == fen_rook_square(&m),
                    "{engine:?}: {text}"
                );
            }
            assert_eq!(gui.errors(), Vec::<&String>::new(), "{engine:?}");
            gui.quit();
        }));
    }
    for handle in handles {
        handle.join().unwrap();
    }
}

fn fen_rook_square(m: &Move) -> String {
    match *m {
        Move::Castle { rook, .. } => rook.to_string(),
        _ => panic!("not castling: {m:?}"),
    }
}

#[test]
fn the_shield_answers_for_the_engine_which_stays_alive() {
    if !peers::need(&[Peer::FairyStockfish, Peer::SjaakII]) {
        return;
    }
    for engine in [&[SJAAK][..], &[FAIRY]] {
        let mut gui = Gui::proxy(&[], engine);
        gui.send("new");
        gui.send("force");
        gui.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
        let refusal = gui.wait_for(|line| line.starts_with("Error"));
        assert!(
            refusal.starts_with("Error (illegal position, not sent to the engine: bad FEN"),
            "{refusal}"
        );
        gui.send_move("e2e4");
        let refusal = gui.wait_for(|line| line.starts_with("Illegal move"));
        assert!(refusal.contains("setboard was refused"), "{refusal}");
        gui.send("new");
        gui.send("force");
        gui.send_move("e2e5");
        let refusal = gui.wait_for(|line| line.starts_with("Illegal move"));
        assert!(refusal.ends_with(": e2e5"), "{refusal}");
        gui.send_move("e2e4");
        gui.sync(1);
        // Only the proxy's three answers: the engine never saw a bad line.
        assert_eq!(gui.errors().len(), 3, "{engine:?}: {:?}", gui.errors());
        gui.send("sd 2");
        gui.send("go");
        let reply = gui.engine_move();
        let mut position = Chess::default();
        position.play_unchecked(legal(&position, "e2e4"));
        legal(&position, &reply);
        gui.quit();
    }
}

/// Without the proxy, Sjaak II reads the adjacent digits of `1b1p111B` (three empty squares,
/// which shakmaty accepts) as 111 empty squares and sets up another board, as its `fen`
/// command shows; through the proxy it gets the FEN as shakmaty writes it (`1b1p3B`) and
/// has the GUI's board.
#[test]
fn sjaak_alone_misreads_a_fen_with_adjacent_digits() {
    if !peers::need(&[Peer::SjaakII]) {
        return;
    }
    let fen = "4k3/8/8/8/8/8/1b1p111B/4K3 w - - 0 1";
    let mut engine = Gui::spawn(SJAAK, &[]);
    for line in ["xboard", "protover 2", "new", "force"] {
        engine.send(line);
    }
    engine.send(&format!("setboard {fen}"));
    engine.send("fen");
    let misread = engine.wait_for(|line| line.starts_with("4k3/"));
    assert_eq!(misread, "4k3/8/8/1B6/8/6K1/1b1p4/8 w - - 0 1");
    engine.send("quit");

    let mut gui = Gui::proxy(&[], &[SJAAK]);
    gui.send("new");
    gui.send("force");
    gui.send(&format!("setboard {fen}"));
    gui.send("fen");
    let read = gui.wait_for(|line| line.starts_with("4k3/"));
    assert_eq!(read, "4k3/8/8/8/8/8/1b1p3B/4K3 w - - 0 1");
    gui.sync(1);
    gui.quit();
}

/// Sjaak II 1.4.1 reads `=f5` (and `f5=`, `=f7f5`) as the move f5 and plays on, where the
/// GUI's board has no move (hostile_gui seed 11060597144664119042: the engine then moved out
/// of turn). Through the proxy such a line is refused as an illegal move and the engine's
/// board stays as the GUI's.
#[test]
fn sjaak_alone_plays_a_move_wrapped_in_equals_signs() {
    if !peers::need(&[Peer::SjaakII]) {
        return;
    }
    let fen = "rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR b KQkq - 0 1";
    for text in ["=f5", "f5=", "=f7f5"] {
        let mut engine = Gui::spawn(SJAAK, &[]);
        for line in ["xboard", "protover 2", "new", "force"] {
            engine.send(line);
        }
        engine.send(&format!("setboard {fen}"));
        engine.send(text);
        engine.send("fen");
        let played = engine.wait_for(|line| line.starts_with("rnbqkbnr/"));
        assert_eq!(
            played, "rnbqkbnr/ppppp1pp/8/5p2/1P6/8/P1PPPPPP/RNBQKBNR w KQkq f6 0 2",
            "{text}"
        );
        engine.send("quit");

        let mut gui = Gui::proxy(&[], &[SJAAK]);
        gui.send("new");
        gui.send("force");
        gui.send(&format!("setboard {fen}"));
        gui.send(text);
        gui.send("fen");
        let kept = gui.wait_for(|line| line.starts_with("rnbqkbnr/"));
        assert_eq!(kept, fen, "{text}");
        assert!(
            gui.errors()
                .iter()
                .any(|line| line.starts_with("Illegal move (not a move: '=' around it)")),
            "{text}: {:?}",
            gui.errors()
        );
        gui.sync(1);
        gui.quit();
    }
}

/// In normal chess (no `variant fischerandom`) Fairy-Stockfish 11.1 keeps no castling right
/// that only Chess960 has: after `setboard` with `KQkq` and the king on c1 it refuses the
/// long castling `c1a1` as an unknown command. Through the proxy the right is dropped for
/// both, so the GUI's `O-O-O` is refused by the proxy, and the engine then plays a legal
/// move in the position the proxy follows.
#[test]
fn in_normal_chess_fairy_stockfish_has_no_chess960_castling_rights() {
    if !peers::need(&[Peer::FairyStockfish]) {
        return;
    }
    let fen = "rqbkrb2/1pp1pnpp/8/p2p1p2/3PnP1P/P1N3P1/1PP1P1Q1/R1KRN1BB w KQkq - 0 10";
    let mut engine = Gui::spawn(FAIRY, &[]);
    for line in ["xboard", "protover 2", "new", "force"] {
        engine.send(line);
    }
    engine.send(&format!("setboard {fen}"));
    for line in ["usermove d1d2", "usermove b7b6", "usermove c1a1"] {
        engine.send(line);
    }
    engine.send("ping 1");
    engine.wait_for(|line| line.trim() == "pong 1");
    assert!(
        engine
            .seen
            .iter()
            .any(|line| line.trim() == "Error (unkown command): c1a1"),
        "{:?}",
        engine.seen
    );
    engine.send("quit");

    let mut gui = Gui::proxy(&[], &[FAIRY]);
    gui.send("new");
    gui.send("force");
    gui.send(&format!("setboard {fen}"));
    for text in ["Rd2", "b6", "O-O-O"] {
        gui.send_move(text);
    }
    gui.sync(1);
    assert!(
        gui.seen
            .iter()
            .any(|line| line.starts_with("# sp960: castling rights only Chess960 has dropped")),
        "{:?}",
        gui.seen
    );
    let errors = gui.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("Illegal move (not legal in"),
        "{errors:?}"
    );
    assert!(errors[0].ends_with(": O-O-O"), "{errors:?}");
    gui.send("go");
    let played = gui.engine_move();
    let after = "rqbkrb2/2p1pnpp/1p6/p2p1p2/3PnP1P/P1N3P1/1PPRP1Q1/R1K1N1BB w - - 0 11";
    let position: Chess = after
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Chess960)
        .unwrap();
    legal(&position, &played);
    gui.quit();
}

/// Without the proxy, Fairy-Stockfish 11.1 dies from SIGSEGV on the first `go` after
/// `cores 1` (the reason the proxy does not pass `cores` on), and from SIGABRT on a huge
/// `level`.
#[cfg(unix)] // signals
#[test]
fn fairy_stockfish_alone_dies_on_go_after_cores() {
    if !peers::need(&[Peer::FairyStockfish]) {
        return;
    }
    let mut engine = Gui::spawn(FAIRY, &[]);
    for line in [
        "xboard",
        "protover 2",
        "new",
        "cores 1",
        "sd 2",
        "go",
        "ping 1",
    ] {
        engine.send(line);
    }
    drop(engine.stdin.take());
    let status = engine.exit_status();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(11),
        "SIGSEGV expected, got {status:?}"
    );
    // And from SIGABRT on a level beyond 2^31 ms (the proxy refuses it).
    let mut engine = Gui::spawn(FAIRY, &[]);
    for line in [
        "xboard",
        "protover 2",
        "new",
        "level 40 99999999999 0",
        "go",
        "ping 1",
    ] {
        engine.send(line);
    }
    drop(engine.stdin.take());
    let status = engine.exit_status();
    assert_eq!(status.signal(), Some(6), "SIGABRT expected, got {status:?}");
}

/// Inputs on which Fairy-Stockfish 11.1 dies without the proxy (SIGSEGV after `cores`,
/// after an `undo` past a `setboard`; SIGABRT on a huge `level`) and on which it plays into
/// the next game (`undo` outside force mode): through the proxy both engines stay alive and
/// every move they play is legal.
#[test]
fn crashing_xboard_commands_are_answered_and_the_engines_stay_alive() {
    if !peers::need(&[Peer::FairyStockfish, Peer::SjaakII]) {
        return;
    }
    for engine in [&[SJAAK][..], &[FAIRY]] {
        let mut gui = Gui::proxy(&[], engine);
        gui.send("new");
        gui.send("cores 1");
        gui.send("level 40 99999999999 0");
        gui.send("sd 2");
        gui.send("force");
        gui.send("setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        gui.send("undo");
        gui.sync(1);
        let errors: Vec<String> = gui.errors().into_iter().cloned().collect();
        assert_eq!(errors.len(), 2, "{engine:?}: {errors:?}");
        assert!(
            errors[0].starts_with("Error (level out of range"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("Error (cannot take back 1 moves"),
            "{errors:?}"
        );
        gui.send("go");
        let reply = gui.engine_move();
        let (mut position, _) =
            sp960::parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .unwrap();
        position.play_unchecked(legal(&position, &reply));
        // Outside force mode: undo is refused, the engine does not play again.
        gui.send("undo");
        gui.sync(2);
        assert_eq!(gui.errors().len(), 3, "{engine:?}: {:?}", gui.errors());
        let moves = gui.seen.iter().filter(|l| l.starts_with("move ")).count();
        assert_eq!(moves, 1, "{engine:?}: {:?}", gui.seen);
        gui.quit();
    }
}

// ---- a real GUI: xboard 4.9.1 under Xvfb ----

/// An opening for SP 860 in which both sides castle (xboard sends the engines `O-O`).
const OPENING: &str = "[Event \"sp960 test\"]\n[Variant \"fischerandom\"]\n[SetUp \"1\"]\n\
[FEN \"rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1\"]\n[Result \"*\"]\n\n\
1. Nde3 Nde6 2. Ng3 Ng6 3. f4 f5 4. Bf2 Bf7 5. O-O O-O *\n";

struct XboardRun {
    pgn: String,
    debug: String,
}

/// A two-game xboard match from SP 860, Sjaak II first, `second` as the second engine,
/// starting with [`OPENING`].
fn xboard_match(name: &str, second: &str) -> XboardRun {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("xboard-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("opening.pgn"), OPENING).unwrap();
    let status = Command::new("timeout")
        .args(["-k", "5", "150", "xvfb-run", "-a", "xboard"])
        .args(["-variant", "fischerandom", "-defaultFrcPosition", "860"])
        .args(["-matchGames", "2", "-matchPause", "100"])
        .args(["-fcp", SJAAK, "-scp", second])
        // The time control, real clocks (no depth limit): a loss on time would show.
        // xboard calls a fallen flag itself (otherwise it waits for a claim: a desynced
        // engine that no longer moves would hang the match).
        .args(["-tc", "0:10", "-inc", "0.1", "-autoCallFlag", "true"])
        .args(["-lgf", "opening.pgn", "-lgi", "1"])
        // Bounds the run (about 25 s typical, 70 s at most).
        .args(["-adjudicateDrawMoves", "60"])
        .args(["-xexit", "-saveSettingsOnExit", "false", "-noGUI"])
        .args([
            "-debug",
            "-nameOfDebugFile",
            "xboard.debug",
            "-sgf",
            "games.pgn",
        ])
        .env(
            "PATH",
            format!("/usr/games:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("timeout, xvfb-run and xboard are installed (scripts/test.sh installs them)");
    assert!(status.success(), "{name}: xboard {status}");
    XboardRun {
        pgn: std::fs::read_to_string(dir.join("games.pgn")).unwrap_or_default(),
        debug: std::fs::read_to_string(dir.join("xboard.debug")).unwrap_or_default(),
    }
}

/// Lines the second engine sent that reject something xboard sent it.
fn second_engine_errors(debug: &str) -> Vec<&str> {
    debug
        .lines()
        .filter(|line| line.contains("<second") || line.contains("< second"))
        .filter(|line| line.contains("Error") || line.contains("Illegal move"))
        .collect()
}

fn replay(pgn: &str, name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-replay.pgn"));
    std::fs::write(&path, pgn).unwrap();
    replay_games(&path)
}

#[test]
fn xboard_plays_fairy_stockfish_through_the_proxy_and_fails_without() {
    if !peers::need(&[
        Peer::Xboard,
        Peer::Xvfb,
        Peer::SjaakII,
        Peer::FairyStockfish,
        Peer::PythonChess,
    ]) {
        return;
    }
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xboard-proxy.log");
    let _ = std::fs::remove_file(&log);
    let proxied = format!("{} proxy --log {} -- {FAIRY}", sp960(), log.display());
    let baseline = thread::spawn(|| xboard_match("direct", FAIRY));
    let through = xboard_match("proxy", &proxied);
    let baseline = baseline.join().unwrap();

    // Through the proxy: whole games, castling in both (xboard sent `usermove O-O`),
    // nothing rejected, nobody lost on time, python-chess replays the PGN.
    let errors = second_engine_errors(&through.debug);
    assert!(errors.is_empty(), "{errors:?}");
    // xboard's debug file splits `usermove ` from the move: the proxy's log shows both.
    let transcript = std::fs::read_to_string(&log).unwrap();
    let logged = |label: &str, text: &str| {
        transcript
            .lines()
            .filter(|line| line.contains(label) && line.ends_with(&format!(" {text}")))
            .count()
    };
    assert_eq!(logged("gui>proxy ", "usermove O-O"), 4, "{transcript}");
    assert_eq!(logged("proxy>engine rewritten", "usermove c1e1"), 2);
    assert_eq!(logged("proxy>engine rewritten", "usermove c8e8"), 2);
    let games = replay(&through.pgn, "proxy");
    assert_eq!(games.lines().count(), 2, "{}", through.pgn);
    for game in games.lines() {
        let plies: usize = game.rsplit('\t').next().unwrap().parse().unwrap();
        assert!(plies > 20, "a whole game after the opening: {game}");
    }
    assert_eq!(through.pgn.matches("O-O O-O").count(), 2, "{}", through.pgn);
    let results = [
        "[Result \"1-0\"]",
        "[Result \"0-1\"]",
        "[Result \"1/2-1/2\"]",
    ];
    let finished: usize = results.iter().map(|r| through.pgn.matches(r).count()).sum();
    assert_eq!(finished, 2, "{}", through.pgn);
    // No result by time (xboard writes "... loses on time" / "... wins on time") or by an
    // illegal move.
    for line in through.pgn.lines().filter(|line| !line.starts_with('[')) {
        let lower = line.to_ascii_lowercase();
        assert!(
            !lower.contains("time") && !lower.contains("illegal"),
            "{line}"
        );
    }

    // Without the proxy Fairy-Stockfish rejects xboard's O-O and loses from a board
    // that is not the game's.
    let errors = second_engine_errors(&baseline.debug);
    assert!(
        errors
            .iter()
            .any(|line| line.contains("Error (unkown command): O-O")),
        "baseline should fail: {errors:?}"
    );
}

// ---- python-chess as the GUI ----

#[test]
fn python_chess_plays_chess960_through_the_proxy() {
    if !peers::need(&[Peer::PythonChess, Peer::SjaakII, Peer::FairyStockfish]) {
        return;
    }
    let stdout = run_python_client("tests/python/pychess_xboard_game.py", 100);
    for engine in ["sjaakii", "fairy-stockfish"] {
        assert!(
            stdout.contains(&format!("proxy {engine}: ok")),
            "{engine:?}: {stdout}"
        );
    }
    assert!(
        stdout.contains("direct fairy-stockfish: EngineError"),
        "baseline: {stdout}"
    );
}

// ---- lifecycle ----

#[test]
fn engine_death_is_told_in_the_guis_protocol_and_the_exit_status() {
    // A scripted engine (no real one dies on cue): answers the handshake, then exits 3
    // after the GUI's next line.
    let script = "read a; read b; echo 'feature ping=1 setboard=1 done=1'; read c; exit 3";
    for (args, first, told) in [
        (
            &[][..],
            "xboard",
            "tellusererror sp960: the engine exited unexpectedly with status 3",
        ),
        // `--protocol xboard` without the `xboard` command; `--protocol uci` gets `info string`.
        (
            &["--protocol", "xboard"],
            "protover 2",
            "tellusererror sp960: the engine exited",
        ),
        (
            &["--protocol", "uci"],
            "xboard",
            "info string sp960: the engine exited",
        ),
    ] {
        let mut all = vec!["proxy"];
        all.extend_from_slice(args);
        all.extend(["--", "/bin/sh", "-c", script]);
        let mut gui = Gui::spawn(sp960(), &all);
        gui.send(first);
        gui.send("protover 2");
        gui.wait_for(|line| line.contains("done=1"));
        gui.send("new");
        gui.wait_for(|line| line.starts_with(told));
        let status = gui.exit_status();
        assert_eq!(status.code(), Some(3), "{args:?}");
    }
}

#[test]
fn fairy_max_without_setboard_and_fischerandom_gets_edit_and_a_warning() {
    if !peers::need(&[Peer::Fairymax]) {
        return;
    }
    // Fairy-Max 5.0b: `setboard=0`, no fischerandom. The start reaches it by `edit`, as
    // normal chess (no castling rights), after a warning to the GUI.
    const FAIRY_MAX: &str = "/usr/games/fairymax";
    let mut gui = Gui::proxy(&["--sp", "860"], &[FAIRY_MAX]);
    assert!(
        gui.seen
            .iter()
            .any(|line| line.starts_with("telluser sp960: the engine does not list fischerandom")),
        "{:?}",
        gui.seen
    );
    gui.send("new");
    gui.send("force");
    // Nd1-e3 exists only in SP 860 (RBKNRNBQ); in the standard array d1 holds the queen.
    gui.send_move("d1e3");
    gui.sync(1);
    assert_eq!(gui.errors(), Vec::<&String>::new());
    gui.send("sd 3");
    gui.send("go");
    let reply = gui.engine_move();
    let mut position = "860".parse::<Start>().unwrap().position().unwrap();
    position.play_unchecked(legal(&position, "d1e3"));
    legal(&position, &reply);
    gui.quit();

    // With --require-chess960 the proxy stops instead, with exit code 3.
    let mut gui = Gui::spawn(sp960(), &["proxy", "--require-chess960", "--", FAIRY_MAX]);
    gui.send("xboard");
    gui.send("protover 2");
    gui.wait_for(|line| {
        line.starts_with("tellusererror sp960: the engine does not play fischerandom")
    });
    let status = gui.exit_status();
    assert_eq!(status.code(), Some(3));
}
