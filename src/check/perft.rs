//! `sp960 perft`: shakmaty's counts ([`reference`](super::reference)) from one position
//! read in Chess960 mode (a FEN in either castling notation, or a start's SPEC), after
//! moves in either castling notation; the total, or the divide (each legal move in the
//! dialect asked, with its count) printed as Stockfish's `go perft` prints it. The root
//! moves are shared among rayon's threads; shakmaty counts the last ply in bulk.
//!
//! Also the EPD perft suite of the 960 starts and the castling cases of [`cases`]:
//! `FIELDS ;D1 C1 ;D2 C2 ...`, the form perft suites use and `sp960 validate` checks.
//!
//! sans-IO apart from the writers, which take any [`Write`].

use std::io::{self, Write};

use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

use super::cases::cases;
use super::reference::perft;
use crate::starts::castling::{CastlingDialect, MoveError, move_text, parse_move};
use crate::starts::notation::{CastlingNotation, epd_fields};
use crate::starts::numbering::StartPosition;
use crate::starts::start::{InvalidStart, Start};

/// The deepest perft asked of `sp960 perft` (depth 8 from a start is billions of paths:
/// hours on one core).
pub const MAX_DEPTH: u32 = 8;

/// The suite's default depth: `;D1` to `;D4` (about a second on two cores).
pub const SUITE_DEPTH: u32 = 4;

/// Why `sp960 perft` cannot count.
#[derive(Debug, Error)]
pub enum PerftError {
    /// Neither a FEN nor a start's SPEC.
    #[error("'{text}': not a FEN or a start (N or W:B): {reason}")]
    NotFen {
        /// The text given.
        text: String,
        /// Why the FEN reader refused it.
        reason: String,
    },
    /// A well-formed FEN whose position is not legal Chess960.
    #[error("'{text}': not a legal Chess960 position: {reason}")]
    IllegalPosition {
        /// The FEN given.
        text: String,
        /// shakmaty's reason.
        reason: String,
    },
    /// A start that failed shakmaty's checks (an internal error).
    #[error(transparent)]
    Start(#[from] InvalidStart),
    /// A `--moves` move that cannot be played.
    #[error("--moves: move {number}: {source}")]
    Move {
        /// Its place in the list, from 1.
        number: usize,
        /// Why it cannot be played.
        source: MoveError,
    },
    /// A depth of 0 or above [`MAX_DEPTH`].
    #[error("--depth {0}: expected 1 to {MAX_DEPTH}")]
    Depth(u32),
}

/// The position `text` names: a FEN (Shredder-FEN or X-FEN castling, read in Chess960
/// mode; four fields are enough), or a start's SPEC (`860`, `0:959`).
pub fn position_of(text: &str) -> Result<Chess, PerftError> {
    let text = text.trim();
    if !text.contains('/')
        && let Ok(start) = text.parse::<Start>()
    {
        return Ok(start.position()?);
    }
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|err| PerftError::NotFen {
        text: text.to_owned(),
        reason: err.to_string(),
    })?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|err| PerftError::IllegalPosition {
            text: text.to_owned(),
            reason: err.to_string(),
        })
}

/// `position` after `moves` (coordinate notation, castling in either dialect).
pub fn play(mut position: Chess, moves: &[String]) -> Result<Chess, PerftError> {
    for (index, text) in moves.iter().enumerate() {
        let m = parse_move(&position, text.as_bytes()).map_err(|source| PerftError::Move {
            number: index + 1,
            source,
        })?;
        position.play_unchecked(m);
    }
    Ok(position)
}

/// `depth` if it is 1 to [`MAX_DEPTH`].
pub fn checked_depth(depth: u32) -> Result<u32, PerftError> {
    if (1..=MAX_DEPTH).contains(&depth) {
        Ok(depth)
    } else {
        Err(PerftError::Depth(depth))
    }
}

/// Each legal move of `position` with its count at `depth` (at least 1), in shakmaty's
/// order; the moves counted on rayon's threads.
fn counted_moves(position: &Chess, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves()
        .as_slice()
        .par_iter()
        .map(|m| {
            let mut child = position.clone();
            child.play_unchecked(*m);
            (*m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// Each legal move of `position`, written in `dialect`, with its count at `depth` (at
/// least 1), in shakmaty's order; the moves counted on rayon's threads.
pub fn divide(position: &Chess, depth: u32, dialect: CastlingDialect) -> Vec<(String, u64)> {
    counted_moves(position, depth)
        .into_iter()
        .map(|(m, count)| (move_text(&m, dialect), count))
        .collect()
}

/// The number of move paths `depth` plies long from `position`, the root moves counted
/// on rayon's threads (depth 1: the legal moves, counted at once).
pub fn total(position: &Chess, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(position, depth);
    }
    counted_moves(position, depth)
        .into_iter()
        .map(|(_, count)| count)
        .sum()
}

/// Writes a divide as Stockfish's `go perft` does: `MOVE: COUNT` lines, an empty line,
/// `Nodes searched: N`.
pub fn write_divide(branches: &[(String, u64)], out: &mut impl Write) -> io::Result<()> {
    for (text, count) in branches {
        writeln!(out, "{text}: {count}")?;
    }
    let nodes: u64 = branches.iter().map(|(_, count)| count).sum();
    writeln!(out, "\nNodes searched: {nodes}")
}

/// The positions of the perft suite: the 960 starts in SP order, then the castling cases
/// of [`cases`](super::cases), each as its four EPD fields (Shredder castling).
pub fn suite_positions() -> Result<Vec<(String, Chess)>, PerftError> {
    let mut positions = Vec::with_capacity(960 + cases().len());
    for sp in StartPosition::all() {
        let start = Start::symmetric(sp);
        let position = start.position()?;
        positions.push((
            epd_fields(&start.setup(), CastlingNotation::Shredder),
            position,
        ));
    }
    for case in cases() {
        let fields: Vec<&str> = case.fen.split(' ').take(4).collect();
        let position = position_of(case.fen)?;
        positions.push((fields.join(" "), position));
    }
    Ok(positions)
}

/// The suite's record of `position` (its EPD `fields`): `FIELDS ;D1 C1 ... ;DN CN`.
pub fn suite_record(fields: &str, position: &Chess, depth: u32) -> String {
    let mut record = fields.to_owned();
    for d in 1..=depth {
        record.push_str(&format!(" ;D{d} {}", total(position, d)));
    }
    record
}

/// Writes the perft suite ([`suite_positions`]) with `;D1` to `;D{depth}`, a record a
/// line, the records counted on rayon's threads and written in order.
pub fn write_suite(depth: u32, out: &mut impl Write) -> Result<(), SuiteError> {
    let positions = suite_positions()?;
    let records: Vec<String> = positions
        .par_iter()
        .map(|(fields, position)| suite_record(fields, position, depth))
        .collect();
    for record in records {
        writeln!(out, "{record}")?;
    }
    out.flush()?;
    Ok(())
}

/// Why the suite could not be written.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// A position of the suite that failed to read (an internal error).
    #[error(transparent)]
    Perft(#[from] PerftError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::notation::position_fen;

    fn counts(text: &str, depths: u32) -> Vec<u64> {
        let position = position_of(text).unwrap();
        (1..=depths).map(|depth| total(&position, depth)).collect()
    }

    #[test]
    fn standard_start_counts() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(counts(fen, 4), [20, 400, 8902, 197_281]);
        assert_eq!(counts("518", 3), [20, 400, 8902]);
    }

    #[test]
    fn sp_860_counts_as_python_chess() {
        // python-chess 1.11.2, chess.Board(fen, chess960=True), tests/python/perft.py.
        let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
        assert_eq!(counts(fen, 4), [20, 400, 8984, 200_053]);
        assert_eq!(counts("860", 4), [20, 400, 8984, 200_053]);
        // X-FEN castling reads the same.
        let xfen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1";
        assert_eq!(counts(xfen, 3), [20, 400, 8984]);
    }

    #[test]
    fn divide_writes_castling_in_the_dialect_asked() {
        let position = position_of("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        let chess960 = divide(&position, 2, CastlingDialect::Chess960);
        let standard = divide(&position, 2, CastlingDialect::Standard);
        assert_eq!(chess960.len(), 26);
        let count = |branches: &[(String, u64)], text: &str| {
            branches.iter().find(|(t, _)| t == text).map(|(_, c)| *c)
        };
        let sum = |branches: &[(String, u64)]| branches.iter().map(|(_, c)| c).sum::<u64>();
        assert_eq!(sum(&chess960), total(&position, 2));
        assert_eq!(sum(&standard), sum(&chess960));
        // King takes rook in Chess960, the king's destination in standard.
        assert!(count(&chess960, "e1h1").is_some() && count(&chess960, "e1g1").is_none());
        assert!(count(&standard, "e1g1").is_some() && count(&standard, "e1h1").is_none());
        assert_eq!(count(&chess960, "e1h1"), count(&standard, "e1g1"));
        assert_eq!(count(&chess960, "e1a1"), count(&standard, "e1c1"));
    }

    #[test]
    fn divide_prints_as_stockfish() {
        let position = position_of("518").unwrap();
        let mut out = Vec::new();
        write_divide(&divide(&position, 1, CastlingDialect::Chess960), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("a2a3: 1\n") || text.contains("\na2a3: 1\n"));
        assert!(text.ends_with("\n\nNodes searched: 20\n"));
        assert_eq!(text.lines().count(), 22);
    }

    #[test]
    fn moves_in_either_notation_are_played_first() {
        let start = position_of("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1").unwrap();
        let moves = |list: &[&str]| list.iter().map(|m| (*m).to_owned()).collect::<Vec<_>>();
        let chess960 = play(start.clone(), &moves(&["e1h1", "e8a8"])).unwrap();
        let standard = play(start.clone(), &moves(&["e1g1", "e8c8"])).unwrap();
        assert_eq!(chess960, standard);
        assert_eq!(
            position_fen(&chess960, CastlingNotation::Shredder),
            "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"
        );
        let err = play(start, &moves(&["e2e4", "e2e4"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--moves: move 2: 'e2e4' is not a legal move here"
        );
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        assert!(matches!(
            position_of("nonsense"),
            Err(PerftError::NotFen { .. })
        ));
        assert!(matches!(position_of("960"), Err(PerftError::NotFen { .. })));
        assert!(matches!(
            position_of("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(PerftError::IllegalPosition { .. })
        ));
        assert!(matches!(checked_depth(0), Err(PerftError::Depth(0))));
        assert!(matches!(checked_depth(9), Err(PerftError::Depth(9))));
        assert_eq!(checked_depth(8).unwrap(), 8);
    }

    #[test]
    fn suite_starts_with_sp_0_and_ends_with_the_cases() {
        let positions = suite_positions().unwrap();
        assert_eq!(positions.len(), 960 + cases().len());
        let (fields, position) = &positions[0];
        assert_eq!(
            suite_record(fields, position, 3),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ;D1 20 ;D2 400 ;D3 9006"
        );
        let (fields, position) = &positions[518];
        assert_eq!(
            suite_record(fields, position, 2),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - ;D1 20 ;D2 400"
        );
        assert_eq!(
            positions[960].0,
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb -"
        );
    }
}
