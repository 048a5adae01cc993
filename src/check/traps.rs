//! The play group's castling traps: positions where a castling move would be the engine's
//! best move, a mate in one. In four of them the castling is illegal (through an attacked
//! square, out of check, with the castling rook shielding the king's square, over a piece
//! between), so an engine whose move generation lets it through plays it; in the fifth it
//! is legal and the only mate (the king does not move), so an engine that misses that
//! castling plays something else. Each catches its defect by play alone, where the engine
//! has no perft command. The tests below prove with shakmaty that each position is what
//! it claims: the castling right is there, the castling is illegal for that one reason (or
//! legal), made regardless it mates, and no legal move mates in one.

use shakmaty::{Chess, Move};

use crate::starts::castling::{CastlingDialect, move_text, parse_move};

/// One trap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trap {
    /// A short name, the row's name.
    pub name: &'static str,
    /// The position, Shredder-FEN, White to move.
    pub fen: &'static str,
    /// The castling that would mate, king takes rook.
    pub castling: &'static str,
    /// Whether that castling is legal (then it is the only mate in one).
    pub legal: bool,
    /// What makes it illegal, or why an engine could miss it.
    pub reason: &'static str,
}

/// The traps, in the order they are played.
pub const TRAPS: &[Trap] = &[
    Trap {
        name: "mate-through-attacked-square",
        fen: "8/8/8/7B/2p1p3/2pkp2b/8/R5K1 w A - 0 1",
        castling: "g1a1",
        legal: false,
        reason: "the king's path g1-c1 crosses f1, attacked by the bishop on h3",
    },
    Trap {
        name: "mate-out-of-check",
        fen: "1r3kr1/6p1/2N5/7B/8/8/8/1K5R w H - 0 1",
        castling: "b1h1",
        legal: false,
        reason: "the king on b1 is in check from the rook on b8",
    },
    Trap {
        name: "mate-rook-shields-king",
        fen: "2rkr3/2p1p3/8/8/8/8/8/rR1K4 w B - 0 1",
        castling: "d1b1",
        legal: false,
        reason: "the castling rook on b1 shields c1 from the rook on a1: the king would \
                 land in check",
    },
    Trap {
        name: "mate-over-a-piece",
        fen: "8/8/8/7B/2p1p3/2pkp3/8/RN4K1 w A - 0 1",
        castling: "g1a1",
        legal: false,
        reason: "the knight on b1 stands between the rook on a1 and its square d1",
    },
    Trap {
        name: "mate-king-stays",
        fen: "3kr1r1/2p1N3/p7/8/1B3p2/8/8/R1K5 w A - 0 1",
        castling: "c1a1",
        legal: true,
        reason: "the king stays on c1 and the rook goes to d1: the only mate in one, \
                 missed by a move generator without castling whose king does not move",
    },
];

/// How an engine's answer to a trap reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrapAnswer {
    /// A legal move, as it should be (for a legal trap: the castling).
    Right,
    /// The illegal castling: the defect the trap is for.
    IllegalCastling,
    /// Another move that is not legal here.
    Illegal,
    /// A legal move, but not the only mate, the castling.
    MissedCastling(String),
}

impl Trap {
    /// The position (Chess960 castling).
    pub fn position(&self) -> Chess {
        crate::check::descent::chess960(self.fen)
    }

    /// The castling as a move, legal or not.
    fn castling_move(&self) -> Move {
        let square = |text: &str| text.parse::<shakmaty::Square>().expect("a square");
        Move::Castle {
            king: square(&self.castling[..2]),
            rook: square(&self.castling[2..]),
        }
    }

    /// Reads the engine's move `text` (either castling notation, or XBoard's `O-O`, by
    /// `parse`).
    pub fn answer(&self, text: &str, parse: impl Fn(&Chess, &str) -> Option<Move>) -> TrapAnswer {
        let position = self.position();
        let castling = self.castling_move();
        match parse(&position, text) {
            Some(m) if !self.legal || m == castling => TrapAnswer::Right,
            Some(m) => TrapAnswer::MissedCastling(move_text(&m, CastlingDialect::Chess960)),
            None if self.writes_castling(text) => TrapAnswer::IllegalCastling,
            None => TrapAnswer::Illegal,
        }
    }

    /// Whether `text` is this trap's castling in any notation engines write: king takes
    /// rook, the king's destination, `O-O`/`O-O-O`.
    fn writes_castling(&self, text: &str) -> bool {
        let Move::Castle { king, rook } = self.castling_move() else {
            return false;
        };
        let side = shakmaty::CastlingSide::from_king_side(king < rook);
        let destination = side.king_to(shakmaty::Color::White);
        let o_o = match side {
            shakmaty::CastlingSide::KingSide => ["O-O", "0-0"],
            shakmaty::CastlingSide::QueenSide => ["O-O-O", "0-0-0"],
        };
        text == self.castling || text == format!("{king}{destination}") || o_o.contains(&text)
    }
}

/// The engine's move read in `position` as a UCI engine writes it (either castling
/// notation): `None` when it is no legal move there.
pub fn parse_uci(position: &Chess, text: &str) -> Option<Move> {
    parse_move(position, text.as_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, CastlingSide, Color, Position, Role, Square};

    use super::*;

    /// The position after `m` made whatever the rules say (the castling as a defective
    /// move generator would make it), Black to move.
    fn made(position: &Chess, m: Move) -> Chess {
        let mut after = position.clone();
        after.play_unchecked(m);
        after
    }

    /// Black, to move, is checkmated as an engine counts it: in check, and every move
    /// (capturing the White king aside) leaves it in check.
    fn mated(position: &Chess) -> bool {
        let black_king = position.board().king_of(Color::Black).unwrap();
        let in_check = |p: &Chess| {
            p.board()
                .attacks_to(
                    p.board().king_of(Color::Black).unwrap(),
                    Color::White,
                    p.board().occupied(),
                )
                .any()
        };
        in_check(position)
            && position
                .legal_moves()
                .into_iter()
                .filter(|m| m.capture() != Some(Role::King))
                .all(|m| in_check(&made(position, m)))
            && position.board().king_of(Color::Black) == Some(black_king)
    }

    fn attacked(position: &Chess, square: Square, occupied: Bitboard) -> bool {
        position
            .board()
            .attacks_to(square, Color::Black, occupied)
            .any()
    }

    #[test]
    fn every_trap_castling_would_mate_and_no_legal_move_mates() {
        for trap in TRAPS {
            let position = trap.position();
            assert_eq!(position.turn(), Color::White, "{}", trap.name);
            let castling = trap.castling_move();
            let Move::Castle { rook, .. } = castling else {
                panic!()
            };
            // The right is there: the castling is asked of the rules, not ruled out by
            // the FEN.
            assert!(
                position.castles().castling_rights().contains(rook),
                "{}",
                trap.name
            );
            assert_eq!(
                position.legal_moves().contains(&castling),
                trap.legal,
                "{}",
                trap.name
            );
            assert!(mated(&made(&position, castling)), "{}", trap.name);
            let mates: Vec<String> = position
                .legal_moves()
                .into_iter()
                .filter(|&m| mated(&made(&position, m)))
                .map(|m| move_text(&m, CastlingDialect::Chess960))
                .collect();
            let expected: Vec<String> = if trap.legal {
                vec![trap.castling.to_owned()]
            } else {
                Vec::new()
            };
            assert_eq!(mates, expected, "{}", trap.name);
        }
    }

    /// Each illegal castling is illegal for its one reason: with that reason taken away
    /// (and nothing else), the same castling is legal.
    #[test]
    fn each_illegal_castling_has_the_one_reason_it_names() {
        let trap = |name: &str| *TRAPS.iter().find(|t| t.name == name).unwrap();
        let without = |fen: &str, square: Square| {
            let mut setup = trap(fen)
                .position()
                .to_setup(shakmaty::EnPassantMode::Legal);
            let _ = setup.board.remove_piece_at(square);
            setup
                .position::<Chess>(shakmaty::CastlingMode::Chess960)
                .unwrap()
        };
        let castles = |position: &Chess| position.legal_moves().iter().any(|m| m.is_castle());

        // Through f1, attacked by the bishop on h3; neither the king's square nor its
        // destination is attacked.
        let t = trap("mate-through-attacked-square");
        let p = t.position();
        let occupied = p.board().occupied();
        assert!(!p.is_check());
        assert!(attacked(&p, Square::F1, occupied));
        assert!(!attacked(
            &p,
            Square::C1,
            occupied ^ Square::G1 ^ Square::A1
        ));
        assert!(castles(&without(t.name, Square::H3)));

        // Out of check: the path and the destination are not attacked.
        let t = trap("mate-out-of-check");
        let p = t.position();
        assert!(p.is_check());
        for square in [Square::C1, Square::D1, Square::E1, Square::F1, Square::G1] {
            assert!(!attacked(&p, square, p.board().occupied()), "{square}");
        }
        assert!(castles(&without(t.name, Square::B8)));

        // The shield: with the rook on b1 nothing is attacked; with it gone, c1 is.
        let t = trap("mate-rook-shields-king");
        let p = t.position();
        assert!(!p.is_check());
        assert!(!attacked(&p, Square::C1, p.board().occupied()));
        assert!(attacked(&p, Square::C1, p.board().occupied() ^ Square::B1));
        assert!(castles(&without(t.name, Square::A1)));

        // The knight between: no square attacked; without the knight, it castles.
        let t = trap("mate-over-a-piece");
        let p = t.position();
        assert!(!p.is_check());
        for square in [Square::C1, Square::D1, Square::E1, Square::F1] {
            assert!(!attacked(&p, square, p.board().occupied()), "{square}");
        }
        assert!(castles(&without(t.name, Square::B1)));

        // The legal one: queen-side, the king already on its destination.
        let t = trap("mate-king-stays");
        let Move::Castle { king, rook } = t.castling_move() else {
            panic!()
        };
        assert_eq!(
            CastlingSide::from_king_side(king < rook).king_to(Color::White),
            king
        );
    }

    #[test]
    fn answers_read_in_every_notation() {
        let trap = TRAPS[0];
        let read = |text: &str| trap.answer(text, parse_uci);
        assert_eq!(read("g1a1"), TrapAnswer::IllegalCastling);
        assert_eq!(read("g1c1"), TrapAnswer::IllegalCastling);
        assert_eq!(read("O-O-O"), TrapAnswer::IllegalCastling);
        assert_eq!(read("g1h2"), TrapAnswer::Right);
        assert_eq!(read("a1a9"), TrapAnswer::Illegal);
        let legal = TRAPS.iter().find(|t| t.legal).unwrap();
        let read = |text: &str| legal.answer(text, parse_uci);
        assert_eq!(read("c1a1"), TrapAnswer::Right);
        // The king's destination, as pgn-extract and Lc0 once wrote it, is the same castling.
        assert_eq!(read("c1c1"), TrapAnswer::Right);
        assert_eq!(read("e7c6"), TrapAnswer::MissedCastling("e7c6".into()));
    }
}
