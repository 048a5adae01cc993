//! `sp960 proxy` against the real Debian engines (/usr/games), checked with shakmaty; a
//! scripted fake engine (examples/fake_uci_engine.rs) only for crashes, hangs and floods.
//! Every wait has a timeout, every search is shallow.

use std::io::{Read, Write};
use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};
use sp960::Start;
use sp960::{CastlingDialect, move_text, parse_move};

const STOCKFISH: &str = "/usr/games/stockfish";
const ETHEREAL: &str = "/usr/games/ethereal-chess";
const GLAURUNG: &str = "/usr/games/glaurung";
const FAIRY: &str = "/usr/games/fairy-stockfish";
const TOGA: &str = "/usr/games/toga2";

#[path = "support/peers.rs"]
mod peers;
#[path = "support/process.rs"]
mod process;
use process::{LineProcess, fake_engine, run_python_client, sp960};

/// The proxy's `--log` transcript at `log`, read and removed.
fn take_transcript(log: &Path) -> String {
    let transcript = std::fs::read_to_string(log).unwrap();
    std::fs::remove_file(log).unwrap();
    transcript
}

/// The proxy or an engine, spoken to as a UCI GUI does.
struct Peer(LineProcess);

impl Deref for Peer {
    type Target = LineProcess;
    fn deref(&self) -> &LineProcess {
        &self.0
    }
}

impl DerefMut for Peer {
    fn deref_mut(&mut self) -> &mut LineProcess {
        &mut self.0
    }
}

impl Peer {
    fn spawn(program: &str, args: &[&str]) -> Peer {
        Peer(LineProcess::spawn(program, args, Stdio::piped()))
    }

    fn proxy(args: &[&str]) -> Peer {
        Peer::spawn(sp960(), &[&["proxy"], args].concat())
    }

    fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.until("uciok", |line| line == "uciok")
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", |line| line == "readyok");
    }

    /// `go ...` and the bestmove's move (and all lines read).
    fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until("bestmove", |line| line.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_owned();
        (best, lines)
    }

    /// `go infinite` and `stop` at once: the bestmove's move (and all lines read).
    fn go_and_stop(&mut self) -> (String, Vec<String>) {
        self.send("go infinite");
        self.send("stop");
        let lines = self.until("bestmove", |line| line.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_owned();
        (best, lines)
    }

    fn quit(mut self) -> ExitStatus {
        self.send("quit");
        self.stdin = None;
        self.wait(Duration::from_secs(10))
    }
}

fn start(spec: &str) -> Start {
    spec.parse().unwrap()
}

/// A seeded line of quiet developing moves from `start` to a position where white may
/// castle (both ways when it can find one): (moves, the castling moves legal there).
fn castling_line(start: Start) -> (Vec<Move>, Vec<Move>) {
    let root = start.position().unwrap();
    let mut best: Option<(Vec<Move>, Vec<Move>)> = None;
    for seed in 0..2000 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = root.clone();
        let mut moves = Vec::new();
        for _ in 0..24 {
            if pos.turn().is_white() {
                let castles: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.is_castle())
                    .collect();
                if !castles.is_empty() && best.as_ref().is_none_or(|(_, b)| castles.len() > b.len())
                {
                    best = Some((moves.clone(), castles.clone()));
                    if castles.len() == 2 {
                        return best.unwrap();
                    }
                }
            }
            // Quiet moves that neither touch king nor rooks; back-rank pieces first.
            let candidates: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    !m.is_capture()
                        && !m.is_castle()
                        && !matches!(m.role(), shakmaty::Role::King | shakmaty::Role::Rook)
                })
                .collect();
            if candidates.is_empty() {
                break;
            }
            let back_rank: Vec<&Move> = candidates
                .iter()
                .filter(|m| {
                    m.from()
                        .is_some_and(|sq| sq.rank() == pos.turn().backrank_rank())
                })
                .collect();
            let m = if !back_rank.is_empty() && rng.random_bool(0.7) {
                *back_rank[rng.random_range(0..back_rank.len())]
            } else {
                candidates[rng.random_range(0..candidates.len())]
            };
            pos.play_unchecked(m);
            moves.push(m);
            if pos.is_game_over() {
                break;
            }
        }
    }
    best.expect("some line reaches a castling position")
}

trait BackRank {
    fn backrank_rank(self) -> shakmaty::Rank;
}

impl BackRank for shakmaty::Color {
    fn backrank_rank(self) -> shakmaty::Rank {
        self.fold_wb(shakmaty::Rank::First, shakmaty::Rank::Eighth)
    }
}

fn texts(moves: &[Move], dialect: CastlingDialect) -> String {
    moves
        .iter()
        .map(|m| move_text(m, dialect))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text a GUI in `dialect` expects for a castling move, worked out here from the
/// squares (not with the code under test).
fn expected_castling_text(m: &Move, dialect: CastlingDialect) -> String {
    let Move::Castle { king, rook } = *m else {
        panic!("not castling")
    };
    let side = shakmaty::CastlingSide::from_king_side(king < rook);
    let destination = side.king_to(shakmaty::Color::from_white(
        king.rank() == shakmaty::Rank::First,
    ));
    let to = match dialect {
        CastlingDialect::Chess960 => rook,
        CastlingDialect::Standard if king.distance(destination) <= 1 => rook,
        CastlingDialect::Standard => destination,
    };
    format!("{king}{to}")
}

fn play_line(root: &Chess, moves: &[Move]) -> Chess {
    let mut pos = root.clone();
    for m in moves {
        pos.play_unchecked(*m);
    }
    pos
}

/// SP 0, 518, 860, 959 and DFRC 0:959, GUI in either dialect: `position startpos` + `go`
/// gives a legal move of the right start, and `searchmoves <castling>` gives that castling
/// move back in the GUI's notation.
#[test]
fn numbered_starts_and_castling_in_both_gui_dialects() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    let mut translated = false;
    for spec in ["0", "518", "860", "959", "0:959"] {
        let start = start(spec);
        let root = start.position().unwrap();
        let (line, castles) = castling_line(start);
        let castle_position = play_line(&root, &line);
        for dialect in [CastlingDialect::Chess960, CastlingDialect::Standard] {
            let mut gui = Peer::proxy(&["--sp", spec, "--", STOCKFISH]);
            let options = gui.handshake();
            assert!(
                options
                    .iter()
                    .any(|l| l.starts_with("option name SP960_Start type spin"))
            );
            if dialect == CastlingDialect::Chess960 {
                gui.send("setoption name UCI_Chess960 value true");
            }
            gui.ready();
            gui.send("position startpos");
            let (best, _) = gui.go("go depth 4");
            parse_move(&root, best.as_bytes())
                .unwrap_or_else(|err| panic!("SP {spec}: {best} illegal at the start: {err}"));
            for castle in &castles {
                gui.send(&format!(
                    "position startpos moves {}",
                    texts(&line, dialect)
                ));
                let want = expected_castling_text(castle, dialect);
                let (best, _) = gui.go(&format!("go depth 3 searchmoves {want}"));
                assert_eq!(
                    best,
                    want,
                    "SP {spec} {dialect:?}: line {}",
                    texts(&line, dialect)
                );
                eprintln!("SP {spec} {dialect:?}: {} -> {best}", texts(&line, dialect));
                translated |= want != expected_castling_text(castle, CastlingDialect::Chess960);
                assert_eq!(
                    parse_move(&castle_position, best.as_bytes()).unwrap(),
                    *castle
                );
            }
            assert!(gui.quit().success());
        }
    }
    assert!(
        translated,
        "some castling move differs between the dialects"
    );
}

/// The same through Fairy-Stockfish, with a transcript: SP 860 castles both ways.
#[test]
fn fairy_stockfish_sp860_with_transcript() {
    if !peers::need(&[peers::Peer::FairyStockfish]) {
        return;
    }
    let log = std::env::temp_dir().join(format!("sp960-fairy-{}.log", std::process::id()));
    let mut gui = Peer::proxy(&["--sp", "860", "--log", log.to_str().unwrap(), "--", FAIRY]);
    gui.handshake();
    gui.ready();
    let line = "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6";
    gui.send(&format!("position startpos moves {line}"));
    let (best, lines) = gui.go("go depth 4 searchmoves c1g1");
    assert_eq!(best, "c1g1", "{lines:?}");
    gui.send(&format!("position startpos moves {line}"));
    let (best, _) = gui.go("go depth 4 searchmoves c1a1");
    assert_eq!(best, "c1a1");
    // `ucinewgame` between `position` and `go`: the position goes again, before the `go`.
    gui.send(&format!("position startpos moves {line}"));
    gui.send("ucinewgame");
    gui.go("go depth 3");
    assert!(gui.quit().success());
    let transcript = take_transcript(&log);
    let at = |what: &str| {
        let entries: Vec<&str> = transcript.lines().collect();
        entries
            .iter()
            .rposition(|entry| entry.contains(what))
            .unwrap_or_else(|| panic!("{what:?} not in\n{transcript}"))
    };
    assert!(
        at("proxy>engine injected    position fen") < at("gui>engine               go depth 3"),
        "the injected position is logged after the go it precedes:\n{transcript}"
    );
    for expected in [
        "proxy>engine injected    setoption name UCI_Chess960 value true",
        "proxy>gui injected       option name SP960_Start type spin default 860",
        "gui>proxy                go depth 4 searchmoves c1g1",
        "proxy>engine rewritten   go depth 4 searchmoves c1e1",
        "proxy>gui rewritten      bestmove c1g1",
        "gui>engine               isready",
        "engine>gui               readyok",
    ] {
        assert!(
            transcript.contains(expected),
            "{expected:?} not in\n{transcript}"
        );
    }
}

/// Inputs that crash or confuse engines (see the research notes).
const BAD_INPUTS: [&str; 12] = [
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
    "position fen garbage",
    "position fen",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "position startpos moves e2e5",
    "position startpos moves e2e4 xyz",
    "position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3",
];

/// Each bad input leaves each engine alive (`isready` -> `readyok`) and playing.
#[test]
fn the_shield_keeps_every_engine_alive() {
    if !peers::need(&[
        peers::Peer::Stockfish,
        peers::Peer::Ethereal,
        peers::Peer::Glaurung,
        peers::Peer::FairyStockfish,
        peers::Peer::Toga2,
    ]) {
        return;
    }
    for engine in [STOCKFISH, ETHEREAL, GLAURUNG, FAIRY, TOGA] {
        let mut gui = Peer::proxy(&["--", engine]);
        gui.handshake();
        gui.ready();
        for bad in BAD_INPUTS {
            gui.send(bad);
            let (best, lines) = gui.go("go depth 1");
            assert_eq!(best, "0000", "{engine}: {bad}: {lines:?}");
            assert!(
                lines[0].starts_with("info string sp960: refused position ("),
                "{engine}: {bad}: {lines:?}"
            );
            gui.send("stop");
            gui.ready();
        }
        gui.send("position startpos moves e2e4");
        let (best, lines) = gui.go("go depth 2");
        let after = play_line(
            &Chess::default(),
            &[parse_move(&Chess::default(), b"e2e4").unwrap()],
        );
        parse_move(&after, best.trim().as_bytes())
            .unwrap_or_else(|err| panic!("{engine}: {best}: {err}; {lines:?}"));
        assert!(gui.quit().success(), "{engine}");
    }
}

/// Commands sent during a search (Stockfish 15.1 dies on some without the proxy), a `stop`
/// right after `go infinite` (Ethereal loses it) and `isready` during a search (Glaurung
/// answers none): through the proxy each `go` gets exactly one legal `bestmove`, every
/// `isready` its `readyok`, and every engine stays alive.
#[test]
fn commands_during_a_search_keep_every_engine_answering() {
    if !peers::need(&[
        peers::Peer::Stockfish,
        peers::Peer::Ethereal,
        peers::Peer::Glaurung,
        peers::Peer::FairyStockfish,
    ]) {
        return;
    }
    for engine in [STOCKFISH, ETHEREAL, GLAURUNG, FAIRY] {
        let mut gui = Peer::proxy(&["--", engine]);
        gui.handshake();
        if engine == GLAURUNG {
            // Its 2-thread search crashes by itself in Chess960.
            gui.send("setoption name Threads value 1");
        }
        gui.ready();
        gui.send("position startpos");
        let (best, lines) = gui.go_and_stop();
        parse_move(&Chess::default(), best.as_bytes())
            .unwrap_or_else(|err| panic!("{engine}: {best}: {err}; {lines:?}"));
        gui.send("go infinite");
        gui.ready();
        gui.send("position startpos moves e2e4");
        gui.send("setoption name MultiPV value 1");
        gui.send("ucinewgame");
        gui.send("go depth 2");
        let mut bestmoves = Vec::new();
        while bestmoves.len() < 2 {
            let lines = gui.until("bestmove", |line| line.starts_with("bestmove"));
            bestmoves.push(lines.last().unwrap().clone());
        }
        let after = play_line(
            &Chess::default(),
            &[parse_move(&Chess::default(), b"e2e4").unwrap()],
        );
        for (bestmove, root) in bestmoves.iter().zip([Chess::default(), after]) {
            let best = bestmove.split_whitespace().nth(1).unwrap();
            parse_move(&root, best.as_bytes())
                .unwrap_or_else(|err| panic!("{engine}: {bestmove}: {err}"));
        }
        gui.ready();
        assert!(gui.quit().success(), "{engine}");
    }
}

/// Context switches of the proxy's clock thread (named `clock`) so far.
fn clock_thread_switches(proxy_pid: u32) -> u64 {
    for task in std::fs::read_dir(format!("/proc/{proxy_pid}/task")).unwrap() {
        let task = task.unwrap().path();
        if std::fs::read_to_string(task.join("comm")).unwrap().trim() != "clock" {
            continue;
        }
        let status = std::fs::read_to_string(task.join("status")).unwrap();
        return status
            .lines()
            .filter(|line| line.contains("ctxt_switches:"))
            .map(|line| {
                line.split_whitespace()
                    .nth(1)
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
    }
    panic!("the proxy {proxy_pid} has no thread named clock");
}

/// The proxy's clock (which releases a `stop` held right after `go`) runs only while a line
/// waits for it: an idle proxy is not woken 50 times a second, and a held `stop` still goes
/// at its deadline.
#[test]
fn the_clock_sleeps_while_nothing_waits_for_it() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    let mut gui = Peer::proxy(&["--", STOCKFISH]);
    gui.handshake();
    gui.ready();
    let pid = gui.child.id();
    let before = clock_thread_switches(pid);
    std::thread::sleep(Duration::from_secs(1));
    let idle = clock_thread_switches(pid) - before;
    assert!(
        idle <= 2,
        "the idle clock thread was woken {idle} times in 1 s"
    );
    gui.send("position startpos");
    let (best, lines) = gui.go_and_stop();
    parse_move(&Chess::default(), best.as_bytes())
        .unwrap_or_else(|err| panic!("{best}: {err}; {lines:?}"));
    let after_stop = clock_thread_switches(pid);
    std::thread::sleep(Duration::from_secs(1));
    let idle_again = clock_thread_switches(pid) - after_stop;
    assert!(
        idle_again <= 2,
        "woken {idle_again} times in 1 s after the search"
    );
    assert!(gui.quit().success());
}

/// Glaurung 2.2 keeps the positions since the last capture or pawn move of the move list
/// and of its search in one table of 220 (position.h, `history[MaxGameLength]`): alone it
/// dies (SIGSEGV) searching 212 reversible plies to depth 8, and on a list of 998 plies at
/// depth 2. Through the proxy, which sends a list with over 100 reversible plies at the end
/// as the FEN 100 plies before its end and those plies, both get a legal move.
#[test]
fn glaurung_alone_dies_on_long_reversible_move_lists() {
    if !peers::need(&[peers::Peer::Glaurung]) {
        return;
    }
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (plies, go) in [(212, "go depth 8"), (998, "go depth 2")] {
        let list: Vec<&str> = (0..plies).map(|i| cycle[i % 4]).collect();
        let position = format!("position startpos moves {}", list.join(" "));
        let mut engine = Peer::spawn(GLAURUNG, &[]);
        engine.handshake();
        engine.send("setoption name Threads value 1");
        engine.ready();
        engine.send(&position);
        let stdin = engine.stdin.as_mut().unwrap();
        let _ = writeln!(stdin, "{go}").and_then(|()| writeln!(stdin, "isready"));
        let _ = stdin.flush();
        let status = engine.wait(Duration::from_secs(10));
        assert!(!status.success(), "{plies} plies, {go}: {status:?}");
        let mut gui = Peer::proxy(&["--", GLAURUNG]);
        gui.handshake();
        gui.send("setoption name Threads value 1");
        gui.ready();
        gui.send(&position);
        let (best, lines) = gui.go(go);
        let mut root = Chess::default();
        for text in &list {
            let m = parse_move(&root, text.as_bytes()).unwrap();
            root.play_unchecked(m);
        }
        parse_move(&root, best.trim().as_bytes())
            .unwrap_or_else(|err| panic!("{plies} plies: {best}: {err}; {lines:?}"));
        assert!(gui.quit().success());
    }
}

/// The fullmove number reaches the engine as the GUI wrote it, and no engine here minds a
/// large one: each answers a legal move with fullmove 2^31-1 (Glaurung counts its table from
/// the FEN, not from the fullmove number).
#[test]
fn large_fullmove_numbers_pass_unchanged_and_every_engine_answers() {
    if !peers::need(&[
        peers::Peer::Stockfish,
        peers::Peer::Ethereal,
        peers::Peer::Glaurung,
        peers::Peer::FairyStockfish,
    ]) {
        return;
    }
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2147483647";
    let root: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let after = play_line(&root, &[parse_move(&root, b"e2e4").unwrap()]);
    for engine in [STOCKFISH, ETHEREAL, GLAURUNG, FAIRY] {
        let log = std::env::temp_dir().join(format!("sp960-fullmove-{}.log", std::process::id()));
        let mut gui = Peer::proxy(&["--log", log.to_str().unwrap(), "--", engine]);
        gui.handshake();
        gui.send("setoption name Threads value 1");
        gui.ready();
        gui.send(&format!("position fen {fen} moves e2e4"));
        let (best, lines) = gui.go("go depth 6");
        parse_move(&after, best.as_bytes())
            .unwrap_or_else(|err| panic!("{engine}: {best}: {err}; {lines:?}"));
        assert!(gui.quit().success(), "{engine}");
        let transcript = take_transcript(&log);
        assert!(
            transcript.contains(" - 0 2147483647 moves e2e4"),
            "{engine}: the fullmove number changed:\n{transcript}"
        );
    }
}

/// What the proxy leaves to Glaurung 2.2 (docs/hostile-gui.md): with the back ranks
/// swapped it scores its root moves with a quiescence search before its first iteration,
/// where it checks no limit, so even `go depth 1` visits millions of nodes (seconds of
/// search) before its `bestmove`. Only a depth limits that `go`; the proxy passes it as it is.
#[test]
fn glaurung_alone_searches_millions_of_nodes_for_depth_1_with_the_back_ranks_swapped() {
    if !peers::need(&[peers::Peer::Glaurung]) {
        return;
    }
    let mut engine = Peer::spawn(GLAURUNG, &[]);
    engine.handshake();
    engine.send("setoption name Threads value 1");
    engine.ready();
    engine.send("position fen NRBBNQKR/pppppppp/8/8/8/8/PPPPPPPP/nrbbnqkr w - - 0 1");
    engine.send("go depth 1");
    // Seconds on an idle machine: a generous bound for a loaded one.
    let lines = engine
        .within(Duration::from_secs(120), |line| {
            line.starts_with("bestmove")
        })
        .unwrap_or_else(|err| panic!("no bestmove: {err}; {:?}", engine.seen));
    let nodes = lines
        .iter()
        .filter_map(|line| {
            let mut words = line.split_whitespace().skip_while(|w| *w != "nodes");
            words.nth(1)?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0);
    assert!(nodes >= 1_000_000, "{nodes} nodes for depth 1: {lines:?}");
    assert!(engine.quit().success());
}

/// Glaurung 2.2 keeps one king file and one rook file per wing for both colours. With
/// `HDfa` (white king g1, rooks d1 h1; black king d8, rooks a8 f8) it castles with pieces
/// that are not its rooks, and its corrupted board makes it write past its history table
/// into the mutex after it: alone, it answers no `bestmove` to the second `go` (or dies).
/// Through the proxy it gets `HD` (the side to move keeps its rights; an `info string`
/// says so) and answers every `go` with a legal move.
#[test]
fn glaurung_alone_breaks_on_castling_files_that_differ_between_colours() {
    if !peers::need(&[peers::Peer::Glaurung]) {
        return;
    }
    let fen = "rnqknrbb/pppppppp/8/8/8/8/PPPPPPPP/BNQRNBKR w HDfa - 0 1";
    let moves = ["b2b4", "e7e6", "b4b5", "f7f6", "e1f3", "c7c5"];
    let position = format!("position fen {fen} moves {}", moves.join(" "));
    let setup = |peer: &mut Peer| {
        peer.handshake();
        peer.send("setoption name Threads value 1");
        peer.send("setoption name UCI_Chess960 value true");
        peer.ready();
    };
    let mut engine = Peer::spawn(GLAURUNG, &[]);
    setup(&mut engine);
    let mut answered = 0;
    for _ in 0..3 {
        engine.send(&position);
        engine.send("go depth 7");
        // A depth-7 search here takes Glaurung well under a second.
        if engine
            .within(Duration::from_secs(10), |line| line.starts_with("bestmove"))
            .is_err()
        {
            break;
        }
        answered += 1;
    }
    assert!(
        answered < 3,
        "Glaurung answered all three: {:?}",
        engine.seen
    );

    let (root, _) = sp960::parse_fen(fen).unwrap();
    let mut current = root;
    for text in moves {
        let m = parse_move(&current, text.as_bytes()).unwrap();
        current.play_unchecked(m);
    }
    let mut gui = Peer::proxy(&["--", GLAURUNG]);
    setup(&mut gui);
    for round in 0..20 {
        gui.send(&position);
        let (best, lines) = gui.go("go depth 7");
        parse_move(&current, best.as_bytes())
            .unwrap_or_else(|err| panic!("round {round}: {best}: {err}; {lines:?}"));
        if round == 0 {
            assert!(
                lines
                    .iter()
                    .any(|line| line.starts_with("info string sp960:")
                        && line.contains("castling rights HD instead of HDfa")),
                "{lines:?}"
            );
        }
    }
    assert!(gui.quit().success());
}

/// Without the proxy, Ethereal takes `MultiPV 0` (outside its own declared range, 1 to 256)
/// and answers `bestmove a1a1`; through the proxy the option is refused with the range and
/// the search answers a legal move.
#[test]
fn ethereal_alone_answers_a1a1_with_multipv_0() {
    if !peers::need(&[peers::Peer::Ethereal]) {
        return;
    }
    let mut engine = Peer::spawn(ETHEREAL, &[]);
    let options = engine.handshake();
    assert!(
        options
            .iter()
            .any(|line| line == "option name MultiPV type spin default 1 min 1 max 256"),
        "{options:?}"
    );
    engine.send("setoption name MultiPV value 0");
    engine.ready();
    engine.send("position startpos");
    let (best, lines) = engine.go("go depth 3");
    assert_eq!(best, "a1a1", "{lines:?}");
    assert!(engine.quit().success());

    let mut gui = Peer::proxy(&["--", ETHEREAL]);
    gui.handshake();
    gui.send("setoption name MultiPV value 0");
    gui.ready();
    assert!(
        gui.seen.iter().any(|line| line
            == "info string sp960: refused setoption (MultiPV takes 1 to 256, not 0); not sent to the engine"),
        "{:?}",
        gui.seen
    );
    gui.send("position startpos");
    let (best, lines) = gui.go("go depth 3");
    parse_move(&Chess::default(), best.as_bytes())
        .unwrap_or_else(|err| panic!("{best}: {err}; {lines:?}"));
    assert!(gui.quit().success());
}

/// Without the proxy, Stockfish 15.1 dies on the first bad input (the reason for the
/// shield).
#[cfg(unix)] // a signal
#[test]
fn stockfish_alone_crashes_on_an_empty_board() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    let mut engine = Peer::spawn(STOCKFISH, &[]);
    engine.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    // It may be dead already: these writes may fail.
    let stdin = engine.stdin.as_mut().unwrap();
    let _ = writeln!(stdin, "go depth 1").and_then(|()| writeln!(stdin, "isready"));
    let _ = stdin.flush();
    let status = engine.wait(Duration::from_secs(10));
    assert!(!status.success());
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(11),
        "SIGSEGV expected, got {status:?}"
    );
}

/// Toga II has no UCI_Chess960: with a start the proxy warns (GUI and stderr) and gives it
/// the start as standard chess without castling rights; after a Chess960 castling move of
/// the GUI it gets the position from there. Every move it plays is legal. With
/// `--require-chess960` the proxy refuses to run it. (Toga alone exits on a Shredder FEN.)
#[test]
fn toga_without_chess960() {
    if !peers::need(&[peers::Peer::Toga2]) {
        return;
    }
    let root = start("860").position().unwrap();
    let mut gui = Peer::proxy(&["--sp", "860", "--", TOGA]);
    let lines = gui.handshake();
    gui.ready();
    assert!(
        gui.seen
            .iter()
            .any(|l| l.starts_with("info string sp960: the engine has no UCI_Chess960")),
        "{lines:?} {:?}",
        gui.seen
    );
    gui.send("position startpos");
    let (best, _) = gui.go("go depth 3");
    parse_move(&root, best.as_bytes()).unwrap();
    let line = "d1e3 d8e6 f1g3 f8g6 f2f4 f7f5 g1f2 g8f7 c2c3 c7c6 b1d3 b8d6 c1g1";
    gui.send(&format!("position startpos moves {line}"));
    let (best, _) = gui.go("go depth 3");
    let mut pos = root.clone();
    for text in line.split(' ') {
        let m = parse_move(&pos, text.as_bytes()).unwrap();
        pos.play_unchecked(m);
    }
    parse_move(&pos, best.as_bytes()).unwrap_or_else(|err| panic!("{best}: {err}"));
    assert!(gui.quit().success());
    let mut gui = Peer::proxy(&["--sp", "860", "--", TOGA]);
    gui.handshake();
    gui.send("quit");
    gui.stdin = None;
    gui.wait(Duration::from_secs(10));
    assert!(
        gui.stderr()
            .contains("the engine has no UCI_Chess960 option")
    );

    let mut gui = Peer::proxy(&["--sp", "860", "--require-chess960", "--", TOGA]);
    gui.send("uci");
    let status = gui.wait(Duration::from_secs(10));
    assert_eq!(status.code(), Some(3));
    assert!(gui.stderr().contains("--require-chess960"));
    assert!(!gui.seen.iter().any(|l| l == "uciok"));

    let mut toga = Peer::spawn(TOGA, &[]);
    toga.send("position fen rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1");
    let _ = writeln!(toga.stdin.as_mut().unwrap(), "go depth 1"); // may be dead already
    assert_eq!(toga.wait(Duration::from_secs(10)).code(), Some(1));
}

#[test]
fn engine_crash_mid_search_is_reported() {
    let engine = fake_engine();
    let mut gui = Peer::proxy(&["--", engine.to_str().unwrap(), "crash-on-go"]);
    gui.handshake();
    gui.send("position startpos");
    gui.send("go infinite");
    let lines = gui.until("the proxy's report", |l| l.contains("engine died"));
    assert_eq!(lines[0], "info depth 1 score cp 10 nodes 20 pv e2e4");
    assert_eq!(
        lines[1],
        "info string sp960: the engine died unexpectedly from signal 6"
    );
    let status = gui.wait(Duration::from_secs(5));
    assert_eq!(status.code(), Some(128 + 6));
    assert!(gui.stderr().contains("signal 6"));
}

fn pid_of_fake(lines: &[String]) -> i32 {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string pid "))
        .expect("the fake engine tells its pid")
        .parse()
        .unwrap()
}

fn process_exists(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn an_engine_hanging_on_quit_is_killed_and_reaped() {
    let engine = fake_engine();
    let mut gui = Peer::proxy(&[
        "--quit-timeout",
        "300",
        "--",
        engine.to_str().unwrap(),
        "hang-on-quit",
    ]);
    let pid = pid_of_fake(&gui.handshake());
    assert!(process_exists(pid));
    let begin = Instant::now();
    let status = gui.quit();
    assert!(
        begin.elapsed() < Duration::from_secs(3),
        "{:?}",
        begin.elapsed()
    );
    assert_eq!(status.code(), Some(128 + 9), "killed with SIGKILL");
    assert!(!process_exists(pid), "engine {pid} still exists");
}

/// Sends `go` and `quit`, returns all output.
fn flood_output(program: &str, args: &[&str]) -> Vec<u8> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"go infinite\nquit\n")
        .unwrap();
    let mut all = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut all).unwrap();
    assert!(child.wait().unwrap().success());
    all
}

#[test]
fn a_million_info_lines_arrive_in_order_byte_exact() {
    let engine = fake_engine();
    let engine = engine.to_str().unwrap();
    // Block-buffered: lines straddle the proxy's reads, the harder case for it (and
    // quicker than a million write calls; the benchmark times both kinds).
    let direct = flood_output(engine, &["flood-buffered", "1000000"]);
    let proxied = flood_output(
        sp960(),
        &[
            "proxy",
            "--quit-timeout",
            "60000",
            "--",
            engine,
            "flood-buffered",
            "1000000",
        ],
    );
    // (memchr, optimised even in test builds, keeps these checks quick.)
    let line_ends: Vec<usize> = memchr::memchr_iter(b'\n', &proxied).collect();
    assert_eq!(line_ends.len(), 1_000_001);
    assert_eq!(
        memchr::memmem::find_iter(&proxied, b"info depth ").count(),
        1_000_000
    );
    assert!(proxied.ends_with(b"\nbestmove e2e4\n"));
    assert!(direct.contains(&0xff), "the flood has non-UTF-8 bytes");
    assert!(memchr::memmem::find(&direct, b"\r\n").is_some(), "and CRs");
    assert_eq!(direct.len(), proxied.len());
    assert!(direct == proxied, "bytes differ");
    // Equal to the direct output, which is in order by construction: node counts rise
    // line by line (checked on every 1000th line).
    let nodes: Vec<u64> = line_ends[..1_000_000]
        .iter()
        .step_by(1000)
        .map(|&end| {
            let start = proxied[..end]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let text = String::from_utf8_lossy(&proxied[start..end]);
            let mut words = text.split_whitespace();
            words.find(|w| *w == "nodes");
            words.next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(nodes.len(), 1000);
    assert!(nodes.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn clean_quit_end_of_input_and_signals() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    // quit: exit 0.
    let mut gui = Peer::proxy(&["--", STOCKFISH]);
    gui.handshake();
    assert_eq!(gui.quit().code(), Some(0));
    // End of input: the proxy sends quit itself.
    let mut gui = Peer::proxy(&["--", STOCKFISH]);
    gui.handshake();
    gui.stdin = None;
    assert_eq!(gui.wait(Duration::from_secs(10)).code(), Some(0));
    // SIGTERM reaches the engine; the proxy reports its death by that signal.
    let engine = fake_engine();
    let mut gui = Peer::proxy(&["--", engine.to_str().unwrap(), "crash-on-go"]);
    let pid = pid_of_fake(&gui.handshake());
    send_signal(gui.child.id() as i32, 15);
    let status = gui.wait(Duration::from_secs(10));
    assert_eq!(status.code(), Some(128 + 15));
    assert!(!process_exists(pid));
}

fn send_signal(pid: i32, signal: i32) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// A last GUI line without a line ending still reaches the engine, before the proxy's
/// own `quit`.
#[test]
fn a_last_line_without_newline_counts() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    let mut child = Command::new(sp960())
        .args(["proxy", "--", STOCKFISH])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).ends_with("uciok\nreadyok\n"));
}

/// A script that sends everything at once (`printf ... | sp960 proxy ...`): the lines
/// after `uci` wait for the engine's `uciok`, so the start is set up in Chess960 mode, and
/// the engine answers everything before it quits.
#[test]
fn pipelined_input_is_held_until_uciok() {
    if !peers::need(&[peers::Peer::Stockfish]) {
        return;
    }
    let log = std::env::temp_dir().join(format!("sp960-held-{}.log", std::process::id()));
    let mut child = Command::new(sp960())
        .args([
            "proxy",
            "--sp",
            "860",
            "--log",
            log.to_str().unwrap(),
            "--",
            STOCKFISH,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos\ngo depth 3\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let best = stdout
        .lines()
        .find_map(|line| line.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {stdout}"));
    let best = best.split_whitespace().next().unwrap();
    parse_move(&start("860").position().unwrap(), best.as_bytes()).unwrap();
    let transcript = take_transcript(&log);
    assert!(transcript.contains("RBKNRNBQ w EAea - 0 1"), "{transcript}");
    assert!(
        transcript.contains("proxy>engine held        quit"),
        "{transcript}"
    );
}

/// The engine's stderr reaches ours untouched; an engine that exits on its own with
/// status 0 gives exit code 4, and the GUI is told.
#[test]
fn engine_stderr_passes_through_and_an_unasked_exit_is_reported() {
    // Our stdin stays open: the engine leaves on its own.
    let script = "printf 'engine says\\tthis\\n' >&2; echo id name sh";
    let mut gui = Peer::proxy(&["--", "sh", "-c", script]);
    let lines = gui.until("the report", |line| line.starts_with("info string"));
    assert_eq!(
        lines,
        [
            "id name sh",
            "info string sp960: the engine exited unexpectedly with status 0"
        ]
    );
    assert_eq!(gui.wait(Duration::from_secs(10)).code(), Some(4));
    let stderr = gui.stderr();
    assert!(stderr.starts_with("engine says\tthis\n"), "{stderr:?}");
    assert!(stderr.contains("sp960: proxy: the engine exited unexpectedly with status 0"));
}

#[test]
fn missing_and_unexecutable_engines_have_their_own_exit_codes() {
    let output = Command::new(sp960())
        .args(["proxy", "--", "/nonexistent/engine"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(127));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "sp960: proxy: engine '/nonexistent/engine' not found\n"
    );
    let not_executable =
        std::env::temp_dir().join(format!("sp960-not-exec-{}", std::process::id()));
    std::fs::write(&not_executable, "not a program").unwrap();
    let output = Command::new(sp960())
        .args(["proxy", "--"])
        .arg(&not_executable)
        .output()
        .unwrap();
    std::fs::remove_file(&not_executable).unwrap();
    assert_eq!(output.status.code(), Some(126));
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("is not executable")
    );
}

/// python-chess's `chess.engine` as the GUI: whole Chess960 games through the proxy
/// (tests/pychess_game.py).
#[test]
fn python_chess_plays_whole_games_through_the_proxy() {
    if !peers::need(&[
        peers::Peer::PythonChess,
        peers::Peer::Stockfish,
        peers::Peer::Ethereal,
        peers::Peer::FairyStockfish,
        peers::Peer::Glaurung,
    ]) {
        return;
    }
    let stdout = run_python_client("tests/pychess_game.py", 120);
    assert!(stdout.contains("games: 2 ok"), "{stdout}");
}
