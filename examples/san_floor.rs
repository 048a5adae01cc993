//! The floor of `benches/game_validate.py`: a bare single-threaded loop of shakmaty's SAN
//! parse and play over every game of a PGN file, with the least reading that finds the moves
//! (a minimal tokenizer, not sp960's reader): tag lines skipped but `FEN`, read with
//! shakmaty in Chess960 castling; `{...}` and `;` comments, `%` lines, NAGs, move numbers
//! and variations skipped (variations not replayed); a result ends the game.
//!
//! `cargo run --release --example san_floor -- GAMES.pgn` prints `GAMES PLIES` (games read,
//! mainline moves played) on stdout; a move that does not replay ends its game and is
//! counted on stderr. The whole file is read into memory first, as sp960 reads its blocks.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

fn main() {
    let path = std::env::args().nth(1).expect("usage: san_floor GAMES.pgn");
    let text = std::fs::read(&path).expect("the file reads");
    let (mut games, mut plies, mut refused) = (0u64, 0u64, 0u64);
    let mut position = Chess::default();
    // Moves are read until the game's result; after a move that does not replay, skipped.
    let mut in_game = false;
    let mut playing = false;
    let mut depth = 0usize;
    let mut i = 0;
    let n = text.len();
    while i < n {
        let b = text[i];
        let line_start = i == 0 || text[i - 1] == b'\n';
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'[' if line_start => {
                let end = memchr::memchr(b'\n', &text[i..]).map_or(n, |k| i + k);
                let line = &text[i..end];
                if !in_game {
                    in_game = true;
                    playing = true;
                    depth = 0;
                    position = Chess::default();
                    games += 1;
                }
                if let Some(value) = line.strip_prefix(b"[FEN \"") {
                    let value = &value[..memchr::memchr(b'"', value).unwrap_or(value.len())];
                    match Fen::from_ascii(value)
                        .ok()
                        .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok())
                    {
                        Some(start) => position = start,
                        None => {
                            playing = false;
                            refused += 1;
                        }
                    }
                }
                i = end;
            }
            b'%' if line_start => i = memchr::memchr(b'\n', &text[i..]).map_or(n, |k| i + k),
            b'{' => i = memchr::memchr(b'}', &text[i..]).map_or(n, |k| i + k + 1),
            b';' => i = memchr::memchr(b'\n', &text[i..]).map_or(n, |k| i + k),
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => {
                let start = i;
                while i < n
                    && !matches!(
                        text[i],
                        b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'(' | b')' | b';'
                    )
                {
                    i += 1;
                }
                let mut token = &text[start..i];
                if depth > 0 || token[0] == b'$' {
                    continue;
                }
                if matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
                    in_game = false;
                    continue;
                }
                if !in_game {
                    // A game without tags.
                    in_game = true;
                    playing = true;
                    position = Chess::default();
                    games += 1;
                }
                let digits = token.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits > 0 && token.get(digits) == Some(&b'.') {
                    token = &token[digits..];
                    while token.first() == Some(&b'.') {
                        token = &token[1..];
                    }
                }
                while let [rest @ .., b'!' | b'?'] = token {
                    token = rest;
                }
                if token.is_empty() || !playing {
                    continue;
                }
                match SanPlus::from_ascii(token)
                    .ok()
                    .and_then(|san| san.san.to_move(&position).ok())
                {
                    Some(m) => {
                        position.play_unchecked(m);
                        plies += 1;
                    }
                    None => {
                        playing = false;
                        refused += 1;
                    }
                }
            }
        }
    }
    println!("{games} {plies}");
    if refused > 0 {
        eprintln!("san_floor: {refused} games stopped at a move or FEN that does not replay");
    }
}
