//! Castling in UCI move text: the two dialects GUIs and engines speak, reading either one,
//! writing the one a peer wants, and rewriting whole move lists (`pv`, `moves ...`).
//!
//! Protocol-neutral: the UCI proxy, the XBoard proxy and the match runner all read and
//! write coordinate moves through this module.
//!
//! # Reading: both notations, where unambiguous
//! [`parse_move`] does not need to know the writer's dialect. A move text is read, in
//! this order of precedence:
//! 1. **king takes own rook** (`e1h1`, `c1e1`, `g1h1`): the king's square, then the square
//!    of a rook it may castle with. Never a legal plain move (the target holds our rook).
//! 2. **a legal plain move** (`f1g1` with the king on f1 is a king step, even when castling
//!    king-side would also put the king on g1: write that castling `f1h1`);
//! 3. **king to its castling destination** (`e1g1`, `e1c1`, and from SP 860 (king c1,
//!    rooks a1/e1) `c1g1` for O-O), what standard-chess GUIs and Arena write; this also
//!    reads `c1c1`, which Stockfish writes for SP 860's O-O-O with `UCI_Chess960` off.
//!
//! python-chess writes castling with `board.uci(move, chess960=False)` as king-to-
//! destination only for a king on e1/e8 with rooks on a/h; everywhere else it writes king
//! takes rook (SP 860: `c1e1` and `c1a1`, never `c1g1`). Both read as castling here.
//!
//! # Writing
//! [`CastlingDialect::Chess960`] writes king takes rook. [`CastlingDialect::Standard`]
//! writes the king's destination (`e1g1`, `c1g1`) unless the king moves at most one file
//! (SP 860 O-O-O would be `c1c1`, a null move; king f1 to g1 would read as a king step):
//! then it writes king takes rook (`c1a1`, `f1h1`), so every text it writes reads back as
//! the same move.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Color, Move, Position, Square};
use thiserror::Error;

/// How a peer writes castling moves in coordinate notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CastlingDialect {
    /// King takes own rook (`e1h1`): UCI with `UCI_Chess960` on, Shredder, python-chess
    /// on chess960 boards.
    Chess960,
    /// King to its destination (`e1g1`, `c1g1`), king takes rook where the king moves at
    /// most one file.
    Standard,
}

/// Why a move text is not a legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not coordinate notation (`e2e4`, `e7e8q`).
    #[error("'{0}' is not a move in coordinate notation")]
    Syntax(String),
    /// The null move `0000` where a real move is needed.
    #[error("'0000' (null move) is not a move that can be played")]
    Null,
    /// Well formed, but not legal here.
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
}

/// Reads `text` as a legal move in `position`, castling in either dialect (see the
/// module documentation for the order of precedence).
pub fn parse_move(position: &Chess, text: &[u8]) -> Result<Move, MoveError> {
    let shown = || String::from_utf8_lossy(text).into_owned();
    let uci = UciMove::from_ascii(text).map_err(|_| MoveError::Syntax(shown()))?;
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    else {
        return Err(match uci {
            UciMove::Null => MoveError::Null,
            _ => MoveError::Syntax(shown()),
        });
    };
    let legal = position.legal_moves();
    let king_takes_rook =
        |m: &Move| matches!(*m, Move::Castle { king, rook } if king == from && rook == to);
    let plain = |m: &Move| {
        !m.is_castle() && m.from() == Some(from) && m.to() == to && m.promotion() == promotion
    };
    let king_to_destination = |m: &Move| match *m {
        Move::Castle { king, rook } => {
            king == from
                && promotion.is_none()
                && castling_side(king, rook).king_to(position.turn()) == to
        }
        _ => false,
    };
    [
        &king_takes_rook as &dyn Fn(&Move) -> bool,
        &plain,
        &king_to_destination,
    ]
    .into_iter()
    .find_map(|matches| legal.iter().find(|m| matches(m)).cloned())
    .ok_or_else(|| MoveError::Illegal(shown()))
}

fn castling_side(king: Square, rook: Square) -> CastlingSide {
    CastlingSide::from_king_side(king < rook)
}

/// The coordinate text of `m` in `dialect`, appended to `out`.
pub fn write_move(m: &Move, dialect: CastlingDialect, out: &mut Vec<u8>) {
    let uci = match (*m, dialect) {
        (Move::Castle { king, rook }, CastlingDialect::Standard) => {
            let color = Color::from_white(king.rank() == shakmaty::Rank::First);
            let destination = castling_side(king, rook).king_to(color);
            if king.distance(destination) <= 1 {
                UciMove::from_chess960(*m)
            } else {
                UciMove::from_standard(*m)
            }
        }
        _ => UciMove::from_chess960(*m),
    };
    uci.append_ascii_to(out);
}

/// The coordinate text of `m` in `dialect`.
pub fn move_text(m: &Move, dialect: CastlingDialect) -> String {
    let mut out = Vec::with_capacity(5);
    write_move(m, dialect, &mut out);
    String::from_utf8(out).expect("coordinate notation is ASCII")
}

/// Every text that could be a castling move in `position` or in any position reached
/// from it, in either dialect: king takes rook and king to destination for each castling
/// right. A move list that contains none of these has no castling move in it, so it needs
/// no translation (castling rights only ever shrink, and castling never happens without
/// one).
pub fn castling_texts(position: &Chess) -> Vec<[u8; 4]> {
    let castles = position.castles();
    let mut texts = Vec::new();
    for color in Color::ALL {
        let Some(king) = position.board().king_of(color) else {
            continue;
        };
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = castles.rook(color, side) {
                for to in [rook, side.king_to(color)] {
                    let text = square_pair(king, to);
                    if !texts.contains(&text) {
                        texts.push(text);
                    }
                }
            }
        }
    }
    texts
}

/// A quick test for "might this line hold a castling move of `position`'s game?": one
/// substring search per king with castling rights (at most two), then a look at the two
/// bytes after each hit. Lines it rejects surely hold none of [`castling_texts`].
pub struct CastlingFilter {
    /// Per king square text: the finder and the target squares that follow it.
    kings: Vec<(memchr::memmem::Finder<'static>, Vec<[u8; 2]>)>,
}

impl CastlingFilter {
    /// The filter for games from `position`.
    pub fn new(position: &Chess) -> CastlingFilter {
        let mut kings: Vec<([u8; 2], Vec<[u8; 2]>)> = Vec::new();
        for text in castling_texts(position) {
            let (king, target) = ([text[0], text[1]], [text[2], text[3]]);
            match kings.iter_mut().find(|(square, _)| *square == king) {
                Some((_, targets)) => targets.push(target),
                None => kings.push((king, vec![target])),
            }
        }
        CastlingFilter {
            kings: kings
                .into_iter()
                .map(|(king, targets)| (memchr::memmem::Finder::new(&king).into_owned(), targets))
                .collect(),
        }
    }

    /// True when `line` contains a token starting with one of the castling texts.
    pub fn might_match(&self, line: &[u8]) -> bool {
        self.kings.iter().any(|(finder, targets)| {
            finder.find_iter(line).any(|at| {
                (at == 0 || line[at - 1].is_ascii_whitespace())
                    && line
                        .get(at + 2..at + 4)
                        .is_some_and(|target| targets.iter().any(|t| t == target))
            })
        })
    }
}

fn square_pair(from: Square, to: Square) -> [u8; 4] {
    [
        from.file().char() as u8,
        from.rank().char() as u8,
        to.file().char() as u8,
        to.rank().char() as u8,
    ]
}

/// Rewrites the moves of a line played from `position` (`e2e4 e7e5 e1h1 ...`) into
/// `dialect`, appending the text to `out` with single spaces. Stops translating at the first
/// token that is not a legal move and copies it and the rest unchanged: engines end
/// `pv`s with junk sometimes, and nothing of theirs is dropped.
pub fn translate_moves<'a>(
    position: &Chess,
    tokens: impl IntoIterator<Item = &'a [u8]>,
    dialect: CastlingDialect,
    out: &mut Vec<u8>,
) {
    let mut current = Some(position.clone());
    for (index, token) in tokens.into_iter().enumerate() {
        if index > 0 {
            out.push(b' ');
        }
        match current.as_ref().map(|pos| (pos, parse_move(pos, token))) {
            Some((pos, Ok(m))) => {
                write_move(&m, dialect, out);
                let mut next = pos.clone();
                next.play_unchecked(m);
                current = Some(next);
            }
            _ => {
                current = None;
                out.extend_from_slice(token);
            }
        }
    }
}

/// True unless `m` is a castling move a standard-chess engine cannot express: those need
/// the king on e1/e8 and the rook on the a- or h-file.
pub fn is_standard_castling(m: &Move) -> bool {
    match *m {
        Move::Castle { king, rook } => {
            king.file() == shakmaty::File::E
                && matches!(rook.file(), shakmaty::File::A | shakmaty::File::H)
        }
        _ => true,
    }
}

#[cfg(test)]
#[path = "castling_tests.rs"]
mod tests;
