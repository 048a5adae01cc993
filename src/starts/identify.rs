//! Which start is this? A FEN, an EPD or an 8-letter arrangement in, an SP (or `W:B`) out,
//! or the list of what keeps the position from being an untouched Chess960 start.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Setup, Square};
use thiserror::Error;

use crate::starts::notation::{CastlingNotation, castling_field};
use crate::starts::numbering::{ArrangementError, BackRank};
use crate::starts::start::Start;

/// Why a text could not be identified as a start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IdentifyError {
    /// Eight letters that are no Chess960 arrangement.
    #[error("not a Chess960 arrangement: {0}")]
    Arrangement(#[from] ArrangementError),
    /// Text that shakmaty cannot read as a FEN.
    #[error("not a FEN: {0}")]
    Fen(ParseFenError),
    /// A readable position that is not an untouched start; every difference is listed.
    #[error("not an untouched Chess960 start: {}", .0.join("; "))]
    NotAStart(Vec<String>),
}

/// Identifies `text`: 8 piece letters (either case), or a FEN/EPD (Shredder, X-FEN or
/// `KQkq` castling; 4-field EPD, with or without operations, is accepted).
pub fn identify(text: &str) -> Result<Start, IdentifyError> {
    let text = text.trim();
    if !text.contains('/') && !text.contains(' ') {
        let rank: BackRank = text.parse()?;
        return Ok(Start::symmetric(rank.number()));
    }
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    // FEN: six fields, the last two counters. EPD: four fields, then operations, if any.
    let has_counters = fields.len() == 6
        && fields[4..]
            .iter()
            .all(|f| f.bytes().all(|b| b.is_ascii_digit()));
    let position_fields = if has_counters { 6 } else { fields.len().min(4) };
    if fields.len() < 4 && !fields.is_empty() {
        return Err(IdentifyError::NotAStart(vec![format!(
            "only {} of the 4 FEN fields (board, side to move, castling, en passant)",
            fields.len()
        )]));
    }
    let fen = Fen::from_ascii(fields[..position_fields].join(" ").as_bytes())
        .map_err(IdentifyError::Fen)?;
    identify_setup(fen.as_setup(), has_counters)
}

/// Identifies an already parsed position; `check_counters` says whether the move counters
/// were given (they must then be 0 and 1).
pub fn identify_setup(setup: &Setup, check_counters: bool) -> Result<Start, IdentifyError> {
    let mut differences = Vec::new();
    let white = back_rank(&setup.board, Color::White, &mut differences);
    let black = back_rank(&setup.board, Color::Black, &mut differences);
    pawns_and_empty_middle(&setup.board, &mut differences);
    if setup.turn == Color::Black {
        differences.push("black to move (a start has white to move)".to_owned());
    }
    let start = white.zip(black).map(|(white, black)| Start {
        white: white.number(),
        black: black.number(),
    });
    if let Some(start) = start {
        // Rights are judged against the arrangement, so only once both back ranks are right.
        let expected = start.setup().castling_rights;
        let letters = |rooks: Bitboard| {
            let mut only = setup.clone();
            only.castling_rights = rooks;
            castling_field(&only, CastlingNotation::Shredder)
        };
        let missing = expected & !setup.castling_rights;
        if missing.any() {
            differences.push(format!("castling rights {} missing", letters(missing)));
        }
        let extra = setup.castling_rights & !expected;
        if extra.any() {
            differences.push(format!("extra castling rights {}", letters(extra)));
        }
    }
    if let Some(square) = setup.ep_square {
        differences.push(format!("en-passant square {square} (a start has none)"));
    }
    if check_counters && (setup.halfmoves != 0 || setup.fullmoves.get() != 1) {
        differences.push(format!(
            "move counters {} {} (a start has 0 1)",
            setup.halfmoves, setup.fullmoves
        ));
    }
    match start {
        Some(start) if differences.is_empty() => Ok(start),
        _ => Err(IdentifyError::NotAStart(differences)),
    }
}

/// Reads `color`'s back rank, noting what is wrong with it.
fn back_rank(board: &Board, color: Color, differences: &mut Vec<String>) -> Option<BackRank> {
    let rank = color.fold_wb(Rank::First, Rank::Eighth);
    let side = color.fold_wb("white", "black");
    let mut roles = [Role::Pawn; 8];
    let mut complete = true;
    for (file, slot) in File::ALL.into_iter().zip(roles.iter_mut()) {
        let square = Square::from_coords(file, rank);
        match board.piece_at(square) {
            Some(piece) if piece.color == color && piece.role != Role::Pawn => *slot = piece.role,
            Some(piece) => {
                complete = false;
                differences.push(format!(
                    "{} {} on {square}",
                    color_name(piece.color),
                    role_name(piece.role)
                ));
            }
            None => {
                complete = false;
                differences.push(format!("{square} is empty (a {side} piece belongs there)"));
            }
        }
    }
    if !complete {
        return None;
    }
    BackRank::new(roles)
        .map_err(|err| differences.push(format!("{side}'s back rank: {err}")))
        .ok()
}

/// Ranks 2 and 7 full of pawns, ranks 3 to 6 empty.
fn pawns_and_empty_middle(board: &Board, differences: &mut Vec<String>) {
    for rank in Rank::ALL.into_iter().skip(1).take(6) {
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let expected = match rank {
                Rank::Second => Some(Color::White),
                Rank::Seventh => Some(Color::Black),
                _ => None,
            };
            let found = board.piece_at(square);
            match (expected, found) {
                (Some(color), Some(piece)) if piece.color == color && piece.role == Role::Pawn => {}
                (Some(color), None) => {
                    differences.push(format!("{} pawn missing from {square}", color_name(color)))
                }
                (_, Some(piece)) => differences.push(format!(
                    "{} {} on {square}",
                    color_name(piece.color),
                    role_name(piece.role)
                )),
                (None, None) => {}
            }
        }
    }
}

/// `pawn`, `knight`, ... `king`.
pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// `white` or `black`.
pub(crate) fn color_name(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::starts::notation::{start_epd, start_fen};
    use crate::starts::numbering::StartPosition;

    fn not_a_start(text: &str) -> Vec<String> {
        match identify(text) {
            Err(IdentifyError::NotAStart(differences)) => differences,
            other => panic!("{text}: expected NotAStart, got {other:?}"),
        }
    }

    #[test]
    fn arrangements_and_fens() {
        assert_eq!(identify("RBKNRNBQ").unwrap().to_string(), "860");
        assert_eq!(identify("rbknrnbq").unwrap().to_string(), "860");
        assert_eq!(
            identify("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .unwrap()
                .to_string(),
            "518"
        );
        assert_eq!(
            identify("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca -")
                .unwrap()
                .to_string(),
            "0:959"
        );
        assert_eq!(
            identify("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - id \"DFRC 0:959\";")
                .unwrap()
                .to_string(),
            "0:959"
        );
    }

    #[test]
    fn every_start_and_every_dfrc_pair_round_trips() {
        // All 921,600 pairs (the 960 classic starts among them), through FEN text and back.
        for white in StartPosition::all() {
            for black in StartPosition::all() {
                let start = Start { white, black };
                let fen = start_fen(start, CastlingNotation::Shredder).unwrap();
                assert_eq!(identify(&fen), Ok(start), "{fen}");
            }
        }
    }

    #[test]
    fn xfen_and_epd_forms_round_trip_for_all_960() {
        for sp in StartPosition::all() {
            let start = Start::symmetric(sp);
            for notation in [CastlingNotation::Shredder, CastlingNotation::Xfen] {
                assert_eq!(identify(&start_fen(start, notation).unwrap()), Ok(start));
                assert_eq!(identify(&start_epd(start, notation).unwrap()), Ok(start));
            }
            assert_eq!(
                identify(&sp.back_rank().to_string().to_lowercase()),
                Ok(start)
            );
        }
    }

    #[test]
    fn what_differs_is_named() {
        let moved = not_a_start("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert!(
            moved.contains(&"white pawn missing from e2".to_owned()),
            "{moved:?}"
        );
        assert!(moved.contains(&"white pawn on e4".to_owned()), "{moved:?}");
        assert!(
            moved.iter().any(|d| d.starts_with("black to move")),
            "{moved:?}"
        );
        assert!(
            moved.iter().any(|d| d.starts_with("en-passant square e3")),
            "{moved:?}"
        );

        let rights = not_a_start("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w Ea - 0 1");
        assert_eq!(rights, ["castling rights Ae missing"]);
        let counters = not_a_start("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 3 7");
        assert_eq!(counters, ["move counters 3 7 (a start has 0 1)"]);

        let knight_out = not_a_start("rbknrnbq/pppppppp/8/8/8/5N2/PPPPPPPP/RBK1RNBQ w EAea - 0 1");
        assert!(knight_out.contains(&"d1 is empty (a white piece belongs there)".to_owned()));
        assert!(knight_out.contains(&"white knight on f3".to_owned()));

        let bad_rank = not_a_start("rbnbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RBNBKQNR w KQkq - 0 1");
        assert!(
            bad_rank
                .iter()
                .any(|d| d.contains("white's back rank") && d.contains("bishops"))
        );
    }

    #[test]
    fn extra_castling_rights_are_named() {
        // SP 860 with an extra right for a rook that does not exist is rejected by the FEN
        // reader itself; an extra right on a real rook is not possible in a start, so test the
        // DFRC mismatch: black's rights from another arrangement.
        let err = identify("rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAha - 0 1").unwrap_err();
        assert!(
            matches!(err, IdentifyError::Fen(_) | IdentifyError::NotAStart(_)),
            "{err:?}"
        );
    }

    #[test]
    fn arrangement_and_fen_errors() {
        assert!(matches!(
            identify("RNBQKBN"),
            Err(IdentifyError::Arrangement(ArrangementError::WrongLength(7)))
        ));
        assert!(matches!(
            identify("8/8/8/8 w - - 0 1"),
            Err(IdentifyError::Fen(_))
        ));
        assert!(matches!(
            identify("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
            Err(IdentifyError::NotAStart(_))
        ));
        assert!(identify("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_ok());
        let empty = not_a_start("8/8/8/8/8/8/8/8 w - - 0 1");
        assert!(
            empty
                .iter()
                .any(|d| d == "a1 is empty (a white piece belongs there)")
        );
    }
}
