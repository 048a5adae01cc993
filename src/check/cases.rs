//! The built-in castling cases: positions where Chess960 engines have gone wrong, each
//! with the reason it is there, read from `cases.epd` (a new case is one line there, its
//! counts recounted by the tests). Stockfish, Lc0, Fairy-Stockfish, cutechess and lichess
//! have all shipped bugs in these (Stockfish issues 356, 2671, 3605, 6290;
//! Fairy-Stockfish 318; cutechess 15, 616, 637; scalachess 495). The tests below prove
//! with shakmaty that each position is the case it claims.

use std::sync::LazyLock;

use crate::check::kept::read_kept;
use crate::records::record::epd_operand;

/// In which mode an engine is asked about a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineMode {
    /// Chess960 (`UCI_Chess960 true`, `variant fischerandom`): castling as king takes rook.
    Chess960,
    /// Standard chess (`UCI_Chess960 false`): castling as king to its destination.
    Standard,
}

/// The cases as data: one EPD line each (see the file's header).
pub const CASES_EPD: &str = include_str!("cases.epd");

/// One castling case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// A short name, the row's name (`id`).
    pub name: &'static str,
    /// The position, Shredder-FEN.
    pub fen: &'static str,
    /// Why it is here: what an engine gets wrong (`c0`).
    pub reason: &'static str,
    /// Where the bug shipped: a tracker's `owner/repo#N` (`source`), if it did.
    pub source: Option<&'static str>,
    /// A legal castling move in it, in the mode's notation, for the play checks (none
    /// when the point is that castling is illegal) (`castle`).
    pub castling: Option<&'static str>,
    /// The mode the engine is asked in (`mode "standard"`, else Chess960).
    pub mode: EngineMode,
    /// The deepest count its line gives: it is counted no deeper.
    pub depth: u32,
    /// Whether the notation group counts it from both castling fields (`fields "both"`).
    pub fen_fields: bool,
}

impl Case {
    /// Whether the notation, play and searchmoves groups ask it: a castling the engine
    /// can be given and asked to make in Chess960 mode.
    pub fn is_played(&self) -> bool {
        self.castling.is_some() && self.mode == EngineMode::Chess960
    }
}

static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
    read_kept(CASES_EPD)
        .into_iter()
        .map(|line| {
            let operand = |opcode: &str| epd_operand(line.operations, opcode);
            Case {
                name: operand("id").expect("a case has an id"),
                fen: line.position,
                reason: operand("c0").expect("a case has a reason"),
                source: operand("source"),
                castling: operand("castle"),
                mode: match operand("mode") {
                    Some("standard") => EngineMode::Standard,
                    None => EngineMode::Chess960,
                    Some(other) => panic!("case mode {other}: standard or none"),
                },
                depth: line.counts.len() as u32,
                fen_fields: operand("fields") == Some("both"),
            }
        })
        .collect()
});

/// The cases, in the order they are checked (the file's).
pub fn cases() -> &'static [Case] {
    &CASES
}

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Chess, Move, Position, Square};

    use super::*;
    use crate::check::descent::chess960;
    use crate::starts::castling::{CastlingDialect, move_text};
    use crate::starts::notation::{CastlingNotation, position_fen};

    fn case(name: &str) -> (Case, Chess) {
        let case = *cases().iter().find(|c| c.name == name).unwrap();
        (case, chess960(case.fen))
    }

    fn castles(position: &Chess) -> Vec<Move> {
        position
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect()
    }

    /// The same position without the piece on `square`.
    fn without(position: &Chess, square: Square) -> Chess {
        let mut setup = position.to_setup(shakmaty::EnPassantMode::Legal);
        let _ = setup.board.remove_piece_at(square);
        setup.position(shakmaty::CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn every_case_reads_back_and_its_castling_move_is_legal_castling() {
        for case in cases() {
            let position = chess960(case.fen);
            assert_eq!(
                position_fen(&position, CastlingNotation::Shredder),
                case.fen
            );
            if let Some(text) = case.castling {
                let dialect = match case.mode {
                    EngineMode::Chess960 => CastlingDialect::Chess960,
                    EngineMode::Standard => CastlingDialect::Standard,
                };
                let written: Vec<String> = castles(&position)
                    .iter()
                    .map(|m| move_text(m, dialect))
                    .collect();
                assert!(
                    written.contains(&text.to_owned()),
                    "{}: {written:?}",
                    case.name
                );
            }
        }
    }

    /// Which groups ask which case: every case is counted (movegen); a case with a castling
    /// in Chess960 mode is also sent as a move (notation), made and searched (play) and
    /// offered alone (searchmoves); the cases marked `fields "both"` are read from both
    /// castling fields. A new case joins its groups by its line alone.
    #[test]
    fn which_groups_see_which_case() {
        let groups = |case: &Case| {
            let mut groups = vec!["movegen"];
            if case.is_played() {
                groups.extend(["notation", "play", "searchmoves"]);
            }
            if case.fen_fields {
                groups.push("fen-fields");
            }
            groups
        };
        let all = ["movegen", "notation", "play", "searchmoves"];
        let expected: &[(&str, &[&str])] = &[
            ("king-stays", &all),
            ("rook-on-target", &all),
            ("rook-shields-king", &["movegen"]),
            ("attacked-path", &["movegen"]),
            ("inner-rook", &all),
            ("king-right-queen-side", &all),
            ("colours-differ", &all),
            ("standard-mode", &["movegen"]),
            ("wrong-colour-rook", &["movegen", "fen-fields"]),
            ("shields-from-a1", &["movegen"]),
            ("shields-from-queen", &["movegen"]),
            ("shields-king-e1", &["movegen"]),
            ("x-ray-king-stays", &all),
            ("long-castle-refused", &all),
            ("castle-out-of-mate", &["movegen"]),
            ("through-own-rook", &["movegen"]),
            ("onto-inner-rook", &["movegen"]),
            ("rook-path-attacked", &all),
            ("through-queen", &["movegen"]),
            ("xfen-k-outer-rook", &["movegen", "fen-fields"]),
            ("king-destination-c8g8", &all),
            ("two-square-input", &all),
            ("king-onto-rook-input", &all),
            ("king-takes-rook-read", &all),
        ];
        let found: Vec<(&str, Vec<&str>)> = cases().iter().map(|c| (c.name, groups(c))).collect();
        let expected: Vec<(&str, Vec<&str>)> = expected
            .iter()
            .map(|(name, groups)| (*name, groups.to_vec()))
            .collect();
        assert_eq!(found, expected);
    }

    /// Every shipped case names its tracker as `owner/repo#N`, and where the bug was a
    /// castling that was refused, that castling is legal here; where it was let through,
    /// no castling in the case is that move.
    #[test]
    fn shipped_cases_name_their_source_and_hold() {
        let shipped: Vec<&Case> = cases().iter().filter(|c| c.source.is_some()).collect();
        assert!(shipped.len() >= 16, "{}", shipped.len());
        for case in shipped {
            let source = case.source.unwrap();
            let (repo, number) = source.split_once('#').unwrap();
            assert!(
                repo.contains('/') && number.parse::<u32>().is_ok(),
                "{source}"
            );
        }
        // Castling let through: none legal there (through a piece, onto a blocked square,
        // into or out of check).
        for name in [
            "shields-from-a1",
            "shields-from-queen",
            "shields-king-e1",
            "castle-out-of-mate",
            "through-own-rook",
            "onto-inner-rook",
            "through-queen",
        ] {
            let (_, position) = case(name);
            assert!(castles(&position).is_empty(), "{name}");
            assert!(position.castles().any(), "{name}: a right is there");
        }
        // The mate a castling would have escaped is mate.
        let (_, mated) = case("castle-out-of-mate");
        assert!(mated.is_checkmate());
    }

    /// docs/check.md lists every case with its FEN and where it shipped.
    #[test]
    fn the_manual_lists_every_case_and_its_source() {
        let manual = include_str!("../../docs/check.md");
        for case in cases() {
            let row = format!("| {} | `{}` | ", case.name, case.fen);
            let line = manual.lines().find(|line| line.starts_with(&row));
            let line = line.unwrap_or_else(|| panic!("docs/check.md has no row {row}"));
            match case.source {
                Some(source) => assert!(line.contains(&format!("[{source}]")), "{line}"),
                None => assert!(line.contains("| built in |"), "{line}"),
            }
        }
    }

    #[test]
    fn king_stays() {
        let (_, position) = case("king-stays");
        let castle = castles(&position)
            .into_iter()
            .find(|m| move_text(m, CastlingDialect::Chess960) == "g1h1")
            .unwrap();
        let mut after = position.clone();
        after.play_unchecked(castle);
        assert!(after.board().king_of(shakmaty::Color::White) == Some(Square::G1));
        assert_eq!(
            after.board().piece_at(Square::F1).map(|p| p.role),
            Some(shakmaty::Role::Rook)
        );
    }

    #[test]
    fn rook_on_target() {
        let (_, position) = case("rook-on-target");
        let [castle] = castles(&position)[..] else {
            panic!()
        };
        assert_eq!(
            castle,
            Move::Castle {
                king: Square::E1,
                rook: Square::G1
            }
        );
        // The king's target is the rook's square.
        assert_eq!(
            shakmaty::CastlingSide::KingSide.king_to(shakmaty::Color::White),
            Square::G1
        );
    }

    #[test]
    fn rook_shields_king() {
        let (_, position) = case("rook-shields-king");
        assert!(
            position
                .castles()
                .has(shakmaty::Color::White, shakmaty::CastlingSide::QueenSide)
        );
        assert!(castles(&position).is_empty());
        assert!(!position.is_check());
        // Without the black rook on a1 the same castling is legal.
        assert_eq!(castles(&without(&position, Square::A1)).len(), 1);
    }

    #[test]
    fn inner_rook() {
        let (_, position) = case("inner-rook");
        let rights =
            position.castles().castling_rights() & Bitboard::from_rank(shakmaty::Rank::First);
        assert_eq!(rights, Bitboard::from(Square::F1));
        assert_eq!(
            position.board().piece_at(Square::H1).map(|p| p.role),
            Some(shakmaty::Role::Rook)
        );
        // X-FEN names the inner rook by its file: K would be the outermost, h1.
        let xfen = position_fen(&position, CastlingNotation::Xfen);
        assert!(xfen.contains(" w Ff "), "{xfen}");
        let written: Vec<String> = castles(&position)
            .iter()
            .map(|m| move_text(m, CastlingDialect::Chess960))
            .collect();
        assert_eq!(written, ["b1f1"]);
    }

    #[test]
    fn attacked_path() {
        let (_, position) = case("attacked-path");
        assert!(castles(&position).is_empty());
        assert!(!position.is_check());
        assert_eq!(castles(&without(&position, Square::E8)).len(), 1);
    }

    #[test]
    fn king_right_queen_side() {
        let (_, position) = case("king-right-queen-side");
        let [castle] = castles(&position)[..] else {
            panic!()
        };
        let mut after = position.clone();
        after.play_unchecked(castle);
        assert_eq!(
            after.board().king_of(shakmaty::Color::White),
            Some(Square::C1)
        );
        assert_eq!(
            after.board().piece_at(Square::D1).map(|p| p.role),
            Some(shakmaty::Role::Rook)
        );
    }

    #[test]
    fn colours_differ() {
        let (_, position) = case("colours-differ");
        let rights = position.castles().castling_rights();
        let white = rights & Bitboard::from_rank(shakmaty::Rank::First);
        let black = rights & Bitboard::from_rank(shakmaty::Rank::Eighth);
        assert_eq!(
            white,
            Bitboard::from(Square::A1) | Bitboard::from(Square::H1)
        );
        assert_eq!(
            black,
            Bitboard::from(Square::B8) | Bitboard::from(Square::F8)
        );
        // Each colour may castle both ways, and Black's castling rooks stand on files
        // White has none of.
        assert_eq!(castles(&position).len(), 2);
        let mut black_to_move = position.to_setup(shakmaty::EnPassantMode::Legal);
        black_to_move.turn = shakmaty::Color::Black;
        let black_to_move = black_to_move
            .position::<Chess>(shakmaty::CastlingMode::Chess960)
            .unwrap();
        let written: Vec<String> = castles(&black_to_move)
            .iter()
            .map(|m| move_text(m, CastlingDialect::Chess960))
            .collect();
        assert_eq!(written.len(), 2);
        assert!(written.contains(&"d8f8".to_owned()) && written.contains(&"d8b8".to_owned()));
    }

    #[test]
    fn standard_mode() {
        let (_, position) = case("standard-mode");
        let standard: Vec<String> = castles(&position)
            .iter()
            .map(|m| move_text(m, CastlingDialect::Standard))
            .collect();
        assert_eq!(standard.len(), 2);
        assert!(standard.contains(&"e1g1".to_owned()) && standard.contains(&"e1c1".to_owned()));
        // Its X-FEN is the standard KQkq.
        assert!(position_fen(&position, CastlingNotation::Xfen).contains(" KQkq "));
    }
}
