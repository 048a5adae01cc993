//! The game a protocol front-end keeps: the positions from the start on (for `undo` and
//! repetitions), and the move text both protocols read and write, Chess960 castling
//! included.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::protocol::xboard::{self, CastlingForm, parse_xboard_move};
use crate::starts::castling::{CastlingDialect, is_standard_castling, move_text};
use crate::starts::notation::{CastlingNotation, position_fen};

use super::search::{SearchJob, SearchLimits, position_hash};

/// Why a FEN could not become a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN.
    #[error("invalid FEN '{fen}': {reason}")]
    Syntax { fen: String, reason: String },
    /// The FEN is well formed but the position is not legal.
    #[error("illegal position '{fen}': {reason}")]
    Position { fen: String, reason: String },
}

/// A move text that is no legal move in the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move '{text}' in {fen}")]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// The position it was tried in (Shredder-FEN).
    pub fen: String,
}

/// Reads a FEN (Shredder-FEN or X-FEN castling) into a position, Chess960 castling allowed.
pub fn position_from_fen(text: &str) -> Result<Chess, FenError> {
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|err| FenError::Syntax {
        fen: text.to_owned(),
        reason: err.to_string(),
    })?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|err| FenError::Position {
            fen: text.to_owned(),
            reason: err.to_string(),
        })
}

/// Reads a move in any notation a GUI sends: UCI coordinates (castling as king-takes-rook,
/// or king-to-destination `e1g1`/`c1g1` when that is unambiguous), `O-O`/`O-O-O` (also
/// with zeros, `+` or `#`), or SAN. The proxy's XBoard move reader does the work: one
/// reading of every castling form in the whole crate.
pub fn parse_move(position: &Chess, text: &str) -> Result<Move, IllegalMove> {
    parse_xboard_move(position, text.trim().as_bytes()).map_err(|_| IllegalMove {
        text: text.to_owned(),
        fen: position_fen(position, CastlingNotation::Shredder),
    })
}

/// True for a castling move of the classic setup (king on e, rook on a or h), the only
/// kind standard notation (`e1g1`) names unambiguously.
pub fn is_classic_castle(m: Move) -> bool {
    m.is_castle() && is_standard_castling(&m)
}

/// The UCI text of a move: castling as king-takes-rook when `chess960` (`UCI_Chess960`) is
/// on; otherwise king-to-destination (`e1g1`) for classic castling, and king-takes-rook
/// for Chess960 castling, as python-chess writes it with `chess960=False`.
pub fn uci_move_text(m: Move, chess960: bool) -> String {
    let dialect = if chess960 || !is_classic_castle(m) {
        CastlingDialect::Chess960
    } else {
        CastlingDialect::Standard
    };
    move_text(&m, dialect)
}

/// The XBoard text of a move: coordinates (`e2e4`, `e7e8q`), castling as `O-O`/`O-O-O`
/// in variant fischerandom and whenever it is not classic castling, `e1g1` otherwise.
pub fn xboard_move_text(m: Move, fischerandom: bool) -> String {
    let form = if fischerandom || (m.is_castle() && !is_classic_castle(m)) {
        CastlingForm::OO
    } else {
        CastlingForm::Coordinate(CastlingDialect::Standard)
    };
    xboard::xboard_move_text(&m, form)
}

/// A game: a start position and the moves played since.
#[derive(Debug, Clone)]
pub struct EngineGame {
    positions: Vec<Chess>,
    moves: Vec<Move>,
    hashes: Vec<u64>,
}

impl Default for EngineGame {
    fn default() -> EngineGame {
        EngineGame::new(Chess::default())
    }
}

impl EngineGame {
    /// A game from `start`.
    pub fn new(start: Chess) -> EngineGame {
        EngineGame {
            hashes: vec![position_hash(&start)],
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.positions.last().expect("a game has a position")
    }

    /// The moves played from the start.
    #[cfg(test)]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.position().is_legal(m));
        let mut next = self.position().clone();
        next.play_unchecked(m);
        self.hashes.push(position_hash(&next));
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Reads `text` with [`parse_move`] and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, IllegalMove> {
        let m = parse_move(self.position(), text)?;
        self.play(m);
        Ok(m)
    }

    /// Takes back the last move; `None` at the start position.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.hashes.pop();
        Some(m)
    }

    /// A search of the current position with the game's history for repetitions.
    pub fn search_job(&self, limits: SearchLimits) -> SearchJob {
        let earlier = &self.hashes[..self.hashes.len() - 1];
        let mut job = SearchJob::new(self.position().clone(), limits);
        job.history = earlier.to_vec();
        job
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// SP 860 after six moves each: both castlings legal (O-O = c1e1, O-O-O = c1a1).
    const SP860_CASTLES: &str =
        "r1k1r2q/pp1ppbpp/2pbn1n1/5p2/5P2/2PBN1N1/PP1PPBPP/R1K1R2Q w EAea - 2 7";
    const CLASSIC: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    fn text_of(position: &Chess, text: &str) -> Move {
        parse_move(position, text).unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn chess960_castling_reads_in_every_notation() {
        let position = position_from_fen(SP860_CASTLES).unwrap();
        let king_side = Move::Castle {
            king: Square::C1,
            rook: Square::E1,
        };
        let queen_side = Move::Castle {
            king: Square::C1,
            rook: Square::A1,
        };
        for text in ["c1e1", "O-O", "0-0", "O-O+", "c1g1"] {
            assert_eq!(text_of(&position, text), king_side, "{text}");
        }
        // c1c1 is what Stockfish writes with UCI_Chess960 off: the king "moves" to c1.
        for text in ["c1a1", "O-O-O", "0-0-0", "c1c1"] {
            assert_eq!(text_of(&position, text), queen_side, "{text}");
        }
        // c1d1 is a plain king move here, c1d2 no move at all (own pawn).
        assert!(parse_move(&position, "c1d2").is_err());
        assert_eq!(
            text_of(&position, "c1d1"),
            Move::Normal {
                role: shakmaty::Role::King,
                from: Square::C1,
                capture: None,
                to: Square::D1,
                promotion: None
            }
        );
    }

    #[test]
    fn classic_castling_reads_both_ways_and_writes_per_mode() {
        let position = position_from_fen(CLASSIC).unwrap();
        let m = text_of(&position, "e1g1");
        assert_eq!(m, text_of(&position, "e1h1"));
        assert_eq!(m, text_of(&position, "O-O"));
        assert_eq!(uci_move_text(m, false), "e1g1");
        assert_eq!(uci_move_text(m, true), "e1h1");
        assert_eq!(xboard_move_text(m, false), "e1g1");
        assert_eq!(xboard_move_text(m, true), "O-O");
        let long = text_of(&position, "e1c1");
        assert_eq!(uci_move_text(long, false), "e1c1");
        assert_eq!(uci_move_text(long, true), "e1a1");
        assert_eq!(xboard_move_text(long, true), "O-O-O");
    }

    #[test]
    fn chess960_castling_never_writes_ambiguous_text() {
        let position = position_from_fen(SP860_CASTLES).unwrap();
        let queen_side = text_of(&position, "O-O-O");
        // Standard notation would be c1c1: write king-takes-rook even with UCI_Chess960 off.
        assert_eq!(uci_move_text(queen_side, false), "c1a1");
        assert_eq!(xboard_move_text(queen_side, false), "O-O-O");
    }

    #[test]
    fn bad_moves_and_fens_are_named() {
        let position = Chess::default();
        let err = parse_move(&position, "e2e5").unwrap_err();
        assert_eq!(err.text, "e2e5");
        assert!(
            err.to_string()
                .contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha"),
            "{err}"
        );
        assert!(parse_move(&position, "garbage").is_err());
        assert!(parse_move(&position, "O-O").is_err());
        assert_eq!(text_of(&position, "Nf3"), text_of(&position, "g1f3"));
        assert!(matches!(
            position_from_fen("8/8/8 w - - 0 1"),
            Err(FenError::Syntax { .. })
        ));
        assert!(matches!(
            position_from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Position { .. })
        ));
    }

    #[test]
    fn undo_restores_the_position_and_history() {
        let mut game = EngineGame::default();
        game.play_text("e2e4").unwrap();
        game.play_text("e7e5").unwrap();
        assert_eq!(game.search_job(SearchLimits::default()).history.len(), 2);
        assert!(game.undo().is_some());
        assert_eq!(game.moves().len(), 1);
        assert!(game.undo().is_some());
        assert_eq!(game.position(), &Chess::default());
        assert_eq!(game.undo(), None);
    }
}
