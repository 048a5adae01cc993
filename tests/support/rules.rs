//! A game replayed with shakmaty in Chess960 mode, and its end by the rules as a GUI
//! judges it (`#[path]`-included by the suites that play whole games through a launcher):
//! checkmate, stalemate, insufficient material, and the draws a player may claim,
//! threefold repetition and the fifty-move rule (shakmaty has the board, not the history).
#![allow(dead_code)] // each test crate uses its part

use std::collections::HashMap;

use shakmaty::fen::Epd;
use shakmaty::{Chess, EnPassantMode, Move, Position};

/// A game from its start: the position now and how often each position occurred.
pub struct Replay {
    pub position: Chess,
    pub moves: Vec<Move>,
    seen: HashMap<String, u32>,
}

/// A position as repetitions count it: placement, side to move, castling, en passant.
fn key(position: &Chess) -> String {
    Epd::from_position(position, EnPassantMode::Legal).to_string()
}

impl Replay {
    pub fn new(start: Chess) -> Replay {
        let mut seen = HashMap::new();
        seen.insert(key(&start), 1);
        Replay {
            position: start,
            moves: Vec::new(),
            seen,
        }
    }

    /// Plays `text` (UCI, castling as king takes rook or to its square); an illegal move
    /// fails the test with the position.
    pub fn play(&mut self, text: &str) -> Move {
        let m = sp960::parse_move(&self.position, text.as_bytes()).unwrap_or_else(|err| {
            panic!(
                "illegal move {text} after {} plies ({}): {err}",
                self.moves.len(),
                Epd::from_position(&self.position, EnPassantMode::Legal)
            )
        });
        self.position.play_unchecked(m);
        *self.seen.entry(key(&self.position)).or_insert(0) += 1;
        self.moves.push(m);
        m
    }

    /// The ends the position has reached by the rules: the game is over, or the player to
    /// move may claim a draw here (`checkmate`, `stalemate`, `insufficient material`,
    /// `fifty moves`, `threefold repetition`); empty while the game goes on.
    pub fn endings(&self) -> Vec<&'static str> {
        let position = &self.position;
        [
            (position.is_checkmate(), "checkmate"),
            (position.is_stalemate(), "stalemate"),
            (position.is_insufficient_material(), "insufficient material"),
            (position.halfmoves() >= 100, "fifty moves"),
            (self.seen[&key(position)] >= 3, "threefold repetition"),
        ]
        .into_iter()
        .filter_map(|(holds, name)| holds.then_some(name))
        .collect()
    }

    /// The draws the player to move may claim with the move they are about to make
    /// (python-chess's `can_claim_draw` counts these too): a move that reaches a third
    /// occurrence, or the fiftieth move without a capture or pawn move.
    pub fn claims_by_a_move(&self) -> Vec<&'static str> {
        let mut claims = Vec::new();
        for m in self.position.legal_moves() {
            let mut after = self.position.clone();
            after.play_unchecked(m);
            if self.seen.get(&key(&after)).copied().unwrap_or(0) + 1 >= 3 {
                claims.push("threefold repetition");
            }
            if after.halfmoves() >= 100 {
                claims.push("fifty moves");
            }
        }
        claims.sort_unstable();
        claims.dedup();
        claims
    }
}
