//! Why a move is not legal in a position, for people: one wording for every reader that
//! replays moves (PGN games in [`super::game`], EPD `bm`/`pv` operations in
//! [`super::epd_ops`]).

use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Position};

use crate::starts::identify::color_name;
pub(crate) use crate::starts::identify::role_name;

/// Why a SAN move is not legal in `position`.
pub(crate) fn san_why(position: &Chess, san: &San) -> String {
    let turn = position.turn();
    match *san {
        San::Normal { role, to, .. } => {
            format!(
                "no {} can go to {to}{}",
                role_name(role),
                in_check(position)
            )
        }
        San::Castle(side) => {
            let wing = match side {
                CastlingSide::KingSide => "king-side (O-O)",
                CastlingSide::QueenSide => "queen-side (O-O-O)",
            };
            let Some(rook) = position.castles().rook(turn, side) else {
                return format!("{} has no {wing} castling right", color_name(turn));
            };
            if position.is_check() {
                return format!("{} is in check", color_name(turn));
            }
            let between =
                (position.castles().path(turn, side) & position.board().occupied()).without(rook);
            let between = match position.board().king_of(turn) {
                Some(king) => between.without(king),
                None => between,
            };
            if between.is_empty() {
                format!(
                    "{wing} castling with the rook on {rook}: the king would pass through or land on an attacked square"
                )
            } else {
                format!("{wing} castling with the rook on {rook}: a piece stands between")
            }
        }
        San::Put { .. } => "a drop is no chess move".to_owned(),
        San::Null => "a null move is no chess move".to_owned(),
    }
}

/// Why a UCI move is not legal in `position`.
pub(crate) fn uci_why(position: &Chess, uci: &UciMove) -> String {
    let turn = position.turn();
    match *uci {
        UciMove::Normal { from, to, .. } => match position.board().piece_at(from) {
            None => format!("no piece on {from}"),
            Some(piece) if piece.color != turn => format!(
                "the {} on {from} is {}'s, and {} is to move",
                role_name(piece.role),
                color_name(piece.color),
                color_name(turn)
            ),
            Some(piece) => format!(
                "the {} on {from} cannot go to {to}{}",
                role_name(piece.role),
                in_check(position)
            ),
        },
        UciMove::Put { .. } => "a drop is no chess move".to_owned(),
        UciMove::Null => "a null move is no chess move".to_owned(),
    }
}

/// `; white is in check`, or nothing.
pub(crate) fn in_check(position: &Chess) -> String {
    if position.is_check() {
        format!("; {} is in check", color_name(position.turn()))
    } else {
        String::new()
    }
}
