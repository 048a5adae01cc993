//! shakmaty's counts, the reference every engine count is held against: perft, and the
//! divide (each legal move, written as the engine is expected to write it, with the count
//! below it).

use shakmaty::{Chess, Move, Position};

use crate::starts::castling::{CastlingDialect, move_text};

/// The number of move paths `depth` plies long from `position` (shakmaty's perft,
/// Chess960 rules: positions are read in Chess960 mode).
pub fn perft(position: &Chess, depth: u32) -> u64 {
    shakmaty::perft(position, depth)
}

/// One legal move, its text in the engine's dialect and its count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The move.
    pub m: Move,
    /// Its coordinate text in the dialect the engine is expected to write.
    pub text: String,
    /// Paths `depth - 1` plies long after it.
    pub count: u64,
}

/// Every legal move in `position` with its count at `depth` (at least 1), in
/// shakmaty's order, castling written in `dialect`.
pub fn divide(position: &Chess, depth: u32, dialect: CastlingDialect) -> Vec<Branch> {
    position
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = position.clone();
            child.play_unchecked(m);
            Branch {
                text: move_text(&m, dialect),
                count: perft(&child, depth.saturating_sub(1)),
                m,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::notation::chess960_position;

    #[test]
    fn known_chess960_counts() {
        // Position 1 of the Chess960 perft suite (chessprogramming wiki), SP 0's start
        // after a few moves.
        let position =
            chess960_position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
        assert_eq!(perft(&position, 1), 21);
        assert_eq!(perft(&position, 2), 528);
        assert_eq!(perft(&position, 3), 12189);
        let branches = divide(&position, 2, CastlingDialect::Chess960);
        assert_eq!(branches.len(), 21);
        assert_eq!(branches.iter().map(|b| b.count).sum::<u64>(), 528);
        // As Stockfish 15.1 divided it: `d3d4: 26`, `c2c4: 24`.
        let count = |text: &str| branches.iter().find(|b| b.text == text).unwrap().count;
        assert_eq!((count("d3d4"), count("c2c4")), (26, 24));
    }

    #[test]
    fn castling_is_written_in_the_dialect_asked() {
        let position = chess960_position("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        let texts = |dialect| {
            divide(&position, 1, dialect)
                .into_iter()
                .map(|b| b.text)
                .filter(|t| t.starts_with("e1") && !t.starts_with("e1d") && !t.starts_with("e1f"))
                .collect::<Vec<_>>()
        };
        let chess960 = texts(CastlingDialect::Chess960);
        assert!(chess960.contains(&"e1h1".to_owned()) && chess960.contains(&"e1a1".to_owned()));
        let standard = texts(CastlingDialect::Standard);
        assert!(standard.contains(&"e1g1".to_owned()) && standard.contains(&"e1c1".to_owned()));
        assert!(!standard.contains(&"e1h1".to_owned()));
    }
}
