//! Moves as XBoard peers write them: coordinate notation (castling as king takes rook or
//! king to its destination, read by [`crate::starts::castling::parse_move`]), SAN castling
//! `O-O`/`O-O-O` (also `0-0`, with `+`/`#` suffixes), and full SAN for `san=1` engines.
//! And the castling forms engines take, for writing.

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Move};

use crate::starts::castling::{CastlingDialect, MoveError, parse_move, write_move};

/// How a peer writes (or takes) a castling move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingForm {
    /// `O-O` / `O-O-O` (SAN): what xboard sends, what Sjaak II writes.
    OO,
    /// Coordinate notation in a [`CastlingDialect`]: king takes rook (`e1h1`, what
    /// Fairy-Stockfish and cutechess write) or king to its destination (`e1g1`).
    Coordinate(CastlingDialect),
}

/// The castling side of `text` if it is SAN castling (`O-O`, `0-0-0`, `O-O#`, ...).
pub fn san_castling_side(text: &[u8]) -> Option<CastlingSide> {
    let end = text
        .iter()
        .rposition(|b| !matches!(b, b'+' | b'#' | b'!' | b'?'))
        .map_or(0, |i| i + 1);
    match &text[..end] {
        b"O-O" | b"0-0" => Some(CastlingSide::KingSide),
        b"O-O-O" | b"0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// True when `text` has the shape of a chess move in any notation XBoard peers use
/// (coordinate, SAN, SAN castling), legal or not: how a bare GUI line is told apart from
/// a command the proxy does not know.
pub fn looks_like_move(text: &[u8]) -> bool {
    if san_castling_side(text).is_some() {
        return true;
    }
    let coordinate = text.len() >= 4
        && text.len() <= 5
        && matches!(text[0], b'a'..=b'h')
        && matches!(text[1], b'1'..=b'8')
        && matches!(text[2], b'a'..=b'h')
        && matches!(text[3], b'1'..=b'8')
        && text.get(4).is_none_or(|p| b"qrbnk".contains(p));
    coordinate || matches!(San::from_ascii(text), Ok(San::Normal { .. }))
}

/// Reads `text` as a legal move in `position`: SAN castling (for the side to move),
/// coordinate notation (either castling dialect), or SAN.
pub fn parse_xboard_move(position: &Chess, text: &[u8]) -> Result<Move, MoveError> {
    let shown = || String::from_utf8_lossy(text).into_owned();
    if let Some(side) = san_castling_side(text) {
        return San::Castle(side)
            .to_move(position)
            .map_err(|_| MoveError::Illegal(shown()));
    }
    match parse_move(position, text) {
        Err(MoveError::Syntax(_)) => match San::from_ascii(text) {
            Ok(san @ San::Normal { .. }) => san
                .to_move(position)
                .map_err(|_| MoveError::Illegal(shown())),
            _ => Err(MoveError::Syntax(shown())),
        },
        other => other,
    }
}

/// The form `text` writes castling in, if it is a castling move's text: SAN castling, king
/// takes rook, or king to its destination.
pub fn castling_form_of(m: &Move, text: &[u8]) -> Option<CastlingForm> {
    let Move::Castle { king, rook } = *m else {
        return None;
    };
    if san_castling_side(text).is_some() {
        return Some(CastlingForm::OO);
    }
    let to = text.get(2..4)?;
    let rook_text = [rook.file().char() as u8, rook.rank().char() as u8];
    let dialect = if to == rook_text && king != rook {
        CastlingDialect::Chess960
    } else {
        CastlingDialect::Standard
    };
    Some(CastlingForm::Coordinate(dialect))
}

/// Appends `m` written for a peer that takes castling in `form`; other moves in coordinate
/// notation.
pub fn write_xboard_move(m: &Move, form: CastlingForm, out: &mut Vec<u8>) {
    match (*m, form) {
        (Move::Castle { king, rook }, CastlingForm::OO) => {
            out.extend_from_slice(if king < rook { b"O-O" } else { b"O-O-O" });
        }
        (_, CastlingForm::Coordinate(dialect)) => write_move(m, dialect, out),
        (_, CastlingForm::OO) => write_move(m, CastlingDialect::Chess960, out),
    }
}

/// The text of `m` for a peer that takes castling in `form`.
pub fn xboard_move_text(m: &Move, form: CastlingForm) -> String {
    let mut out = Vec::with_capacity(5);
    write_xboard_move(m, form, &mut out);
    String::from_utf8(out).expect("move text is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::game::parse_fen;
    use shakmaty::{Position, Square};

    fn position(fen: &str) -> Chess {
        parse_fen(fen).unwrap().0
    }

    #[test]
    fn every_castling_notation_reads_as_the_same_move() {
        let pos = position("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1");
        let mut pos = pos;
        for m in [
            "d1e3", "d8e6", "f1g3", "f8g6", "f2f4", "f7f5", "g1f2", "g8f7",
        ] {
            let m = parse_xboard_move(&pos, m.as_bytes()).unwrap();
            pos.play_unchecked(m);
        }
        let king_side = Move::Castle {
            king: Square::C1,
            rook: Square::E1,
        };
        for text in ["O-O", "0-0", "O-O+", "c1e1", "c1g1"] {
            assert_eq!(
                parse_xboard_move(&pos, text.as_bytes()),
                Ok(king_side),
                "{text}"
            );
        }
        assert_eq!(xboard_move_text(&king_side, CastlingForm::OO), "O-O");
        assert_eq!(
            xboard_move_text(
                &king_side,
                CastlingForm::Coordinate(CastlingDialect::Chess960)
            ),
            "c1e1"
        );
        assert_eq!(
            castling_form_of(&king_side, b"c1e1"),
            Some(CastlingForm::Coordinate(CastlingDialect::Chess960))
        );
        assert_eq!(
            castling_form_of(&king_side, b"c1g1"),
            Some(CastlingForm::Coordinate(CastlingDialect::Standard))
        );
        assert_eq!(castling_form_of(&king_side, b"O-O"), Some(CastlingForm::OO));
        // O-O-O is blocked here (b1 bishop): legal-looking text, illegal move.
        assert_eq!(
            parse_xboard_move(&pos, b"O-O-O"),
            Err(MoveError::Illegal("O-O-O".into()))
        );
    }

    #[test]
    fn sp860_queen_side_where_the_king_stays() {
        let pos =
            position("r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7");
        let queen_side = parse_xboard_move(&pos, b"O-O-O").unwrap();
        assert_eq!(
            queen_side,
            Move::Castle {
                king: Square::C1,
                rook: Square::A1
            }
        );
        assert_eq!(parse_xboard_move(&pos, b"c1a1"), Ok(queen_side));
        assert_eq!(parse_xboard_move(&pos, b"c1c1"), Ok(queen_side));
        // Written for a king-to-destination peer it stays king takes rook (c1c1 is no move).
        assert_eq!(
            xboard_move_text(
                &queen_side,
                CastlingForm::Coordinate(CastlingDialect::Standard)
            ),
            "c1a1"
        );
        assert_eq!(xboard_move_text(&queen_side, CastlingForm::OO), "O-O-O");
    }

    #[test]
    fn san_and_shapes() {
        let pos = Chess::default();
        assert_eq!(
            parse_xboard_move(&pos, b"Nf3"),
            parse_xboard_move(&pos, b"g1f3")
        );
        assert!(parse_xboard_move(&pos, b"e4").is_ok());
        assert_eq!(
            parse_xboard_move(&pos, b"Nf5"),
            Err(MoveError::Illegal("Nf5".into()))
        );
        assert_eq!(
            parse_xboard_move(&pos, b"O-O"),
            Err(MoveError::Illegal("O-O".into()))
        );
        for text in [
            "e2e4", "e7e8q", "O-O-O", "0-0", "Nf3", "exd5", "e8=Q+", "Kxh1",
        ] {
            assert!(looks_like_move(text.as_bytes()), "{text}");
        }
        for text in [
            "new", "go", "force", "easy", "hard", "draw", "post", "c", "#", ".", "?", "e9",
            "xyzzy", "level",
        ] {
            assert!(!looks_like_move(text.as_bytes()), "{text}");
        }
    }
}
