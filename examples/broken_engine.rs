//! A small UCI engine with a planted move-generation defect, for the tests that
//! `sp960 check` can fail: only a fake can be broken on purpose. Its moves are shakmaty's
//! (Chess960 rules), but for the defect chosen on its command line.
//!
//! Usage: `broken_engine [DEFECT]`, DEFECT one of
//! - `none`: shakmaty's moves, unchanged (the control);
//! - `no-king-stays`: misses every castling whose king does not move (king g1, rook h1:
//!   `g1h1`);
//! - `attacked-path`: also castles through attacked squares (the king's start and its
//!   destination are still checked);
//! - `xfen-outermost`: reads every castling field letter as the outermost rook on that
//!   side of the king (`F` with rooks on f1 and h1 becomes `K`, the h1 rook);
//! - `crash-on-perft`: aborts on its third `go perft` (a crash mid-check);
//! - `hang-on-deep-perft`: never answers a `go perft` deeper than 2 (a hang mid-check).
//!
//! It speaks enough UCI for the check: `uci` (declaring `UCI_Chess960` as a check with
//! `default false`), `isready`, `setoption`, `ucinewgame`, `position fen|startpos [moves]`,
//! `go perft N` (a divide and `Nodes searched: N`, as Stockfish writes it), and any other
//! `go` answered at once with its first legal move (or the first `searchmoves` move).

use std::io::{self, BufRead, Write};

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Move, Position, Square};
use sp960::{CastlingDialect, move_text, parse_move};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    NoKingStays,
    AttackedPath,
    XfenOutermost,
    CrashOnPerft,
    HangOnDeepPerft,
}

fn main() {
    let defect = match std::env::args().nth(1).as_deref() {
        None | Some("none") => Defect::None,
        Some("no-king-stays") => Defect::NoKingStays,
        Some("attacked-path") => Defect::AttackedPath,
        Some("xfen-outermost") => Defect::XfenOutermost,
        Some("crash-on-perft") => Defect::CrashOnPerft,
        Some("hang-on-deep-perft") => Defect::HangOnDeepPerft,
        Some(other) => {
            eprintln!("broken_engine: unknown defect '{other}'");
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut position = Chess::default();
    let mut perfts = 0;
    // UCI_Chess960: king takes rook; off (the default): king to its destination.
    let mut dialect = CastlingDialect::Standard;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                let _ = writeln!(out, "id name Broken 1");
                let _ = writeln!(out, "option name UCI_Chess960 type check default false");
                let _ = writeln!(out, "uciok");
            }
            Some("setoption") if line.contains("UCI_Chess960") => {
                dialect = if words.last() == Some(&"true") {
                    CastlingDialect::Chess960
                } else {
                    CastlingDialect::Standard
                };
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("position") => {
                if let Some(p) = read_position(&words[1..], defect) {
                    position = p;
                }
            }
            Some("go") if words.get(1) == Some(&"perft") => {
                perfts += 1;
                if defect == Defect::CrashOnPerft && perfts == 3 {
                    std::process::abort();
                }
                let depth: u32 = words.get(2).and_then(|d| d.parse().ok()).unwrap_or(1);
                if defect == Defect::HangOnDeepPerft && depth > 2 {
                    continue;
                }
                let mut total = 0;
                for m in moves(&position, defect) {
                    let mut child = position.clone();
                    child.play_unchecked(m);
                    let count = perft(&child, depth.saturating_sub(1), defect);
                    total += count;
                    let _ = writeln!(out, "{}: {count}", move_text(&m, dialect));
                }
                let _ = writeln!(out, "\nNodes searched: {total}\n");
            }
            Some("go") => {
                let only = words
                    .iter()
                    .position(|w| *w == "searchmoves")
                    .and_then(|i| words.get(i + 1));
                let best = match only {
                    Some(text) => (*text).to_owned(),
                    None => moves(&position, defect)
                        .first()
                        .map_or("0000".to_owned(), |m| move_text(m, dialect)),
                };
                let _ = writeln!(out, "info depth 1 score cp 0 pv {best}");
                let _ = writeln!(out, "bestmove {best}");
            }
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

/// `fen FEN [moves ...]` or `startpos [moves ...]`.
fn read_position(words: &[&str], defect: Defect) -> Option<Chess> {
    let (mut position, rest) = match words.first().copied() {
        Some("startpos") => (Chess::default(), &words[1..]),
        Some("fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let mut fields: Vec<String> = words[1..end].iter().map(|w| (*w).to_owned()).collect();
            if defect == Defect::XfenOutermost && fields.len() > 2 {
                fields[2] = outermost(&fields[0], &fields[2]);
            }
            let fen = Fen::from_ascii(fields.join(" ").as_bytes()).ok()?;
            (
                fen.into_position(CastlingMode::Chess960).ok()?,
                &words[end..],
            )
        }
        _ => return None,
    };
    if rest.first() == Some(&"moves") {
        for text in &rest[1..] {
            // Either castling notation, as shakmaty's legal moves have it.
            let m = parse_move(&position, text.as_bytes()).ok()?;
            position.play_unchecked(m);
        }
    }
    Some(position)
}

/// The castling field with each letter turned into K/Q (k/q) by the side of the king it
/// names: the defect of `xfen-outermost`.
fn outermost(board: &str, field: &str) -> String {
    let ranks: Vec<&str> = board.split('/').collect();
    let king_file = |rank: &str, king: char| {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as u8;
            } else {
                if c == king {
                    return Some(file);
                }
                file += 1;
            }
        }
        None
    };
    let white = ranks.last().and_then(|r| king_file(r, 'K'));
    let black = ranks.first().and_then(|r| king_file(r, 'k'));
    field
        .chars()
        .map(|c| match (c, c.is_ascii_uppercase()) {
            ('A'..='H', true) => match white {
                Some(k) if (c as u8 - b'A') > k => 'K',
                Some(_) => 'Q',
                None => c,
            },
            ('a'..='h', false) => match black {
                Some(k) if (c as u8 - b'a') > k => 'k',
                Some(_) => 'q',
                None => c,
            },
            _ => c,
        })
        .collect()
}

fn perft(position: &Chess, depth: u32, defect: Defect) -> u64 {
    if depth == 0 {
        return 1;
    }
    moves(position, defect)
        .into_iter()
        .map(|m| {
            let mut child = position.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1, defect)
        })
        .sum()
}

/// shakmaty's legal moves, with the defect.
fn moves(position: &Chess, defect: Defect) -> Vec<Move> {
    let mut moves: Vec<Move> = position.legal_moves().into_iter().collect();
    match defect {
        Defect::NoKingStays => moves.retain(|m| match *m {
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(king < rook);
                side.king_to(position.turn()) != king
            }
            _ => true,
        }),
        Defect::AttackedPath => {
            for rook in position.castles().castling_rights()
                & Bitboard::from_rank(position.turn().backrank())
            {
                let Some(king) = position.board().king_of(position.turn()) else {
                    continue;
                };
                let castle = Move::Castle { king, rook };
                if moves.contains(&castle) || position.is_check() {
                    continue;
                }
                if castles_ignoring_path(position, king, rook) {
                    moves.push(castle);
                }
            }
        }
        Defect::None | Defect::XfenOutermost | Defect::CrashOnPerft | Defect::HangOnDeepPerft => {}
    }
    moves
}

/// Whether castling `king` with `rook` would be legal if no enemy piece but the king
/// attacked the squares between: the destination still must not be attacked.
fn castles_ignoring_path(position: &Chess, king: Square, rook: Square) -> bool {
    let us = position.turn();
    let side = shakmaty::CastlingSide::from_king_side(king < rook);
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let board = position.board();
    // Every square the king and the rook cross or land on, empty but for the two.
    let path = shakmaty::attacks::between(king, king_to).with(king_to)
        | shakmaty::attacks::between(rook, rook_to).with(rook_to);
    let blockers = board.occupied().without(king).without(rook);
    if (path & blockers).any() {
        return false;
    }
    // The destination, with the king and the rook moved, is not attacked.
    let occupied = board
        .occupied()
        .without(king)
        .without(rook)
        .with(king_to)
        .with(rook_to);
    board
        .attacks_to(king_to, !us, occupied)
        .without(rook_to)
        .is_empty()
}
