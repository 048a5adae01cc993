//! The built-in castling cases: positions where Chess960 engines have gone wrong, each
//! with the reason it is there. Stockfish, Lc0, Fairy-Stockfish, cutechess and lichess
//! have all shipped bugs in these (Stockfish issues 356, 2671, 3605, 6290;
//! Fairy-Stockfish 318; cutechess 15, 616, 637; scalachess 495). The tests below prove
//! with shakmaty that each position is the case it claims.

/// In which mode an engine is asked about a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Chess960 (`UCI_Chess960 true`, `variant fischerandom`): castling as king takes rook.
    Chess960,
    /// Standard chess (`UCI_Chess960 false`): castling as king to its destination.
    Standard,
}

/// One castling case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// A short name, the row's name.
    pub name: &'static str,
    /// The position, Shredder-FEN.
    pub fen: &'static str,
    /// Why it is here: what an engine gets wrong.
    pub reason: &'static str,
    /// A legal castling move in it, in the mode's notation, for the play checks (none
    /// when the point is that castling is illegal).
    pub castling: Option<&'static str>,
    /// The mode the engine is asked in.
    pub mode: Mode,
}

/// The cases, in the order they are checked.
pub const CASES: &[Case] = &[
    Case {
        name: "king-stays",
        fen: "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
        reason: "king on g1, rook on h1: castling g1h1 leaves the king where it is (a \
                 castling move whose king does not move)",
        castling: Some("g1h1"),
        mode: Mode::Chess960,
    },
    Case {
        name: "rook-on-target",
        fen: "rn2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RN2K1R1 w GAga - 0 1",
        reason: "the castling rook stands on the king's target g1: e1g1 is castling, not \
                 a king move onto its own rook",
        castling: Some("e1g1"),
        mode: Mode::Chess960,
    },
    Case {
        name: "rook-shields-king",
        fen: "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",
        reason: "the castling rook on b1 shields c1 from the rook on a1: after d1b1 the \
                 king on c1 would be in check, so castling is illegal",
        castling: None,
        mode: Mode::Chess960,
    },
    Case {
        name: "attacked-path",
        fen: "4r1k1/8/8/8/8/8/8/1K5R w H - 0 1",
        reason: "the king's path b1-g1 crosses e1, attacked by the rook on e8: castling \
                 b1h1 is illegal",
        castling: None,
        mode: Mode::Chess960,
    },
    Case {
        name: "inner-rook",
        fen: "1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1",
        reason: "the castling rook f1 is the inner of two king-side rooks: X-FEN must \
                 name it F (K would mean h1), and castling is b1f1, never b1h1",
        castling: Some("b1f1"),
        mode: Mode::Chess960,
    },
    Case {
        name: "king-right-queen-side",
        fen: "rk6/8/8/8/8/8/8/RK6 w Aa - 0 1",
        reason: "king b1, rook a1: queen-side castling b1a1 moves the king right, to c1, \
                 and the rook over it to d1",
        castling: Some("b1a1"),
        mode: Mode::Chess960,
    },
    Case {
        name: "colours-differ",
        fen: "1r1k1r2/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAfb - 0 1",
        reason: "the colours castle with different rooks (White a1 and h1, Black b8 and \
                 f8, as in most double-FRC games): an engine that keeps one pair of castling \
                 files for both colours castles with pieces that are not its rooks",
        castling: Some("e1h1"),
        mode: Mode::Chess960,
    },
    Case {
        name: "standard-mode",
        fen: "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1",
        reason: "standard chess (UCI_Chess960 off): castling is e1g1 and e1c1; king takes \
                 rook (e1h1) must not leak into standard mode",
        castling: Some("e1g1"),
        mode: Mode::Standard,
    },
];

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Chess, Move, Position, Square};

    use super::*;
    use crate::check::descent::chess960;
    use crate::starts::castling::{CastlingDialect, move_text};
    use crate::starts::notation::{CastlingNotation, position_fen};

    fn case(name: &str) -> (Case, Chess) {
        let case = *CASES.iter().find(|c| c.name == name).unwrap();
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
        for case in CASES {
            let position = chess960(case.fen);
            assert_eq!(
                position_fen(&position, CastlingNotation::Shredder),
                case.fen
            );
            if let Some(text) = case.castling {
                let dialect = match case.mode {
                    Mode::Chess960 => CastlingDialect::Chess960,
                    Mode::Standard => CastlingDialect::Standard,
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
