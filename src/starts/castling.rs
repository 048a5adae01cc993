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
mod tests {
    use super::*;

    fn position(fen: &str) -> Chess {
        crate::starts::notation::chess960_position(fen)
    }

    fn text(pos: &Chess, input: &str, dialect: CastlingDialect) -> String {
        move_text(&parse_move(pos, input.as_bytes()).unwrap(), dialect)
    }

    /// SP 860 after 12 plies: king c1, rooks a1 and e1, both castlings legal.
    const SP860_CASTLING: &str =
        "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7";

    #[test]
    fn sp860_reads_both_notations_and_writes_each_dialect() {
        let pos = position(SP860_CASTLING);
        // O-O: king c1 -> g1, rook e1 -> f1.
        for input in ["c1e1", "c1g1"] {
            let m = parse_move(&pos, input.as_bytes()).unwrap();
            assert_eq!(
                m,
                Move::Castle {
                    king: Square::C1,
                    rook: Square::E1
                },
                "{input}"
            );
            assert_eq!(move_text(&m, CastlingDialect::Chess960), "c1e1");
            assert_eq!(move_text(&m, CastlingDialect::Standard), "c1g1");
        }
        // O-O-O: the king stays on c1, so both dialects write king takes rook.
        let m = parse_move(&pos, b"c1a1").unwrap();
        assert_eq!(
            m,
            Move::Castle {
                king: Square::C1,
                rook: Square::A1
            }
        );
        assert_eq!(move_text(&m, CastlingDialect::Standard), "c1a1");
        // `c1c1`, what Stockfish writes for it with UCI_Chess960 off, reads as O-O-O too;
        // nothing here ever writes it.
        assert_eq!(parse_move(&pos, b"c1c1").unwrap(), m);
        // A plain king step is still a king step.
        assert_eq!(text(&pos, "c1d1", CastlingDialect::Standard), "c1d1");
    }

    #[test]
    fn standard_start_castles_both_ways() {
        let pos = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        assert_eq!(text(&pos, "e1g1", CastlingDialect::Chess960), "e1h1");
        assert_eq!(text(&pos, "e1h1", CastlingDialect::Standard), "e1g1");
        assert_eq!(text(&pos, "e1c1", CastlingDialect::Chess960), "e1a1");
        assert_eq!(text(&pos, "e1a1", CastlingDialect::Standard), "e1c1");
        // e1f1 and e1d1 are king steps.
        assert_eq!(text(&pos, "e1f1", CastlingDialect::Chess960), "e1f1");
    }

    #[test]
    fn a_king_step_wins_over_castling_to_the_same_square() {
        // King f1, rook h1: O-O puts the king on g1, and so does the step f1g1.
        let pos = position("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        let step = parse_move(&pos, b"f1g1").unwrap();
        assert!(!step.is_castle());
        let castle = parse_move(&pos, b"f1h1").unwrap();
        assert!(castle.is_castle());
        // Written in the standard dialect, castling stays king-takes-rook: f1g1 would read
        // back as the step.
        assert_eq!(move_text(&castle, CastlingDialect::Standard), "f1h1");
    }

    #[test]
    fn king_takes_rook_reads_first() {
        // King b1, rooks a1 and c1: b1c1 is O-O (king takes the c1 rook), not O-O-O (whose
        // king would go to c1, but the c1 rook blocks it).
        let pos = position("1k6/8/8/8/8/8/8/RKR5 w CA - 0 1");
        assert_eq!(
            parse_move(&pos, b"b1c1").unwrap(),
            Move::Castle {
                king: Square::B1,
                rook: Square::C1
            }
        );
        assert!(parse_move(&pos, b"b1a1").is_err());
        assert_eq!(text(&pos, "b1c1", CastlingDialect::Standard), "b1g1");
        assert_eq!(text(&pos, "b1g1", CastlingDialect::Chess960), "b1c1");
    }

    #[test]
    fn black_and_mate_positions() {
        // Mate in one by O-O-O with the king not moving (notes: position A).
        let pos = position("3k4/2R1R3/8/8/8/8/P7/R1K5 w A - 0 1");
        let m = parse_move(&pos, b"c1a1").unwrap();
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert!(after.is_checkmate());
        let black = position("rk2r3/8/8/8/8/8/8/7K b ea - 0 1");
        assert_eq!(text(&black, "b8g8", CastlingDialect::Chess960), "b8e8");
        assert_eq!(text(&black, "b8e8", CastlingDialect::Standard), "b8g8");
        assert_eq!(text(&black, "b8a8", CastlingDialect::Standard), "b8a8");
    }

    #[test]
    fn errors_name_the_move() {
        let pos = Chess::default();
        assert_eq!(
            parse_move(&pos, b"e2e5"),
            Err(MoveError::Illegal("e2e5".into()))
        );
        assert_eq!(
            parse_move(&pos, b"xyz"),
            Err(MoveError::Syntax("xyz".into()))
        );
        assert_eq!(parse_move(&pos, b"0000"), Err(MoveError::Null));
        assert!(
            MoveError::Illegal("e2e5".into())
                .to_string()
                .contains("e2e5")
        );
        assert_eq!(text(&pos, "g1f3", CastlingDialect::Standard), "g1f3");
    }

    #[test]
    fn promotions_and_en_passant_survive() {
        let pos = position("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_eq!(text(&pos, "b7b8n", CastlingDialect::Standard), "b7b8n");
        assert_eq!(text(&pos, "e5d6", CastlingDialect::Chess960), "e5d6");
        assert!(parse_move(&pos, b"b7b8").is_err());
    }

    #[test]
    fn lines_translate_until_the_first_bad_token() {
        let pos = position(SP860_CASTLING);
        let mut out = Vec::new();
        let tokens: Vec<&[u8]> = vec![b"c1e1", b"g6f4", b"g3f5", b"junk", b"e1g1"];
        translate_moves(&pos, tokens, CastlingDialect::Standard, &mut out);
        assert_eq!(out, b"c1g1 g6f4 g3f5 junk e1g1");
    }

    #[test]
    fn castling_texts_cover_both_notations() {
        let pos = position(SP860_CASTLING);
        let texts: Vec<String> = castling_texts(&pos)
            .iter()
            .map(|t| String::from_utf8(t.to_vec()).unwrap())
            .collect();
        for expected in ["c1e1", "c1g1", "c1a1", "c8e8", "c8g8", "c8a8"] {
            assert!(
                texts.contains(&expected.to_string()),
                "{expected} in {texts:?}"
            );
        }
        assert!(castling_texts(&position("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).is_empty());
        let filter = CastlingFilter::new(&pos);
        assert!(filter.might_match(b"info depth 3 pv c1e1 g6f4"));
        assert!(filter.might_match(b"c8g8"));
        assert!(!filter.might_match(b"info depth 3 pv d2c1 c1d1 xc1e1 g6f4"));
        assert!(!filter.might_match(b"info depth 3 pv c1e"));
    }
}
