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
//! - `out-of-check`: also castles out of check (the path and destination still checked);
//! - `rook-shields`: judges the king's squares with the castling rook still on its square
//!   (so a rook that shields the king's destination lets it castle into check);
//! - `piece-between`: castles over pieces standing between (attacks still checked);
//! - `crash-on-perft`: aborts on its third `go perft` (a crash mid-check);
//! - `hang-on-deep-perft`: never answers a `go perft` deeper than 2 (a hang mid-check).
//!
//! and `--perft go|total|none` (default `go`): which perft command it has, `go perft N`
//! answered by a divide and `Nodes searched: N` as Stockfish writes it, `perft N` answered
//! by the total alone as Ethereal does, or none (`go perft N` is then a search, as in
//! Glaurung, and `perft N` an unknown command). `--name NAME` sets its `id name` (default
//! `Broken 1`, a name sp960 does not know).
//!
//! It speaks enough UCI for the check: `uci` (declaring `UCI_Chess960` as a check with
//! `default false`), `isready`, `setoption`, `ucinewgame`, `position fen|startpos [moves]`
//! (a move its own move generation does not have ends the list, as in Stockfish), the
//! perft command, and any other `go` answered at once with a mate in one by its own move
//! generation if it has one, else its first move (among the `searchmoves` it has, if any).

use std::io::{self, BufRead, Write};

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Move, Position, Square};
use sp960::{CastlingDialect, move_text, parse_move};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    NoKingStays,
    AttackedPath,
    OutOfCheck,
    RookShields,
    PieceBetween,
    XfenOutermost,
    CrashOnPerft,
    HangOnDeepPerft,
}

/// Which perft command it has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PerftForm {
    GoPerft,
    Total,
    None,
}

fn usage(message: &str) -> ! {
    eprintln!("broken_engine: {message}");
    std::process::exit(2);
}

fn main() {
    let mut defect = Defect::None;
    let mut form = PerftForm::GoPerft;
    let mut name = "Broken 1".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--perft" => {
                form = match args.next().as_deref() {
                    Some("go") => PerftForm::GoPerft,
                    Some("total") => PerftForm::Total,
                    Some("none") => PerftForm::None,
                    other => usage(&format!("--perft takes go, total or none, not {other:?}")),
                }
            }
            "--name" => name = args.next().unwrap_or_else(|| usage("--name takes a name")),
            "none" => defect = Defect::None,
            "no-king-stays" => defect = Defect::NoKingStays,
            "attacked-path" => defect = Defect::AttackedPath,
            "out-of-check" => defect = Defect::OutOfCheck,
            "rook-shields" => defect = Defect::RookShields,
            "piece-between" => defect = Defect::PieceBetween,
            "xfen-outermost" => defect = Defect::XfenOutermost,
            "crash-on-perft" => defect = Defect::CrashOnPerft,
            "hang-on-deep-perft" => defect = Defect::HangOnDeepPerft,
            other => usage(&format!("unknown defect '{other}'")),
        }
    }
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
                let _ = writeln!(out, "id name {name}");
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
            Some("perft") if form == PerftForm::Total => {
                let depth: u32 = words.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
                let _ = writeln!(out, "{}", perft(&position, depth, defect));
            }
            Some("perft") => {
                let _ = writeln!(out, "Unknown command: {line}");
            }
            Some("go") if words.get(1) == Some(&"perft") && form == PerftForm::GoPerft => {
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
                // Its own moves, or those of them named after `searchmoves`.
                let mut candidates = moves(&position, defect);
                if let Some(at) = words.iter().position(|w| *w == "searchmoves") {
                    let named: Vec<Move> = candidates
                        .iter()
                        .copied()
                        .filter(|m| {
                            words[at + 1..].iter().any(|w| {
                                parse_move(&position, w.as_bytes()).ok() == Some(*m)
                                    || *w == move_text(m, dialect)
                            })
                        })
                        .collect();
                    if !named.is_empty() {
                        candidates = named;
                    }
                }
                let best = candidates
                    .iter()
                    .find(|m| mates(&position, **m, defect))
                    .or(candidates.first())
                    .map_or("0000".to_owned(), |m| move_text(m, dialect));
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
            // Either castling notation; a move its own move generation lacks ends the list.
            let own = moves(&position, defect);
            let Some(m) = own.into_iter().find(|m| {
                parse_move(&position, text.as_bytes()).ok() == Some(*m)
                    || move_text(m, CastlingDialect::Chess960) == *text
            }) else {
                break;
            };
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
        Defect::AttackedPath | Defect::OutOfCheck | Defect::RookShields | Defect::PieceBetween => {
            for rook in position.castles().castling_rights()
                & Bitboard::from_rank(position.turn().backrank())
            {
                let Some(king) = position.board().king_of(position.turn()) else {
                    continue;
                };
                let castle = Move::Castle { king, rook };
                if !moves.contains(&castle) && castles_with_defect(position, king, rook, defect) {
                    moves.push(castle);
                }
            }
        }
        Defect::None | Defect::XfenOutermost | Defect::CrashOnPerft | Defect::HangOnDeepPerft => {}
    }
    moves
}

/// Whether castling `king` with `rook` passes the rules as the defect bends them: each of
/// `attacked-path`, `out-of-check`, `rook-shields` and `piece-between` leaves out one rule.
fn castles_with_defect(position: &Chess, king: Square, rook: Square, defect: Defect) -> bool {
    let us = position.turn();
    if position.is_check() && defect != Defect::OutOfCheck {
        return false;
    }
    let side = shakmaty::CastlingSide::from_king_side(king < rook);
    let king_to = side.king_to(us);
    let rook_to = side.rook_to(us);
    let board = position.board();
    // Every square the king and the rook cross or land on, empty but for the two.
    let path = shakmaty::attacks::between(king, king_to).with(king_to)
        | shakmaty::attacks::between(rook, rook_to).with(rook_to);
    let blockers = board.occupied().without(king).without(rook);
    if (path & blockers).any() && defect != Defect::PieceBetween {
        return false;
    }
    // `piece-between` jumps over pieces, but the king and the rook still need their
    // squares empty to land on.
    let landing = Bitboard::from(king_to).with(rook_to);
    if (landing & blockers).any() {
        return false;
    }
    // The king's squares (only its destination for `attacked-path`), with the king moved
    // and the rook moved (still on its square for `rook-shields`), are not attacked.
    let occupied = match defect {
        Defect::RookShields => board.occupied().without(king).with(king_to),
        _ => board
            .occupied()
            .without(king)
            .without(rook)
            .with(king_to)
            .with(rook_to),
    };
    let squares = match defect {
        Defect::AttackedPath => Bitboard::from(king_to),
        _ => shakmaty::attacks::between(king, king_to).with(king_to),
    };
    squares.into_iter().all(|square| {
        board
            .attacks_to(square, !us, occupied)
            .without(rook_to)
            .is_empty()
    })
}

/// Whether `m` mates in one as its own move generation sees it: the other side is in
/// check and has no move (capturing the king aside).
fn mates(position: &Chess, m: Move, defect: Defect) -> bool {
    let mut child = position.clone();
    child.play_unchecked(m);
    let Some(their_king) = child.board().king_of(child.turn()) else {
        return false;
    };
    let attacked = |p: &Chess, square: Square| {
        p.board()
            .attacks_to(square, !p.turn(), p.board().occupied())
            .any()
    };
    attacked(&child, their_king)
        && moves(&child, defect)
            .into_iter()
            .filter(|reply| reply.capture() != Some(shakmaty::Role::King))
            .all(|reply| {
                let mut after = child.clone();
                after.play_unchecked(reply);
                after.board().king_of(child.turn()).is_some_and(|king| {
                    after
                        .board()
                        .attacks_to(king, after.turn(), after.board().occupied())
                        .any()
                })
            })
}
