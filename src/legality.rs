//! Is a readable position legal? shakmaty's [`PositionErrorKinds`] in words (which king is
//! missing, which castling letter has no rook, why an en-passant square is impossible),
//! and the two places where python-chess's `is_valid()` is laxer than shakmaty and
//! [`Rules::PythonChess`] follows it:
//! - too much material: shakmaty counts the promotions the pieces need (a third bishop on
//!   light squares needs a promoted pawn); python-chess only refuses more than 16 pieces
//!   or more than 8 pawns a side;
//! - two checking knights or pawns: impossible for shakmaty, accepted by python-chess.

use std::fmt::Write as _;

use shakmaty::attacks;
use shakmaty::{
    Bitboard, Board, Castles, CastlingMode, Chess, Color, Piece, PositionError, PositionErrorKinds,
    Rank, Role, Setup, Square,
};

use crate::identify::color_name;
use crate::record::{CheckOptions, Field, Rules, castling_square};

/// Why shakmaty's (and python-chess's) rules refuse a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The field the first reason is about.
    pub field: Field,
    /// The byte offset in that field (the first refused castling letter; else 0).
    pub offset: usize,
    /// shakmaty's `PositionErrorKinds` flags that apply, as `MISSING_KING | OPPOSITE_CHECK`.
    pub kinds: String,
    /// Every reason, in words.
    pub message: String,
}

/// The verdict on a position shakmaty refused with `error`, read from `setup` (the same
/// setup again; `castling` is the castling field as written): the position when the rules
/// in `options` accept it after all (python-chess is laxer on material and checks), else
/// the reasons.
pub fn judge(
    error: PositionError<Chess>,
    setup: &Setup,
    castling: &[u8],
    options: &CheckOptions,
) -> Result<Chess, Rejection> {
    let mut kinds = error.kinds();
    if options.rules == Rules::PythonChess {
        if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL)
            && too_many_pieces(&setup.board).is_empty()
        {
            kinds.remove(PositionErrorKinds::TOO_MUCH_MATERIAL);
        }
        if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) && !python_impossible_check(setup) {
            kinds.remove(PositionErrorKinds::IMPOSSIBLE_CHECK);
        }
        if kinds.is_empty() {
            return error
                .ignore_too_much_material()
                .or_else(PositionError::ignore_impossible_check)
                .map_err(|_| unreachable!("only material and check were ignored"));
        }
    }
    let mut reasons = Vec::new();
    let mut first = None;
    for (_, kind) in kinds.iter_names() {
        let (field, offset, reason) = describe(kind, setup, castling, options);
        first.get_or_insert((field, offset));
        reasons.push(reason);
    }
    let (field, offset) = first.unwrap_or((Field::Board, 0));
    let names: Vec<&str> = kinds.iter_names().map(|(name, _)| name).collect();
    Err(Rejection {
        field,
        offset,
        kinds: names.join(" | "),
        message: reasons.join("; "),
    })
}

/// python-chess's material limits: 16 pieces and 8 pawns a side.
fn too_many_pieces(board: &Board) -> Vec<String> {
    let mut reasons = Vec::new();
    for color in Color::ALL {
        let ours = board.by_color(color);
        let pieces = ours.count();
        if pieces > 16 {
            reasons.push(format!(
                "{} has {pieces} pieces (at most 16)",
                color_name(color)
            ));
        }
        let pawns = (ours & board.pawns()).count();
        if pawns > 8 {
            reasons.push(format!(
                "{} has {pawns} pawns (at most 8)",
                color_name(color)
            ));
        }
    }
    reasons
}

/// The en-passant square if python-chess and shakmaty accept it: on the sixth rank (from
/// the mover's side), empty, with the pushed pawn in front of it and its start square empty.
fn valid_ep_square(setup: &Setup) -> Result<Option<Square>, String> {
    let Some(square) = setup.ep_square else {
        return Ok(None);
    };
    if square.rank() != setup.turn.relative_rank(Rank::Sixth) {
        return Err(if setup.turn == Color::White {
            "white is to move, so it must be on rank 6".to_owned()
        } else {
            "black is to move, so it must be on rank 3".to_owned()
        });
    }
    let pushed_to = pushed_to(square, setup.turn);
    let mover = color_name(!setup.turn);
    if !(setup.board.pawns() & setup.board.by_color(!setup.turn)).contains(pushed_to) {
        return Err(format!(
            "no {mover} pawn on {pushed_to} that could have just moved two squares"
        ));
    }
    let pushed_from = pushed_from(square, setup.turn);
    if setup.board.occupied().contains(square) || setup.board.occupied().contains(pushed_from) {
        return Err(format!(
            "{square} and {pushed_from}, the squares the {mover} pawn came through, must be empty"
        ));
    }
    Ok(Some(square))
}

fn pushed_to(ep: Square, turn: Color) -> Square {
    Square::from_coords(ep.file(), turn.fold_wb(Rank::Fifth, Rank::Fourth))
}

fn pushed_from(ep: Square, turn: Color) -> Square {
    Square::from_coords(ep.file(), turn.fold_wb(Rank::Seventh, Rank::Second))
}

/// python-chess's `STATUS_IMPOSSIBLE_CHECK | STATUS_TOO_MANY_CHECKERS`: shakmaty's rule
/// without the one that two knights or pawns cannot both give check.
fn python_impossible_check(setup: &Setup) -> bool {
    let board = &setup.board;
    let Some(king) = board.king_of(setup.turn) else {
        return false;
    };
    let checkers = board.attacks_to(king, !setup.turn, board.occupied());
    let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else {
        return false;
    };
    if checkers.count() > 2 {
        return true;
    }
    match valid_ep_square(setup) {
        Ok(Some(ep)) => {
            let to = pushed_to(ep, setup.turn);
            let occupied_before = board
                .occupied()
                .without(to)
                .with(pushed_from(ep, setup.turn));
            checkers.count() > 1
                || (last != to && board.attacks_to(king, !setup.turn, occupied_before).any())
        }
        _ => first != last && attacks::aligned(first, king, last),
    }
}

/// One shakmaty error kind in words: the field it is about, the offset in that field (the
/// refused castling letter), the reason.
fn describe(
    kind: PositionErrorKinds,
    setup: &Setup,
    castling: &[u8],
    options: &CheckOptions,
) -> (Field, usize, String) {
    let board = &setup.board;
    let reason = match kind {
        PositionErrorKinds::EMPTY_BOARD => "the board is empty".to_owned(),
        PositionErrorKinds::MISSING_KING => Color::ALL
            .into_iter()
            .filter(|color| (board.kings() & board.by_color(*color)).is_empty())
            .map(|color| format!("{} has no king", color_name(color)))
            .collect::<Vec<_>>()
            .join("; "),
        PositionErrorKinds::TOO_MANY_KINGS => Color::ALL
            .into_iter()
            .map(|color| (color, (board.kings() & board.by_color(color)).count()))
            .filter(|(_, kings)| *kings > 1)
            .map(|(color, kings)| format!("{} has {kings} kings", color_name(color)))
            .collect::<Vec<_>>()
            .join("; "),
        PositionErrorKinds::PAWNS_ON_BACKRANK => {
            let squares = squares_list(board.pawns() & Bitboard::BACKRANKS);
            format!("pawns on the first or last rank ({squares})")
        }
        PositionErrorKinds::INVALID_CASTLING_RIGHTS => {
            let (offset, reason) = castling_reasons(castling, setup, options.mode);
            return (Field::Castling, offset, reason);
        }
        PositionErrorKinds::INVALID_EP_SQUARE => {
            let square = setup.ep_square.map(|s| s.to_string()).unwrap_or_default();
            let why = valid_ep_square(setup)
                .err()
                .unwrap_or_else(|| "impossible".to_owned());
            return (
                Field::EnPassant,
                0,
                format!("impossible en-passant square {square}: {why}"),
            );
        }
        PositionErrorKinds::OPPOSITE_CHECK => format!(
            "{} is in check but it is {}'s move",
            color_name(!setup.turn),
            color_name(setup.turn)
        ),
        PositionErrorKinds::IMPOSSIBLE_CHECK => {
            let checkers = board
                .king_of(setup.turn)
                .map(|king| board.attacks_to(king, !setup.turn, board.occupied()))
                .unwrap_or_default();
            format!(
                "impossible check: {} gives check from {} (no single last move could do that)",
                color_name(!setup.turn),
                squares_list(checkers)
            )
        }
        PositionErrorKinds::TOO_MUCH_MATERIAL => {
            let reasons = too_many_pieces(board);
            if reasons.is_empty() {
                "too much material: more pieces than the missing pawns could have promoted to"
                    .to_owned()
            } else {
                format!("too many pieces: {}", reasons.join(", "))
            }
        }
        other => format!("invalid position ({other:?})"),
    };
    (Field::Board, 0, reason)
}

fn squares_list(squares: Bitboard) -> String {
    let mut text = String::new();
    for square in squares {
        if !text.is_empty() {
            text.push_str(", ");
        }
        let _ = write!(text, "{square}");
    }
    text
}

/// The castling letters (of `field`, as written) whose rights shakmaty refused, and why;
/// and the offset of the first such letter in the field.
fn castling_reasons(field: &[u8], setup: &Setup, mode: CastlingMode) -> (usize, String) {
    let accepted = match Castles::from_setup(setup, mode) {
        Ok(castles) | Err(castles) => castles.castling_rights(),
    };
    let board = &setup.board;
    let mut reasons = Vec::new();
    let mut first_offset = None;
    let mut reported = Bitboard::EMPTY;
    for (offset, &letter) in field.iter().enumerate() {
        let color = Color::from_white(letter.is_ascii_uppercase());
        let square = castling_square(board, color, letter.to_ascii_lowercase());
        if letter == b'-' || accepted.contains(square) || reported.contains(square) {
            continue;
        }
        reported.add(square);
        first_offset.get_or_insert(offset);
        let rook = Piece {
            color,
            role: Role::Rook,
        };
        let why = if board.piece_at(square) != Some(rook) {
            format!("no {} rook on {square}", color_name(color))
        } else if board
            .king_of(color)
            .is_none_or(|king| king.rank() != color.backrank())
        {
            format!("the {} king is not on its back rank", color_name(color))
        } else if mode == CastlingMode::Standard {
            "standard chess castles only with the king on e1/e8 and rooks in the corners".to_owned()
        } else {
            format!("the rook on {square} is not the outermost one on its side of the king")
        };
        reasons.push(format!(
            "castling right `{}` ({square}): {why}",
            char::from(letter)
        ));
    }
    if reasons.is_empty() {
        reasons.push("invalid castling rights".to_owned());
    }
    (first_offset.unwrap_or(0), reasons.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Line, Problem, check_line};

    fn verdict_with(line: &str, options: &CheckOptions) -> Result<(), Problem> {
        match check_line(line.as_bytes(), options) {
            Line::Record(result) => result.map(|_| ()),
            other => panic!("{line}: not a record: {other:?}"),
        }
    }

    fn verdict(line: &str) -> Result<(), Problem> {
        verdict_with(line, &CheckOptions::default())
    }

    fn problem(line: &str) -> Problem {
        verdict(line).expect_err(line)
    }

    #[test]
    fn legality_errors_use_shakmaty_kinds() {
        let p = problem("8/8/8/8/8/8/8/8 w - - 0 1");
        assert!(p.kind.contains("EMPTY_BOARD"), "{p:?}");
        let p = problem("4k3/8/8/8/8/8/8/8 w - - 0 1");
        assert_eq!(p.message, "white has no king");
        let p = problem("4k3/8/8/8/8/8/8/4K2R w HA - 0 1");
        assert_eq!((p.field, p.column), (Field::Castling, 25));
        assert_eq!(p.message, "castling right `A` (a1): no white rook on a1");
        let p = problem("4k3/8/8/8/8/8/8/4K2R w - e6 0 1");
        assert_eq!(p.field, Field::EnPassant);
        assert_eq!(
            p.message,
            "impossible en-passant square e6: no black pawn on e5 that could have just moved two squares"
        );
        let p = problem("4k3/8/8/8/8/8/8/4K2R w - e3 0 1");
        assert!(p.message.contains("rank 6"), "{p:?}");
        let p = problem("4k2R/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(p.message, "black is in check but it is white's move");
        let p = problem("4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
        assert!(p.kind.contains("PAWNS_ON_BACKRANK"), "{p:?}");
    }

    #[test]
    fn python_chess_parity_on_material_and_stepper_checks() {
        // Three light-squared bishops and eight pawns: shakmaty's promotion count says too
        // much, python-chess (16 pieces, 8 pawns) accepts.
        let line = "4k3/8/8/8/8/8/PPPPPPPP/1B1BKB2 w - - 0 1";
        verdict(line).unwrap();
        let strict = CheckOptions {
            rules: Rules::Strict,
            ..CheckOptions::default()
        };
        let p = verdict_with(line, &strict).unwrap_err();
        assert!(p.kind.contains("TOO_MUCH_MATERIAL"), "{p:?}");
        // Nine pawns is too many for both.
        let p = problem("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1");
        assert_eq!(p.message, "too many pieces: white has 9 pawns (at most 8)");
        // Knight and pawn both checking: python-chess accepts, shakmaty does not.
        let line = "8/8/8/8/8/3n4/3p4/4K2k w - - 0 1";
        verdict(line).unwrap();
        assert!(verdict_with(line, &strict).is_err());
        // Three checkers: impossible for both.
        let p = problem("8/8/8/8/8/3nr3/3p4/4K2k w - - 0 1");
        assert!(p.message.starts_with("impossible check"), "{p:?}");
    }
}
