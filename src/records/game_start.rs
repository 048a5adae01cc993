//! A game's start read from its tags, the one rule every reader of games uses (`validate`,
//! `normalize`, `sp960 results` through [`super::game`]; `match --openings`, `tournament
//! --openings`, `book stats` and the book generator's read-back in `books`): the `Variant`
//! tag in any spelling of the one table ([`crate::starts::variant`]), then the first `FEN`
//! tag (with or without `SetUp`; X-FEN or Shredder castling), none meaning the standard
//! start; a game from a FEN whose castling is no standard chess castling is Chess960 even
//! without a `Variant` tag.
//!
//! Sans-IO and position-free: it says which tag holds the start; each reader parses the FEN
//! with its own strictness (`validate` reports every problem where it is, a book refuses
//! castling rights its position cannot have) and asks [`reads_as_chess960`] of the position.

use shakmaty::{CastlingSide, Chess, Color, Position};

pub use crate::starts::variant::{Variant, pgn_variant};

/// Where a game starts, as its tags say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagStart<'t> {
    /// The variant: its `Variant` tag, standard chess without one.
    pub variant: Variant,
    /// The first `FEN` tag's value; none: the standard start.
    pub fen: Option<&'t str>,
}

/// A `Variant` tag that names neither chess nor Chess960.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[Variant \"{0}\"]: not chess or Chess960")]
pub struct UnknownVariant(pub String);

/// What the `Variant` tag's `value` names (none: standard chess), or the unknown variant.
pub fn variant_of(value: Option<&str>) -> Result<Variant, UnknownVariant> {
    match value {
        None => Ok(Variant::Standard),
        Some(value) => pgn_variant(value).ok_or_else(|| UnknownVariant(value.to_owned())),
    }
}

/// The start a game's tags (`(name, value)`, in order, names as written) say: its
/// [`Variant`] and the first `FEN` tag.
pub fn tag_start<'t, I>(tags: I) -> Result<TagStart<'t>, UnknownVariant>
where
    I: IntoIterator<Item = (&'t str, &'t str)>,
{
    let (mut variant, mut fen) = (None, None);
    for (name, value) in tags {
        match name {
            "Variant" => variant = Some(value),
            "FEN" if fen.is_none() => fen = Some(value),
            _ => {}
        }
    }
    Ok(TagStart {
        variant: variant_of(variant)?,
        fen,
    })
}

/// Whether a game of `variant` from `position` is read as Chess960: its `Variant` tag says
/// so, or its castling is no standard chess castling.
pub fn reads_as_chess960(variant: Variant, position: &Chess) -> bool {
    variant == Variant::Chess960 || !standard_castling(position)
}

/// Whether every castling right of `position` is standard chess's: the king on the e-file,
/// the rook in the corner.
pub fn standard_castling(position: &Chess) -> bool {
    let castles = position.castles();
    [Color::White, Color::Black].into_iter().all(|color| {
        let king = position.board().king_of(color);
        [CastlingSide::KingSide, CastlingSide::QueenSide]
            .into_iter()
            .all(|side| match castles.rook(color, side) {
                None => true,
                Some(rook) => {
                    king.is_some_and(|king| king.file() == shakmaty::File::E)
                        && rook.file()
                            == match side {
                                CastlingSide::KingSide => shakmaty::File::H,
                                CastlingSide::QueenSide => shakmaty::File::A,
                            }
                }
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variant_then_the_first_fen() {
        let fen = "rbknrnbq/pppppppp/8/8/8/8/PPPPPPPP/RBKNRNBQ w EAea - 0 1";
        let tags = [
            ("Variant", "FRC"),
            ("SetUp", "1"),
            ("FEN", fen),
            ("FEN", "x"),
        ];
        assert_eq!(
            tag_start(tags),
            Ok(TagStart {
                variant: Variant::Chess960,
                fen: Some(fen)
            })
        );
        assert_eq!(
            tag_start([("Event", "x")]),
            Ok(TagStart {
                variant: Variant::Standard,
                fen: None
            })
        );
        assert_eq!(
            tag_start([("Variant", "crazyhouse")]),
            Err(UnknownVariant("crazyhouse".to_owned()))
        );
    }
}
