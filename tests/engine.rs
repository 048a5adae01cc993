//! `sp960 engine` as a real process: thousands of positions from random Chess960 play-outs
//! (castling forced in often), every answer checked for legality by shakmaty, in UCI with
//! `UCI_Chess960` on and off, and in XBoard with `variant fischerandom`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, File, FromSetup, Move, Position};
use sp960::Start;
use sp960::StartPosition;
use sp960::{CastlingNotation, position_fen};

/// No single answer may take longer than this (the engine is asked for at most a few
/// hundred nodes).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sp960"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sp960 engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads");
    }

    /// Lines up to and including the first that starts with one of `ends`.
    fn read_until(&mut self, ends: &[&str]) -> String {
        loop {
            match self.lines.recv_timeout(ANSWER_TIMEOUT) {
                Ok(line) if ends.iter().any(|end| line.starts_with(end)) => return line,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no {ends:?} from the engine within {ANSWER_TIMEOUT:?}");
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited"),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn is_classic_castle(m: Move) -> bool {
    matches!(m, Move::Castle { king, rook } if king.file() == File::E && matches!(rook.file(), File::A | File::H))
}

/// How python-chess writes a move to a UCI engine: king-takes-rook castling on a Chess960
/// board, king-to-destination on a standard one.
fn gui_uci(m: Move, chess960: bool) -> String {
    let mode = if chess960 || !is_classic_castle(m) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    UciMove::from_move(m, mode).to_string()
}

/// A random legal move, castling with probability `castling` when it can.
fn random_move(position: &Chess, castling: f64, rng: &mut ChaCha8Rng) -> Move {
    let moves = position.legal_moves();
    let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
    if !castles.is_empty() && rng.random_bool(castling) {
        return castles[rng.random_range(0..castles.len())];
    }
    moves[rng.random_range(0..moves.len())]
}

fn random_start(rng: &mut ChaCha8Rng) -> (Start, Chess) {
    let start = Start::symmetric(StartPosition::new(rng.random_range(0..960)).unwrap());
    (start, start.position().unwrap())
}

/// The result of a position without legal moves.
fn result_of(position: &Chess) -> &'static str {
    if position.is_check() {
        position.turn().fold_wb("0-1", "1-0")
    } else {
        "1/2-1/2"
    }
}

#[derive(Default)]
struct Tally {
    positions: usize,
    castles: usize,
    user_castles: usize,
    no_move: usize,
}

#[test]
fn uci_bestmove_is_always_legal_in_both_castling_notations() {
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until(&["uciok"]);
    let mut tally = Tally::default();
    for game in 0..90 {
        let chess960 = game % 3 != 0;
        engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        engine.send("ucinewgame");
        let (start, mut position) = random_start(&mut rng);
        let start_fen = position_fen(&position, CastlingNotation::Shredder);
        let mut moves = Vec::new();
        for ply in 0..60 {
            let legal = position.legal_moves();
            let castles: Vec<Move> = legal.iter().copied().filter(|m| m.is_castle()).collect();
            let engine_turn = ply % 2 == 0 || !castles.is_empty();
            if !engine_turn && !legal.is_empty() {
                let m = random_move(&position, 0.5, &mut rng);
                moves.push(gui_uci(m, chess960));
                position.play_unchecked(m);
                continue;
            }
            engine.send(&format!(
                "position fen {start_fen} moves {}",
                moves.join(" ")
            ));
            // Where castling is legal, half of the time only castling may be searched.
            let searchmoves = match castles.first() {
                Some(&castle) if rng.random_bool(0.5) => {
                    format!(" searchmoves {}", gui_uci(castle, chess960))
                }
                _ => String::new(),
            };
            engine.send(&format!(
                "go nodes {}{searchmoves}",
                rng.random_range(20..400)
            ));
            let line = engine.read_until(&["bestmove "]);
            let text = line.split_whitespace().nth(1).unwrap();
            tally.positions += 1;
            if legal.is_empty() {
                assert_eq!(text, "(none)", "SP {start}, moves {moves:?}");
                tally.no_move += 1;
                break;
            }
            let m = UciMove::from_ascii(text.as_bytes())
                .ok()
                .and_then(|uci| uci.to_move(&position).ok())
                .unwrap_or_else(|| {
                    panic!(
                        "illegal bestmove {text} in {}",
                        position_fen(&position, CastlingNotation::Shredder)
                    )
                });
            // The exact notation: king-takes-rook with UCI_Chess960, e1g1 for classic
            // castling without it.
            assert_eq!(text, gui_uci(m, chess960), "SP {start} moves {moves:?}");
            if !searchmoves.is_empty() {
                assert!(m.is_castle(), "searchmoves ignored: {text}");
            }
            tally.castles += usize::from(m.is_castle());
            moves.push(text.to_owned());
            position.play_unchecked(m);
        }
    }
    assert!(tally.positions >= 2_000, "{} positions", tally.positions);
    assert!(tally.castles >= 100, "{} castlings", tally.castles);
}

#[test]
fn xboard_moves_are_always_legal_in_fischerandom() {
    let mut rng = ChaCha8Rng::seed_from_u64(518);
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.read_until(&["feature done=1"]);
    let mut tally = Tally::default();
    for _game in 0..60 {
        let (start, mut position) = random_start(&mut rng);
        engine.send("new");
        engine.send("variant fischerandom");
        engine.send("force");
        engine.send(&format!(
            "setboard {}",
            position_fen(&position, CastlingNotation::Shredder)
        ));
        engine.send("nps 1");
        for ply in 0..60 {
            let legal = position.legal_moves();
            if ply % 2 == 1 && !legal.is_empty() {
                let m = random_move(&position, 0.95, &mut rng);
                // Castling as XBoard sends it (O-O) or king-takes-rook, as some GUIs do.
                let text = match m {
                    Move::Castle { .. } if rng.random_bool(0.5) => {
                        UciMove::from_chess960(m).to_string()
                    }
                    Move::Castle { king, rook } => {
                        if king < rook { "O-O" } else { "O-O-O" }.to_owned()
                    }
                    _ => UciMove::from_chess960(m).to_string(),
                };
                engine.send(&format!("usermove {text}"));
                tally.user_castles += usize::from(m.is_castle());
                position.play_unchecked(m);
                continue;
            }
            engine.send(&format!("st {}", rng.random_range(20..400)));
            engine.send("go");
            let line = engine.read_until(&["move ", "1-0", "0-1", "1/2-1/2", "Error", "Illegal"]);
            engine.send("force");
            tally.positions += 1;
            if legal.is_empty() {
                let expected = if position.is_check() {
                    position.turn().fold_wb("0-1", "1-0")
                } else {
                    "1/2-1/2"
                };
                assert!(line.starts_with(expected), "{line} in SP {start}");
                tally.no_move += 1;
                break;
            }
            let text = line
                .strip_prefix("move ")
                .unwrap_or_else(|| panic!("{line} in SP {start}"));
            let m = if text.starts_with("O-O") {
                San::from_ascii(text.as_bytes())
                    .unwrap()
                    .to_move(&position)
                    .unwrap()
            } else {
                let m = UciMove::from_ascii(text.as_bytes())
                    .unwrap()
                    .to_move(&position);
                let m = m.unwrap_or_else(|_| {
                    panic!(
                        "illegal move {text} in {}",
                        position_fen(&position, CastlingNotation::Shredder)
                    )
                });
                assert!(
                    !m.is_castle(),
                    "castling must be written O-O in fischerandom: {text}"
                );
                m
            };
            tally.castles += usize::from(m.is_castle());
            position.play_unchecked(m);
            if position.legal_moves().is_empty() {
                // The engine claims the result its move brought about.
                let claim = engine.read_until(&["1-0", "0-1", "1/2-1/2"]);
                assert!(
                    claim.starts_with(result_of(&position)),
                    "{claim} in SP {start}"
                );
                tally.no_move += 1;
                break;
            }
        }
    }
    assert!(tally.positions >= 1_000, "{} positions", tally.positions);
    assert!(tally.castles >= 10, "{} castlings", tally.castles);
    assert!(
        tally.user_castles >= 20,
        "{} castlings read",
        tally.user_castles
    );
}

/// The start of `sp` with only kings, rooks and pawns left: both castlings legal at once.
fn castling_position(sp: u64) -> Chess {
    let start = Start::symmetric(StartPosition::new(sp).unwrap());
    let mut setup = start.setup();
    let keep = setup.board.kings() | setup.board.rooks() | setup.board.pawns();
    for square in !keep {
        setup.board.discard_piece_at(square);
    }
    Chess::from_setup(setup, CastlingMode::Chess960).expect("legal")
}

#[test]
fn uci_castles_from_every_start_in_both_directions() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.send("setoption name UCI_Chess960 value true");
    for sp in 0..960 {
        let position = castling_position(sp);
        let fen = position_fen(&position, CastlingNotation::Shredder);
        let castles: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        // Both where the rooks do not stand in each other's way (SP 0: only O-O-O).
        assert!(!castles.is_empty(), "SP {sp}");
        let castle = castles[sp as usize % castles.len()];
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!(
            "go nodes 50 searchmoves {}",
            UciMove::from_chess960(castle)
        ));
        let line = engine.read_until(&["bestmove "]);
        assert_eq!(
            line.split_whitespace().nth(1),
            Some(UciMove::from_chess960(castle).to_string().as_str()),
            "SP {sp}"
        );
    }
}

#[test]
fn xboard_reads_every_castling_notation_from_every_start() {
    let mut rng = ChaCha8Rng::seed_from_u64(860);
    let mut engine = Engine::start();
    engine.send("xboard");
    engine.send("protover 2");
    engine.read_until(&["feature done=1"]);
    for sp in 0..960 {
        let mut position = castling_position(sp);
        engine.send("new");
        engine.send("variant fischerandom");
        engine.send("force");
        engine.send(&format!(
            "setboard {}",
            position_fen(&position, CastlingNotation::Shredder)
        ));
        let castles: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        let castle = castles[sp as usize % castles.len()];
        let Move::Castle { king, rook } = castle else {
            unreachable!()
        };
        let king_to = if king < rook {
            shakmaty::Square::G1
        } else {
            shakmaty::Square::C1
        };
        let text = match rng.random_range(0..3) {
            0 => if king < rook { "O-O" } else { "O-O-O" }.to_owned(),
            1 => format!("{king}{rook}"),
            // King to its destination, where that is a move of the king at all.
            _ if king != king_to => format!("{king}{king_to}"),
            _ => format!("{king}{rook}"),
        };
        engine.send(&format!("usermove {text}"));
        position.play_unchecked(castle);
        engine.send("sd 1");
        engine.send("go");
        let line = engine.read_until(&["move ", "Illegal", "Error"]);
        let reply = line
            .strip_prefix("move ")
            .unwrap_or_else(|| panic!("{line} after {text} in SP {sp}"));
        let legal = if reply.starts_with("O-O") {
            San::from_ascii(reply.as_bytes())
                .ok()
                .and_then(|san| san.to_move(&position).ok())
        } else {
            UciMove::from_ascii(reply.as_bytes())
                .ok()
                .and_then(|uci| uci.to_move(&position).ok())
        };
        assert!(legal.is_some(), "{reply} after {text} in SP {sp}");
    }
}
