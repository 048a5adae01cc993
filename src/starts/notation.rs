//! FEN and EPD text with the castling notation a reader wants: Shredder-FEN file letters
//! (`HAha`, the default) or X-FEN (`KQkq`, file letters only where `K`/`Q` would be
//! ambiguous).

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, EnPassantMode, Position, Setup};

use crate::starts::start::{InvalidStart, Start};

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How the castling field of a FEN names the castling rooks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum CastlingNotation {
    /// Shredder-FEN: the rook's file letter, king-side first (`HAha`).
    #[default]
    Shredder,
    /// X-FEN: `K`/`Q` for the outermost rook on each side, file letters otherwise (`KQkq`).
    Xfen,
}

/// The castling field (`HAha`, `KQkq` or `-`) of a board with castling rights on the rook
/// squares `rights`: white's before black's, king-side before queen-side.
pub fn castling_field(setup: &Setup, notation: CastlingNotation) -> String {
    let mut field = String::new();
    for color in Color::ALL {
        let rooks_on_back_rank =
            setup.board.by_color(color) & setup.board.rooks() & color.backrank();
        let king = (setup.board.by_color(color) & setup.board.kings() & color.backrank()).first();
        // Descending file order puts king-side rooks (right of the king) first.
        let rights: Vec<_> = (setup.castling_rights & color.backrank())
            .into_iter()
            .rev()
            .collect();
        for rook in rights {
            let file_letter = rook.file().char();
            let letter = match (notation, king) {
                (CastlingNotation::Xfen, Some(king)) => {
                    let king_side = rook.file() > king.file();
                    let outer = if king_side {
                        rooks_on_back_rank.last()
                    } else {
                        rooks_on_back_rank.first()
                    };
                    match (outer == Some(rook), king_side) {
                        (true, true) => 'k',
                        (true, false) => 'q',
                        (false, _) => file_letter,
                    }
                }
                _ => file_letter,
            };
            field.push(color.fold_wb(letter.to_ascii_uppercase(), letter));
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}

/// The first four FEN fields (board, side to move, castling, en passant): an EPD without
/// operations.
pub fn epd_fields(setup: &Setup, notation: CastlingNotation) -> String {
    let mut text = String::with_capacity(96);
    setup.board.board_fen().append_to_string(&mut text);
    text.push(' ');
    text.push(setup.turn.fold_wb('w', 'b'));
    text.push(' ');
    text.push_str(&castling_field(setup, notation));
    text.push(' ');
    match setup.ep_square {
        Some(square) => {
            let _ = write!(text, "{square}");
        }
        None => text.push('-'),
    }
    text
}

/// A full six-field FEN of `setup`.
pub fn fen(setup: &Setup, notation: CastlingNotation) -> String {
    format!(
        "{} {} {}",
        epd_fields(setup, notation),
        setup.halfmoves,
        setup.fullmoves
    )
}

/// A full six-field FEN of a position, the en-passant square only when a capture there is
/// legal (as python-chess and Stockfish write it).
pub fn position_fen(position: &Chess, notation: CastlingNotation) -> String {
    fen(&position.to_setup(EnPassantMode::Legal), notation)
}

/// The six-field FEN of a start, re-read through shakmaty in Chess960 mode before it is
/// returned.
pub fn start_fen(start: Start, notation: CastlingNotation) -> Result<String, InvalidStart> {
    let mut text = checked_start_fields(start, notation)?;
    text.push_str(" 0 1");
    Ok(text)
}

/// The EPD record of a start: four fields and an `id` naming it (`id "SP 860";` or
/// `id "DFRC 0:959";`).
pub fn start_epd(start: Start, notation: CastlingNotation) -> Result<String, InvalidStart> {
    let fields = checked_start_fields(start, notation)?;
    Ok(format!("{fields} id \"{}\";", start.label()))
}

/// Which record `sp960 fen` and `sp960 book` write for a start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum RecordFormat {
    /// The six-field FEN.
    #[default]
    Fen,
    /// Four EPD fields and an `id` operation naming the start.
    Epd,
}

/// The record of a start in `format`.
pub fn start_record(
    start: Start,
    notation: CastlingNotation,
    format: RecordFormat,
) -> Result<String, InvalidStart> {
    match format {
        RecordFormat::Fen => start_fen(start, notation),
        RecordFormat::Epd => start_epd(start, notation),
    }
}

/// The four EPD fields of a start, read back through shakmaty in Chess960 mode (its one
/// legality check) and compared with the start: the same pieces and all four castling
/// rights, or an [`InvalidStart`] (a bug, reported rather than printed).
fn checked_start_fields(start: Start, notation: CastlingNotation) -> Result<String, InvalidStart> {
    let expected = start.setup();
    let text = epd_fields(&expected, notation);
    let fail = |reason: String| InvalidStart { start, reason };
    let reread: Chess = Fen::from_ascii(text.as_bytes())
        .map_err(|err| fail(format!("{text}: {err}")))?
        .into_position(CastlingMode::Chess960)
        .map_err(|err| fail(format!("{text}: {err}")))?;
    let rights: Bitboard = reread.castles().castling_rights();
    if reread.board() != &expected.board
        || rights != expected.castling_rights
        || rights.count() != 4
    {
        return Err(fail(format!("{text} does not read back as the same start")));
    }
    Ok(text)
}

/// A position for the tests: `fen` (either castling notation) read in Chess960 mode.
#[cfg(test)]
pub(crate) fn chess960_position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(spec: &str) -> Start {
        spec.parse().unwrap()
    }

    #[test]
    fn shredder_castling_king_side_first() {
        let field = |spec: &str| {
            let text = start_fen(start(spec), CastlingNotation::Shredder).unwrap();
            text.split(' ').nth(2).unwrap().to_owned()
        };
        assert_eq!(field("0"), "HFhf");
        assert_eq!(field("518"), "HAha");
        assert_eq!(field("860"), "EAea");
        assert_eq!(field("959"), "CAca");
        assert_eq!(field("0:959"), "HFca");
    }

    #[test]
    fn reference_fens() {
        assert_eq!(
            start_fen(start("518"), CastlingNotation::Shredder).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert_eq!(
            start_fen(start("518"), CastlingNotation::Xfen).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            start_fen(start("0:959"), CastlingNotation::Shredder).unwrap(),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"
        );
        assert_eq!(
            start_fen(start("860"), CastlingNotation::Xfen).unwrap(),
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w KQkq - 0 1"
        );
    }

    #[test]
    fn epd_records_name_the_start() {
        assert_eq!(
            start_epd(start("860"), CastlingNotation::Shredder).unwrap(),
            "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - id \"SP 860\";"
        );
        assert_eq!(
            start_epd(start("0:959"), CastlingNotation::Xfen).unwrap(),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - id \"DFRC 0:959\";"
        );
    }

    #[test]
    fn xfen_uses_file_letters_only_when_ambiguous() {
        // White king e1, rooks on f1 and h1, right only with the inner f1 rook: 'F', not 'K'.
        let fen: Fen = "4k3/8/8/8/8/8/8/4KR1R w F - 0 1".parse().unwrap();
        let setup = fen.into_setup();
        assert_eq!(castling_field(&setup, CastlingNotation::Xfen), "F");
        assert_eq!(castling_field(&setup, CastlingNotation::Shredder), "F");
        let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQq - 3 9".parse().unwrap();
        let setup = fen.into_setup();
        assert_eq!(castling_field(&setup, CastlingNotation::Xfen), "KQq");
        assert_eq!(castling_field(&setup, CastlingNotation::Shredder), "HAa");
        assert_eq!(fen_of(&setup), "r3k2r/8/8/8/8/8/8/R3K2R b HAa - 3 9");
    }

    #[test]
    fn no_rights_is_a_dash_and_en_passant_is_kept() {
        let fen: Fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2".parse().unwrap();
        assert_eq!(
            fen_of(&fen.into_setup()),
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
        );
    }

    fn fen_of(setup: &Setup) -> String {
        fen(setup, CastlingNotation::Shredder)
    }
}
