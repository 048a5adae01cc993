//! Deterministic corpora of Chess960 positions from random play-outs, shared by the
//! python-chess agreement test and the throughput benchmark (`#[path]`-included).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};
use sp960::RandomStarts;
use sp960::{CastlingNotation, position_fen};

/// `count` FENs (Shredder castling, en passant only when legal) of the positions met in
/// random games from random starts (one in four double-FRC), every ply of every game, at
/// most `max_plies` plies a game. The same seed gives the same list everywhere.
pub fn playout_fens(seed: u64, count: usize, max_plies: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut classic = RandomStarts::new(seed, false);
    let mut dfrc = RandomStarts::new(seed ^ 0x5eed, true);
    let mut fens = Vec::with_capacity(count);
    while fens.len() < count {
        let start = if rng.random_range(0..4) == 0 {
            dfrc.next()
        } else {
            classic.next()
        };
        let mut position: Chess = start.expect("endless").position().expect("a start");
        for _ in 0..max_plies {
            if fens.len() == count {
                break;
            }
            fens.push(position_fen(&position, CastlingNotation::Shredder));
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let chosen = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(chosen);
        }
    }
    fens
}

/// Characters a mutation inserts or substitutes: everything a FEN is made of, and some
/// that have no place in one. Not here on purpose: the documented differences with
/// python-chess (`~`, `+`, `_`, non-ASCII, control characters) and `;` (which turns a
/// FEN into EPD operations).
const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09x[]\t";

const OPERATIONS: [&str; 4] = [
    "bm e4; id \"test\";",
    "c0 \"a; b\"; acd 3",
    ";D1 20 ;D2 400",
    "id \"SP 518\";",
];

/// Invalid, odd and valid records made from `fens`, `count` of them: single-character
/// edits, random castling and en-passant fields, pieces dropped on random squares, EPD
/// forms with operations. Every shakmaty error kind and every field's syntax error occurs.
pub fn mutated_records(fens: &[String], seed: u64, count: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut records = Vec::with_capacity(count);
    while records.len() < count {
        let fen = &fens[rng.random_range(0..fens.len())];
        let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
        match rng.random_range(0..10) {
            // One character replaced, inserted or deleted anywhere.
            0..=2 => {
                let mut bytes = fen.clone().into_bytes();
                let at = rng.random_range(0..bytes.len());
                let byte = ALPHABET[rng.random_range(0..ALPHABET.len())];
                match rng.random_range(0..3) {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
                records.push(String::from_utf8(bytes).expect("ASCII"));
                continue;
            }
            // A random castling field.
            3 => {
                let letters = b"KQkqABCDEFGHabcdefgh";
                let len = rng.random_range(1..=5);
                fields[2] = (0..len)
                    .map(|_| char::from(letters[rng.random_range(0..letters.len())]))
                    .collect();
                if rng.random_range(0..4) == 0 {
                    fields[2] = "-".to_owned();
                }
            }
            // A random en-passant square, mostly on ranks 3 and 6.
            4 => {
                let file = char::from(b'a' + rng.random_range(0..8u8));
                let rank = match rng.random_range(0..4) {
                    0 => char::from(b'1' + rng.random_range(0..8u8)),
                    1 | 2 => {
                        if fields[1] == "w" {
                            '6'
                        } else {
                            '3'
                        }
                    }
                    _ => {
                        if fields[1] == "w" {
                            '3'
                        } else {
                            '6'
                        }
                    }
                };
                fields[3] = format!("{file}{rank}");
            }
            // A piece dropped on a random square (checks, extra kings, pawns on the back
            // rank, too much material), or the side to move switched.
            5 | 6 => {
                let mut board: shakmaty::Board = fields[0].parse().expect("a board");
                let drops = rng.random_range(1..=3);
                for _ in 0..drops {
                    let square = shakmaty::Square::new(rng.random_range(0..64));
                    let piece = shakmaty::Piece::from_char(char::from(
                        b"pnbrqkPNBRQKPPPBBB"[rng.random_range(0..18)],
                    ))
                    .expect("a piece letter");
                    board.set_piece_at(square, piece);
                }
                fields[0] = board.board_fen().to_string();
                if rng.random_range(0..3) == 0 {
                    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_owned();
                }
            }
            // A king removed, the board emptied, or the side to move switched.
            7 => {
                let choice = rng.random_range(0..5);
                if choice == 0 {
                    fields[0] = "8/8/8/8/8/8/8/8".to_owned();
                } else if choice < 3 {
                    let victim = if rng.random_range(0..2) == 0 {
                        'K'
                    } else {
                        'k'
                    };
                    fields[0] = fields[0].replacen(victim, "1", 1);
                    // "11" is a syntax error of its own; keep the board well formed.
                    let board: Result<shakmaty::Board, _> = fields[0].parse();
                    if let Ok(board) = board {
                        fields[0] = board.board_fen().to_string();
                    }
                } else {
                    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_owned();
                }
            }
            // EPD: four fields and operations (sometimes none), or the counters dropped.
            8 => {
                fields.truncate(4);
                let operations = OPERATIONS[rng.random_range(0..OPERATIONS.len())];
                if rng.random_range(0..3) != 0 {
                    fields.push(operations.to_owned());
                }
            }
            // Unchanged, or with X-FEN castling letters.
            _ => {
                if rng.random_range(0..2) == 0 {
                    fields[2] = fields[2]
                        .chars()
                        .map(|c| match c {
                            'H' => 'K',
                            'A' => 'Q',
                            'h' => 'k',
                            'a' => 'q',
                            other => other,
                        })
                        .collect();
                }
            }
        }
        records.push(fields.join(" "));
    }
    records
}
